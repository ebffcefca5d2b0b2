"""A game of backgammon as a history of actions, with ``push``/``pop``.

:class:`Game` is the one mutable object of the rules layer. Its actions are
:class:`OpeningRoll` (each side throws one die; ties are thrown again),
:class:`~backgammon.rules.dice.Roll` (the side on roll throws two dice),
:class:`~backgammon.rules.play.Play` (the whole turn), the cube actions
(:class:`~backgammon.rules.cube.Double`, ``Take``, ``Drop``, ``Beaver``, ``Raccoon``)
and resignations (``Resign``, ``AcceptResignation``, ``RejectResignation``).
:meth:`Game.push` validates an action and raises without changing anything if it is
not allowed; :meth:`Game.pop` undoes the last one exactly. :meth:`Game.push_unchecked`
is the fast path for self-play, where the caller guarantees legality.

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
>>> game.push(Double()); game.push(Take()); game.cube
CubeState(value=2, owner=0)
>>> _ = game.pop(); _ = game.pop(); _ = game.pop(); game.turn, str(game.dice)
(0, '3-1')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import TypeAlias

import numpy as np

from backgammon.errors import IllegalActionError, IllegalPlayError
from backgammon.rules.cube import (
    AcceptResignation,
    Beaver,
    CubeRules,
    CubeState,
    Double,
    Drop,
    MatchContext,
    Raccoon,
    RejectResignation,
    Resign,
    ResignLevel,
    Take,
)
from backgammon.rules.dice import DiceSource, Roll
from backgammon.rules.movegen import apply_steps
from backgammon.rules.play import Play, PlayList, legal_plays, parse_play
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "Action",
    "ChooseDouble",
    "Ending",
    "Explode",
    "Game",
    "OpeningRoll",
    "Outcome",
    "Pending",
    "WinKind",
    "explode",
    "mother_outcome",
    "outcome_of",
]


class WinKind(IntEnum):
    """How a game was won; the value is the multiplier of the stake."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


class Ending(Enum):
    """How a game came to an end."""

    BORNE_OFF = "borne off"
    DROPPED = "double dropped"
    RESIGNED = "resigned"
    FIRST_HIT = "first hit"
    MOTHER_PINNED = "mother pinned"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    Attributes:
        winner: 0 or 1.
        kind: single, gammon or backgammon (for a drop: single; for a resignation:
            the level accepted).
        cube: the cube value the game was played for.
        ending: borne off, double dropped, resigned, first hit (first-hit game),
            mother pinned (Plakoto), or draw (Plakoto: both mothers pinned; then
            ``winner`` is the side that moved last and :attr:`points` is 0).
        jacoby: the Jacoby rule made a gammon or backgammon count single.
    """

    winner: int
    kind: WinKind
    cube: int = 1
    ending: Ending = Ending.BORNE_OFF
    jacoby: bool = False

    @property
    def points(self) -> int:
        """Points won: the kind's multiplier (1 under the Jacoby rule) times the cube;
        0 for a draw."""
        if self.ending is Ending.DRAW:
            return 0
        return (1 if self.jacoby else int(self.kind)) * self.cube

    @property
    def is_draw(self) -> bool:
        """True when nobody won (Plakoto, both mothers pinned)."""
        return self.ending is Ending.DRAW


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


@dataclass(frozen=True, slots=True)
class Explode:
    """Atomic variant: the player on roll, before rolling and holding the bomb (or
    while nobody holds it), explodes it: every blot of both sides goes to the bar and
    the bomb passes to the opponent."""


@dataclass(frozen=True, slots=True)
class ChooseDouble:
    """Acey-deucey: after playing a 1-2, the player names the double it plays next."""

    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.number, int) or isinstance(self.number, bool):
            raise ValueError(f"a double is a number 1..6, got {self.number!r}")
        if not 1 <= self.number <= 6:
            raise ValueError(f"a double is a number 1..6, got {self.number!r}")


def explode(position: Position) -> Position:
    """The position after an atomic bomb: every single checker of either side (on the
    points) goes to its side's bar."""
    player, opponent = list(position.player), list(position.opponent)
    for side in (player, opponent):
        for point in range(1, 25):
            if side[point] == 1:
                side[point] = 0
                side[25] += 1
    return Position(player, opponent)


