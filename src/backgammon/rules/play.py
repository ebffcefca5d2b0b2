"""Steps and plays: the value objects of a turn, and legal-play generation.

A :class:`Step` moves one checker by one die. A :class:`Play` is a whole turn: its
steps and the resulting :class:`~backgammon.rules.position.Position`, seen from the
side that moved (not flipped). Plays with the same resulting position are one play.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from backgammon.errors import AmbiguousPlayError, IllegalPlayError
from backgammon.notation.play_text import (
    BAR_POINT,
    OFF_POINT,
    ParsedPlayText,
    format_point,
    format_steps,
    parse_play_text,
)
from backgammon.rules.blocking_movegen import CROSSWISE, MIRROR, SAME_WAY, generate_blocking_plays
from backgammon.rules.dice import Roll, RollLike
from backgammon.rules.movegen import (
    COUNT_COLUMN,
    MAX_STEPS,
    PACKED_WIDTH,
    STEP_FIELDS,
    generate_plays_options,
    generate_plays_packed,
)
from backgammon.rules.position import Position
from backgammon.rules.three_dice_movegen import generate_three_dice_plays
from backgammon.rules.variant import Variant

__all__ = ["Play", "PlayList", "Step", "legal_plays", "parse_play"]

_SLOTS = 26


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die.

    Attributes:
        source: the point it leaves (1..24, 25 = the bar), in the mover's numbering.
        die: the number played.
        hit: whether it hit an opposing blot where it landed.
    """

    source: int
    die: int
    hit: bool = False

    @property
    def destination(self) -> int:
        """Where it lands: 1..24, or 0 when it is borne off."""
        return max(self.source - self.die, 0)

    def __str__(self) -> str:
        star = "*" if self.hit else ""
        return f"{format_point(self.source)}/{format_point(self.destination)}{star}"


