"""A game of backgammon as a history of actions, with ``push``/``pop``.

:class:`Game` is the one mutable object of the rules layer. Its actions are
:class:`OpeningRoll` (each side throws one die; ties are thrown again),
:class:`~backgammon.rules.dice.Roll` (the side on roll throws two dice) and
:class:`~backgammon.rules.play.Play` (the whole turn). :meth:`Game.push` validates an
action and raises without changing anything if it is not allowed; :meth:`Game.pop`
undoes the last one exactly. :meth:`Game.push_unchecked` is the fast path for
self-play, where the caller guarantees legality.

>>> from backgammon.rules.dice import ScriptedDice
>>> game = Game()
>>> game.roll_dice(ScriptedDice(["3-1"]))  # the opening roll: player 0 throws 3, player 1 throws 1
OpeningRoll(die0=3, die1=1)
>>> game.turn, str(game.dice)
(0, '3-1')
>>> str(game.play("8/5 6/5"))
'8/5 6/5'
>>> game.turn, game.dice
(1, None)
>>> _ = game.pop(); game.turn, str(game.dice)
(0, '3-1')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import TypeAlias

import numpy as np

from backgammon.errors import IllegalActionError, IllegalPlayError
from backgammon.rules.dice import DiceSource, Roll
from backgammon.rules.movegen import apply_steps
from backgammon.rules.play import Play, PlayList, legal_plays, parse_play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = ["Action", "Game", "OpeningRoll", "Outcome", "WinKind", "outcome_of"]


class WinKind(IntEnum):
    """How a game was won; the value is the multiplier of the stake."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    Attributes:
        winner: 0 or 1.
        kind: single, gammon or backgammon.
        cube: the cube value the game was played for.
    """

    winner: int
    kind: WinKind
    cube: int = 1

    @property
    def points(self) -> int:
        """Points won: the kind's multiplier times the cube."""
        return int(self.kind) * self.cube


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """The opening throw: one die for each player. On a tie both throw again; otherwise
    the higher die moves first and plays both numbers."""

    die0: int
    die1: int

    def __post_init__(self) -> None:
        for die in (self.die0, self.die1):
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise ValueError(f"a die shows 1..6, got {die!r}")

    @property
    def is_tie(self) -> bool:
        """True when both dice are equal and must be thrown again."""
        return self.die0 == self.die1

    @property
    def starter(self) -> int | None:
        """The player who moves first, or ``None`` on a tie."""
        if self.is_tie:
            return None
        return 0 if self.die0 > self.die1 else 1

    @property
    def roll(self) -> Roll | None:
        """The roll the starter plays (its own die first), or ``None`` on a tie."""
        if self.starter is None:
            return None
        return Roll(self.die0, self.die1) if self.starter == 0 else Roll(self.die1, self.die0)


Action: TypeAlias = OpeningRoll | Roll | Play


