"""The 36 rolls of the next turn, as the 21 distinct rolls with their weights, and
sets of them: what every measure of :mod:`backgammon.analysis.explain` counts over.

>>> sum(ways for _, ways in ROLLS)
36
>>> RollSet.of([Roll(6, 5), Roll(3, 3)]).count
3
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from backgammon.rules.dice import Roll
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["ROLLS", "RollSet", "rolls_where"]

ROLLS: tuple[tuple[Roll, int], ...] = tuple(
    (Roll(high, low), 1 if high == low else 2) for high in range(1, 7) for low in range(1, high + 1)
)
"""The 21 distinct rolls, higher die first, each with how many of the 36 it is."""


@dataclass(frozen=True, slots=True)
class RollSet:
    """Some of the 21 distinct rolls (higher die first): the rolls that do something."""

    rolls: frozenset[Roll]

    @classmethod
    def of(cls, rolls: Iterable[Roll]) -> RollSet:
        """The set of ``rolls`` (each normalised to the higher die first)."""
        return cls(frozenset(roll.normalized() for roll in rolls))

    @property
    def count(self) -> int:
        """How many of the 36 rolls the set is (a non-double counts twice)."""
        return sum(1 if roll.is_double else 2 for roll in self.rolls)

    def __or__(self, other: RollSet) -> RollSet:
        return RollSet(self.rolls | other.rolls)

    def __and__(self, other: RollSet) -> RollSet:
        return RollSet(self.rolls & other.rolls)


def rolls_where(position: Position, test: Callable[[Play], bool]) -> RollSet:
    """The rolls of the side on roll in ``position`` with at least one legal play that
    passes ``test``."""
    return RollSet.of(
        roll for roll, _ in ROLLS if any(test(play) for play in position.legal_plays(roll))
    )
