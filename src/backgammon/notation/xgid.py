"""eXtreme Gammon's XGID: a pure codec over plain checker counts and cube/score fields.

Format (after gnubg-src ``set.c`` ``SetXGID`` and ``positionid.c``
``PositionFromXG``, and XG's own examples at
https://www.bgonline.org/forums/webbbs_config.pl?noframes;read=165695)::

    XGID=<position>:<cube>:<cubepos>:<turn>:<dice>:<score1>:<score2>:<cj>:<len>:<maxcube>

Exactly ten ``:``-separated fields after the optional ``XGID=`` prefix:

1. ``position``, 26 characters. Character 0 is the top (lower-case) player's bar,
   characters 1..24 are points 1..24 counted from the bottom (upper-case) player's
   side, character 25 is the bottom player's bar. ``-`` is an empty point, ``A``..``P``
   are 1..16 bottom checkers and ``a``..``p`` 1..16 top checkers. So the top player's
   own point ``p`` is character ``25 - p``, and its bar (its point 25) is character 0.
2. ``cube``: log2 of the cube value.
3. ``cubepos``: 1 the bottom player owns the cube, 0 centred, -1 the top player owns it.
4. ``turn``: 1 the bottom player is on roll, -1 the top player.
5. ``dice``: two digits 1..6 as rolled, ``00`` when not yet rolled, or ``D`` while a
   double is pending.
6. ``score1``: the bottom player's score; 7. ``score2``: the top player's score.
   (GNU Backgammon maps the top player to its player 0.)
8. ``cj``: in match play 1 for the Crawford game, else 0; in money play a bit field,
   1 = Jacoby, 2 = beaver (3 = both).
9. ``len``: the match length, 0 for money.
10. ``maxcube``: log2 of the largest cube allowed, usually 10; 0 means cubeless.

This module converts the position to two 25-tuples, each side in its **own** numbering
(index 0..23 its points 1..24, index 24 its bar), the layout used by the Position ID
codec. It checks the format, not the rules: a side may hold any number of checkers (up
to 16 per point, the most a character can say), as variants differ.

Integers are written in plain decimal (``-1``, ``0``, ``10``) of at most 9 digits: a
leading ``+``, ``-0`` or superfluous leading zeros are rejected, so every accepted XGID
re-encodes to the same text (with the ``XGID=`` prefix).

>>> start = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10")
>>> start.bottom[5], start.bottom[7], start.bottom[12], start.bottom[23]
(5, 3, 5, 2)
>>> start.top == start.bottom
True
>>> encode_xgid(start)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from backgammon.errors import InvalidIdError

__all__ = ["XgidFields", "decode_xgid", "encode_xgid"]

_PREFIX = "XGID="
_SLOTS = 25
_FIELDS = 10
_MAX_PER_CHAR = 16
_POSITION_PATTERN = re.compile(r"[-A-Pa-p]{26}")
_INT_PATTERN = re.compile(r"0|-?[1-9][0-9]{0,8}")
_DICE_PATTERN = re.compile(r"00|D|[1-6][1-6]")
# The bounds of GNU Backgammon's Match ID (and our MatchState): a cube of at most
# 2**15, scores and lengths of 15 bits. Bounding them here keeps every consumer's
# ``1 << cube_log2`` and score arithmetic small, whoever sent the text.
_MAX_CUBE_LOG2 = 15
_MAX_15_BITS = (1 << 15) - 1
_MAX_CRAWFORD_JACOBY = 3


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if value < low or (high is not None and value > high):
        expected = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {expected}, got {value}")


def _check_choice(name: str, value: object, choices: tuple[int, ...], meaning: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value not in choices:
        raise ValueError(f"{name} must be {meaning}, got {value!r}")


def _check_side(name: str, side: object) -> None:
    if not isinstance(side, tuple) or len(side) != _SLOTS:
        raise ValueError(f"{name} must be a tuple of 25 counts (points 1-24, bar), got {side!r}")
    for count in side:
        _check_int(f"a {name} count", count, 0, _MAX_PER_CHAR)


@dataclass(frozen=True, slots=True, kw_only=True)
class XgidFields:
    """Every field of an XGID, with the position split into the two sides.

    Attributes:
        bottom: 25 counts of the bottom (upper-case, XG's "X") player: its points 1..24
            in its own numbering, then its bar.
        top: 25 counts of the top (lower-case) player: its points 1..24 in **its own**
            numbering (XG's point ``i`` is its point ``25 - i``), then its bar.
        cube_log2: log2 of the cube value, 0..15 (a cube of at most 32768).
        cube_position: 1 the bottom player owns the cube, 0 centred, -1 the top player.
        turn: 1 the bottom player is on roll, -1 the top player.
        dice: the two dice as written, each 1..6, or ``(0, 0)`` when not rolled.
        double_pending: whether a double is pending (dice field ``D``; dice ``(0, 0)``).
        score_bottom: the bottom player's score, 0..32767.
        score_top: the top player's score, 0..32767.
        crawford_jacoby: the Crawford flag in match play, the Jacoby/beaver bit field
            in money play.
        match_length: 0 for money, at most 32767.
        max_cube: log2 of the largest cube allowed, 0..15 (usually 10; 0 means
            cubeless).

    Raises:
        ValueError: from the constructor, if a field is out of range, a side does not
            have 25 counts of 0..16, both sides hold the same point, or a pending double
            comes with dice.
    """

    bottom: tuple[int, ...]
    top: tuple[int, ...]
    cube_log2: int = 0
    cube_position: int = 0
    turn: int = 1
    dice: tuple[int, int] = (0, 0)
    double_pending: bool = False
    score_bottom: int = 0
    score_top: int = 0
    crawford_jacoby: int = 0
    match_length: int = 0
    max_cube: int = 10

    def __post_init__(self) -> None:
        _check_side("bottom", self.bottom)
        _check_side("top", self.top)
        for point in range(1, 25):
            if self.bottom[point - 1] and self.top[24 - point]:
                raise ValueError(
                    f"both sides hold the bottom player's point {point} "
                    f"(the top player's point {25 - point})"
                )
        _check_int("cube_log2", self.cube_log2, 0, _MAX_CUBE_LOG2)
        _check_choice("cube_position", self.cube_position, (-1, 0, 1), "-1, 0 or 1")
        _check_choice("turn", self.turn, (-1, 1), "1 (bottom) or -1 (top)")
        if not isinstance(self.dice, tuple) or len(self.dice) != 2:
            raise ValueError(f"dice must be a tuple of two ints, got {self.dice!r}")
        for die in self.dice:
            _check_int("a die", die, 0, 6)
        if (self.dice[0] == 0) != (self.dice[1] == 0):
            raise ValueError(f"dice must be both rolled or both 0, got {self.dice}")
        if not isinstance(self.double_pending, bool):
            raise ValueError(f"double_pending must be a bool, got {self.double_pending!r}")
        if self.double_pending and self.dice != (0, 0):
            raise ValueError(f"a pending double cannot come with dice, got {self.dice}")
        _check_int("score_bottom", self.score_bottom, 0, _MAX_15_BITS)
        _check_int("score_top", self.score_top, 0, _MAX_15_BITS)
        _check_int("crawford_jacoby", self.crawford_jacoby, 0, _MAX_CRAWFORD_JACOBY)
        _check_int("match_length", self.match_length, 0, _MAX_15_BITS)
        _check_int("max_cube", self.max_cube, 0, _MAX_CUBE_LOG2)


def _count_char(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def encode_xgid(fields: XgidFields) -> str:
    """Return the XGID of ``fields``, with the ``XGID=`` prefix.

    The fields were validated when ``fields`` was built, so this cannot fail.
    """
    chars = ["-"] * 26
    chars[0] = _count_char(fields.top[24], upper=False)
    chars[25] = _count_char(fields.bottom[24], upper=True)
    for point in range(1, 25):
        bottom = fields.bottom[point - 1]
        top = fields.top[24 - point]
        chars[point] = _count_char(bottom, upper=True) if bottom else _count_char(top, upper=False)
    dice = "D" if fields.double_pending else f"{fields.dice[0]}{fields.dice[1]}"
    values = (
        "".join(chars),
        str(fields.cube_log2),
        str(fields.cube_position),
        str(fields.turn),
        dice,
        str(fields.score_bottom),
        str(fields.score_top),
        str(fields.crawford_jacoby),
        str(fields.match_length),
        str(fields.max_cube),
    )
    return _PREFIX + ":".join(values)


_INT_FIELD_NAMES = (
    "cube",
    "cube position",
    "turn",
    None,  # dice
    "bottom score",
    "top score",
    "Crawford/Jacoby",
    "match length",
    "max cube",
)


def decode_xgid(text: str) -> XgidFields:
    """Decode an XGID, with or without the ``XGID=`` prefix.

    Surrounding whitespace is ignored.

    Raises:
        InvalidIdError: if ``text`` does not have ten ``:``-separated fields, the
            position is not 26 characters of ``-``, ``A``-``P``, ``a``-``p``, a bar holds
            the other side's checkers, a number is not a plain decimal integer, the dice
            are not ``00``, ``D`` or two digits 1..6, or a value is out of range. The
            message quotes ``text``.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"an XGID must be a string, got {type(text).__name__}")
    body = text.strip()
    if body.startswith(_PREFIX):
        body = body[len(_PREFIX) :]
    parts = body.split(":")
    if len(parts) != _FIELDS:
        raise InvalidIdError(
            f"invalid XGID {text!r}: expected {_FIELDS} ':'-separated fields, got {len(parts)}"
        )
    position = parts[0]
    if not _POSITION_PATTERN.fullmatch(position):
        raise InvalidIdError(
            f"invalid XGID {text!r}: the position must be 26 characters of '-', 'A'-'P' "
            f"and 'a'-'p', got {position!r}"
        )
    if position[0].isupper():
        raise InvalidIdError(
            f"invalid XGID {text!r}: character 0 is the top player's bar but holds "
            f"bottom checkers ({position[0]!r})"
        )
    if position[25].islower():
        raise InvalidIdError(
            f"invalid XGID {text!r}: character 25 is the bottom player's bar but holds "
            f"top checkers ({position[25]!r})"
        )
    bottom = [0] * _SLOTS
    top = [0] * _SLOTS
    for index, char in enumerate(position):
        if char == "-":
            continue
        count = ord(char.lower()) - ord("a") + 1
        if char.isupper():
            bottom[_SLOTS - 1 if index == 25 else index - 1] = count
        else:
            top[_SLOTS - 1 if index == 0 else 24 - index] = count
    numbers: list[int] = []
    for name, part in zip(_INT_FIELD_NAMES, parts[1:], strict=True):
        if name is None:
            continue
        if not _INT_PATTERN.fullmatch(part):
            raise InvalidIdError(
                f"invalid XGID {text!r}: the {name} field must be a plain decimal integer "
                f"of at most 9 digits, got {part!r}"
            )
        numbers.append(int(part))
    dice_text = parts[4]
    if not _DICE_PATTERN.fullmatch(dice_text):
        raise InvalidIdError(
            f"invalid XGID {text!r}: the dice field must be '00', 'D' or two digits 1-6, "
            f"got {dice_text!r}"
        )
    double_pending = dice_text == "D"
    dice = (0, 0) if double_pending else (int(dice_text[0]), int(dice_text[1]))
    cube, cube_position, turn, score_bottom, score_top, cj, length, max_cube = numbers
    try:
        return XgidFields(
            bottom=tuple(bottom),
            top=tuple(top),
            cube_log2=cube,
            cube_position=cube_position,
            turn=turn,
            dice=dice,
            double_pending=double_pending,
            score_bottom=score_bottom,
            score_top=score_top,
            crawford_jacoby=cj,
            match_length=length,
            max_cube=max_cube,
        )
    except ValueError as exc:
        raise InvalidIdError(f"invalid XGID {text!r}: {exc}") from exc
