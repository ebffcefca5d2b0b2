"""Slots text: our own position format for every variant, whatever its board.

GNU Backgammon's Position ID and XGID describe the usual board only (the two sides
moving in opposite directions, no pinned checkers). Slots text writes a position as
its 52 stored slots, so it covers every variant (Russian, acey-deucey, long nardy,
Plakoto, custom start layouts) and round-trips exactly::

    slots:<26 player symbols>/<26 opponent symbols>

Each side lists its slots in its own numbering: slot 0 checkers borne off, 1..24 its
points, 25 its bar. A symbol is a count in base 36 (``0``-``9`` then ``a``-``z``: 0 to
35), or ``*`` for a single checker pinned under the opponent (Plakoto). The side on
roll comes first. Which variant's board the slots are read on is not part of the text.

>>> text = encode_slots_text((0,) * 24 + (15, 0), (0,) * 24 + (15, 0))
>>> text
'slots:000000000000000000000000f0/000000000000000000000000f0'
>>> decode_slots_text(text)[0][24]
15
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon.errors import InvalidIdError

__all__ = ["PINNED_SYMBOL", "PREFIX", "decode_slots_text", "encode_slots_text"]

PREFIX = "slots:"
PINNED_SYMBOL = "*"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_SLOTS = 26
_PINNED_VALUE = 0x81  # one checker with the pin mark (0x80)


def _symbol(value: int) -> str:
    if value == _PINNED_VALUE:
        return PINNED_SYMBOL
    if not 0 <= value < len(_DIGITS):
        raise ValueError(f"slots text holds counts 0..35 or a pinned checker, got {value}")
    return _DIGITS[value]


_UNWRITABLE = ord("?")
_SYMBOL_TABLE = bytes(
    ord(_DIGITS[value])
    if value < len(_DIGITS)
    else ord(PINNED_SYMBOL)
    if value == _PINNED_VALUE
    else _UNWRITABLE
    for value in range(256)
)
"""Each byte's symbol (``?`` where a slot cannot be written), to write a side at once."""


def _side_text(side: Sequence[int]) -> str:
    if len(side) != _SLOTS:
        raise ValueError(f"each side needs {_SLOTS} slots, got {len(side)}")
    try:
        text = bytes(side).translate(_SYMBOL_TABLE)
    except (TypeError, ValueError):
        text = bytes([_UNWRITABLE])
    if _UNWRITABLE in text:  # one value at a time: raises for the first unwritable one
        return "".join(_symbol(value) for value in side)
    return text.decode("ascii")


def encode_slots_text(player: Sequence[int], opponent: Sequence[int]) -> str:
    """The slots text of two sides of 26 stored slots each.

    Raises:
        ValueError: if a side does not have 26 slots or a slot cannot be written.
    """
    return f"{PREFIX}{_side_text(player)}/{_side_text(opponent)}"


def decode_slots_text(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The two sides' 26 stored slots of a slots text (pinned checkers as ``0x81``).

    Raises:
        InvalidIdError: naming what is wrong with ``text``.
    """
    stripped = text.strip()
    if not stripped.lower().startswith(PREFIX):
        raise InvalidIdError(f"slots text must start with {PREFIX!r}: {text!r}")
    body = stripped[len(PREFIX) :]
    halves = body.split("/")
    if len(halves) != 2:
        raise InvalidIdError(f"slots text needs two sides separated by '/': {text!r}")
    sides: list[tuple[int, ...]] = []
    for name, half in zip(("player", "opponent"), halves, strict=True):
        if len(half) != _SLOTS:
            raise InvalidIdError(
                f"slots text: the {name} needs {_SLOTS} symbols, got {len(half)} in {text!r}"
            )
        values = []
        for index, char in enumerate(half.lower()):
            if char == PINNED_SYMBOL:
                values.append(_PINNED_VALUE)
            elif char in _DIGITS:
                values.append(_DIGITS.index(char))
            else:
                raise InvalidIdError(
                    f"slots text: the {name}'s slot {index} is {char!r}, not a base-36 count or '*'"
                )
        sides.append(tuple(values))
    return sides[0], sides[1]