Action: TypeAlias = (
    OpeningRoll
    | Explode
    | ChooseDouble
    | Roll
    | Play
    | Double
    | Take
    | Drop
    | Beaver
    | Raccoon
    | Resign
    | AcceptResignation
    | RejectResignation
)


@dataclass(frozen=True, slots=True)
class Pending:
    """A decision the game waits for.

    Attributes:
        kind: ``"double"`` (the opponent must take, drop or beaver), ``"beaver"`` (the
            doubler may raccoon, or roll on), ``"resign"`` (the opponent accepts or
            rejects) or ``"choose-double"`` (acey-deucey: the player names a double).
        by: the player who doubled or resigned.
        level: the resignation level, for ``"resign"``.
    """

    kind: str
    by: int
    level: ResignLevel = ResignLevel.SINGLE


def outcome_of(result: Position, variant: Variant = STANDARD) -> WinKind | None:
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
    if variant.backgammons and any(opponent[19:26]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON


def mother_outcome(result: Position, mover: int, variant: Variant) -> tuple[int, Ending] | None:
    """Plakoto's mother rule after ``mover``'s play (``result`` seen from the mover):
    ``(winner, ending)`` if it ends the game, else ``None``.

    A side's *mother* is its last checker on its 24-point; pinned there, it loses the
    side a double game, unless the pinner still has checkers on its own 24-point (then
    play goes on until they have all left, or the pinner's mother is pinned too: a
    draw). With the prison option the exception does not apply.
    """
    mine, theirs = result.pinned_points()
    mover_caught = 24 in mine
    other_caught = 24 in theirs
    if mover_caught and other_caught:
        return mover, Ending.DRAW
    if other_caught and (variant.prison or result.player[24] == 0):
        return mover, Ending.MOTHER_PINNED
    if mover_caught and (variant.prison or result.opponent[24] == 0):
        return 1 - mover, Ending.MOTHER_PINNED
    return None


@dataclass(frozen=True, slots=True)
class _Snapshot:
    position: Position
    turn: int | None
    dice: Roll | None
    outcome: Outcome | None
    cube: CubeState
    pending: Pending | None
    turns_played: tuple[int, int]
    automatic_doubles: int
    bomb: int | None
    bonus: bool
    complement: bool


def _replays_to(start: Position, play: Play) -> bool:
    """Whether the play's steps, applied to ``start``, give the play's position."""
    steps = np.array([(step.source, step.die) for step in play.steps], dtype=np.int64)
    board = np.frombuffer(start._data, dtype=np.uint8)
    result = apply_steps(board, steps.reshape(-1, 2))
    return bool(result.tobytes() == play.position._data)


class Game:
    """One game: its position, whose turn it is, the dice, the cube, and the history.

    ``position`` is always seen from the side on roll (``turn``); before the opening
    roll ``turn`` is ``None`` and the position is seen from player 0.
    """

    def __init__(
        self,
        variant: Variant = STANDARD,
        *,
        rules: CubeRules | None = None,
        context: MatchContext | None = None,
        position: Position | None = None,
        turn: int | None = None,
        dice: Roll | tuple[int, int] | tuple[int, int, int] | None = None,
        cube: CubeState | int = 1,
    ) -> None:
        """Start a game, by default from the variant's initial position.

        Args:
            variant: the rules of movement and scoring.
            rules: cube and match options (defaults: cube on, no beavers, no Jacoby).
            context: the match score and Crawford state (default: a money game).
            position: a position to start from, seen from ``turn`` (or player 0).
            turn: who is on roll (0 or 1), or ``None`` to begin with the opening roll.
            dice: dice already rolled by ``turn``.
            cube: the cube at the start (a value alone means a centred cube).

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
        self.rules = CubeRules() if rules is None else rules
        self.context = MatchContext() if context is None else context
        self._cube = cube if isinstance(cube, CubeState) else CubeState(cube)
        self._position = start
        self._turn = turn
        self._dice = None if dice is None else Roll.coerce(dice, variant.dice)
        self._outcome: Outcome | None = None
        self._pending: Pending | None = None
        self._turns_played = (0, 0)
        self._automatic_doubles = 0
        self._bomb: int | None = None
        self._bonus = False  # acey-deucey: the player rolls again after this play
        self._complement = False  # Russian: this play is a double's complement
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
    def cube(self) -> CubeState:
        """The cube's value and owner."""
        return self._cube

    @property
    def pending(self) -> Pending | None:
        """The double, beaver or resignation waiting for an answer, if any."""
        return self._pending

    @property
    def decider(self) -> int | None:
        """Who must act now: the doubled or resigned-to player while a double or
        resignation is pending, otherwise the player on roll."""
        pending = self._pending
        if pending is not None and pending.kind in ("double", "resign"):
            return 1 - pending.by
        return self._turn

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or ``None`` while it goes on."""
        return self._outcome

    def is_over(self) -> bool:
        """True once the game has ended (borne off, dropped or resigned)."""
        return self._outcome is not None

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action pushed so far, oldest first."""
        return tuple(self._history)

    @property
    def turns_played(self) -> tuple[int, int]:
        """How many turns (rolls played) each player has completed in this game."""
        return self._turns_played

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
        return legal_plays(self._position, self._dice, self.variant)

    @property
    def bomb(self) -> int | None:
        """Atomic variant: who holds the bomb (``None``: nobody yet, so either may)."""
        return self._bomb

    def explode_refusal(self) -> str | None:
        """Why the player on roll may not explode the bomb now, or ``None``."""
        if not self.variant.atomic:
            return f"there is no bomb in {self.variant.name}"
        if self._outcome is not None:
            return "the game is over"
        if self._turn is None:
            return "the game has not started (opening roll)"
        if self._pending is not None:
            return f"a {self._pending.kind} is pending"
        if self._dice is not None:
            return "the bomb explodes before rolling"
        if self._bomb is not None and self._bomb != self._turn:
            return f"player {self._bomb} holds the bomb"
        return None

    def double_refusal(self) -> str | None:
        """Why the player on roll may not double now, or ``None`` if they may."""
        rules, context, turn = self.rules, self.context, self._turn
        if self._outcome is not None:
            return "the game is over"
        if not rules.cube:
            return "the cube is not in use"
        if not self.variant.cube:
            return f"{self.variant.name} is played without the cube"
        if turn is None:
            return "the game has not started (opening roll)"
        if self._pending is not None:
            return f"a {self._pending.kind} is pending"
        if self._dice is not None:
            return "the dice are already rolled: double before rolling"
        if not self._cube.available_to(turn):
            return f"player {1 - turn} owns the cube"
        if context.length and context.crawford:
            return "no doubling in the Crawford game"
        if rules.max_cube is not None and self._cube.value * 2 > rules.max_cube:
            return f"the cube may not exceed {rules.max_cube}"
        if (
            rules.holland
            and context.length
            and context.post_crawford
            and min(self._turns_played) < 2
            and context.score[turn] < context.score[1 - turn]
        ):
            return "Holland rule: the trailer may not double before each side has played two rolls"
        return None

    def can_double(self) -> bool:
        """Whether the player on roll may double now."""
        return self.double_refusal() is None

    def double_matters(self) -> bool:
        """Whether the player on roll may double now and the double could change what
        they win: not where the cube already covers their away score (a 1-point
        match, double match point, the leader after the Crawford game, or a cube
        turned high enough; see :meth:`MatchContext.cube_covers`)."""
        if not self.can_double():
            return False
        assert self._turn is not None
        return not self.context.cube_covers(self._turn, self._cube.value)

    # -- actions ----------------------------------------------------------------

    def push(self, action: Action) -> None:
        """Apply an action after checking that the rules allow it now.

        Raises:
            IllegalActionError: if the action is not allowed at this point (the game
                is over, dice are rolled twice, a double after rolling, a beaver when
                beavers are off, ...).
            IllegalPlayError: if a play is not one of the legal plays, or its steps do
                not lead to its resulting position.
        """
        self._check(action)
        self.push_unchecked(action)

    def _check(self, action: Action) -> None:
        if self._outcome is not None:
            raise IllegalActionError(f"the game is over; cannot push {action!r}")
        pending = self._pending
        if isinstance(action, OpeningRoll):
            if self._turn is not None:
                raise IllegalActionError("the opening roll has already been made")
            if pending is not None:
                raise IllegalActionError(f"a {pending.kind} is pending and must be answered")
        elif isinstance(action, Roll):
            if self._turn is None:
                raise IllegalActionError("the game starts with an opening roll (OpeningRoll)")
            if pending is not None and pending.kind != "beaver":
                raise IllegalActionError(f"a {pending.kind} is pending and must be answered")
            if self._dice is not None:
                raise IllegalActionError(f"the dice ({self._dice}) are already rolled")
            throws = len(action.dice)
            if throws != self.variant.dice:
                raise IllegalActionError(
                    f"{self.variant.name} throws {self.variant.dice} dice, got {throws} ({action})"
                )
        elif isinstance(action, Play):
            if pending is not None:
                raise IllegalActionError(f"a {pending.kind} is pending and must be answered")
            self._check_play(action)
        elif isinstance(action, ChooseDouble):
            if pending is None or pending.kind != "choose-double":
                raise IllegalActionError("a double is chosen only after playing an acey-deucey 1-2")
        elif isinstance(action, Explode):
            refusal = self.explode_refusal()
            if refusal is not None:
                raise IllegalActionError(f"cannot explode the bomb: {refusal}")
        elif isinstance(action, Double):
            refusal = self.double_refusal()
            if refusal is not None:
                raise IllegalActionError(f"cannot double: {refusal}")
        elif isinstance(action, Take | Drop | Beaver):
            if pending is None or pending.kind != "double":
                raise IllegalActionError(f"{type(action).__name__}: no double is pending")
            if isinstance(action, Beaver):
                if not self.rules.beavers:
                    raise IllegalActionError("beavers are not allowed")
                if not self.context.is_money:
                    raise IllegalActionError("beavers are for money play only")
                self._check_cube_limit(4)
        elif isinstance(action, Raccoon):
            if pending is None or pending.kind != "beaver":
                raise IllegalActionError("Raccoon: no beaver is pending")
            if not self.rules.raccoons:
                raise IllegalActionError("raccoons are not allowed")
            self._check_cube_limit(2)
        elif isinstance(action, Resign):
            self._check_resign(action, pending)
        elif isinstance(action, AcceptResignation | RejectResignation):
            if pending is None or pending.kind != "resign":
                raise IllegalActionError(f"{type(action).__name__}: no resignation is pending")
        else:
            raise IllegalActionError(f"not a game action: {action!r}")

    def _check_resign(self, action: Resign, pending: Pending | None) -> None:
        if pending is not None:
            raise IllegalActionError(f"a {pending.kind} is pending and must be answered")
        if self._turn is None and action.player is None:
            raise IllegalActionError(
                "the game has not started (opening roll): say which player resigns"
            )
        if self._turn is not None and action.player not in (None, self._turn):
            raise IllegalActionError(f"only the player on roll resigns: player {self._turn}")

    def _check_cube_limit(self, factor: int) -> None:
        limit = self.rules.max_cube
        if limit is not None and self._cube.value * factor > limit:
            raise IllegalActionError(f"the cube may not exceed {limit}")

    def _check_play(self, action: Play) -> None:
        if self._dice is None:
            raise IllegalActionError("roll the dice before playing")
        plays = legal_plays(self._position, self._dice, self.variant)
        if action.is_no_move():
            if plays:
                raise IllegalPlayError(
                    f"a play is possible with {self._dice}; 'no move' is not allowed"
                )
            if action.position != self._position:
                raise IllegalPlayError("a no-move play must leave the position unchanged")
            return
        legal = next((play for play in plays if play.position == action.position), None)
        if legal is None:
            raise IllegalPlayError(f"{action} is not a legal play of {self._dice} here")
        if action != legal and not _replays_to(self._position, action):
            raise IllegalPlayError(
                f"{action} does not reach its own resulting position with {self._dice}"
            )

    def push_unchecked(self, action: Action) -> None:
        """Apply an action without checking it (the fast path for self-play).

        The caller guarantees legality; an illegal action corrupts the game.
        """
        self._undo.append(
            _Snapshot(
                self._position,
                self._turn,
                self._dice,
                self._outcome,
                self._cube,
                self._pending,
                self._turns_played,
                self._automatic_doubles,
                self._bomb,
                self._bonus,
                self._complement,
            )
        )
        self._history.append(action)
        if isinstance(action, Play):
            self._apply_play(action)
        elif isinstance(action, Roll):
            self._dice = action
            self._pending = None
        elif isinstance(action, OpeningRoll):
            self._apply_opening(action)
        elif isinstance(action, Explode):
            assert self._turn is not None
            self._position = explode(self._position)
            self._bomb = 1 - self._turn
        elif isinstance(action, ChooseDouble):
            self._dice = Roll(action.number, action.number)
            self._pending = None
            self._bonus = True
        elif isinstance(action, Double):
            assert self._turn is not None
            self._pending = Pending("double", self._turn)
        elif isinstance(action, Take):
            assert self._pending is not None
            self._cube = CubeState(self._cube.value * 2, 1 - self._pending.by)
            self._pending = None
        elif isinstance(action, Drop):
            assert self._pending is not None
            self._end(Outcome(self._pending.by, WinKind.SINGLE, self._cube.value, Ending.DROPPED))
        elif isinstance(action, Beaver):
            assert self._pending is not None
            self._cube = CubeState(self._cube.value * 4, 1 - self._pending.by)
            self._pending = Pending("beaver", self._pending.by)
        elif isinstance(action, Raccoon):
            assert self._pending is not None
            self._cube = CubeState(self._cube.value * 2, self._cube.owner)
            self._pending = None
        elif isinstance(action, Resign):
            by = self._turn if action.player is None else action.player
            assert by is not None
            self._pending = Pending("resign", by, action.level)
        elif isinstance(action, AcceptResignation):
            assert self._pending is not None
            kind = WinKind(int(self._pending.level))
            self._end(self._scored(1 - self._pending.by, kind, Ending.RESIGNED))
        elif isinstance(action, RejectResignation):
            self._pending = None

    def _apply_opening(self, action: OpeningRoll) -> None:
        starter = action.starter
        if starter is None:
            rules = self.rules
            if (
                rules.cube
                and self.context.is_money
                and self._automatic_doubles < rules.automatic_doubles
                and (rules.max_cube is None or self._cube.value * 2 <= rules.max_cube)
            ):
                self._automatic_doubles += 1
                self._cube = CubeState(self._cube.value * 2, None)
            return
        self._turn = starter
        self._dice = None if self.variant.opening_reroll else action.roll
        if starter == 1:
            self._position = self._position.flip()

    def _apply_play(self, action: Play) -> None:
        turn = self._turn
        assert turn is not None
        played = list(self._turns_played)
        played[turn] += 1
        self._turns_played = (played[0], played[1])
        kind = outcome_of(action.position, self.variant)
        dice = self._dice
        self._dice = None
        if self.variant.first_hit and action.hits:
            self._position = action.position
            self._end(Outcome(turn, WinKind.SINGLE, self._cube.value, Ending.FIRST_HIT))
        elif kind is not None:
            self._position = action.position
            self._end(self._scored(turn, kind, Ending.BORNE_OFF))
        elif self.variant.mother_rule and (
            mothers := mother_outcome(action.position, turn, self.variant)
        ):
            self._position = action.position
            winner, ending = mothers
            kind = WinKind.SINGLE if ending is Ending.DRAW else WinKind.GAMMON
            self._end(self._scored(winner, kind, ending))
        else:
            follows = self._after_play(action, dice)
            if follows == "pass":
                self._position = action.position.flip()
                self._turn = 1 - turn
            else:
                self._position = action.position
            if follows == "choose-double":
                # Acey-deucey: the player now names a double, plays it, and rolls again.
                self._pending = Pending("choose-double", turn)
            elif follows == "complement":
                assert dice is not None
                self._dice = Roll(7 - dice.first, 7 - dice.first)
                self._complement = True
            else:
                self._bonus = False
                self._complement = False

    def _after_play(self, action: Play, dice: Roll | None) -> str:
        """What follows a play that does not end the game: ``"choose-double"``
        (acey-deucey's 1-2), ``"complement"`` (Russian backgammon, European
        acey-deucey: a rolled double played out is followed by its complement to
        seven), ``"again"`` (the player rolls again: after a chosen double, after a
        complement played out, after a double in American acey-deucey) or ``"pass"``."""
        variant = self.variant
        if (
            variant.acey_deucey
            and not self._bonus
            and dice is not None
            and {dice.first, dice.second} == {1, 2}
        ):
            return "choose-double"
        if self._complement:
            again = action.dice_used == 4 and variant.complement_roll_again
            return "again" if again else "pass"
        if (
            variant.complement_doubles
            and dice is not None
            and dice.is_double
            and not self._bonus
            and action.dice_used == 4
            and (variant.enter_anytime or action.position.player_bar == 0)
        ):
            return "complement"
        if self._bonus or (variant.doubles_roll_again and dice is not None and dice.is_double):
            return "again"
        return "pass"

    @property
    def continuation(self) -> Callable[[Play], bool] | None:
        """:meth:`play_continues` where this variant's turns may go on after a play
        (acey-deucey, Russian backgammon), else ``None``: what a player's ``choose``
        takes as ``continues``."""
        variant = self.variant
        if variant.acey_deucey or variant.doubles_roll_again or variant.complement_doubles:
            return self.play_continues
        return None

    def play_continues(self, play: Play) -> bool:
        """Whether the player on roll plays on after ``play`` (a play of the current
        dice): it then names a double, plays a complement or rolls again, so the
        position after it is still its own to move. False when the play ends the game
        or passes the turn. For engines that value a play by the position it leaves."""
        turn = self._turn
        if turn is None or self._outcome is not None:
            return False
        variant = self.variant
        if (
            (variant.first_hit and play.hits)
            or outcome_of(play.position, variant) is not None
            or (variant.mother_rule and mother_outcome(play.position, turn, variant))
        ):
            return False
        return self._after_play(play, self._dice) != "pass"

    def _scored(self, winner: int, kind: WinKind, ending: Ending) -> Outcome:
        if not self.variant.gammons:
            kind = WinKind.SINGLE
        elif not self.variant.backgammons and kind is WinKind.BACKGAMMON:
            kind = WinKind.GAMMON  # a backgammon resignation scores what the variant allows
        jacoby = (
            self.rules.jacoby
            and self.context.is_money
            and self._cube.centred
            and kind != WinKind.SINGLE
        )
        return Outcome(winner, kind, self._cube.value, ending, jacoby)

    def _end(self, outcome: Outcome) -> None:
        self._outcome = outcome
        self._pending = None
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
        self._cube = snapshot.cube
        self._pending = snapshot.pending
        self._turns_played = snapshot.turns_played
        self._automatic_doubles = snapshot.automatic_doubles
        self._bomb = snapshot.bomb
        self._bonus = snapshot.bonus
        self._complement = snapshot.complement
        return self._history.pop()

    # -- conveniences ------------------------------------------------------------

    def roll_dice(self, source: DiceSource) -> OpeningRoll | Roll:
        """Roll with ``source`` and push the result: the opening throw (both players'
        dice, from one roll of ``source``) before the first turn, otherwise a
        :class:`Roll` for the side on roll (for a three-dice variant such as tabula,
        three dice: a source's three-dice roll as it is, else the two dice of one
        roll and the first die of the next). Returns what was pushed; after a tied
        opening throw the turn is still ``None`` and you roll again.

        Raises:
            IllegalActionError: if dice are already rolled, a decision is pending, or
                the game is over.
        """
        if self._outcome is not None:
            raise IllegalActionError("the game is over")
        thrown = source.roll()
        action: OpeningRoll | Roll
        if self._turn is None:
            action = OpeningRoll(thrown.first, thrown.second)
        elif self.variant.dice == 3 and thrown.third is None:
            # Three dice from a two-dice source: this roll's two and the next one's first.
            action = Roll(thrown.first, thrown.second, source.roll().first)
        else:
            action = thrown
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
        if isinstance(move, Play):
            play = move
        else:
            play = parse_play(move, self._position, self._dice, self.variant)
        self.push(play)
        return play

    def __repr__(self) -> str:
        state = "over" if self._outcome else f"turn={self._turn} dice={self._dice}"
        where = (
            self._position.position_id
            if self.variant.topology == "mirror" and not self.variant.pinning
            else self._position.slots_text
        )
        return f"<Game {self.variant.name} {where} {state}>"
