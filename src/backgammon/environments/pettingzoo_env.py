"""A PettingZoo AEC environment: two agents, ``player_0`` and ``player_1``, in any
variant.

The agent to act (``agent_selection``) is whoever the rules wait for: the player on
roll, or the doubled player answering a double. Observations follow PettingZoo's
classic games: a dict with ``"observation"`` (the same vector as the Gymnasium
environment's, seen from that agent) and ``"action_mask"`` (``int8[max_actions]``, all
zero for the agent not to act). Actions, illegal indices, rewards (zero-sum, at the
end), the cube and match options are those of
:class:`~backgammon.environments.gym_env.BackgammonEnv`; ``infos`` of the agent to act
hold ``legal_actions``, ``phase`` and, on a play, ``afterstates``.

>>> env = BackgammonAECEnv("hypergammon")
>>> env.reset(seed=3)
>>> observation, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, observation["observation"].shape, info["phase"]
('player_0', (269,), 'play')
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from backgammon.environments.observation import observation_high, observation_size
from backgammon.environments.table import MAX_ACTIONS, Table
from backgammon.errors import IllegalActionError
from backgammon.rules.cube import CubeRules
from backgammon.rules.variant import Variant

__all__ = ["AGENTS", "BackgammonAECEnv"]

AGENTS = ("player_0", "player_1")
"""The agents' names; ``player_i`` is the rules' player ``i``."""


class BackgammonAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type hints
    """Two agents playing ``variant`` (see the module doc)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "backgammon_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant = "standard",
        *,
        cube: bool | CubeRules = False,
        match_length: int = 0,
        max_actions: int = MAX_ACTIONS,
        illegal_action: Literal["lose", "raise"] = "lose",
        render_mode: str | None = None,
    ) -> None:
        """Make the environment; the arguments are those of
        :class:`~backgammon.environments.gym_env.BackgammonEnv` less the opponent.

        Raises:
            KeyError: for an unknown variant.
            ValueError: for a bad option.
        """
        super().__init__()
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action is 'lose' or 'raise', not {illegal_action!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is None or 'ansi', not {render_mode!r}")
        self.table = Table(variant, cube=cube, match_length=match_length, max_actions=max_actions)
        self.illegal_action = illegal_action
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        observation = spaces.Dict(
            {
                "observation": spaces.Box(
                    0.0, observation_high(self.table.variant), (observation_size(),), np.float32
                ),
                "action_mask": spaces.Box(0, 1, (max_actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(max_actions) for agent in AGENTS}
        self._np_random, _ = seeding.np_random(None)
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = AGENTS[0]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent`` (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent`` (the same object every call)."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        """``{"observation", "action_mask"}`` for ``agent``."""
        player = AGENTS.index(agent)
        table = self.table
        if player == table.decider:
            mask = table.action_mask()
        else:
            mask = np.zeros(table.max_actions, dtype=np.int8)
        return {"observation": table.observe(player), "action_mask": mask}

    def _update(self, rewards: tuple[float, float]) -> None:
        table = self.table
        for player, agent in enumerate(AGENTS):
            self.rewards[agent] = rewards[player]
            self.infos[agent] = {}
        if table.is_over:
            for agent in AGENTS:
                self.terminations[agent] = True
                self.infos[agent] = table.info()
        else:
            decider = table.decider
            assert decider is not None
            self.agent_selection = AGENTS[decider]
            self.infos[self.agent_selection] = table.info()
        self._accumulate_rewards()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode (seeded by ``seed``)."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.table.reset(self._np_random)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self._update((0.0, 0.0))

    def step(self, action: int | np.integer[Any] | None) -> None:
        """``agent_selection`` takes ``infos[agent]["legal_actions"][action]`` (``None``
        once it is terminated).

        Raises:
            IllegalActionError: with ``illegal_action="raise"``, for an index the mask
                forbids (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for a finished agent")
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        index = int(action)
        if not 0 <= index < len(table.legal_actions) and self.illegal_action == "lose":
            rewards = table.forfeit(AGENTS.index(agent))
        else:
            rewards = table.step(index)
        self._update(rewards)

    def render(self) -> str | None:
        """The text board seen from the player on roll (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        game = self.table.game
        return f"{game.position}\n{self.table.phase.value}: {game.dice or ''}"

    def close(self) -> None:
        """Nothing to release."""

    def __repr__(self) -> str:
        table = self.table
        return (
            f"<BackgammonAECEnv {table.variant.name} cube={table.rules.cube} "
            f"match_length={table.match_length}>"
        )
