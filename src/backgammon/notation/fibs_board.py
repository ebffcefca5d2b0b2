"""The FIBS CLIP ``board:`` line: a pure codec over plain ints, plus board conversions.

Format (Evan McLean, "FIBS Client Protocol Detailed Specification" rev 1.3, "Board
State", http://www.fibs.com/fibs_interface.html, and gnubg-src ``drawboard.c``
``FIBSBoard()``),
``board:`` followed by 52 ``:``-separated fields::

    board:<player>:<opponent>:<match length>:<player score>:<opponent score>:
          <26 board numbers>:<turn>:<player die 1>:<player die 2>:
          <opponent die 1>:<opponent die 2>:<cube>:<player may double>:
          <opponent may double>:<was doubled>:<colour>:<direction>:<home>:<bar>:
          <player off>:<opponent off>:<player on bar>:<opponent on bar>:
          <can move>:<forced move>:<did crawford>:<redoubles>

(one line, no spaces). "Player" is the side the line is written for ("You" on FIBS
while playing). The fields:

* match length: 9999 on FIBS for an unlimited match; GNU Backgammon writes 0 for money.
  At most 32767, and so are the scores (the bounds of the XGID and Match ID).
* board: 26 signed counts. Positive numbers are O's checkers, negative X's; indices 0
  and 25 are the bars. ``colour`` says which sign is the player's (1 = O, -1 = X).
  ``direction`` -1 means the player moves from index 24 towards index 1, so the
  player's own point ``p`` is index ``p`` and its bar is index 25; direction 1 means
  the mirror image: point ``p`` is index ``25 - p`` and the bar is index 0. The
  opponent's own point ``p`` (and its bar, as point 25) is at ``25`` minus the
  player's index for ``p``. The obsolete ``home`` and ``bar`` fields repeat the
  player's home (0 or 25) and bar index (25 or 0).
* turn: 1 O's turn, -1 X's turn, 0 the game is over.
* dice: 0 0 when not rolled. GNU Backgammon writes the roll into both pairs.
* cube: a power of two from 1 to 32768.
* may double: 1 or 0; was doubled: 1 if the opponent has just doubled, 0 otherwise,
  and GNU Backgammon's sign extension -1 (the sign says who doubled).
* can move: 0..4; forced move and did crawford: "don't use" (kept as written);
  redoubles: the maximum number of instant redoubles.

:func:`decode_fibs_board` checks the syntax and each field's range, not the rules (it
does not count checkers). Integers must be plain decimal of at most 9 digits (no ``+``,
no ``-0``, no leading zeros), so every accepted line re-encodes to the same text.
:func:`fibs_board_to_sides` and :func:`sides_to_fibs_board` convert the 26 numbers to
and from two 25-tuples, each side in its **own** numbering (index 0..23 its points
1..24, index 24 its bar), the layout of the Position ID codec.

>>> line = ("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:"
...         "0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
>>> fields = decode_fibs_board(line)
>>> player, opponent = fibs_board_to_sides(fields.board, fields.colour, fields.direction)
>>> player[5], player[7], player[12], player[23]
(5, 3, 5, 2)
>>> opponent == player
True
>>> encode_fibs_board(fields) == line
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from backgammon.errors import InvalidIdError

__all__ = [
    "FibsBoardFields",
    "decode_fibs_board",
    "encode_fibs_board",
    "fibs_board_to_sides",
    "sides_to_fibs_board",
]

_PREFIX = "board"
_FIELDS = 52  # after the "board" token
_POINTS = 26
_SLOTS = 25
_INT_PATTERN = re.compile(r"0|-?[1-9][0-9]{0,8}")
_MAX_INT = 999_999_999
# The bounds of the XGID and Match ID codecs (and our MatchState): a cube of at most
# 2**15, a match length and scores of 15 bits; a consumer's ``cube.bit_length()`` and
# score arithmetic stay small, whoever sent the line.
_MAX_CUBE = 1 << 15
_MAX_15_BITS = (1 << 15) - 1


def _check_int(name: str, value: object, low: int, high: int = _MAX_INT) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")


def _check_ints(name: str, values: Sequence[object], low: int, high: int = _MAX_INT) -> None:
    """:func:`_check_int` of each value (at once where all are fine, as a board's 26
    numbers nearly always are; one by one to name the first that is not)."""
    if {type(value) for value in values} <= {int} and (
        not values or (low <= min(values) and max(values) <= high)  # type: ignore[type-var,operator]
    ):
        return
    for value in values:
        _check_int(name, value, low, high)


def _check_cube(value: object) -> None:
    _check_int("cube", value, 1, _MAX_CUBE)
    if isinstance(value, int) and value & (value - 1):
        raise ValueError(f"cube must be a power of two (1, 2, 4, ... {_MAX_CUBE}), got {value}")


def _check_choice(name: str, value: object, choices: tuple[int, ...]) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value not in choices:
        expected = ", ".join(str(choice) for choice in choices)
        raise ValueError(f"{name} must be one of {expected}, got {value!r}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be a bool, got {value!r}")


def _check_dice(name: str, dice: object) -> None:
    if not isinstance(dice, tuple) or len(dice) != 2:
        raise ValueError(f"{name} must be a tuple of two ints, got {dice!r}")
    for die in dice:
        _check_int(f"a die of {name}", die, 0, 6)
    if (dice[0] == 0) != (dice[1] == 0):
        raise ValueError(f"{name} must be both rolled or both 0, got {dice}")


def _check_name(name: str, value: object) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    if ":" in value or not value.isprintable():
        raise ValueError(f"{name} must be printable and without ':', got {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class FibsBoardFields:
    """Every field of a FIBS ``board:`` line, in order.

    Attributes:
        player_name: the side the line is written for ("You" on FIBS while playing).
        opponent_name: the other side.
        match_length: the match length, at most 32767 (9999 on FIBS for unlimited, 0
            for money).
        player_score: the player's score, 0..32767.
        opponent_score: the opponent's score, 0..32767.
        board: 26 signed counts; positive O, negative X; see :func:`fibs_board_to_sides`.
        turn: 1 O's turn, -1 X's turn, 0 the game is over.
        player_dice: the player's dice, ``(0, 0)`` if not rolled.
        opponent_dice: the opponent's dice, ``(0, 0)`` if not rolled.
        cube: the cube value, a power of two from 1 to 32768.
        player_may_double: whether the player may double.
        opponent_may_double: whether the opponent may double.
        was_doubled: 1 if the opponent has just doubled, 0 if not; GNU Backgammon also
            writes -1 (the sign says who doubled).
        colour: the player's colour and sign, 1 = O, -1 = X.
        direction: -1 the player moves from 24 to 1, 1 from 1 to 24.
        home: obsolete: the player's home index, 0 or 25.
        bar: obsolete: the player's bar index, 25 or 0.
        player_off: the player's checkers borne off.
        opponent_off: the opponent's checkers borne off.
        player_on_bar: the player's checkers on the bar (GNU Backgammon writes 0).
        opponent_on_bar: the opponent's checkers on the bar (GNU Backgammon writes 0).
        can_move: how many checkers the player can move, 0..4.
        forced_move: "don't use this token"; kept as written, >= 0.
        did_crawford: "don't use this token"; kept as written, >= 0.
        redoubles: the maximum number of instant redoubles, >= 0.

    Raises:
        ValueError: from the constructor, if a field has the wrong type or range.
    """

    player_name: str
    opponent_name: str
    match_length: int
    player_score: int
    opponent_score: int
    board: tuple[int, ...]
    turn: int
    player_dice: tuple[int, int]
    opponent_dice: tuple[int, int]
    cube: int
    player_may_double: bool
    opponent_may_double: bool
    was_doubled: int
    colour: int
    direction: int
    home: int
    bar: int
    player_off: int
    opponent_off: int
    player_on_bar: int
    opponent_on_bar: int
    can_move: int
    forced_move: int
    did_crawford: int
    redoubles: int

    def __post_init__(self) -> None:
        _check_name("player_name", self.player_name)
        _check_name("opponent_name", self.opponent_name)
        _check_int("match_length", self.match_length, 0, _MAX_15_BITS)
        _check_int("player_score", self.player_score, 0, _MAX_15_BITS)
        _check_int("opponent_score", self.opponent_score, 0, _MAX_15_BITS)
        if not isinstance(self.board, tuple) or len(self.board) != _POINTS:
            raise ValueError(f"board must be a tuple of 26 ints, got {self.board!r}")
        _check_ints("a board number", self.board, -_MAX_INT)
        _check_choice("turn", self.turn, (-1, 0, 1))
        _check_dice("player_dice", self.player_dice)
        _check_dice("opponent_dice", self.opponent_dice)
        _check_cube(self.cube)
        _check_bool("player_may_double", self.player_may_double)
        _check_bool("opponent_may_double", self.opponent_may_double)
        _check_choice("was_doubled", self.was_doubled, (-1, 0, 1))
        _check_choice("colour", self.colour, (-1, 1))
        _check_choice("direction", self.direction, (-1, 1))
        _check_choice("home", self.home, (0, 25))
        _check_choice("bar", self.bar, (0, 25))
        _check_int("player_off", self.player_off, 0)
        _check_int("opponent_off", self.opponent_off, 0)
        _check_int("player_on_bar", self.player_on_bar, 0)
        _check_int("opponent_on_bar", self.opponent_on_bar, 0)
        _check_int("can_move", self.can_move, 0, 4)
        _check_int("forced_move", self.forced_move, 0)
        _check_int("did_crawford", self.did_crawford, 0)
        _check_int("redoubles", self.redoubles, 0)


def encode_fibs_board(fields: FibsBoardFields) -> str:
    """Return the ``board:`` line of ``fields`` (no line ending).

    The fields were validated when ``fields`` was built, so this cannot fail.
    """
    numbers = (
        fields.match_length,
        fields.player_score,
        fields.opponent_score,
        *fields.board,
        fields.turn,
        *fields.player_dice,
        *fields.opponent_dice,
        fields.cube,
        int(fields.player_may_double),
        int(fields.opponent_may_double),
        fields.was_doubled,
        fields.colour,
        fields.direction,
        fields.home,
        fields.bar,
        fields.player_off,
        fields.opponent_off,
        fields.player_on_bar,
        fields.opponent_on_bar,
        fields.can_move,
        fields.forced_move,
        fields.did_crawford,
        fields.redoubles,
    )
    return ":".join((_PREFIX, fields.player_name, fields.opponent_name, *map(str, numbers)))


def decode_fibs_board(text: str) -> FibsBoardFields:
    """Decode a FIBS ``board:`` line. Surrounding whitespace (a line ending) is ignored.

    Raises:
        InvalidIdError: if ``text`` does not start with ``board:``, does not have 52
            fields after it, has an empty name, a number that is not a plain decimal
            integer, or a field out of range. The message quotes ``text``.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"a FIBS board must be a string, got {type(text).__name__}")
    parts = text.strip().split(":")
    if parts[0] != _PREFIX:
        raise InvalidIdError(f"invalid FIBS board {text!r}: expected it to start with 'board:'")
    if len(parts) - 1 != _FIELDS:
        raise InvalidIdError(
            f"invalid FIBS board {text!r}: expected {_FIELDS} ':'-separated fields after "
            f"'board', got {len(parts) - 1}"
        )
    numbers: list[int] = []
    for index, part in enumerate(parts[3:], start=3):
        if not _INT_PATTERN.fullmatch(part):
            raise InvalidIdError(
                f"invalid FIBS board {text!r}: field {index} must be a plain decimal integer "
                f"of at most 9 digits, got {part!r}"
            )
        numbers.append(int(part))
    length, player_score, opponent_score = numbers[0:3]
    board = tuple(numbers[3:29])
    (
        turn,
        player_die1,
        player_die2,
        opponent_die1,
        opponent_die2,
        cube,
        player_may_double,
        opponent_may_double,
        was_doubled,
        colour,
        direction,
        home,
        bar,
        player_off,
        opponent_off,
        player_on_bar,
        opponent_on_bar,
        can_move,
        forced_move,
        did_crawford,
        redoubles,
    ) = numbers[29:]
    try:
        for name, flag in (
            ("player may double", player_may_double),
            ("opponent may double", opponent_may_double),
        ):
            if flag not in (0, 1):
                raise ValueError(f"{name} must be 0 or 1, got {flag}")
        return FibsBoardFields(
            player_name=parts[1],
            opponent_name=parts[2],
            match_length=length,
            player_score=player_score,
            opponent_score=opponent_score,
            board=board,
            turn=turn,
            player_dice=(player_die1, player_die2),
            opponent_dice=(opponent_die1, opponent_die2),
            cube=cube,
            player_may_double=bool(player_may_double),
            opponent_may_double=bool(opponent_may_double),
            was_doubled=was_doubled,
            colour=colour,
            direction=direction,
            home=home,
            bar=bar,
            player_off=player_off,
            opponent_off=opponent_off,
            player_on_bar=player_on_bar,
            opponent_on_bar=opponent_on_bar,
            can_move=can_move,
            forced_move=forced_move,
            did_crawford=did_crawford,
            redoubles=redoubles,
        )
    except ValueError as exc:
        raise InvalidIdError(f"invalid FIBS board {text!r}: {exc}") from exc


