"""Points made and broken, and what they are: home-board points, the 5-point, the bar
point (the 7-point), anchors (made points in the opponent's home board, the mover's
19..24) and the prime (the longest run of made points in a row).

All points are in the mover's numbering; a point is *made* with two or more checkers.

>>> points_of(Position.initial(), Position.initial()).home_points
1
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from backgammon.rules.position import Position

__all__ = ["Points", "made_points", "point_name", "points_of"]

FIVE_POINT = 5
BAR_POINT = 7
GOLDEN_ANCHOR = 20


@dataclass(frozen=True, slots=True)
class Points:
    """The mover's made points after a play, and which the play made or broke.

    Attributes:
        made: points made by the play (not made before it).
        broken: points made before it and not after.
        home_points: made points in the home board (1..6).
        five_point: whether the 5-point is made.
        bar_point: whether the bar point (7) is made.
        anchors: made points in the opponent's home board (19..24).
        prime: the longest run of made points in a row.
    """

    made: tuple[int, ...]
    broken: tuple[int, ...]
    home_points: int
    five_point: bool
    bar_point: bool
    anchors: tuple[int, ...]
    prime: int

    def as_json(self) -> dict[str, object]:
        """The JSON form (the attributes by name)."""
        return asdict(self)


def made_points(side: tuple[int, ...]) -> frozenset[int]:
    """The points (1..24) where ``side`` (26 slots) has two or more checkers."""
    return frozenset(point for point in range(1, 25) if side[point] >= 2)


def _longest_run(points: frozenset[int]) -> int:
    longest = run = 0
    for point in range(1, 25):
        run = run + 1 if point in points else 0
        longest = max(longest, run)
    return longest


def points_of(before: Position, after: Position) -> Points:
    """The mover's points after a play (``after``) compared with ``before`` (both
    seen from the mover)."""
    was, now = made_points(before.player), made_points(after.player)
    return Points(
        made=tuple(sorted(now - was, reverse=True)),
        broken=tuple(sorted(was - now, reverse=True)),
        home_points=sum(1 for point in now if point <= 6),
        five_point=FIVE_POINT in now,
        bar_point=BAR_POINT in now,
        anchors=tuple(sorted((point for point in now if point >= 19), reverse=True)),
        prime=_longest_run(now),
    )


def point_name(point: int) -> str:
    """How players name the mover's ``point``: "the 5-point", "the bar point", "the
    golden anchor" (the opponent's 5-point), "an anchor on 22", "the 8-point"."""
    if point == BAR_POINT:
        return "the bar point"
    if point == GOLDEN_ANCHOR:
        return "the golden anchor (20)"
    if point >= 19:
        return f"an anchor on {point}"
    return f"the {point}-point"
