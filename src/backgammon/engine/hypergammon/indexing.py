"""Hypergammon's positions and their database indices.

**Positions.** One side's checkers lie on its 24 points, on the bar or borne off. A side
is ranked as a multiset of ``N`` locations ``0 .. 25`` (0 off, 1..24 its points in its
own numbering, 25 the bar): with the locations sorted, ``v_1 <= ... <= v_N``,
``rank = C(v_1, 1) + C(v_2 + 1, 2) + ... + C(v_N + N - 1, N)``, so the side with every
checker off is 0 and there are ``C(25 + N, N)`` sides (26, 351, 3,276). A position is the
pair ``player * S + opponent`` (``S`` sides), the side on roll first, before it rolls:
676, 123,201 and 10,732,176 pairs. Pairs where both sides hold the same point are not
positions (their values are NaN); pairs where a side has borne everything off are
finished games (exact values, never iterated).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from backgammon.errors import InvalidPositionError
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "BAR",
    "CHECKER_COUNTS",
    "LOCATIONS",
    "Boards",
    "CountArray",
    "FloatArray",
    "IntArray",
    "ResultArray",
    "pair_count",
    "pair_index",
    "side_count",
    "side_rank",
    "solves",
]

CHECKER_COUNTS = (1, 2, 3)
"""The checker counts solved here."""
LOCATIONS = 26
"""Locations of a checker: 0 borne off, 1..24 the points, 25 the bar."""
BAR = 25

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]
CountArray: TypeAlias = npt.NDArray[np.uint8]
ResultArray: TypeAlias = npt.NDArray[np.int32]
Boards: TypeAlias = npt.NDArray[np.uint8]


def side_count(checkers: int) -> int:
    """How many sides of ``checkers`` checkers there are: ``C(25 + N, N)``."""
    return math.comb(LOCATIONS - 1 + checkers, checkers)


def pair_count(checkers: int) -> int:
    """How many (player, opponent) pairs the database of ``checkers`` holds."""
    return side_count(checkers) ** 2


def _check_checkers(checkers: int) -> int:
    if isinstance(checkers, bool) or checkers not in CHECKER_COUNTS:
        raise ValueError(f"hypergammon is solved for 1, 2 or 3 checkers, not {checkers!r}")
    return int(checkers)


def solves(variant: Variant) -> bool:
    """Whether the databases here value ``variant`` exactly: standard rules (gammons
    and backgammons counted) with 1, 2 or 3 checkers a side, whatever the start."""
    if variant.checkers not in CHECKER_COUNTS:
        return False
    import dataclasses

    plain = dataclasses.replace(
        variant,
        name=STANDARD.name,
        start=STANDARD.start,
        description=STANDARD.description,
        aliases=STANDARD.aliases,
        cube=STANDARD.cube,
    )
    return plain == STANDARD


def side_rank(slots: Sequence[int], checkers: int) -> int:
    """The rank of one side given as its 26 slots (0 off, 1..24, 25 bar) with
    ``checkers`` checkers in all.

    >>> side_rank([1] + [0] * 25, 1), side_rank([0] * 24 + [1, 0], 1)
    (0, 24)

    Raises:
        InvalidPositionError: if the slots do not hold exactly ``checkers`` checkers.
    """
    counts = [int(value) for value in slots]
    if len(counts) != LOCATIONS or any(value < 0 for value in counts):
        raise InvalidPositionError(f"a side is 26 non-negative counts, got {list(slots)!r}")
    on_board = sum(counts[1:])
    if on_board > checkers or (counts[0] and counts[0] + on_board != checkers):
        raise InvalidPositionError(
            f"a hypergammon side has {checkers} checkers, this one {on_board} on the board "
            f"and {counts[0]} off"
        )
    locations = [0] * (checkers - on_board)
    for location in range(1, LOCATIONS):
        locations += [location] * counts[location]
    return sum(math.comb(value + k, k + 1) for k, value in enumerate(locations))


def pair_index(position: Position, checkers: int) -> int:
    """The database index of ``position`` (side on roll first) for ``checkers``
    checkers a side.

    Raises:
        InvalidPositionError: if a side does not have ``checkers`` checkers.
    """
    size = side_count(_check_checkers(checkers))
    return side_rank(position.player, checkers) * size + side_rank(position.opponent, checkers)
