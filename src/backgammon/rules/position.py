"""The board position, seen from the side on roll.

A :class:`Position` is a frozen, hashable value. It stores 52 small counts: for the
side on roll (the *player*) and then for the *opponent*, each in its own numbering,
slot 0 = checkers borne off, slots 1..24 = its points 1..24, slot 25 = its bar. The
player's point ``p`` is the opponent's point ``25 - p``. :meth:`Position.flip` swaps the
two sides, which is how the turn passes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from backgammon.errors import InvalidIdError, InvalidPositionError
from backgammon.notation.diagram import draw_board
from backgammon.notation.fibs_board import decode_fibs_board, fibs_board_to_sides
from backgammon.notation.position_id import decode_position_id, encode_position_id
from backgammon.notation.slots_text import decode_slots_text, encode_slots_text
from backgammon.notation.xgid import XgidFields, decode_xgid, encode_xgid
from backgammon.rules.blocking_movegen import PINNED
from backgammon.rules.variant import STANDARD, Variant

if TYPE_CHECKING:
    from backgammon.rules.dice import RollLike
    from backgammon.rules.play import PlayList

__all__ = ["Position"]

SLOTS = 26
OFF = 0
BAR = 25
_COUNTS = bytes(value & ~PINNED for value in range(256))
"""Translation table from stored slots to checker counts (drops the pin mark)."""


class Position:
    """A backgammon position from the point of view of the side on roll.

    Build one with :meth:`initial`, :meth:`from_position_id`, :meth:`from_xgid` or
    :meth:`from_slots`; it never changes afterwards.

    >>> position = Position.initial()
    >>> position.position_id
    '4HPwATDgc/ABMA'
    >>> position.pip_counts()
    (167, 167)
    """

    __slots__ = ("_data",)

    _data: bytes

    def __init__(self, player: Sequence[int], opponent: Sequence[int]) -> None:
        """Build a position from two sides of 26 counts each (0 off, 1..24, 25 bar).

        Raises:
            InvalidPositionError: if a side does not have 26 counts in 0..255, or a point
                holds checkers of both sides.
        """
        data = _pack(player, opponent)
        object.__setattr__(self, "_data", data)
        clash = _first_clash(data)
        if clash:
            raise InvalidPositionError(
                f"point {clash} (of the side on roll) holds checkers of both sides"
            )

    # -- construction -------------------------------------------------------------

    @classmethod
    def _from_bytes(cls, data: bytes) -> Position:
        """Wrap 52 bytes without checks (the fast path used by move generation)."""
        position = object.__new__(cls)
        _set_data(position, data)
        return position

    @classmethod
    def unchecked(cls, player: Sequence[int], opponent: Sequence[int]) -> Position:
        """Like the constructor, without the check that no point holds both sides:
        for variants whose sides move the same way round the board (where the
        player's point ``p`` is the opponent's ``p``; see :meth:`problems`).

        Raises:
            InvalidPositionError: if a side does not have 26 counts in 0..255.
        """
        return cls._from_bytes(_pack(player, opponent))

    @classmethod
    def initial(cls, variant: Variant = STANDARD) -> Position:
        """The starting position of ``variant`` (standard backgammon by default)."""
        side = variant.start_counts()
        return cls(side, side)

    @classmethod
    def from_slots(cls, player: Sequence[int], opponent: Sequence[int]) -> Position:
        """Same as the constructor: two sides of 26 counts (0 off, 1..24, 25 bar)."""
        return cls(player, opponent)

    @classmethod
    def from_points(
        cls,
        player: Sequence[int],
        opponent: Sequence[int],
        *,
        player_bar: int = 0,
        opponent_bar: int = 0,
        checkers: int | None = None,
    ) -> Position:
        """Build a position from 24 point counts per side, each in its own numbering.

        Checkers not on a point or the bar are borne off: ``checkers`` per side (the
        standard variant's number by default).

        Raises:
            InvalidPositionError: if a side has more checkers than ``checkers``, or
                the counts are malformed.
        """
        total = STANDARD.checkers if checkers is None else checkers
        sides = []
        for name, points, bar in (
            ("player", player, player_bar),
            ("opponent", opponent, opponent_bar),
        ):
            if len(points) != 24:
                raise InvalidPositionError(f"{name} needs 24 point counts, got {len(points)}")
            on_board = sum(points) + bar
            if on_board > total:
                raise InvalidPositionError(
                    f"{name} has {on_board} checkers on the board, more than {total}"
                )
            sides.append([total - on_board, *points, bar])
        return cls(sides[0], sides[1])

    @classmethod
    def from_position_id(cls, position_id: str, checkers: int | None = None) -> Position:
        """Decode a GNU Backgammon Position ID (the side on roll is the player).

        ``checkers`` is each side's total (15 by default); the ID does not store how
        many are borne off.

        Raises:
            InvalidIdError: if the ID is malformed or a side has more than ``checkers``.
        """
        player, opponent = decode_position_id(position_id)
        return cls._from_sides(player, opponent, checkers, f"Position ID {position_id!r}")

    @classmethod
    def from_xgid(cls, xgid: str, checkers: int | None = None) -> Position:
        """The position of an XGID, seen from the side whose turn the XGID gives.

        Raises:
            InvalidIdError: if the XGID is malformed or a side has too many checkers.
        """
        fields = decode_xgid(xgid)
        bottom, top = fields.bottom, fields.top
        player, opponent = (bottom, top) if fields.turn == 1 else (top, bottom)
        return cls._from_sides(player, opponent, checkers, f"XGID {xgid!r}")

    @classmethod
    def from_fibs_board(cls, board: str, checkers: int | None = None) -> Position:
        """The position of a FIBS CLIP ``board:`` line, seen from the side whose turn
        it is (from the line's player when the game is over).

        Raises:
            InvalidIdError: if the line is malformed or a side has too many checkers.
        """
        fields = decode_fibs_board(board)
        try:
            player, opponent = fibs_board_to_sides(fields.board, fields.colour, fields.direction)
        except ValueError as exc:
            raise InvalidIdError(f"FIBS board {board!r}: {exc}") from None
        if fields.turn == -fields.colour:
            player, opponent = opponent, player
        return cls._from_sides(player, opponent, checkers, f"FIBS board {board!r}")

    @classmethod
    def from_slots_text(cls, text: str) -> Position:
        """The position of a slots text (``slots:...``, see
        :mod:`backgammon.notation.slots_text`), our format for every variant's board.
        Check it against a variant with :meth:`problems`.

        Raises:
            InvalidIdError: if the text is malformed.
        """
        player, opponent = decode_slots_text(text)
        return cls._from_bytes(bytes(player + opponent))

    @property
    def slots_text(self) -> str:
        """This position as slots text (``slots:<player>/<opponent>``), which
        round-trips for every variant, pinned checkers included."""
        data = self._data
        return encode_slots_text(tuple(data[:SLOTS]), tuple(data[SLOTS:]))

    @classmethod
    def _from_sides(
        cls,
        player: Sequence[int],
        opponent: Sequence[int],
        checkers: int | None,
        source: str,
    ) -> Position:
        """Both sides from 25 counts each (points 1..24, bar), the rest borne off.

        Raises:
            InvalidIdError: naming ``source``, if a side has too many checkers or a
                point holds both sides.
        """
        total = STANDARD.checkers if checkers is None else checkers
        sides = []
        for name, side in (("player", player), ("opponent", opponent)):
            on_board = sum(side)
            if on_board > total:
                raise InvalidIdError(
                    f"{source}: the {name} has {on_board} checkers, more than {total}"
                )
            sides.append((total - on_board, *side))
        try:
            return cls(sides[0], sides[1])
        except InvalidPositionError as exc:
            raise InvalidIdError(f"{source}: {exc}") from None

    # -- views ---------------------------------------------------------------------

    @property
    def player(self) -> tuple[int, ...]:
        """The side on roll's 26 slots: 0 off, 1..24 its points, 25 its bar (checker
        counts; a pinned checker counts 1, see :meth:`pinned_points`)."""
        return tuple(self._data[:SLOTS].translate(_COUNTS))

    @property
    def opponent(self) -> tuple[int, ...]:
        """The opponent's 26 slots, in the opponent's own numbering."""
        return tuple(self._data[SLOTS:].translate(_COUNTS))

    def pinned_points(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Points (each side's own numbering) where a checker of the side on roll, and
        of the opponent, is pinned (Plakoto); empty in games without pinning."""
        data = self._data
        return (
            tuple(point for point in range(1, 25) if data[point] & PINNED),
            tuple(point for point in range(1, 25) if data[SLOTS + point] & PINNED),
        )

    @property
    def player_bar(self) -> int:
        """Checkers of the side on roll on the bar."""
        return self._data[BAR]

    @property
    def opponent_bar(self) -> int:
        """Opponent checkers on the bar."""
        return self._data[SLOTS + BAR]

    @property
    def player_off(self) -> int:
        """Checkers the side on roll has borne off."""
        return self._data[OFF]

    @property
    def opponent_off(self) -> int:
        """Checkers the opponent has borne off."""
        return self._data[SLOTS + OFF]

    def player_checkers(self) -> int:
        """The total number of checkers of the side on roll (off included)."""
        return sum(self._data[:SLOTS].translate(_COUNTS))

    def opponent_checkers(self) -> int:
        """The total number of checkers of the opponent (off included)."""
        return sum(self._data[SLOTS:].translate(_COUNTS))

    def at(self, point: int) -> int:
        """Checkers on ``point`` (1..24, the player's numbering): positive for the
        player, negative for the opponent, 0 if empty."""
        if not 1 <= point <= 24:
            raise ValueError(f"point must be 1..24, got {point}")
        data = self._data.translate(_COUNTS)
        return data[point] - data[SLOTS + 25 - point]

    def pip_counts(self) -> tuple[int, int]:
        """``(player, opponent)`` pip counts; a checker on the bar counts 25."""
        data = self._data.translate(_COUNTS)
        player = sum(index * data[index] for index in range(1, SLOTS))
        opponent = sum(index * data[SLOTS + index] for index in range(1, SLOTS))
        return player, opponent

    def is_race(self) -> bool:
        """True when contact is broken: no checker can ever hit or be hit again."""
        data = self._data
        back = max((i for i in range(1, SLOTS) if data[i]), default=0)
        opponent_back = max((i for i in range(1, SLOTS) if data[SLOTS + i]), default=0)
        return back + opponent_back <= 25

    def has_contact(self) -> bool:
        """True while the two sides can still hit each other."""
        return not self.is_race()

    def is_game_over(self) -> bool:
        """True when a side has borne off every checker (its board and bar are empty)."""
        data = self._data
        return not any(data[1:SLOTS]) or not any(data[SLOTS + 1 :])

    def problems(self, variant: Variant = STANDARD) -> list[str]:
        """Why this position cannot occur in ``variant``; empty if it can.

        Checks each side's checker count, that both sides have not finished, that no
        point holds checkers of both sides on the variant's board (except a pinned one
        under the other side, in Plakoto; pins consistent) and the point limit.
        """
        found = []
        total = variant.checkers
        data = self._data
        flagged = [slot for slot in range(2 * SLOTS) if data[slot] & PINNED]
        if flagged and not variant.pinning:
            found.append(f"pinned checkers, but {variant.name} has no pinning")
        elif variant.pinning:
            bad = []
            for slot in flagged:
                base, point = (0, slot) if slot < SLOTS else (SLOTS, slot - SLOTS)
                above = SLOTS - base + variant.opponent_point(point) if 1 <= point <= 24 else 0
                if data[slot] != PINNED + 1 or not 1 <= point <= 24 or not data[above]:
                    bad.append(slot)
            if bad:
                found.append(f"slots {bad} hold a pinned checker with nobody on top of it")
            clash = [
                point
                for point in range(1, 25)
                if data[point]
                and data[SLOTS + variant.opponent_point(point)]
                and not (
                    data[point] & PINNED or data[SLOTS + variant.opponent_point(point)] & PINNED
                )
            ]
            if clash:
                found.append(f"points {clash} hold free checkers of both sides")
        if not variant.pinning:
            shared = [
                point
                for point in range(1, 25)
                if self._data[point] and self._data[SLOTS + variant.opponent_point(point)]
            ]
            if shared:
                found.append(f"points {shared} hold checkers of both sides")
        if variant.max_per_point is not None:
            crowded = [
                point
                for point in range(1, 25)
                if max(self._data[point], self._data[SLOTS + 25 - point]) > variant.max_per_point
            ]
            if crowded:
                found.append(f"points {crowded} hold more than {variant.max_per_point} checkers")
        for name, count in (
            ("the side on roll", self.player_checkers()),
            ("the opponent", self.opponent_checkers()),
        ):
            if count != total:
                found.append(f"{name} has {count} checkers, {variant.name} uses {total}")
        if self.player_off == total and self.opponent_off == total:
            found.append("both sides have borne off every checker")
        return found

    def validate(self, variant: Variant = STANDARD) -> None:
        """Raise :class:`InvalidPositionError` listing :meth:`problems`, if any."""
        found = self.problems(variant)
        if found:
            raise InvalidPositionError("; ".join(found))

    def flip(self) -> Position:
        """The same position seen from the opponent (as when the turn passes)."""
        data = self._data
        return Position._from_bytes(data[SLOTS:] + data[:SLOTS])

    def to_array(self) -> npt.NDArray[np.uint8]:
        """A fresh ``uint8`` array of the 52 slots (player then opponent)."""
        return np.frombuffer(self._data, dtype=np.uint8).copy()

    @classmethod
    def from_array(cls, array: npt.ArrayLike) -> Position:
        """Build a position from 52 slots (as :meth:`to_array` returns).

        Raises:
            InvalidPositionError: on a wrong shape or values, or a shared point.
        """
        values = np.asarray(array).reshape(-1)
        if values.shape[0] != 2 * SLOTS:
            raise InvalidPositionError(f"a position array has 52 slots, got {values.shape[0]}")
        items = [int(value) for value in values]
        return cls(items[:SLOTS], items[SLOTS:])

    # -- identifiers and text -------------------------------------------------------

    @property
    def position_id(self) -> str:
        """GNU Backgammon's 14-character Position ID of this position."""
        data = self._data
        return encode_position_id(tuple(data[1:SLOTS]), tuple(data[SLOTS + 1 :]))

    @property
    def xgid(self) -> str:
        """The XGID of this position alone: the side on roll is XG's bottom player X
        (upper-case letters) and it is X's turn; cube 1 centred, no dice, money."""
        data = self._data
        fields = XgidFields(
            bottom=tuple(data[1:SLOTS]),
            top=tuple(data[SLOTS + 1 :]),
            cube_log2=0,
            cube_position=0,
            turn=1,
            dice=(0, 0),
            double_pending=False,
            score_bottom=0,
            score_top=0,
            crawford_jacoby=0,
            match_length=0,
            max_cube=10,
        )
        return encode_xgid(fields)

    def legal_plays(self, roll: RollLike, variant: Variant | None = None) -> PlayList:
        """Every legal play of ``roll`` here, one per distinct resulting position
        (under ``variant``'s movement rules; standard by default).

        ``roll`` is a :class:`~backgammon.rules.dice.Roll` or a pair like ``(3, 1)``.
        Each play's ``position`` is the result seen from the side that moved (not
        flipped). The list is empty when no checker can move.

        Raises:
            ValueError: if ``roll`` is not two dice of 1..6.
        """
        from backgammon.rules.play import legal_plays

        return legal_plays(self, roll, variant)

    def __str__(self) -> str:
        return self.diagram()

    def diagram(
        self,
        variant: Variant = STANDARD,
        *,
        player_name: str = "on roll",
        opponent_name: str = "opponent",
    ) -> str:
        """The position drawn as text (X on roll), on ``variant``'s board; pinned
        checkers (Plakoto) are listed under it."""
        text = draw_board(
            self.player,
            self.opponent,
            player_name=player_name,
            opponent_name=opponent_name,
            same_direction=variant.same_direction,
            crosswise=variant.crosswise,
        )
        mine, theirs = self.pinned_points()
        if mine or theirs:
            notes = [f"X pinned on {', '.join(map(str, mine))}"] if mine else []
            # The opponent's pinned checkers, in the player's numbering.
            if theirs:
                notes.append(f"O pinned on {', '.join(str(25 - p) for p in theirs)}")
            text += "\n " + "; ".join(notes)
        return text

    def __repr__(self) -> str:
        if any(value & PINNED for value in self._data):
            return f"Position.from_slots_text({self.slots_text!r})"
        on_board = sum(self._data[1:SLOTS]) + sum(self._data[SLOTS + 1 :])
        if self.player_checkers() == self.opponent_checkers() and on_board <= 30:
            checkers = self.player_checkers()
            suffix = "" if checkers == STANDARD.checkers else f", checkers={checkers}"
            return f"Position.from_position_id({self.position_id!r}{suffix})"
        return f"Position({list(self.player)!r}, {list(self.opponent)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return self._data == other._data
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._data)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Position is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Position._from_bytes, (self._data,))

    def __iter__(self) -> Iterator[int]:
        """Iterate over the 52 slots (player then opponent)."""
        return iter(self._data)


_set_data = Position.__dict__["_data"].__set__


def _pack(player: Sequence[int], opponent: Sequence[int]) -> bytes:
    for name, side in (("player", player), ("opponent", opponent)):
        if len(side) != SLOTS:
            raise InvalidPositionError(
                f"{name} needs 26 counts (off, points 1-24, bar), got {len(side)}"
            )
        for count in side:
            if (
                isinstance(count, bool)
                or not isinstance(count, int | np.integer)
                or not 0 <= count <= 255
            ):
                raise InvalidPositionError(f"{name} has an invalid checker count {count!r}")
    return bytes(int(count) for count in (*player, *opponent))


def _first_clash(data: bytes) -> int:
    for point in range(1, 25):
        if data[point] and data[SLOTS + 25 - point]:
            return point
    return 0
