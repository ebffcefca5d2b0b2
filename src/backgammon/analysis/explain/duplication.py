"""Duplication of the opponent's good numbers.

After a play the opponent's *good rolls* are those that hit one of the mover's
checkers, escape one of its back checkers (:mod:`.escape`), or make one of its open
key points (its 5-, 4-, bar, 6-, 3- or 2-point; :mod:`.builders`). A play
*duplicates* when the same rolls serve several of these purposes, so that fewer rolls
are good in all: the measure counts each purpose's rolls, the rolls good for two or
more (``overlap``), and the union (``good_rolls``), all over the opponent's 36 rolls.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from backgammon.analysis.explain.builders import KEY_POINTS
from backgammon.analysis.explain.escape import escape_rolls
from backgammon.analysis.explain.rolls import RollSet, rolls_where
from backgammon.rules.play import Play
from backgammon.rules.position import Position

__all__ = ["Duplication", "duplication_of", "good_rolls"]


@dataclass(frozen=True, slots=True)
class Duplication:
    """The opponent's good rolls after a play (rolls of 36).

    Attributes:
        hit: rolls that hit a checker of the mover.
        escape: rolls that escape a back checker of the opponent.
        point: rolls that make one of the opponent's open key points.
        overlap: rolls good for two or more of these.
        good_rolls: rolls good for at least one.
    """

    hit: int
    escape: int
    point: int
    overlap: int
    good_rolls: int

    def as_json(self) -> dict[str, object]:
        """The JSON form (the attributes by name)."""
        return asdict(self)


def _makes_key_point(position: Position) -> RollSet:
    """The rolls of the side on roll that make one of its open key points."""
    mine, theirs = position.player, position.opponent
    open_points = [p for p in KEY_POINTS if mine[p] < 2 and theirs[25 - p] < 2]

    def makes(play: Play) -> bool:
        return any(play.position.player[point] >= 2 for point in open_points)

    return rolls_where(position, makes) if open_points else RollSet(frozenset())


def good_rolls(after: Position) -> tuple[RollSet, RollSet, RollSet]:
    """The opponent's hitting, escaping and point-making rolls in ``after`` (the
    position a play left, seen from the mover)."""
    opponent = after.flip()
    hits = rolls_where(opponent, lambda play: bool(play.hits))
    return hits, escape_rolls(opponent)[1], _makes_key_point(opponent)


def duplication_of(after: Position) -> Duplication:
    """The opponent's good rolls in ``after`` and how they overlap."""
    hits, escapes, points = good_rolls(after)
    overlap = (hits & escapes) | (hits & points) | (escapes & points)
    return Duplication(
        hits.count, escapes.count, points.count, overlap.count, (hits | escapes | points).count
    )
