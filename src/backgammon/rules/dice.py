"""Dice: rolls, the 21 distinct rolls with their weights, and pluggable dice sources.

Chance is explicit. A :class:`Roll` is an ordered pair of dice (or three dice, for
tabula's throws). Dice come from a
:class:`DiceSource` that the caller owns: :class:`SeededDice` (reproducible),
:class:`ScriptedDice` (a fixed list, for tests and replays) or :class:`SecureDice`
(the operating system's cryptographic generator). There is no module-level RNG.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol, TypeAlias, runtime_checkable

from backgammon.errors import InvalidNotationError

__all__ = [
    "ALL_ROLLS",
    "ALL_THROWS_OF_THREE",
    "DiceSource",
    "Roll",
    "RollLike",
    "ScriptedDice",
    "SecureDice",
    "SeededDice",
    "roll_weight",
]


@dataclass(frozen=True, slots=True)
class Roll:
    """Two dice as rolled, in order (``Roll(6, 2)`` and ``Roll(2, 6)`` differ only in
    order; :meth:`normalized` puts the higher die first), or three dice with ``third``
    (tabula: each die is played once, equal dice are not doubled).

    >>> Roll(3, 1).moves
    (3, 1)
    >>> Roll(4, 4).moves
    (4, 4, 4, 4)
    >>> str(Roll.parse("6-2"))
    '6-2'
    >>> Roll.parse("2-5-6", dice=3).moves
    (2, 5, 6)
    """

    first: int
    second: int
    third: int | None = None

    def __post_init__(self) -> None:
        dice = (self.first, self.second) if self.third is None else self.dice
        for die in dice:
            if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
                raise ValueError(f"a die shows 1..6, got {die!r}")

    @classmethod
    def parse(cls, text: str, dice: int | None = 2) -> Roll:
        """Parse ``"6-2"``, ``"62"``, ``"6 2"`` or ``"6,2"``; with ``dice=3`` a throw
        of three dice such as ``"6-5-2"`` (or ``"652"``); ``dice=None`` takes either.

        Raises:
            InvalidNotationError: if ``text`` is not that many dice of 1..6.
        """
        if not isinstance(text, str):
            raise InvalidNotationError(f"a roll must be text like '6-2', got {text!r}")
        match = re.fullmatch(r"\s*([1-6])\s*[-/, ]?\s*([1-6])\s*(?:[-/, ]?\s*([1-6])\s*)?", text)
        third = None if match is None else match.group(3)
        count = 3 if third is not None else 2
        if match is None or (dice is not None and count != dice):
            expected = {2: "two dice like '6-2'", 3: "three dice like '6-5-2'"}.get(
                dice or 0, "two dice like '6-2' or three like '6-5-2'"
            )
            raise InvalidNotationError(f"invalid roll {text!r}: expected {expected}")
        return cls(int(match.group(1)), int(match.group(2)), None if third is None else int(third))

    @classmethod
    def coerce(cls, roll: RollLike, dice: int | None = 2) -> Roll:
        """Accept a :class:`Roll`, a pair of ints like ``(3, 1)``, or text like
        ``"3-1"``; with ``dice=3`` a triple or text of three dice (tabula), with
        ``dice=None`` either. A :class:`Roll` is returned as it is.

        Raises:
            ValueError: if it is not that many dice of 1..6.
        """
        if isinstance(roll, Roll):
            return roll
        if isinstance(roll, str):
            return cls.parse(roll, dice=dice)
        try:
            values = tuple(roll)
        except TypeError:
            values = ()
        if len(values) in ((2, 3) if dice is None else (dice,)):
            return cls(*values)
        expected = {2: "two dice like (3, 1)", 3: "three dice like (6, 5, 2)"}.get(
            dice or 0, "two dice like (3, 1) or three like (6, 5, 2)"
        )
        raise ValueError(f"a roll is {expected}, got {roll!r}")

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice as rolled: two, or three for a throw of three dice."""
        if self.third is None:
            return (self.first, self.second)
        return (self.first, self.second, self.third)

    @property
    def high(self) -> int:
        """The highest die."""
        return max(self.dice)

    @property
    def low(self) -> int:
        """The lowest die."""
        return min(self.dice)

    @property
    def is_double(self) -> bool:
        """True when two dice show the same number (a double, played four times);
        always False for three dice, whose equal numbers are not doubled."""
        return self.third is None and self.first == self.second

    @property
    def moves(self) -> tuple[int, ...]:
        """The numbers to play: four of a double, else the dice as rolled."""
        if self.is_double:
            return (self.first,) * 4
        return self.dice

    def normalized(self) -> Roll:
        """The same roll with the highest die first."""
        if self.third is None:
            return Roll(self.high, self.low)
        first, second, third = sorted(self.dice, reverse=True)
        return Roll(first, second, third)

    @property
    def weight(self) -> Fraction:
        """The probability of this roll regardless of order: 1/36 a double, else 2/36."""
        return roll_weight(self)

    def __iter__(self) -> Iterator[int]:
        return iter(self.dice)

    def __repr__(self) -> str:
        if self.third is None:
            return f"Roll(first={self.first}, second={self.second})"
        return f"Roll(first={self.first}, second={self.second}, third={self.third})"

    def __str__(self) -> str:
        return "-".join(map(str, self.dice))


