"""A Gymnasium environment: one agent against an opponent policy, in any variant.

The agent is player 0; the opponent (a :class:`~backgammon.environments.opponents.
Opponent`, by default :class:`~backgammon.environments.opponents.RandomOpponent`) plays
player 1 inside :meth:`BackgammonEnv.step`. Who moves first is decided by the opening
roll.

* **Observation**: ``Box(0, high, (269,), float32)``, the engine's board encoding then
  the cube, match, dice and decision inputs
  (:mod:`~backgammon.environments.observation`).
* **Action**: ``Discrete(max_actions)``, an index into ``info["legal_actions"]``, the
  tuple of the decision's legal actions (plays, or roll / double / take / drop ...).
  ``info["action_mask"]`` (``int8[max_actions]``) marks the legal indices, as
  Gymnasium's ``Discrete.sample(mask=...)`` and masked learners expect; on a play
  decision ``info["afterstates"]`` holds the board encoding of each play's result, for
  agents that value positions (TD-Gammon style).
* **Illegal indices**: ``illegal_action="lose"`` (the default, as PettingZoo's classic
  games do) ends the episode as a loss of the most the game could cost;
  ``illegal_action="raise"`` raises :class:`~backgammon.errors.IllegalActionError` and
  changes nothing. Gymnasium requires every element of the action space to be a valid
  input to ``step``, and its checker steps with unmasked samples, hence the default.
* **Reward**: at the end only: the points won or lost in a money game (signed), or +1 /
  -1 for the match when ``match_length`` is set (an episode is then the whole match).
* **Seeding**: ``reset(seed=...)`` seeds the dice and the random opponent.

>>> env = BackgammonEnv("nackgammon", cube=True)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, info["phase"], info["legal_actions"]    # double, or roll on
((269,), 'pre-roll', (RollDice(), Double()))
>>> info["action_mask"][:4]
array([1, 1, 0, 0], dtype=int8)
>>> observation, reward, terminated, truncated, info = env.step(1)  # double
>>> info["phase"], reward                              # the random opponent dropped
('over', 1.0)
"""

from __future__ import annotations

from typing import Any, Literal, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from backgammon.environments.observation import (
    Observation,
    observation_high,
    observation_size,
)
from backgammon.environments.opponents import Opponent, RandomOpponent
from backgammon.environments.table import MAX_ACTIONS, Table
from backgammon.errors import IllegalActionError
from backgammon.rules.cube import CubeRules
from backgammon.rules.variant import Variant

__all__ = ["AGENT", "BackgammonEnv"]

AGENT = 0
"""The agent's player number (the opponent is player 1)."""


class BackgammonEnv(gymnasium.Env[Observation, np.int64]):
    """One agent (player 0) against ``opponent`` in ``variant`` (see the module doc)."""

    # Gymnasium declares metadata as a (mutable) class attribute and reads it there.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        variant: str | Variant = "standard",
        *,
        opponent: Opponent | None = None,
        cube: bool | CubeRules = False,
        match_length: int = 0,
        max_actions: int = MAX_ACTIONS,
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        """Make the environment.

        Args:
            variant: a variant or its registered name (``backgammon variants``).
            opponent: the policy of player 1 (default: uniformly random).
            cube: ``True`` to play with the doubling cube, or the :class:`CubeRules`.
            match_length: 0 for one money game per episode, else a match per episode.
            max_actions: the size of the action space.
            illegal_action: ``"lose"`` or ``"raise"`` (see the module doc).
            render_mode: ``None`` or ``"ansi"`` (the text board).

        Raises:
            KeyError: for an unknown variant.
            ValueError: for a bad option.
        """
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action is 'lose' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.table = Table(variant, cube=cube, match_length=match_length, max_actions=max_actions)
        self.opponent: Opponent = RandomOpponent() if opponent is None else opponent
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        high = observation_high(self.table.variant)
        self.observation_space = spaces.Box(0.0, high, (observation_size(),), np.float32)
        self.action_space = spaces.Discrete(max_actions)

    def _play_opponent(self) -> float:
        """Let the opponent act until the agent must decide; its reward meanwhile."""
        table = self.table
        reward = 0.0
        while not table.is_over and table.decider != AGENT:
            index = self.opponent.act(table, self.np_random)
            reward += table.step(index)[AGENT]
        return reward

    def _observe(self) -> tuple[Observation, dict[str, Any]]:
        return self.table.observe(AGENT), self.table.info()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start an episode (seeded by ``seed``); returns the agent's first decision."""
        super().reset(seed=seed)
        self.table.reset(self.np_random)
        self._play_opponent()
        return self._observe()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Take ``info["legal_actions"][action]``; the opponent answers until the
        agent's next decision or the end.

        Raises:
            IllegalActionError: with ``illegal_action="raise"``, for an index the mask
                forbids (nothing changes); with either option, once the episode is over.
        """
        table = self.table
        if table.is_over:
            raise IllegalActionError("the episode is over; call reset()")
        index = int(action)
        if not 0 <= index < len(table.legal_actions) and self.illegal_action == "lose":
            reward = table.forfeit(AGENT)[AGENT]
        else:
            reward = table.step(index)[AGENT]
            reward += self._play_opponent()
        observation, info = self._observe()
        return observation, float(reward), table.is_over, False, info

    def render(self) -> str | None:
        """The text board seen from the agent (``render_mode="ansi"``), else ``None``."""
        if self.render_mode != "ansi":
            return None
        game = self.table.game
        return f"{game.position_for(AGENT)}\n{self.table.phase.value}: {game.dice or ''}"

    def __repr__(self) -> str:
        table = self.table
        return (
            f"<BackgammonEnv {table.variant.name} cube={table.rules.cube} "
            f"match_length={table.match_length} opponent={self.opponent!r}>"
        )
