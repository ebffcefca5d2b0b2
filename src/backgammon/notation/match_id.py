"""GNU Backgammon's Match ID: a pure codec over the raw match-state fields.

Format (GNU Backgammon manual, "A technical description of the Match ID",
https://www.gnu.org/software/gnubg/manual/html_node/A-technical-description-of-the-Match-ID.html),
plus the Jacoby bit that GNU Backgammon
1.07 appends (gnubg-src ``matchid.c``, ``MatchID``/``MatchFromKey``; the manual predates
it). The match key is 67 bits. Each field is stored least significant bit first, in
this order (bit numbers count from 1):

======  ====================  ==================================================
Bits    Field                 Values
======  ====================  ==================================================
1-4     ``cube_log2``         log2 of the cube value (0..15, so at most 32768)
5-6     ``cube_owner``        0 = player 0, 1 = player 1, 3 = centred (2 unused)
7       ``dice_owner``        the player on roll, or who did roll (0 or 1)
8       ``crawford``          1 if this game is the Crawford game
9-11    ``game_state``        0 none, 1 playing, 2 over, 3 resigned, 4 dropped
12      ``turn``              who must decide now (0 or 1)
13      ``double_offered``    1 while a double is being offered
14-15   ``resignation``       0 none, 1 single, 2 gammon, 3 backgammon offered
16-18   die 1                 1..6, 0 = not rolled
19-21   die 2                 1..6, 0 = not rolled
22-36   ``match_length``      0 = money session
37-51   ``score0``            player 0's score
52-66   ``score1``            player 1's score
67      ``jacoby``            inverted: 1 = the Jacoby rule is **not** in use
======  ====================  ==================================================

Bit 67 is stored inverted, so an ID written before the bit existed (such as the
manual's example, which ends in ``A``) reads as "Jacoby in use". GNU Backgammon 1.07
sets it whenever the Jacoby rule is off, which includes all match play, so most of its
Match IDs end in ``E`` (e.g. ``cIkFAAAAAAAE``).

The bits are packed little-endian within bytes (bit ``i``, counting from 0, goes to
byte ``i // 8`` at bit position ``i % 8``), padded with five zero bits to 9 bytes and
written as 12 Base64 characters (RFC 2045 alphabet; 9 bytes need no ``=`` padding).
GNU Backgammon writes the higher die first; this codec keeps the dice in the order
given, so pass them higher first to reproduce its IDs exactly.

Decoding is strict: it accepts exactly the IDs that :func:`encode_match_id` can write,
so every accepted ID re-encodes to the same text. It rejects

* anything but 12 characters of ``A-Z a-z 0-9 + /`` (surrounding whitespace is
  ignored);
* set padding bits (bits 68-72): they carry no field, so two IDs would decode alike;
* the cube owner value 2, which GNU Backgammon never writes;
* a game state above 4;
* a die of 7, or one die rolled while the other is not;
* the Crawford flag in a money session (GNU Backgammon rejects it too);
* a score at or above the match length while a match game is still being played
  (game state 1): that match would already be over. Once a game is over (states 2-4)
  the winner's score may reach the match length, and with no game started (state 0) or
  in a money session (match length 0) the scores are not checked.

It deliberately does **not** reject combinations that are odd but representable and
that GNU Backgammon itself reads (dice on the table while a double is offered, a
resignation flag outside game state 1, the lower die first, a score above the match
length once the game is over, ...): those are questions for the rules layer.

The manual's worked example: a 9-point match at 2-4, player 0 owns a 2-cube, player 1
has rolled 52 (written before bit 67 existed, hence ``jacoby=True``).

>>> fields = MatchIdFields(cube_log2=1, cube_owner=0, dice_owner=1, turn=1,
...                        dice=(5, 2), match_length=9, score0=2, score1=4, jacoby=True)
>>> encode_match_id(fields)
'QYkqASAAIAAA'
>>> decode_match_id('QYkqASAAIAAA') == fields
True
>>> decode_match_id('QYkqASAAIAAE') == MatchIdFields(
...     cube_log2=1, cube_owner=0, dice_owner=1, turn=1, dice=(5, 2),
...     match_length=9, score0=2, score1=4, jacoby=False)
True
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

from backgammon.errors import InvalidIdError

__all__ = ["MatchIdFields", "decode_match_id", "encode_match_id"]

_ID_LENGTH = 12
_KEY_BYTES = 9
_KEY_BITS = 67
_MAX_15_BITS = (1 << 15) - 1
_CENTRED = 3
_ID_PATTERN = re.compile(r"[A-Za-z0-9+/]{12}")

# (field, width in bits), in key order; die 1 and die 2 are the two halves of ``dice``.
_LAYOUT: tuple[tuple[str, int], ...] = (
    ("cube_log2", 4),
    ("cube_owner", 2),
    ("dice_owner", 1),
    ("crawford", 1),
    ("game_state", 3),
    ("turn", 1),
    ("double_offered", 1),
    ("resignation", 2),
    ("die1", 3),
    ("die2", 3),
    ("match_length", 15),
    ("score0", 15),
    ("score1", 15),
    ("no_jacoby", 1),
)


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an int, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be a bool, got {value!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchIdFields:
    """Every field of a Match ID, raw as GNU Backgammon stores them.

    Players are numbered 0 and 1 as in GNU Backgammon. The defaults describe a money
    game at its start as GNU Backgammon 1.07 writes it: cube 1 centred, player 0 to
    roll, nothing rolled, Jacoby rule off.

    Attributes:
        cube_log2: log2 of the cube value, 0..15.
        cube_owner: 0 or 1 for the owning player, 3 for a centred cube.
        dice_owner: the player on roll (or who did roll), 0 or 1.
        crawford: whether this game is the Crawford game.
        game_state: 0 no game, 1 playing, 2 over, 3 resigned, 4 ended by a dropped cube.
        turn: the player who must decide now, 0 or 1.
        double_offered: whether a double is being offered.
        resignation: 0 none, 1 single, 2 gammon, 3 backgammon.
        dice: the two dice, each 1..6, or ``(0, 0)`` when not rolled.
        match_length: 0 for money, else 1..32767.
        score0: player 0's score, 0..32767.
        score1: player 1's score, 0..32767.
        jacoby: whether the Jacoby rule is in use (bit 67, stored inverted).

    Raises:
        ValueError: from the constructor, if a field is out of range or the fields
            contradict each other in the ways listed in the module docstring.
    """

    cube_log2: int = 0
    cube_owner: int = _CENTRED
    dice_owner: int = 0
    crawford: bool = False
    game_state: int = 1
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score0: int = 0
    score1: int = 0
    jacoby: bool = False

    def __post_init__(self) -> None:
        _check_int("cube_log2", self.cube_log2, 0, 15)
        _check_int("cube_owner", self.cube_owner, 0, _CENTRED)
        if self.cube_owner == 2:
            raise ValueError("cube_owner must be 0, 1 or 3 (centred), got 2")
        _check_int("dice_owner", self.dice_owner, 0, 1)
        _check_bool("crawford", self.crawford)
        _check_int("game_state", self.game_state, 0, 4)
        _check_int("turn", self.turn, 0, 1)
        _check_bool("double_offered", self.double_offered)
        _check_int("resignation", self.resignation, 0, 3)
        if not isinstance(self.dice, tuple) or len(self.dice) != 2:
            raise ValueError(f"dice must be a tuple of two ints, got {self.dice!r}")
        for die in self.dice:
            _check_int("a die", die, 0, 6)
        if (self.dice[0] == 0) != (self.dice[1] == 0):
            raise ValueError(f"dice must be both rolled or both 0, got {self.dice}")
        _check_int("match_length", self.match_length, 0, _MAX_15_BITS)
        _check_int("score0", self.score0, 0, _MAX_15_BITS)
        _check_int("score1", self.score1, 0, _MAX_15_BITS)
        _check_bool("jacoby", self.jacoby)
        if self.crawford and self.match_length == 0:
            raise ValueError("the Crawford flag is set in a money session (match length 0)")
        if (
            self.game_state == 1
            and self.match_length > 0
            and max(self.score0, self.score1) >= self.match_length
        ):
            raise ValueError(
                f"a game is being played but the score {self.score0}-{self.score1} "
                f"already ends the {self.match_length}-point match"
            )


def encode_match_id(fields: MatchIdFields) -> str:
    """Return the 12-character Match ID of ``fields``.

    The fields were validated when ``fields`` was built, so this cannot fail.
    """
    values = {
        "cube_log2": fields.cube_log2,
        "cube_owner": fields.cube_owner,
        "dice_owner": fields.dice_owner,
        "crawford": int(fields.crawford),
        "game_state": fields.game_state,
        "turn": fields.turn,
        "double_offered": int(fields.double_offered),
        "resignation": fields.resignation,
        "die1": fields.dice[0],
        "die2": fields.dice[1],
        "match_length": fields.match_length,
        "score0": fields.score0,
        "score1": fields.score1,
        "no_jacoby": int(not fields.jacoby),
    }
    key = 0
    offset = 0
    for name, width in _LAYOUT:
        key |= values[name] << offset
        offset += width
    return base64.b64encode(key.to_bytes(_KEY_BYTES, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchIdFields:
    """Decode a Match ID into its fields. Surrounding whitespace is ignored.

    Raises:
        InvalidIdError: if ``text`` is not 12 Base64 characters, has padding bits set,
            or holds a field value or combination listed in the module docstring as
            rejected. The message quotes ``text``.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"a Match ID must be a string, got {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) != _ID_LENGTH:
        raise InvalidIdError(
            f"invalid Match ID {text!r}: expected 12 Base64 characters, got {len(stripped)}"
        )
    if not _ID_PATTERN.fullmatch(stripped):
        raise InvalidIdError(
            f"invalid Match ID {text!r}: expected only Base64 characters (A-Z a-z 0-9 + /)"
        )
    try:
        raw = base64.b64decode(stripped, validate=True)
    except binascii.Error as exc:  # pragma: no cover - excluded by the pattern above
        raise InvalidIdError(f"invalid Match ID {text!r}: {exc}") from exc
    key = int.from_bytes(raw, "little")
    if key >> _KEY_BITS:
        raise InvalidIdError(
            f"invalid Match ID {text!r}: padding bits after bit 67 are set (they must be zero)"
        )
    values: dict[str, int] = {}
    offset = 0
    for name, width in _LAYOUT:
        values[name] = (key >> offset) & ((1 << width) - 1)
        offset += width
    try:
        return MatchIdFields(
            cube_log2=values["cube_log2"],
            cube_owner=values["cube_owner"],
            dice_owner=values["dice_owner"],
            crawford=bool(values["crawford"]),
            game_state=values["game_state"],
            turn=values["turn"],
            double_offered=bool(values["double_offered"]),
            resignation=values["resignation"],
            dice=(values["die1"], values["die2"]),
            match_length=values["match_length"],
            score0=values["score0"],
            score1=values["score1"],
            jacoby=not values["no_jacoby"],
        )
    except ValueError as exc:
        raise InvalidIdError(f"invalid Match ID {text!r}: {exc}") from exc