def outcome_of(result: Position, variant: Variant = STANDARD, cube: int = 1) -> WinKind | None:
    """The kind of win if the side that just moved has borne off all its checkers.

    ``result`` is seen from the mover (as :attr:`Play.position` is). Returns ``None``
    while the mover still has checkers on the board.
    """
    if any(result.player[1:]):
        return None
    if not variant.gammons:
        return WinKind.SINGLE
    opponent = result.opponent
    if opponent[0] > 0:
        return WinKind.SINGLE
    if any(opponent[19:26]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON


@dataclass(frozen=True, slots=True)
class _Snapshot:
    position: Position
    turn: int | None
    dice: Roll | None
    outcome: Outcome | None


def _replays_to(start: Position, play: Play) -> bool:
    """Whether the play's steps, applied to ``start``, give the play's position."""
    steps = np.array([(step.source, step.die) for step in play.steps], dtype=np.int64)
    board = np.frombuffer(start._data, dtype=np.uint8)
    result = apply_steps(board, steps.reshape(-1, 2))
    return bool(result.tobytes() == play.position._data)


class Game:
    """One game: its position, whose turn it is, the dice, and the full history.

    ``position`` is always seen from the side on roll (``turn``); before the opening
    roll ``turn`` is ``None`` and the position is seen from player 0.
    """

    def __init__(
        self,
        variant: Variant = STANDARD,
        *,
        position: Position | None = None,
        turn: int | None = None,
        dice: Roll | tuple[int, int] | None = None,
        cube: int = 1,
    ) -> None:
        """Start a game, by default from the variant's initial position.

        Args:
            variant: the rules to play by.
            position: a position to start from, seen from ``turn`` (or player 0).
            turn: who is on roll (0 or 1), or ``None`` to begin with the opening roll.
            dice: dice already rolled by ``turn``.
            cube: the stake the game is played for.

        Raises:
            InvalidPositionError: if ``position`` does not fit ``variant``.
            ValueError: for dice without a turn, or a turn other than 0, 1, None.
        """
        start = Position.initial(variant) if position is None else position
        start.validate(variant)
        if turn not in (None, 0, 1):
            raise ValueError(f"turn must be 0, 1 or None, got {turn!r}")
        if dice is not None and turn is None:
            raise ValueError("dice need a player on roll (turn)")
        self.variant = variant
        self.cube = cube
        self._position = start
        self._turn = turn
        self._dice = None if dice is None else Roll.coerce(dice)
        self._outcome: Outcome | None = None
        self._history: list[Action] = []
        self._undo: list[_Snapshot] = []

    # -- state -----------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The position seen from the side on roll."""
        return self._position

    @property
    def turn(self) -> int | None:
        """The player on roll (0 or 1), or ``None`` before the opening roll."""
        return self._turn

    @property
    def dice(self) -> Roll | None:
        """The dice rolled and not yet played, if any."""
        return self._dice

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    def is_over(self) -> bool:
        """True once a side has borne off every checker."""
        return self._outcome is not None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action pushed so far, oldest first."""
        return tuple(self._history)

    def position_for(self, player: int) -> Position:
        """The current position seen from ``player`` (0 or 1)."""
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        on_roll = 0 if self._turn is None else self._turn
        return self._position if player == on_roll else self._position.flip()

    def legal_plays(self) -> PlayList:
        """The legal plays of the current dice.

        Raises:
            IllegalActionError: if no dice have been rolled.
        """
        if self._dice is None:
            raise IllegalActionError("no dice have been rolled")
        return legal_plays(self._position, self._dice)

    # -- actions ----------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply an action after checking that the rules allow it now.

        A play must be legal and its steps must replay to its resulting position.

        Raises:
            IllegalActionError: if the action is not allowed at this point (the game
                is over, dice are rolled twice, a play comes before the roll, ...).
            IllegalPlayError: if a play is not one of the legal plays, or its steps do
                not lead to its resulting position.
        """
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over; cannot push {action!r}")
        if isinstance(action, OpeningRoll):
            if self._turn is not None or (self._history and not self._only_ties()):
                raise IllegalActionError("the opening roll has already been made")
        elif isinstance(action, Roll):
            if self._turn is None:
                raise IllegalActionError("the game starts with an opening roll (OpeningRoll)")
            if self._dice is not None:
                raise IllegalActionError(f"the dice ({self._dice}) are already rolled")
        elif isinstance(action, Play):
            if self._dice is None:
                raise IllegalActionError("roll the dice before playing")
            plays = legal_plays(self._position, self._dice)
            if action.is_no_move():
                if plays:
                    raise IllegalPlayError(
                        f"a play is possible with {self._dice}; 'no move' is not allowed"
                    )
                if action.position != self._position:
                    raise IllegalPlayError("a no-move play must leave the position unchanged")
            else:
                # Keep the generated play: its steps are known to lead to its result.
                legal = next((play for play in plays if play.position == action.position), None)
                if legal is None:
                    raise IllegalPlayError(f"{action} is not a legal play of {self._dice} here")
                if action != legal and not _replays_to(self._position, action):
                    raise IllegalPlayError(
                        f"{action} does not reach its own resulting position with {self._dice}"
                    )
        else:
            raise IllegalActionError(f"not a game action: {action!r}")
        self.push_unchecked(action)

    def push_unchecked(self, action: Action) -> None:
        """Apply an action without checking it (the fast path for self-play).

        The caller guarantees legality; an illegal action corrupts the game.
        """
        self._undo.append(_Snapshot(self._position, self._turn, self._dice, self._outcome))
        self._history.append(action)
        if isinstance(action, OpeningRoll):
            starter = action.starter
            if starter is not None:
                self._turn = starter
                self._dice = action.roll
                if starter == 1:
                    self._position = self._position.flip()
        elif isinstance(action, Roll):
            self._dice = action
        else:
            kind = outcome_of(action.position, self.variant)
            if kind is not None:
                assert self._turn is not None
                self._position = action.position
                self._outcome = Outcome(self._turn, kind, self.cube)
                self._dice = None
            else:
                self._position = action.position.flip()
                self._turn = 1 - (self._turn or 0)
                self._dice = None

    def pop(self) -> Action:
        """Undo the last action and return it.

        Raises:
            IndexError: if there is nothing to undo.
        """
        if not self._history:
            raise IndexError("pop from a game with no actions")
        snapshot = self._undo.pop()
        self._position = snapshot.position
        self._turn = snapshot.turn
        self._dice = snapshot.dice
        self._outcome = snapshot.outcome
        return self._history.pop()

    def _only_ties(self) -> bool:
        return all(isinstance(action, OpeningRoll) and action.is_tie for action in self._history)

    # -- conveniences ------------------------------------------------------------

    def roll_dice(self, source: DiceSource) -> OpeningRoll | Roll:
        """Roll with ``source`` and push the result: the opening throw (both players'
        dice, from one roll of ``source``) before the first turn, otherwise a
        :class:`Roll` for the side on roll. Returns what was pushed; after a tied
        opening throw the turn is still ``None`` and you roll again.

        Raises:
            IllegalActionError: if dice are already rolled or the game is over.
        """
        thrown = source.roll()
        action: OpeningRoll | Roll
        action = OpeningRoll(thrown.first, thrown.second) if self._turn is None else thrown
        self.push(action)
        return action

    def play(self, move: str | Play) -> Play:
        """Parse ``move`` against the current position and dice, push it, return it.

        Raises:
            IllegalActionError: if no dice are rolled.
            InvalidNotationError, IllegalPlayError, AmbiguousPlayError: for bad moves.
        """
        if self._dice is None:
            raise IllegalActionError("roll the dice before playing")
        play = move if isinstance(move, Play) else parse_play(move, self._position, self._dice)
        self.push(play)
        return play

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"turn={self._turn} dice={self._dice}"
        return f"<Game {self.variant.name} {self._position.position_id} {state}>"
