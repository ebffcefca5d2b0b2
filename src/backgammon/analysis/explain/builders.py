"""Builders in range of the points that matter.

The points that matter are the mover's open points of its home board and bar point,
most valuable first: the 5-, 4-, bar, 6-, 3- and 2-point (open: fewer than two of the
mover's checkers, and not made by the opponent). A *builder* for one of them is a spare
checker 1 to 6 pips above it (a blot, or the third and later checkers of a made point);
a lone checker on the point itself *slots* it. For each such point the measure also
counts the rolls of 36 that would make it if the mover rolled again (its legal plays
that leave two or more checkers there): the builders' numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from backgammon.analysis.explain.rolls import rolls_where
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["KEY_POINTS", "Builders", "Target", "builders_of", "spares"]

KEY_POINTS = (5, 4, 7, 6, 3, 2)
"""The points builders aim at, most valuable first (the mover's numbering)."""

RANGE = 6
"""How far above a point a checker counts as its builder."""


@dataclass(frozen=True, slots=True)
class Target:
    """One open point that matters.

    Attributes:
        point: the point (the mover's numbering).
        builders: spare checkers 1 to 6 pips above it.
        slotted: whether a lone checker of the mover stands on it.
        rolls: rolls of 36 that would make it if the mover rolled again.
    """

    point: int
    builders: int
    slotted: bool
    rolls: int


@dataclass(frozen=True, slots=True)
class Builders:
    """The mover's builders after a play.

    Attributes:
        builders: spare checkers within 6 pips above at least one open point that
            matters (each counted once).
        targets: the open points that matter with a builder or a slot, most valuable
            first.
    """

    builders: int
    targets: tuple[Target, ...]

    def target(self, point: int) -> Target | None:
        """The target on ``point``, if it is one."""
        return next((target for target in self.targets if target.point == point), None)

    def as_json(self) -> dict[str, object]:
        """The JSON form: ``builders`` and per target ``point``, ``builders``,
        ``slotted``, ``rolls``."""
        return {
            "builders": self.builders,
            "targets": [
                {
                    "point": target.point,
                    "builders": target.builders,
                    "slotted": target.slotted,
                    "rolls": target.rolls,
                }
                for target in self.targets
            ],
        }


def spares(side: tuple[int, ...], point: int) -> int:
    """The checkers of ``side`` on ``point`` that can leave it without breaking a
    point: a blot, or all but two of a made point."""
    count = side[point]
    return count if count <= 1 else count - 2


def _makes(point: int) -> Callable[[Play], bool]:
    """A test of a play: whether it leaves two or more checkers on ``point``."""

    def test(play: Play) -> bool:
        return play.position.player[point] >= 2

    return test


def builders_of(after: Position) -> Builders:
    """The mover's builders in ``after`` (the position a play left, from the mover)."""
    mine, theirs = after.player, after.opponent
    open_points = [point for point in KEY_POINTS if mine[point] < 2 and theirs[25 - point] < 2]
    in_range: set[int] = set()
    targets = []
    for point in open_points:
        above = range(point + 1, min(point + RANGE, 24) + 1)
        count = sum(spares(mine, source) for source in above)
        in_range.update(source for source in above if spares(mine, source))
        slotted = mine[point] == 1
        if count or slotted:
            rolls = rolls_where(after, _makes(point))
            targets.append(Target(point, count, slotted, rolls.count))
    total = sum(spares(mine, source) for source in in_range)
    return Builders(total, tuple(targets))
