"""A game or a match presented as a sequence of decisions, for the environments.

A :class:`Table` drives the rules' :class:`~backgammon.rules.game.Game` (or
:class:`~backgammon.rules.match.Match`): it throws the dice from a NumPy generator,
makes every move nobody has a choice about (a roll when the cube cannot be turned, a
new game of a match), and stops at each real decision with its player, its
:class:`~backgammon.environments.observation.Phase` and the tuple of legal actions. An
agent answers with an index into that tuple. Both environments (Gymnasium's and
PettingZoo's) are thin shells around it.

>>> import numpy as np
>>> table = Table("standard")
>>> table.reset(np.random.default_rng(7))
>>> table.phase, table.decider, len(table.legal_actions) > 0
(<Phase.PLAY: 'play'>, 0, True)
>>> table.step(0)
(0.0, 0.0)
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from backgammon.environments.observation import Observation, Phase, encode_positions, observe
from backgammon.errors import BackgammonError, IllegalActionError
from backgammon.rules.cube import Beaver, CubeRules, Double, Drop, Raccoon, Take
from backgammon.rules.dice import Roll
from backgammon.rules.game import ChooseDouble, Explode, Game, OpeningRoll, Outcome
from backgammon.rules.match import Match
from backgammon.rules.play import Play
from backgammon.rules.variant import Variant
from backgammon.variants import find

__all__ = ["MAX_ACTIONS", "LegalAction", "RollDice", "Table", "TooManyActionsError"]

MAX_ACTIONS = 4096
"""The default size of the action space. A turn of standard backgammon has at most a
few thousand distinct plays (1-1 with fifteen checkers on fifteen points: at most
C(18, 4) = 3060); random games of every variant stay under 1,200."""


@dataclass(frozen=True, slots=True)
class RollDice:
    """The action of rolling on: declining to double (or to explode the bomb), or, after
    a beaver, declining to raccoon."""

    def __str__(self) -> str:
        return "roll"


LegalAction: TypeAlias = (
    Play | RollDice | Double | Take | Drop | Beaver | Raccoon | Explode | ChooseDouble
)
"""One entry of :attr:`Table.legal_actions`."""


class TooManyActionsError(BackgammonError, RuntimeError):
    """A decision has more legal actions than the action space holds."""


def _max_multiplier(variant: Variant) -> int:
    if not variant.gammons:
        return 1
    return 3 if variant.backgammons else 2


class Table:
    """One episode of decisions: a money game, or a whole match when ``match_length``
    is positive.

    Rewards: for a money game, the points the game was won by (signed: the loser gets
    the negative); for a match, +1 to the match's winner and -1 to its loser, when it
    ends. Rewards come only when the episode ends.
    """

    def __init__(
        self,
        variant: str | Variant = "standard",
        *,
        cube: bool | CubeRules = False,
        match_length: int = 0,
        max_actions: int = MAX_ACTIONS,
    ) -> None:
        """Set the table (no game yet: call :meth:`reset`).

        Args:
            variant: a :class:`Variant` or its registered name.
            cube: ``True`` for the doubling cube with the usual rules, ``False`` for
                none, or the :class:`CubeRules` to play by (beavers, Jacoby, ...).
            match_length: 0 for a money game per episode, else a match to this length.
            max_actions: the size of the action space.

        Raises:
            KeyError: for an unknown variant name.
            ValueError: for a negative match length or ``max_actions < 6``, or a
                variant that does not throw two dice (tabula).
        """
        self.variant = find(variant) if isinstance(variant, str) else variant
        if self.variant.dice != 2:
            raise ValueError(
                f"{self.variant.name} throws {self.variant.dice} dice; the environments "
                "play two-dice games only"
            )
        if isinstance(cube, CubeRules):
            self.rules = cube
        else:
            self.rules = CubeRules(cube=bool(cube))
        if match_length < 0:
            raise ValueError(f"a match length is >= 0 (0 = money), got {match_length}")
        if max_actions < 6:
            raise ValueError(f"max_actions must be at least 6, got {max_actions}")
        self.match_length = match_length
        self.max_actions = max_actions
        self._rng = np.random.default_rng(0)
        self._match = Match(match_length, rules=self.rules, variant=self.variant)
        self._game = self._match.new_game()
        self._phase = Phase.OVER
        self._legal: tuple[LegalAction, ...] = ()
        self._result: tuple[float, float] | None = None
        self._forfeit: int | None = None

    # -- state -------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game in play (the last one, once a match is over)."""
        return self._game

    @property
    def match(self) -> Match:
        """The match the games belong to (a one-game money session for money play)."""
        return self._match

    @property
    def phase(self) -> Phase:
        """The kind of decision waiting (:attr:`Phase.OVER` once the episode ended)."""
        return self._phase

    @property
    def decider(self) -> int | None:
        """The player (0 or 1) who must decide now, ``None`` once the episode ended."""
        if self._phase is Phase.OVER:
            return None
        return self._game.decider

    @property
    def legal_actions(self) -> tuple[LegalAction, ...]:
        """The actions the decider may take; an agent answers with an index into it.
        Plays come in :meth:`Position.legal_plays` order (the no-move play alone
        when nothing can move)."""
        return self._legal

    @property
    def is_over(self) -> bool:
        """True once the episode (the money game, or the match) has ended."""
        return self._phase is Phase.OVER

    @property
    def result(self) -> tuple[float, float] | None:
        """Each player's reward for the episode once it has ended, else ``None``."""
        return self._result

    @property
    def forfeited(self) -> int | None:
        """The player who lost by an illegal action (:meth:`forfeit`), if any."""
        return self._forfeit

    def action_mask(self) -> npt.NDArray[np.int8]:
        """``int8[max_actions]``: 1 for the indices of :attr:`legal_actions`."""
        mask = np.zeros(self.max_actions, dtype=np.int8)
        mask[: len(self._legal)] = 1
        return mask

    def observe(self, player: int) -> Observation:
        """The observation for ``player`` (see :mod:`~backgammon.environments.observation`);
        the decision inputs are set only for the decider."""
        phase = self._phase if player == self.decider else Phase.OVER
        return observe(self._game, player, phase)

    def info(self) -> dict[str, Any]:
        """The environments' info for the decision: ``action_mask``,
        ``legal_actions``, ``phase`` (its value), on a play ``afterstates``; once the
        episode is over also ``outcome`` (the last game's), ``score`` (the match's)
        and, after an illegal action, ``forfeited``. Every call makes new arrays."""
        info: dict[str, Any] = {
            "action_mask": self.action_mask(),
            "legal_actions": self._legal,
            "phase": self._phase.value,
        }
        if self._phase is Phase.PLAY:
            info["afterstates"] = self.afterstates()
        if self._phase is Phase.OVER:
            info["outcome"] = self._game.outcome
            info["score"] = self._match.score
            if self._forfeit is not None:
                info["forfeited"] = self._forfeit
        return info

    def afterstates(self) -> Observation:
        """The board encoding of each legal play's result, seen from the mover (before
        the opponent rolls): ``float32[len(legal_actions), 242]``, for an agent that
        values positions. Empty unless the decision is a play."""
        if self._phase is not Phase.PLAY:
            return encode_positions([], self.variant)
        return encode_positions(
            [action.position for action in self._legal if isinstance(action, Play)],
            self.variant,
        )

    # -- actions -----------------------------------------------------------------

    def reset(self, rng: np.random.Generator) -> None:
        """Start a new episode, throwing every die with ``rng``, and go on to the first
        decision."""
        self._rng = rng
        self._match = Match(self.match_length, rules=self.rules, variant=self.variant)
        self._game = self._match.new_game()
        self._result = None
        self._forfeit = None
        self._advance()

    def step(self, index: int) -> tuple[float, float]:
        """The decider takes ``legal_actions[index]``; the table goes on to the next
        decision. Returns both players' rewards from this step (non-zero only when it
        ends the episode).

        Raises:
            IllegalActionError: if the episode is over, or ``index`` is not an index of
                :attr:`legal_actions`; nothing changes.
            TypeError: if ``index`` is not an integer.
        """
        if self._phase is Phase.OVER:
            raise IllegalActionError("the episode is over; reset to start another")
        position = operator.index(index)
        legal = self._legal
        if not 0 <= position < len(legal):
            raise IllegalActionError(
                f"action {position} is not legal here: the {self._phase.value} decision "
                f"has {len(legal)} legal actions, indices 0..{len(legal) - 1} "
                "(see the action mask)"
            )
        action = legal[position]
        if isinstance(action, RollDice):
            self._game.push(self._roll())
        else:
            self._game.push_unchecked(action)
        self._advance()
        return self._result if self._result is not None else (0.0, 0.0)

    def forfeit(self, player: int) -> tuple[float, float]:
        """End the episode as lost by ``player`` (an illegal action): in a money game
        it loses the most the game could cost at the present cube (a backgammon,
        where the variant has them), in a match it loses the match. Returns the
        rewards."""
        if self._phase is Phase.OVER:
            raise IllegalActionError("the episode is over; reset to start another")
        if self.match_length:
            loss = 1.0
        else:
            loss = float(_max_multiplier(self.variant) * self._game.cube.value)
        rewards = [loss, loss]
        rewards[player] = -loss
        self._forfeit = player
        self._finish((rewards[0], rewards[1]))
        return rewards[0], rewards[1]

    # -- the driver --------------------------------------------------------------

    def _roll(self) -> Roll:
        first, second = self._rng.integers(1, 7, size=2)
        return Roll(int(first), int(second))

    def _finish(self, rewards: tuple[float, float]) -> None:
        self._result = rewards
        self._phase = Phase.OVER
        self._legal = ()

    def _allowed(
        self, candidates: tuple[Double | Drop | Beaver | Raccoon | Explode, ...]
    ) -> tuple[LegalAction, ...]:
        """The candidates the rules accept now (each is pushed and popped)."""
        allowed: list[LegalAction] = [RollDice()]
        game = self._game
        for action in candidates:
            try:
                game.push(action)
            except IllegalActionError:
                continue
            game.pop()
            allowed.append(action)
        return tuple(allowed)

    def _decide(self, phase: Phase, legal: tuple[LegalAction, ...]) -> None:
        if len(legal) > self.max_actions:
            raise TooManyActionsError(
                f"{len(legal)} legal actions exceed max_actions={self.max_actions}: "
                "make the environment with a larger max_actions"
            )
        self._phase = phase
        self._legal = legal

    def _game_over(self, outcome: Outcome) -> bool:
        """Score a finished game; True when the episode ends with it."""
        if not self.match_length:
            points = float(outcome.points)
            rewards = [points, points]
            rewards[1 - outcome.winner] = -points if points else 0.0  # a draw: 0 each
            self._finish((rewards[0], rewards[1]))
            return True
        winner = self._match.winner
        if winner is None:
            self._game = self._match.new_game()
            return False
        self._finish((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
        return True

    def _advance(self) -> None:
        """Play every forced move (dice, new games) up to the next decision."""
        while True:
            game = self._game
            outcome = game.outcome
            if outcome is not None:
                if self._game_over(outcome):
                    return
                continue
            if game.turn is None:
                first, second = self._rng.integers(1, 7, size=2)
                game.push(OpeningRoll(int(first), int(second)))
                continue
            pending = game.pending
            if pending is not None and pending.kind == "choose-double":
                self._decide(
                    Phase.CHOOSE_DOUBLE, tuple(ChooseDouble(number) for number in range(1, 7))
                )
                return
            if pending is not None and pending.kind == "double":
                legal = self._allowed((Drop(), Beaver()))
                self._decide(Phase.DOUBLE, (Take(), *legal[1:]))
                return
            if game.dice is None:
                if pending is not None and pending.kind == "beaver":
                    legal, phase = self._allowed((Raccoon(),)), Phase.BEAVER
                else:
                    legal, phase = self._allowed((Double(), Explode())), Phase.PRE_ROLL
                if len(legal) == 1:
                    game.push(self._roll())
                    continue
                self._decide(phase, legal)
                return
            plays = game.legal_plays()
            self._decide(Phase.PLAY, tuple(plays) if plays else (Play.no_move(game.position),))
            return