RollLike: TypeAlias = Roll | tuple[int, int] | tuple[int, int, int] | str


def roll_weight(roll: Roll) -> Fraction:
    """The probability of ``roll`` when order does not matter (out of 36 for two
    dice, 216 for three)."""
    if roll.third is not None:
        distinct = len(set(roll.dice))
        return Fraction({1: 1, 2: 3, 3: 6}[distinct], 216)
    return Fraction(1, 36) if roll.is_double else Fraction(2, 36)


ALL_ROLLS: tuple[Roll, ...] = tuple(
    Roll(high, low) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 distinct rolls, higher die first; weigh them with :attr:`Roll.weight`."""

ALL_THROWS_OF_THREE: tuple[Roll, ...] = tuple(
    Roll(high, middle, low)
    for high in range(1, 7)
    for middle in range(1, high + 1)
    for low in range(1, middle + 1)
)
"""The 56 distinct throws of three dice (tabula), highest first; weigh them with
:attr:`Roll.weight`."""


@runtime_checkable
class DiceSource(Protocol):
    """Anything that rolls dice: one call, one roll of two dice."""

    def roll(self) -> Roll:
        """Roll two dice."""
        ...


class SeededDice:
    """Reproducible dice from a seed: the same seed gives the same sequence.

    >>> a, b = SeededDice(7), SeededDice(7)
    >>> [a.roll() for _ in range(5)] == [b.roll() for _ in range(5)]
    True
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def roll(self) -> Roll:
        """Roll two dice."""
        return Roll(self._random.randint(1, 6), self._random.randint(1, 6))


class SecureDice:
    """Dice from the operating system's cryptographically secure generator."""

    def roll(self) -> Roll:
        """Roll two dice."""
        return Roll(secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


class ScriptedDice:
    """Dice that replay a fixed list of rolls, then raise when it runs out.

    >>> dice = ScriptedDice(["3-1", (6, 6)])
    >>> dice.roll(), dice.roll()
    (Roll(first=3, second=1), Roll(first=6, second=6))
    """

    def __init__(self, rolls: Iterable[RollLike]) -> None:
        self._rolls = [Roll.coerce(roll, dice=None) for roll in rolls]
        self._next = 0

    @property
    def remaining(self) -> int:
        """How many scripted rolls are left."""
        return len(self._rolls) - self._next

    def roll(self) -> Roll:
        """Return the next scripted roll.

        Raises:
            IndexError: when every scripted roll has been used.
        """
        if self._next >= len(self._rolls):
            raise IndexError(f"the dice script ran out after {len(self._rolls)} rolls")
        roll = self._rolls[self._next]
        self._next += 1
        return roll