class Play:
    """A whole turn: the steps played and the resulting position.

    ``position`` is seen from the side that moved (call ``flip()`` for the next
    turn). ``str(play)`` is the canonical notation, which :meth:`parse` reads back.

    >>> start = Position.initial()
    >>> play = Play.parse("8/5 6/5", start, (3, 1))
    >>> str(play)
    '8/5 6/5'
    >>> play.position.at(5)
    2
    """

    # One packed row, as the kernel writes it: the resulting board (52 bytes), the steps
    # as (source, die, hit) triples padded to MAX_STEPS, then the number of steps. The
    # Position object is made on first use and cached.
    __slots__ = ("_position", "_row")

    _row: bytes
    _position: Position

    def __init__(self, steps: Iterable[Step], position: Position) -> None:
        """Build a play from its steps and resulting position (no legality check; use
        :func:`legal_plays` or :meth:`parse` for validated plays).

        Raises:
            ValueError: for more than four steps.
        """
        code = bytearray()
        for step in steps:
            code.extend((step.source, step.die, int(step.hit)))
        count = len(code) // STEP_FIELDS
        if count > MAX_STEPS:
            raise ValueError(f"a play has at most {MAX_STEPS} steps, got {count}")
        padding = bytes(MAX_STEPS * STEP_FIELDS - len(code))
        self._row = position._data + bytes(code) + padding + bytes((count,))
        self._position = position

    @classmethod
    def no_move(cls, position: Position) -> Play:
        """The empty play of a turn in which no checker can move."""
        return cls((), position)

    @classmethod
    def parse(
        cls, text: str, position: Position, roll: RollLike, variant: Variant | None = None
    ) -> Play:
        """Resolve move notation to the one legal play it describes.

        See :func:`parse_play`.
        """
        return parse_play(text, position, roll, variant)

    @property
    def position(self) -> Position:
        """The position after the play, seen from the side that moved (not flipped)."""
        try:
            return self._position
        except AttributeError:
            position = _new(Position)
            _set_position_data(position, self._row[:_BOARD])
            self._position = position
            return position

    @property
    def _code(self) -> bytes:
        row = self._row
        return row[_BOARD : _BOARD + row[COUNT_COLUMN] * STEP_FIELDS]

    @property
    def step_bytes(self) -> bytes:
        """The steps packed as bytes (source, destination, hit per step, in play
        order): the same bytes always mean the same notation and steps, a compact key
        to remember them by."""
        return self._code

    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps in the order they were played."""
        code = self._code
        return tuple(
            Step(code[index], code[index + 1], bool(code[index + 2]))
            for index in range(0, len(code), STEP_FIELDS)
        )

    @property
    def dice_used(self) -> int:
        """How many dice the play uses (0 to 4)."""
        return len(self._code) // STEP_FIELDS

    @property
    def hits(self) -> tuple[int, ...]:
        """The points (mover's numbering) where a blot was hit, in play order."""
        code = self._code
        return tuple(
            max(code[index] - code[index + 1], 0)
            for index in range(0, len(code), STEP_FIELDS)
            if code[index + 2]
        )

    def is_no_move(self) -> bool:
        """True for the empty play of a turn where nothing could move."""
        return not self._code

    def pips(self) -> int:
        """The pips the play moved (a bear-off counts the checker's distance to off)."""
        code = self._code
        return sum(
            code[index] - max(code[index] - code[index + 1], 0)
            for index in range(0, len(code), STEP_FIELDS)
        )

    def notation(self, roll: RollLike | None = None) -> str:
        """The canonical notation; with ``roll``, dice that were not played are marked
        ``Ø`` (``"13/8 Ø"``) and the text starts with the roll (``"6-5: 13/8 Ø"``)."""
        code = self._code
        triples = [
            (code[i], max(code[i] - code[i + 1], 0), bool(code[i + 2]))
            for i in range(0, len(code), STEP_FIELDS)
        ]
        count = len(triples)
        # All steps of one number: a double (or, with three dice, a triple).
        double = count >= 2 and all(
            code[i + 1] == code[1] for i in range(0, len(code), STEP_FIELDS)
        )
        if roll is None:
            return format_steps(triples, double=double)
        dice = Roll.coerce(roll, dice=None)
        unplayable = len(dice.moves) - self.dice_used
        body = format_steps(triples, double=double, unplayable=unplayable if triples else 0)
        return f"{dice.normalized()}: {body}"

    def __str__(self) -> str:
        return self.notation()

    def __repr__(self) -> str:
        return f"<Play {self.notation()} -> {self.position.position_id}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return self._row == other._row
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._row)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_play_from_row, (self._row,))


_set_position_data = Position.__dict__["_data"].__set__
_new = object.__new__
_BOARD = 52
_TOPOLOGIES = {"mirror": MIRROR, "same-way": SAME_WAY, "crosswise": CROSSWISE}


def _play_from_row(row: bytes) -> Play:
    play = _new(Play)
    play._row = row
    return play


class PlayList(list[Play]):
    """The legal plays of one position and roll (a plain list with its context).

    Attributes:
        start: the position the plays are made from.
        roll: the roll being played.
    """

    __slots__ = ("roll", "start")

    def __init__(self, start: Position, roll: Roll, plays: Iterable[Play] = ()) -> None:
        super().__init__(plays)
        self.start = start
        self.roll = roll

    def find(self, text: str) -> Play:
        """The play that ``text`` describes (see :func:`parse_play`)."""
        return _resolve(text, self.start, self.roll, self)