def _player_index(slot: int, direction: int) -> int:
    """The board index of the player's own point ``slot`` (25 = its bar)."""
    return slot if direction == -1 else 25 - slot


def _check_orientation(colour: int, direction: int) -> None:
    _check_choice("colour", colour, (-1, 1))
    _check_choice("direction", direction, (-1, 1))


def fibs_board_to_sides(
    board: Sequence[int], colour: int, direction: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Split the 26 FIBS board numbers into ``(player, opponent)``.

    Each side is 25 counts in its own numbering: its points 1..24, then its bar. The
    player's checkers are the numbers with the sign of ``colour``; ``direction`` -1
    puts the player's point ``p`` at index ``p`` and its bar at 25, direction 1 at
    ``25 - p`` and 0; the opponent's point ``p`` is at 25 minus the player's index.

    >>> board = [0] * 26
    >>> board[6], board[1], board[25] = 5, -2, 1
    >>> player, opponent = fibs_board_to_sides(board, colour=1, direction=-1)
    >>> player[5], player[24], opponent[23]
    (5, 1, 2)

    Raises:
        ValueError: if ``board`` does not have 26 ints, ``colour`` or ``direction`` is
            not 1 or -1, or a bar holds checkers of the other side's sign.
    """
    _check_orientation(colour, direction)
    if len(board) != _POINTS:
        raise ValueError(f"a FIBS board has 26 numbers, got {len(board)}")
    player = [0] * _SLOTS
    opponent = [0] * _SLOTS
    for slot in range(1, 26):
        index = _player_index(slot, direction)
        for side, own_index, sign in ((player, index, colour), (opponent, 25 - index, -colour)):
            count = board[own_index] * sign
            if count > 0:
                side[slot - 1] = count
            elif count < 0 and slot == 25:
                raise ValueError(
                    f"FIBS board index {own_index} is a bar but holds {board[own_index]}, "
                    "checkers of the other side's colour"
                )
    return tuple(player), tuple(opponent)


def sides_to_fibs_board(
    player: Sequence[int], opponent: Sequence[int], colour: int, direction: int
) -> tuple[int, ...]:
    """Build the 26 FIBS board numbers from two sides; the inverse of :func:`fibs_board_to_sides`.

    ``player`` and ``opponent`` are 25 non-negative counts each (points 1..24, then the
    bar) in their own numbering.

    Raises:
        ValueError: if a side does not have 25 non-negative ints, ``colour`` or
            ``direction`` is not 1 or -1, or both sides hold the same point.
    """
    _check_orientation(colour, direction)
    for name, side in (("player", player), ("opponent", opponent)):
        if len(side) != _SLOTS:
            raise ValueError(f"{name} needs 25 counts (points 1-24 and bar), got {len(side)}")
        _check_ints(f"a {name} count", side, 0)
    # Board index of the player's slot 1..25 (direction -1: the slot itself), and of
    # the opponent's (25 minus the player's index of the same slot number).
    ours = range(1, 26) if direction == -1 else range(24, -1, -1)
    board = [0] * _POINTS
    for index, count in zip(ours, player, strict=True):
        board[index] = count * colour
    for slot, (index, count) in enumerate(zip(ours, opponent, strict=True), start=1):
        if count:
            index = 25 - index
            if board[index]:
                raise ValueError(
                    f"both sides hold FIBS board index {index} (the player's point "
                    f"{25 - slot}, the opponent's point {slot})"
                )
            board[index] = -count * colour
    return tuple(board)
