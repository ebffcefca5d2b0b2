"""GNU Backgammon's Position ID: a pure codec over plain checker counts.

Format (GNU Backgammon manual, "A technical description of the Position ID",
https://www.gnu.org/software/gnubg/manual/html_node/A-technical-description-of-the-Position-ID.html):

1. For the player **not** on roll, for each of its points 1..24 and then its bar, append
   as many ``1`` bits as it has checkers there, then one ``0`` bit.
2. The same for the player on roll.
3. Pad with ``0`` bits to 80 bits, pack little-endian within each byte (bit ``i`` goes
   to byte ``i // 8`` at bit position ``i % 8``), encode as Base64 and drop the ``==``.

Each side is given here as 25 counts in its **own** numbering: index 0..23 are its
points 1..24, index 24 is its bar (GNU Backgammon's ``board`` layout). Checkers borne
off are not encoded: they are whatever is missing from the variant's checker count.

>>> player = [0] * 25
>>> for point, count in {24: 2, 13: 5, 8: 3, 6: 5}.items():
...     player[point - 1] = count
>>> encode_position_id(player, player)
'4HPwATDgc/ABMA'
>>> decode_position_id('4HPwATDgc/ABMA')[0] == tuple(player)
True
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence

from backgammon.errors import InvalidIdError

__all__ = ["decode_position_id", "encode_position_id"]

_ID_LENGTH = 14
_KEY_BITS = 80
_SLOTS = 25
_BASE64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def encode_position_id(player: Sequence[int], opponent: Sequence[int]) -> str:
    """Return the 14-character Position ID for the side on roll ``player``.

    Args:
        player: 25 counts (points 1..24, bar) of the side on roll, in its own numbering.
        opponent: 25 counts of the other side, in its own numbering.

    Raises:
        InvalidIdError: if a side does not have 25 non-negative counts, or the two
            sides together hold more checkers than 80 bits can encode.
    """
    bits: list[int] = []
    for name, side in (("opponent", opponent), ("player", player)):
        if len(side) != _SLOTS:
            raise InvalidIdError(f"{name} needs 25 counts (points 1-24 and bar), got {len(side)}")
        for count in side:
            if count < 0:
                raise InvalidIdError(f"{name} has a negative checker count {count}")
            bits.extend([1] * count)
            bits.append(0)
    if len(bits) > _KEY_BITS:
        raise InvalidIdError(
            f"a Position ID holds at most 30 checkers in all, got {len(bits) - 2 * _SLOTS}"
        )
    key = bytearray(_KEY_BITS // 8)
    for index, bit in enumerate(bits):
        if bit:
            key[index >> 3] |= 1 << (index & 7)
    return base64.b64encode(bytes(key)).decode("ascii")[:_ID_LENGTH]


def decode_position_id(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Decode a Position ID into ``(player, opponent)``, each 25 counts in its own numbering.

    ``player`` is the side on roll. Surrounding whitespace is ignored.

    Raises:
        InvalidIdError: if ``text`` is not 14 Base64 characters, or its bits do not
            describe two sides of 25 slots each followed only by zero padding.
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"a Position ID must be a string, got {type(text).__name__}")
    stripped = text.strip()
    if len(stripped) != _ID_LENGTH or not set(stripped) <= _BASE64_CHARS:
        raise InvalidIdError(
            f"invalid Position ID {text!r}: expected 14 Base64 characters (A-Z a-z 0-9 + /)"
        )
    try:
        key = base64.b64decode(stripped + "==", validate=True)
    except binascii.Error as exc:  # pragma: no cover - excluded by the check above
        raise InvalidIdError(f"invalid Position ID {text!r}: {exc}") from exc
    if base64.b64encode(key).decode("ascii")[:_ID_LENGTH] != stripped:
        raise InvalidIdError(
            f"invalid Position ID {text!r}: its last character has padding bits set"
        )
    sides: list[list[int]] = [[], []]
    side, count, index = 0, 0, 0
    while index < _KEY_BITS and side < 2:
        if key[index >> 3] >> (index & 7) & 1:
            count += 1
        else:
            sides[side].append(count)
            count = 0
            if len(sides[side]) == _SLOTS:
                side += 1
        index += 1
    if side < 2:
        raise InvalidIdError(f"invalid Position ID {text!r}: the bits end before both sides do")
    while index < _KEY_BITS:
        if key[index >> 3] >> (index & 7) & 1:
            raise InvalidIdError(f"invalid Position ID {text!r}: more than 30 checkers encoded")
        index += 1
    opponent, player = sides
    return tuple(player), tuple(opponent)