def legal_plays(position: Position, roll: RollLike, variant: Variant | None = None) -> PlayList:
    """Every legal play of ``roll`` from ``position``, one per resulting position,
    under ``variant``'s movement rules (standard backgammon by default).

    The list is empty when no checker can move.

    Raises:
        ValueError: if ``roll`` is not two dice of 1..6, or not the variant's number
            of dice (three for tabula).
    """
    dice = Roll.coerce(roll, 2 if variant is None else variant.dice)
    # A writable copy (80 ns): the search passes writable boards, and one array type
    # means the move generator is compiled once, not twice.
    board = np.frombuffer(bytearray(position._data), dtype=np.uint8)
    if dice.third is not None or (variant is not None and variant.dice == 3):
        packed = _three_dice_plays(board, dice, variant)
    elif variant is None or variant.plain_movement:
        packed = generate_plays_packed(board, dice.first, dice.second)
    elif variant.blocking or variant.pinning:
        packed = generate_blocking_plays(
            board,
            dice.first,
            dice.second,
            _TOPOLOGIES[variant.topology],
            variant.head_rule,
            variant.prime_rule,
            variant.pinning,
        )
    else:
        packed = generate_plays_options(board, dice.first, dice.second, variant.movement)
    plays = PlayList(position, dice)
    buffer = packed.tobytes()
    append = plays.append
    for offset in range(0, len(buffer), PACKED_WIDTH):
        play = _new(Play)
        play._row = buffer[offset : offset + PACKED_WIDTH]
        append(play)
    return plays


def _three_dice_plays(board: np.ndarray, dice: Roll, variant: Variant | None) -> np.ndarray:
    if variant is None or variant.dice != 3 or dice.third is None:
        name = "standard" if variant is None else variant.name
        raise ValueError(
            f"the roll {dice} has {len(dice.dice)} dice, but {name} throws "
            f"{3 if variant is not None and variant.dice == 3 else 2}"
        )
    return generate_three_dice_plays(
        board,
        dice.first,
        dice.second,
        dice.third,
        not variant.enter_anytime,
        variant.same_direction,
        variant.exact_bearoff,
    )


def parse_play(
    text: str, position: Position, roll: RollLike, variant: Variant | None = None
) -> Play:
    """Resolve move notation such as ``"13/7*/5"`` to exactly one legal play.

    ``text`` may start with the roll (``"6-2: 13/7*/5"``), which must then match
    ``roll``. ``"Ø"`` (or an empty move list) means no move and is legal only when no
    checker can move.

    Raises:
        InvalidNotationError: if ``text`` is not move notation.
        IllegalPlayError: if it describes no legal play of ``roll`` here.
        AmbiguousPlayError: if it fits more than one legal play.
        ValueError: if ``roll`` is not two dice of 1..6.
    """
    dice = Roll.coerce(roll, 2 if variant is None else variant.dice)
    return _resolve(text, position, dice, legal_plays(position, dice, variant))


def _hit_points(play: Play) -> frozenset[int]:
    return frozenset(play.hits)


def _resolve(text: str, position: Position, dice: Roll, plays: PlayList) -> Play:
    parsed = parse_play_text(text)
    if parsed.roll is not None and sorted(parsed.roll) != sorted(dice.dice):
        written = "-".join(map(str, parsed.roll))
        raise IllegalPlayError(f"{text!r} is written for {written}, but the roll is {dice}")
    if not parsed.moves:
        if not plays:
            return Play.no_move(position)
        raise IllegalPlayError(f"{text!r}: a play is possible with {dice} (for example {plays[0]})")
    own = list(position._data[:_SLOTS])
    starred: set[int] = set()
    waypoints: set[int] = set()
    for move in parsed.moves:
        start, end = move.path[0], move.path[-1]
        own[start] -= move.repeat
        own[end] += move.repeat
        if own[start] < 0:
            where = "the bar" if start == BAR_POINT else f"point {start}"
            raise IllegalPlayError(
                f"{text!r}: not enough of your checkers on {where} for that play"
            )
        starred.update(point for point, hit in zip(move.path, move.hits, strict=True) if hit)
        waypoints.update(move.path[1:-1])
    target = bytes(own)
    candidates = [play for play in plays if play._row[:_SLOTS] == target]
    if not candidates:
        if not plays:
            raise IllegalPlayError(f"{text!r}: no checker can move with {dice}; play 'Ø'")
        raise IllegalPlayError(
            f"{text!r} is not a legal play of {dice} here" + _hint(parsed, position, dice, plays)
        )
    if waypoints:
        candidates = [
            play for play in candidates if waypoints <= {step.destination for step in play.steps}
        ] or candidates
    if len(candidates) > 1:
        exact = [play for play in candidates if _hit_points(play) == starred]
        if len(exact) == 1:
            return exact[0]
        covering = [play for play in candidates if starred <= _hit_points(play)]
        if len(covering) == 1:
            return covering[0]
        options = ", ".join(str(play) for play in candidates)
        raise AmbiguousPlayError(f"{text!r} fits several legal plays of {dice}: {options}")
    chosen = candidates[0]
    missing = starred - _hit_points(chosen)
    missing.discard(OFF_POINT)
    if missing:
        raise IllegalPlayError(
            f"{text!r}: there is no blot to hit on {', '.join(map(str, sorted(missing)))}"
        )
    return chosen


