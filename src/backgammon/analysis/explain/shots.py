"""Blots and the shots at them, counted exactly over the opponent's 36 rolls.

A *blot* is a point (1..24, the mover's numbering) where the mover has one checker.
After the mover's play the opponent rolls; a roll *hits* a blot when one of its legal
plays (by the rules: blocked intermediate points, the bar first, both dice when
possible) lands a checker on it. Each hitting roll is *direct* for that blot when a
checker at most 6 pips away (or on the bar) can reach it with the roll over open
points (one die, or a combination such as 5-1 for 6 away), otherwise *indirect* (it
hits only from 7 or more pips away).

The textbook counts: a blot 6 pips from one enemy checker, nothing blocked, is hit by
17 rolls (the 11 with a 6, 5-1, 4-2 and 3-3, 2-2); 3 away by 14 (the 11 with a 3, 2-1,
1-1); 8 away by 6 indirect rolls (6-2, 5-3, 4-4, 2-2).

>>> start = Position.initial()
>>> count_shots(start).hitting_rolls
0
"""

from __future__ import annotations

from dataclasses import dataclass

from backgammon.analysis.explain.rolls import ROLLS
from backgammon.rules.dice import Roll
from backgammon.rules.position import Position

__all__ = ["BlotShots", "Shots", "blots", "count_shots"]

DIRECT_RANGE = 6
"""The farthest a checker can be from a blot and still hit it with one die."""


@dataclass(frozen=True, slots=True)
class BlotShots:
    """The rolls that hit one blot.

    Attributes:
        point: where the blot stands (the mover's numbering).
        direct: rolls of 36 that hit it from 6 pips or closer.
        indirect: rolls of 36 that hit it only from farther away.
    """

    point: int
    direct: int
    indirect: int

    @property
    def shots(self) -> int:
        """All the rolls of 36 that hit it."""
        return self.direct + self.indirect


@dataclass(frozen=True, slots=True)
class Shots:
    """The mover's blots after a play and the opponent's shots at them.

    Attributes:
        blots: each blot with the rolls that hit it, highest point first.
        hitting_rolls: rolls of 36 that let the opponent hit at least one of the
            mover's checkers.
    """

    blots: tuple[BlotShots, ...]
    hitting_rolls: int

    @property
    def direct(self) -> int:
        """Direct shots summed over the blots."""
        return sum(blot.direct for blot in self.blots)

    def as_json(self) -> dict[str, object]:
        """The JSON form: ``hitting_rolls`` and per blot ``point``, ``direct``,
        ``indirect``, ``shots``."""
        return {
            "hitting_rolls": self.hitting_rolls,
            "blots": [
                {
                    "point": blot.point,
                    "direct": blot.direct,
                    "indirect": blot.indirect,
                    "shots": blot.shots,
                }
                for blot in self.blots
            ],
        }


def blots(position: Position) -> tuple[int, ...]:
    """The points where the side on roll (in ``position``'s view) has a lone checker,
    highest first."""
    side = position.player
    return tuple(point for point in range(24, 0, -1) if side[point] == 1)


def _paths(roll: Roll) -> list[list[int]]:
    """The pips a single checker can move with ``roll``, each as the list of its
    landing distances: each die alone, both in either order, a double up to 4 times."""
    if roll.is_double:
        return [[roll.high * k for k in range(1, count + 1)] for count in range(1, 5)]
    return [
        [roll.high],
        [roll.low],
        [roll.high, roll.high + roll.low],
        [roll.low, roll.high + roll.low],
    ]


def _direct(hitter: Position, target: int, roll: Roll) -> bool:
    """Whether a checker of ``hitter`` (on roll) 1 to 6 pips from ``target`` (its
    numbering; the bar counts as 25) can reach it with ``roll`` over open points."""
    mine, theirs = hitter.player, hitter.opponent

    def open_at(point: int) -> bool:
        return point < 1 or theirs[25 - point] < 2

    for source in range(target + 1, min(target + DIRECT_RANGE, 25) + 1):
        if not mine[source]:
            continue
        for path in _paths(roll):
            if path[-1] == source - target and all(open_at(source - d) for d in path[:-1]):
                return True
    return False


def _hit_points(opponent: Position, roll: Roll) -> set[int]:
    """The points (the hitter's numbering) that some legal play of ``roll`` hits."""
    return {point for play in opponent.legal_plays(roll) for point in play.hits}


def count_shots(after: Position) -> Shots:
    """The mover's blots in ``after`` (the position a play left, seen from the mover)
    and the opponent's shots at them over its 36 rolls."""
    opponent = after.flip()
    direct: dict[int, int] = {}
    indirect: dict[int, int] = {}
    hitting = 0
    for roll, ways in ROLLS:
        targets = _hit_points(opponent, roll)
        if targets:
            hitting += ways
        for target in targets:
            point = 25 - target
            tally = direct if _direct(opponent, target, roll) else indirect
            tally[point] = tally.get(point, 0) + ways
    counted = tuple(
        BlotShots(point, direct.get(point, 0), indirect.get(point, 0)) for point in blots(after)
    )
    return Shots(counted, hitting)