def _hint(parsed: ParsedPlayText, position: Position, dice: Roll, plays: PlayList) -> str:
    """Why a written play is none of the legal ones, in parentheses: a move no die of
    the roll makes, more moves than the roll has, the bar not entered first, dice
    left unplayed; else that no legal play leads where it does."""
    used = 0
    for move in parsed.moves:
        for start, end in zip(move.path, move.path[1:], strict=False):
            count = _dice_for(start - end, dice, end == OFF_POINT)
            written = f"{format_point(start)}/{format_point(end)}"
            if count is None:
                return f" ({written} is {start - end} pips: {_reach(dice)})"
            blocked = _blocked_on_the_way(position, start, end, dice, count)
            if blocked is not None:
                return f" ({written}: your opponent holds point {blocked})"
            used += count * move.repeat
    if used > len(dice.moves):
        if dice.is_double:
            return f" (that is {used} moves: {dice} plays {len(dice.moves)} moves of {dice.first})"
        return f" (that is {used} moves: {dice} plays one move of each die)"
    enters = any(move.path[0] == BAR_POINT for move in parsed.moves)
    if position.player_bar and not enters and all(play.dice_used for play in plays):
        return " (checkers on the bar must enter first)"
    most = max(play.dice_used for play in plays)
    if used < most:
        return f" (all {most} dice can be played)" if most > 2 else " (both dice can be played)"
    return f" (no legal play of {dice} ends where it does)"


def _dice_for(distance: int, dice: Roll, off: bool) -> int | None:
    """How many of ``dice``'s moves one written step of ``distance`` pips takes (the
    fewest dice whose sum makes it; a bear-off may use more pips than it needs), or
    None if no die or sum of dice makes it."""
    if distance <= 0:
        return None
    moves = dice.moves
    for count in range(1, len(moves) + 1):
        for chosen in combinations(moves, count):
            if sum(chosen) == distance or (off and sum(chosen) > distance):
                return count
    return None


def _blocked_on_the_way(
    position: Position, start: int, end: int, dice: Roll, count: int
) -> int | None:
    """A point the opponent holds (two checkers or more) where a step lands: its end,
    or for a double played as several moves each point it stops on; None if open."""
    stops = [start - dice.first * n for n in range(1, count)] if dice.is_double else []
    for point in [*stops, end]:
        if 1 <= point <= 24 and position.at(point) <= -2:
            return point
    return None


def _reach(dice: Roll) -> str:
    """What ``dice`` moves a checker: "3-2 moves a checker 3, 2 or 5 pips"."""
    moves = dice.moves
    if dice.is_double:
        sums = ", ".join(str(moves[0] * n) for n in range(1, len(moves) + 1))
        return f"{dice} plays four moves of {moves[0]}: a checker moves {sums} pips"
    pips = sorted(set(moves), reverse=True)
    spans = ", ".join(map(str, pips)) + f" or {sum(moves)}" if len(moves) > 1 else str(pips[0])
    return f"{dice} moves a checker {spans} pips"
