"""Exact bear-off databases: one-sided (15 checkers, 6 points) and two-sided (6 x 6).

A *bear-off position* of one side is its checkers on its six home points and nowhere
else (no checker on the bar or outside the home board). Once both sides are in such a
position the game is a pure race with no contact, and it can be solved exactly. This
module builds, stores and reads two databases, as GNU Backgammon ships them (its
``gnubg_os0.bd`` and ``gnubg_ts0.bd``; see the GNU Backgammon manual, "Bearoff
databases", and the ``makebearoff`` man page). Everything here is computed from the
rules alone; no data or code of GNU Backgammon is used.

**Points.** A side's bear-off position is given as six counts ``points6``: ``points6[0]``
checkers on its 1-point, ..., ``points6[5]`` on its 6-point, in its own numbering.

**Ranking.** :func:`bearoff_index` numbers every position of at most 15 checkers on the
six points, ``0 .. 54263``, so that every position with fewer checkers comes first: a
position of ``t`` checkers has index ``C(t + 5, 6) + r``, where ``C(t + 5, 6)`` counts the
positions of fewer than ``t`` checkers and ``r`` is the rank of the composition among the
``C(t + 5, 5)`` ways to put ``t`` checkers on 6 points, in the combinatorial number system:
with ``s_k = c_1 + ... + c_k + (k - 1)`` for ``k = 1..5`` (a strictly increasing sequence),
``r = C(s_1, 1) + C(s_2, 2) + ... + C(s_5, 5)``. So the positions of at most 6 checkers
are exactly the indices ``0 .. 923``, which is how the two-sided database is indexed.
Index 0 is the empty position (every checker borne off).

**One-sided database** (:class:`OneSidedDatabase`, all 54,264 positions). For each
position it stores

* the distribution of the number of rolls the side needs to bear off all its checkers,
  when every roll is played to minimise the expected number of rolls still needed (the
  criterion of GNU Backgammon's one-sided database), and its mean;
* the *gammon-saving* distribution: the number of rolls until at least one checker of
  the position has been borne off, when every roll is played to minimise the expected
  number of rolls to that first checker off (a separate, independent policy), and its
  mean. It matters for a side that has borne off nothing yet: with the standard 15
  checkers, for the positions with all 15 on the board.

Both are computed exactly by dynamic programming over the positions in increasing pip
count, with every legal play of each of the 21 rolls (a Numba kernel over the six
points). Bin ``n`` of a distribution is the probability of needing exactly ``n`` rolls;
no position needs more than 30 rolls, so 32 bins (:data:`MAX_ROLLS`) suffice.

A race of two one-sided positions is then evaluated as two independent races: with
``P`` the player's (on roll) distribution and ``Q`` the opponent's,
``P(win) = sum_n P(n) * Q(>= n)``. That is exact for the two fixed policies, not the
win-maximising play, and it is how GNU Backgammon evaluates its ``bearoff1`` class. For
a side that has borne off nothing, gammon chances use the other side's gammon-saving
distribution ``G``: ``P(win gammon) = sum_n P(n) * G_opp(>= n)`` and
``P(lose gammon) = sum_n Q(n) * G_player(>= n + 1)`` (the side on roll rolls first).
Backgammons cannot happen: every checker is in its own home board.

**Two-sided database** (:class:`TwoSidedDatabase`, 924 x 924 pairs of at most 6 checkers
each). It stores, for the side on roll, the exact cubeless probability of winning when
both sides play to maximise their own winning chances, from the recursion
``W(a, b) = sum_rolls w * max_plays (1 if a' is empty else 1 - W(b, a'))`` solved in
increasing order of the two sides' total pip count. With at most 6 checkers each, both
sides have borne off at least 9 of 15 checkers, so there are no gammons and a won game
is worth exactly one cube.

It also stores exact **cubeful money equities** (no Jacoby rule, no beavers, unlimited
cube; equities per unit of the current cube, for the side on roll, before it rolls),
for the three cube states: centred, owned by the side on roll, owned by the opponent.
Writing ``ND_x`` for the equity when the side on roll does not double now (its best play
of each roll against the opponent's optimal continuation, with the cube passing to the
matching state: centred stays centred, an owned cube becomes the opponent's "opponent
owns" and vice versa), the recursion is

* ``E_opponent_owns = ND_opponent_owns`` (the side on roll cannot double);
* ``E_centred = max(ND_centred, min(2 * ND_opponent_owns, 1))`` and
  ``E_owned = max(ND_owned, min(2 * ND_opponent_owns, 1))``: double if that is better,
  and after a double the opponent takes (owning a doubled cube: twice
  ``ND_opponent_owns``) or passes (the side on roll wins one cube), whichever is worse
  for the side on roll.

This is the exact optimal doubling recursion that GNU Backgammon's two-sided database
replaces Janowski's cube-efficiency model with (GNU Backgammon manual, "Cubeful
equities"; Janowski, "Take-Points in Money Games", 1993).

**Files.** :func:`build_bearoff_databases` builds both databases (about 2 s on two
cores, 5 s the first time while Numba compiles its kernels) and writes them as
compressed ``.npz`` files of float32 arrays (2.7 MB and 10.6 MB) into
:func:`default_database_directory` or a given folder; ``python -m
backgammon.engine.bearoff build [--dir DIR]`` does the same from the command line.
:meth:`BearoffDatabase.open` loads them, building them first if missing.

>>> database = BearoffDatabase(OneSidedDatabase.build(), TwoSidedDatabase.build())
>>> round(database.one_sided.expected_rolls([0, 0, 0, 0, 0, 1]), 4)
1.25
>>> round(database.two_sided.win_probability([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 1]), 4)
0.8125
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import uuid
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal, NamedTuple, Protocol, TypeAlias, TypeVar

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.errors import EngineError, InvalidPositionError
from backgammon.rules.dice import ALL_ROLLS
from backgammon.rules.position import Position

__all__ = [
    "MAX_ROLLS",
    "ONE_SIDED_CHECKERS",
    "ONE_SIDED_FILE",
    "ONE_SIDED_POSITIONS",
    "POINTS",
    "TWO_SIDED_CHECKERS",
    "TWO_SIDED_FILE",
    "TWO_SIDED_POSITIONS",
    "BearoffClass",
    "BearoffCubeEquities",
    "BearoffDatabase",
    "OneSidedDatabase",
    "ProgressCallback",
    "TwoSidedDatabase",
    "bearoff_index",
    "bearoff_points",
    "build_bearoff_databases",
    "default_database_directory",
    "main",
]

POINTS = 6
"""Home points covered by both databases."""
ONE_SIDED_CHECKERS = 15
"""Most checkers of a position in the one-sided database."""
TWO_SIDED_CHECKERS = 6
"""Most checkers of each side in the two-sided database."""
ONE_SIDED_POSITIONS = math.comb(ONE_SIDED_CHECKERS + POINTS, POINTS)
"""Positions of the one-sided database: 54,264."""
TWO_SIDED_POSITIONS = math.comb(TWO_SIDED_CHECKERS + POINTS, POINTS)
"""Positions per side of the two-sided database: 924 (indices ``0 .. 923``)."""
MAX_ROLLS = 32
"""Bins of a roll-count distribution: bin ``n`` is the chance of needing ``n`` rolls."""

ONE_SIDED_FILE = "bearoff1-15x6.npz"
"""File name of the one-sided database in its folder."""
TWO_SIDED_FILE = "bearoff2-6x6.npz"
"""File name of the two-sided database in its folder."""
_FORMAT = 1

BearoffClass: TypeAlias = Literal["bearoff1", "bearoff2"]
"""The database that evaluates a position (see :meth:`BearoffDatabase.classify`)."""

ProgressCallback: TypeAlias = Callable[[str, int, int], None]
"""Called as ``progress(stage, done, total)`` while building; ``stage`` is
``"one-sided"`` or ``"two-sided"``, and ``done`` counts up to ``total``."""

FloatArray: TypeAlias = npt.NDArray[np.float64]
Float32Array: TypeAlias = npt.NDArray[np.float32]
IntArray: TypeAlias = npt.NDArray[np.int64]


def _binomials() -> IntArray:
    table = np.zeros((32, 8), dtype=np.int64)
    for n in range(32):
        for k in range(8):
            table[n, k] = math.comb(n, k)
    table.setflags(write=False)
    return table


_BINOM = _binomials()
"""``_BINOM[n, k] = C(n, k)``; a read-only constant that the kernels compile in."""


# --- ranking ---------------------------------------------------------------------------


def default_database_directory() -> Path:
    """The folder where the databases are cached by default.

    ``$BACKGAMMON_CACHE_DIR`` if set; else ``$XDG_CACHE_HOME/backgammon``; else
    ``~/.cache/backgammon``.
    """
    explicit = os.environ.get("BACKGAMMON_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "backgammon"


def _checked_points(points: Sequence[int] | npt.ArrayLike, limit: int) -> tuple[int, ...]:
    """Six non-negative counts with at most ``limit`` checkers, or InvalidPositionError."""
    try:
        values = tuple(np.asarray(points).reshape(-1).tolist())
    except (TypeError, ValueError):
        raise InvalidPositionError(
            f"a bear-off position is 6 checker counts (1- to 6-point), got {points!r}"
        ) from None
    if len(values) != POINTS or not all(
        isinstance(value, int) and not isinstance(value, bool) and value >= 0 for value in values
    ):
        raise InvalidPositionError(
            f"a bear-off position is 6 non-negative checker counts (1- to 6-point), got {points!r}"
        )
    if sum(values) > limit:
        raise InvalidPositionError(
            f"bear-off position {list(values)} has {sum(values)} checkers, "
            f"this database holds at most {limit}"
        )
    return values


def _index(values: Sequence[int]) -> int:
    total = sum(values)
    index = math.comb(total + POINTS - 1, POINTS)
    partial = -1
    for k in range(1, POINTS):
        partial += values[k - 1] + 1
        index += math.comb(partial, k)
    return index


def bearoff_index(points: Sequence[int] | npt.ArrayLike) -> int:
    """The index of a bear-off position (6 counts, 1- to 6-point) in the databases.

    The combinatorial ranking described in the module docstring: positions of fewer
    checkers first, so indices below 924 are the positions of at most 6 checkers.

    >>> bearoff_index([0, 0, 0, 0, 0, 0]), bearoff_index([0, 0, 0, 0, 0, 1])
    (0, 1)
    >>> bearoff_index([15, 0, 0, 0, 0, 0])
    54263

    Raises:
        InvalidPositionError: if ``points`` is not 6 non-negative counts summing to at
            most 15.
    """
    return _index(_checked_points(points, ONE_SIDED_CHECKERS))


def bearoff_points(index: int) -> tuple[int, ...]:
    """The position of a database index: the inverse of :func:`bearoff_index`.

    >>> bearoff_points(54263)
    (15, 0, 0, 0, 0, 0)

    Raises:
        ValueError: if ``index`` is not in ``0 .. 54263``.
    """
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise ValueError(f"a bear-off index is an int in 0..54263, got {index!r}")
    index = int(index)
    if not 0 <= index < ONE_SIDED_POSITIONS:
        raise ValueError(f"bear-off index {index} is not in 0..{ONE_SIDED_POSITIONS - 1}")
    total = 0
    while math.comb(total + POINTS, POINTS) <= index:
        total += 1
    rest = index - math.comb(total + POINTS - 1, POINTS)
    partials = [0] * POINTS
    for k in range(POINTS - 1, 0, -1):
        value = k - 1
        while math.comb(value + 1, k) <= rest:
            value += 1
        partials[k - 1] = value
        rest -= math.comb(value, k)
    counts = []
    previous = -1
    for k in range(1, POINTS):
        counts.append(partials[k - 1] - previous - 1)
        previous = partials[k - 1]
    counts.append(total - sum(counts))
    return tuple(counts)


# --- kernels ---------------------------------------------------------------------------
#
# Inside the kernels a position is a code: 4 bits per point, point p in bits 4(p-1)..,
# so moving a checker is an addition.


@njit(cache=True)
def _code_index(code: int) -> int:
    """:func:`bearoff_index` of a position code."""
    total = 0
    for point in range(6):
        total += (code >> (4 * point)) & 15
    index = _BINOM[total + 5, 6]
    partial = -1
    for k in range(1, 6):
        partial += ((code >> (4 * (k - 1))) & 15) + 1
        index += _BINOM[partial, k]
    return int(index)


@njit(cache=True)
def _slots_index(board: npt.NDArray[np.uint8], first: int) -> int:
    """:func:`bearoff_index` of the six home points starting at slot ``first``."""
    total = 0
    for point in range(6):
        total += board[first + point]
    index = _BINOM[total + 5, 6]
    partial = -1
    for k in range(1, 6):
        partial += board[first + k - 1] + 1
        index += _BINOM[partial, k]
    return int(index)


@njit(cache=True)
def _at_least_dot(
    weights: Float32Array, left: int, tail: Float32Array, right: int, shift: int
) -> float:
    """``sum_n weights[left, n] * sum_{m >= n + shift} tail[right, m]``."""
    bins = weights.shape[1]
    total = 0.0
    suffix = 0.0
    for n in range(bins - 1, -1, -1):
        if n + shift < bins:
            suffix += float(tail[right, n + shift])
        total += float(weights[left, n]) * suffix
    return total


@njit(cache=True)
def _covered(board: npt.NDArray[np.uint8]) -> bool:
    """Whether the databases evaluate a 52-slot board: both sides with checkers left
    (at most 15), all on their home points."""
    mine = 0
    theirs = 0
    for slot in range(1, 7):
        mine += board[slot]
        theirs += board[26 + slot]
    for slot in range(7, 26):
        if board[slot] or board[26 + slot]:
            return False
    return 0 < mine <= ONE_SIDED_CHECKERS and 0 < theirs <= ONE_SIDED_CHECKERS


@njit(cache=True)
def _covered_rows(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
    out = np.empty(boards.shape[0], dtype=np.bool_)
    for row in range(boards.shape[0]):
        out[row] = _covered(boards[row])
    return out


@njit(cache=True)
def _evaluate_bearoff_rows(
    boards: npt.NDArray[np.uint8],
    distributions: Float32Array,
    gammon: Float32Array,
    two_sided_win: Float32Array,
    out: FloatArray,
) -> int:
    """The five outcome chances of each 52-slot board (see
    :meth:`BearoffDatabase.evaluate`), into ``out``; the first row the databases do
    not cover stops it and is returned (-1: none)."""
    two_sided = two_sided_win.shape[0]
    for row in range(boards.shape[0]):
        board = boards[row]
        if not _covered(board):
            return row
        mine = _slots_index(board, 1)
        theirs = _slots_index(board, 27)
        win = min(1.0, _at_least_dot(distributions, mine, distributions, theirs, 0))
        win_gammon = 0.0
        lose_gammon = 0.0
        if board[26] == 0:
            win_gammon = min(win, _at_least_dot(distributions, mine, gammon, theirs, 0))
        if board[0] == 0:
            lose_gammon = min(1.0 - win, _at_least_dot(distributions, theirs, gammon, mine, 1))
        if mine < two_sided and theirs < two_sided:
            win = float(two_sided_win[mine, theirs])
            win_gammon = min(win_gammon, win)
            lose_gammon = min(lose_gammon, 1.0 - win)
        out[row, 0] = win
        out[row, 1] = win_gammon
        out[row, 2] = 0.0
        out[row, 3] = lose_gammon
        out[row, 4] = 0.0
    return -1


@njit(cache=True)
def _one_die(code: int, die: int, top: int | np.int64, codes: IntArray, sources: IntArray) -> int:
    """Positions after playing one die from ``code`` with a checker from a point at or
    below ``top``; writes them and their source points, returns how many."""
    high = 0
    for point in range(6, 0, -1):
        if (code >> (4 * (point - 1))) & 15:
            high = point
            break
    count = 0
    for point in range(min(top, 6), 0, -1):
        if not (code >> (4 * (point - 1))) & 15:
            continue
        if point > die:
            new = code - (1 << (4 * (point - 1))) + (1 << (4 * (point - 1 - die)))
        elif point == die or point == high:  # noqa: SIM109 (plain compares for Numba)
            new = code - (1 << (4 * (point - 1)))
        else:
            continue
        codes[count] = new
        sources[count] = point
        count += 1
    return count


@njit(cache=True)
def _roll_results(code: int, die1: int, die2: int, out: IntArray) -> int:
    """Every position (code) after a legal play of the roll from a non-empty ``code``.

    A die can always be played while a checker is left, so every play uses every die
    unless the last checker leaves first. Results may repeat. For doubles a step never
    starts above the previous step's source, which loses no result. Returns how many.
    """
    codes = np.empty((4, 6), dtype=np.int64)
    sources = np.empty((4, 6), dtype=np.int64)
    top = np.int64(6)  # typed, not a literal: one compilation of ``_one_die``
    count = 0
    if die1 == die2:
        n1 = _one_die(code, die1, top, codes[0], sources[0])
        for i in range(n1):
            c1 = codes[0, i]
            if c1 == 0:
                out[count] = 0
                count += 1
                continue
            n2 = _one_die(c1, die1, sources[0, i], codes[1], sources[1])
            for j in range(n2):
                c2 = codes[1, j]
                if c2 == 0:
                    out[count] = 0
                    count += 1
                    continue
                n3 = _one_die(c2, die1, sources[1, j], codes[2], sources[2])
                for k in range(n3):
                    c3 = codes[2, k]
                    if c3 == 0:
                        out[count] = 0
                        count += 1
                        continue
                    n4 = _one_die(c3, die1, sources[2, k], codes[3], sources[3])
                    for m in range(n4):
                        out[count] = codes[3, m]
                        count += 1
        return count
    for order in range(2):
        first = die1 if order == 0 else die2
        second = die2 if order == 0 else die1
        n1 = _one_die(code, first, top, codes[0], sources[0])
        for i in range(n1):
            c1 = codes[0, i]
            if c1 == 0:
                out[count] = 0
                count += 1
                continue
            n2 = _one_die(c1, second, top, codes[1], sources[1])
            for j in range(n2):
                out[count] = codes[1, j]
                count += 1
    return count


@njit(cache=True)
def _enumerate_positions(codes: IntArray, pips: IntArray, checkers: IntArray, most: int) -> None:
    """Fill the code, pip count and checker count of every index (at most ``most``)."""
    for c1 in range(most + 1):
        for c2 in range(most + 1 - c1):
            for c3 in range(most + 1 - c1 - c2):
                for c4 in range(most + 1 - c1 - c2 - c3):
                    for c5 in range(most + 1 - c1 - c2 - c3 - c4):
                        for c6 in range(most + 1 - c1 - c2 - c3 - c4 - c5):
                            code = c1 | (c2 << 4) | (c3 << 8) | (c4 << 12) | (c5 << 16) | (c6 << 20)
                            index = _code_index(code)
                            codes[index] = code
                            pips[index] = c1 + 2 * c2 + 3 * c3 + 4 * c4 + 5 * c5 + 6 * c6
                            checkers[index] = c1 + c2 + c3 + c4 + c5 + c6


@njit(cache=True)
def _one_sided_batch(
    batch: IntArray,
    codes: IntArray,
    checkers: IntArray,
    die1: IntArray,
    die2: IntArray,
    weight: FloatArray,
    dist: FloatArray,
    mean: FloatArray,
    gammon: FloatArray,
    gammon_mean: FloatArray,
) -> None:
    """Solve the positions of ``batch`` (all of one pip count; every smaller pip count
    solved already): roll-count and first-off distributions under the mean-minimising
    policies."""
    results = np.empty(1296, dtype=np.int64)
    bins = dist.shape[1]
    for position in batch:
        code = codes[position]
        on = checkers[position]
        for roll in range(die1.shape[0]):
            w = weight[roll]
            n = _roll_results(code, die1[roll], die2[roll], results)
            best = -1
            best_mean = 1e300
            gbest = -1
            gbest_mean = 1e300
            for i in range(n):
                index = _code_index(results[i])
                if mean[index] < best_mean:
                    best_mean = mean[index]
                    best = index
                if checkers[index] < on:
                    if gbest_mean > 0.0:
                        gbest_mean = 0.0
                        gbest = -1
                elif gammon_mean[index] < gbest_mean:
                    gbest_mean = gammon_mean[index]
                    gbest = index
            mean[position] += w * (1.0 + best_mean)
            for b in range(1, bins):
                dist[position, b] += w * dist[best, b - 1]
            gammon_mean[position] += w * (1.0 + gbest_mean)
            if gbest < 0:
                gammon[position, 1] += w
            else:
                for b in range(1, bins):
                    gammon[position, b] += w * gammon[gbest, b - 1]


@njit(cache=True)
def _successor_lists(
    codes: IntArray, die1: IntArray, die2: IntArray, start: IntArray, targets: IntArray
) -> int:
    """Distinct results (indices) of every roll from every position of ``codes``: those
    of position ``p`` and roll ``r`` are ``targets[start[p * R + r] : start[p * R + r + 1]]``.
    Returns the number of targets written."""
    rolls = die1.shape[0]
    results = np.empty(1296, dtype=np.int64)
    distinct = np.empty(1296, dtype=np.int64)
    written = 0
    start[0] = 0
    for position in range(codes.shape[0]):
        for roll in range(rolls):
            if position > 0:
                n = _roll_results(codes[position], die1[roll], die2[roll], results)
                found = 0
                for i in range(n):
                    index = _code_index(results[i])
                    new = True
                    for j in range(found):
                        if distinct[j] == index:
                            new = False
                            break
                    if new:
                        distinct[found] = index
                        found += 1
                for j in range(found):
                    targets[written] = distinct[j]
                    written += 1
            start[position * rolls + roll + 1] = written
    return written


@njit(cache=True)
def _two_sided_batch(
    pairs: IntArray,
    start: IntArray,
    targets: IntArray,
    weight: FloatArray,
    win: FloatArray,
    nd_centred: FloatArray,
    nd_owned: FloatArray,
    e_centred: FloatArray,
    e_owned: FloatArray,
    e_opponent: FloatArray,
) -> None:
    """Solve the pairs ``a * N + b`` of ``pairs`` (all of one total pip count; smaller
    totals solved already): cubeless win chance and cubeful money equities."""
    size = win.shape[0]
    rolls = weight.shape[0]
    for pair in pairs:
        a = pair // size
        b = pair % size
        p_win = 0.0
        p_centred = 0.0
        p_owned = 0.0
        p_opponent = 0.0
        for roll in range(rolls):
            w = weight[roll]
            best_win = -1e300
            best_centred = -1e300
            best_owned = -1e300
            best_opponent = -1e300
            for i in range(start[a * rolls + roll], start[a * rolls + roll + 1]):
                after = targets[i]
                if after == 0:
                    v_win = 1.0
                    v_centred = 1.0
                    v_owned = 1.0
                    v_opponent = 1.0
                else:
                    v_win = 1.0 - win[b, after]
                    v_centred = -e_centred[b, after]
                    v_owned = -e_opponent[b, after]
                    v_opponent = -e_owned[b, after]
                best_win = max(best_win, v_win)
                best_centred = max(best_centred, v_centred)
                best_owned = max(best_owned, v_owned)
                best_opponent = max(best_opponent, v_opponent)
            p_win += w * best_win
            p_centred += w * best_centred
            p_owned += w * best_owned
            p_opponent += w * best_opponent
        win[a, b] = p_win
        nd_centred[a, b] = p_centred
        nd_owned[a, b] = p_owned
        e_opponent[a, b] = p_opponent
        double_value = min(2.0 * p_opponent, 1.0)
        e_centred[a, b] = max(p_centred, double_value)
        e_owned[a, b] = max(p_owned, double_value)


# --- building --------------------------------------------------------------------------


def _roll_arrays() -> tuple[IntArray, IntArray, FloatArray]:
    die1 = np.array([roll.high for roll in ALL_ROLLS], dtype=np.int64)
    die2 = np.array([roll.low for roll in ALL_ROLLS], dtype=np.int64)
    weight = np.array([float(roll.weight) for roll in ALL_ROLLS], dtype=np.float64)
    return die1, die2, weight


def _position_tables(most: int) -> tuple[IntArray, IntArray, IntArray]:
    size = math.comb(most + POINTS, POINTS)
    codes = np.zeros(size, dtype=np.int64)
    pips = np.zeros(size, dtype=np.int64)
    checkers = np.zeros(size, dtype=np.int64)
    _enumerate_positions(codes, pips, checkers, most)
    return codes, pips, checkers


def _report(progress: ProgressCallback | None, stage: str, done: int, total: int) -> None:
    if progress is not None:
        progress(stage, done, total)


def _readonly(array: npt.NDArray[np.generic]) -> None:
    array.setflags(write=False)


def _save(path: Path, arrays: dict[str, npt.NDArray[np.generic]]) -> None:
    """Write ``arrays`` to ``path`` atomically (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "wb") as stream:
            np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _load(path: Path, kind: str) -> dict[str, npt.NDArray[np.generic]]:
    """Read a database file, checking its kind and format version."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, KeyError) as exc:
        raise EngineError(f"cannot read bear-off database {str(path)!r}: {exc}") from None
    if str(arrays.get("kind", "")) != kind or int(arrays.get("format", -1)) != _FORMAT:
        raise EngineError(
            f"{str(path)!r} is not a format-{_FORMAT} {kind} bear-off database; "
            f"rebuild it with: python -m backgammon.engine.bearoff build"
        )
    return arrays


_Database = TypeVar("_Database", bound="_Saveable")


class _Saveable(Protocol):
    def save(self, directory: str | os.PathLike[str]) -> Path: ...


def _open_or_build(
    path: Path,
    load: Callable[[Path], _Database],
    make: Callable[[], _Database],
    build: bool,
) -> _Database:
    """Load the database at ``path``; if it is missing or unreadable and ``build`` is
    true, build it and save it there first.

    Raises:
        EngineError: if it is missing or unreadable and ``build`` is false.
    """
    if path.exists() or not build:
        try:
            return load(path)
        except EngineError:
            if not build:
                raise
    database = make()
    database.save(path.parent)
    return database


class OneSidedDatabase:
    """Exact roll-count distributions of every position of up to 15 checkers on the six
    home points (54,264 positions), and the gammon-saving (first checker off)
    distributions; see the module docstring for the method.

    Build it with :meth:`build` or load it with :meth:`open`. Positions are given as 6
    counts (1- to 6-point).
    """

    __slots__ = ("_distributions", "_gammon", "_gammon_mean", "_mean")

    def __init__(
        self,
        distributions: Float32Array,
        mean: FloatArray,
        gammon: Float32Array,
        gammon_mean: FloatArray,
    ) -> None:
        """Wrap arrays indexed by :func:`bearoff_index`: ``distributions`` and
        ``gammon`` of shape ``(54264, 32)``, ``mean`` and ``gammon_mean`` of 54,264.

        Raises:
            EngineError: if the shapes are wrong.
        """
        shape = (ONE_SIDED_POSITIONS, MAX_ROLLS)
        if (
            distributions.shape != shape
            or gammon.shape != shape
            or mean.shape != shape[:1]
            or gammon_mean.shape != shape[:1]
        ):
            raise EngineError("one-sided bear-off arrays have the wrong shapes")
        self._distributions = distributions
        self._mean = mean
        self._gammon = gammon
        self._gammon_mean = gammon_mean

    @classmethod
    def build(cls, progress: ProgressCallback | None = None) -> OneSidedDatabase:
        """Compute the database in memory (a few seconds), reporting to ``progress``."""
        die1, die2, weight = _roll_arrays()
        codes, pips, checkers = _position_tables(ONE_SIDED_CHECKERS)
        size = codes.shape[0]
        dist = np.zeros((size, MAX_ROLLS), dtype=np.float64)
        gammon = np.zeros((size, MAX_ROLLS), dtype=np.float64)
        mean = np.zeros(size, dtype=np.float64)
        gammon_mean = np.zeros(size, dtype=np.float64)
        dist[0, 0] = 1.0
        gammon[0, 0] = 1.0
        order = np.argsort(pips, kind="stable")
        bounds = np.searchsorted(pips[order], np.arange(int(pips.max()) + 2))
        levels = len(bounds) - 1
        for level in range(1, levels):
            batch = order[bounds[level] : bounds[level + 1]]
            _one_sided_batch(
                batch, codes, checkers, die1, die2, weight, dist, mean, gammon, gammon_mean
            )
            _report(progress, "one-sided", level, levels - 1)
        arrays = (dist.astype(np.float32), mean, gammon.astype(np.float32), gammon_mean)
        for array in arrays:
            _readonly(array)
        return cls(*arrays)

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: ProgressCallback | None = None,
    ) -> OneSidedDatabase:
        """Load the database from ``directory`` (:func:`default_database_directory` if
        ``None``); if it is missing or unreadable and ``build`` is true, build it and
        save it there first.

        Raises:
            EngineError: if the file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        path = Path(directory or default_database_directory()) / ONE_SIDED_FILE
        return _open_or_build(path, cls._from_file, lambda: cls.build(progress), build)

    @classmethod
    def _from_file(cls, path: Path) -> OneSidedDatabase:
        if not path.exists():
            raise EngineError(
                f"no one-sided bear-off database at {str(path)!r}; build it with: "
                f"python -m backgammon.engine.bearoff build"
            )
        arrays = _load(path, "one-sided")
        try:
            values = (
                arrays["distributions"].astype(np.float32, copy=False),
                arrays["mean"].astype(np.float64, copy=False),
                arrays["gammon"].astype(np.float32, copy=False),
                arrays["gammon_mean"].astype(np.float64, copy=False),
            )
        except KeyError as exc:
            raise EngineError(f"{str(path)!r} lacks the array {exc}") from None
        for array in values:
            _readonly(array)
        return cls(*values)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the database into ``directory`` as ``bearoff1-15x6.npz``; returns the
        file's path."""
        path = Path(directory) / ONE_SIDED_FILE
        _save(
            path,
            {
                "kind": np.array("one-sided"),
                "format": np.array(_FORMAT),
                "distributions": self._distributions,
                "mean": self._mean,
                "gammon": self._gammon,
                "gammon_mean": self._gammon_mean,
            },
        )
        return path

    def rolls_distribution(self, points: Sequence[int] | npt.ArrayLike) -> FloatArray:
        """The chances of needing exactly ``n`` rolls to bear off every checker, for
        ``n = 0 .. 31`` (a fresh float64 array), playing to minimise the mean.

        >>> # two checkers on the 2-point: a 1 with another number fails, 10 rolls in 36
        >>> db = OneSidedDatabase.build()
        >>> [round(36 * p) for p in db.rolls_distribution([0, 2, 0, 0, 0, 0])[:3]]
        [0, 26, 10]

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        index = _index(_checked_points(points, ONE_SIDED_CHECKERS))
        return np.asarray(self._distributions[index], dtype=np.float64)

    def expected_rolls(self, points: Sequence[int] | npt.ArrayLike) -> float:
        """The mean number of rolls to bear off every checker (minimised).

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        return float(self._mean[_index(_checked_points(points, ONE_SIDED_CHECKERS))])

    def gammon_distribution(self, points: Sequence[int] | npt.ArrayLike) -> FloatArray:
        """The chances of needing exactly ``n`` rolls until at least one checker of the
        position is off (``n = 0 .. 31``), playing to minimise that number's mean. Bin 0
        holds only for the empty position.

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        index = _index(_checked_points(points, ONE_SIDED_CHECKERS))
        return np.asarray(self._gammon[index], dtype=np.float64)

    def expected_gammon_rolls(self, points: Sequence[int] | npt.ArrayLike) -> float:
        """The mean number of rolls until the first checker is off (minimised).

        Raises:
            InvalidPositionError: if ``points`` is not a position of the database.
        """
        return float(self._gammon_mean[_index(_checked_points(points, ONE_SIDED_CHECKERS))])

    def win_probability(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
    ) -> float:
        """Cubeless chance that the side on roll (``player``) wins the race, from the
        two independent distributions: ``sum_n P(n) * Q(>= n)``.

        Raises:
            InvalidPositionError: if a side is not a position of the database, or both
                are empty.
        """
        return self.probabilities(player, opponent, checkers=None)[0]

    def probabilities(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
        *,
        checkers: int | None = ONE_SIDED_CHECKERS,
    ) -> tuple[float, float, float, float, float]:
        """The five cubeless outcome chances for the side on roll (``player``):
        ``(win, win gammon, win backgammon, lose gammon, lose backgammon)``, gammons
        included in wins and backgammons in gammons.

        A side can be gammoned when it has ``checkers`` checkers on its points (it has
        borne off none); ``checkers=None`` leaves gammons out. Gammon chances come from
        the gammon-saving distributions (module docstring); backgammons are 0.

        Raises:
            InvalidPositionError: if a side is not a position of the database, or both
                are empty.
        """
        mine = _checked_points(player, ONE_SIDED_CHECKERS)
        theirs = _checked_points(opponent, ONE_SIDED_CHECKERS)
        if not any(mine) and not any(theirs):
            raise InvalidPositionError("both sides have borne off every checker")
        return self._outcomes(
            _index(mine),
            _index(theirs),
            checkers is not None and sum(theirs) == checkers,
            checkers is not None and sum(mine) == checkers,
        )

    def _outcomes(
        self, player: int, opponent: int, gammon_opponent: bool, gammon_player: bool
    ) -> tuple[float, float, float, float, float]:
        mine = self._distributions[player].astype(np.float64)
        theirs = self._distributions[opponent].astype(np.float64)
        theirs_at_least = np.cumsum(theirs[::-1])[::-1]
        win = min(1.0, float(mine @ theirs_at_least))
        win_gammon = lose_gammon = 0.0
        if gammon_opponent:
            first_off = self._gammon[opponent].astype(np.float64)
            at_least = np.cumsum(first_off[::-1])[::-1]
            win_gammon = min(win, float(mine @ at_least))
        if gammon_player:
            first_off = self._gammon[player].astype(np.float64)
            beyond = np.append(np.cumsum(first_off[::-1])[::-1][1:], 0.0)
            lose_gammon = min(1.0 - win, float(theirs @ beyond))
        return (win, win_gammon, 0.0, lose_gammon, 0.0)

    def __repr__(self) -> str:
        return f"<OneSidedDatabase {ONE_SIDED_CHECKERS}x{POINTS}: {ONE_SIDED_POSITIONS} positions>"


class BearoffCubeEquities(NamedTuple):
    """Exact cubeful money equities of a two-sided bear-off position, for the side on
    roll before it rolls, per unit of the current cube (no Jacoby rule, no beavers).

    ``centred``, ``owned`` and ``opponent_owns`` are the equities with optimal cube
    action now and later by both sides, for the three cube positions. The others split
    the side on roll's decision now: ``centred_no_double`` and ``owned_no_double`` if it
    does not double, ``double_take`` if it doubles and is taken (the opponent then owns a
    cube twice as high); a double that is passed is worth exactly 1.
    """

    centred: float
    owned: float
    opponent_owns: float
    centred_no_double: float
    owned_no_double: float
    double_take: float


class TwoSidedDatabase:
    """Exact cubeless winning chances and cubeful money equities of every pair of
    bear-off positions of up to 6 checkers each (924 x 924); see the module docstring
    for the method.

    Build it with :meth:`build` or load it with :meth:`open`. Positions are given as 6
    counts (1- to 6-point) for the side on roll (``player``) and the ``opponent``.
    """

    __slots__ = ("_nd_centred", "_nd_owned", "_opponent_owns", "_win")

    def __init__(
        self,
        win: Float32Array,
        nd_centred: Float32Array,
        nd_owned: Float32Array,
        opponent_owns: Float32Array,
    ) -> None:
        """Wrap ``(924, 924)`` arrays indexed ``[player, opponent]`` by
        :func:`bearoff_index`: the cubeless win chance, the no-double equities for a
        centred and an owned cube, and the equity when the opponent owns the cube.

        Raises:
            EngineError: if the shapes are wrong.
        """
        shape = (TWO_SIDED_POSITIONS, TWO_SIDED_POSITIONS)
        if any(array.shape != shape for array in (win, nd_centred, nd_owned, opponent_owns)):
            raise EngineError("two-sided bear-off arrays have the wrong shapes")
        self._win = win
        self._nd_centred = nd_centred
        self._nd_owned = nd_owned
        self._opponent_owns = opponent_owns

    @classmethod
    def build(cls, progress: ProgressCallback | None = None) -> TwoSidedDatabase:
        """Compute the database in memory (a few seconds), reporting to ``progress``."""
        die1, die2, weight = _roll_arrays()
        codes, pips, _ = _position_tables(TWO_SIDED_CHECKERS)
        size = codes.shape[0]
        rolls = weight.shape[0]
        start = np.zeros(size * rolls + 1, dtype=np.int64)
        targets = np.zeros(size * rolls * 1296, dtype=np.int64)
        written = _successor_lists(codes, die1, die2, start, targets)
        targets = targets[:written].copy()
        shape = (size, size)
        win = np.zeros(shape)
        nd_centred = np.zeros(shape)
        nd_owned = np.zeros(shape)
        e_centred = np.zeros(shape)
        e_owned = np.zeros(shape)
        e_opponent = np.zeros(shape)
        # Finished games: a side with no checkers has won (it cannot be on roll with
        # its opponent finished too); the pair (0, 0) never occurs and stays 0.
        for array, value in ((win, 1.0), (nd_centred, 1.0), (nd_owned, 1.0)):
            array[0, 1:] = value
        for array in (e_centred, e_owned, e_opponent):
            array[0, 1:] = 1.0
            array[1:, 0] = -1.0
        for array in (nd_centred, nd_owned):
            array[1:, 0] = -1.0
        totals = (pips[:, None] + pips[None, :]).reshape(-1)
        playable = np.ones(shape, dtype=bool)
        playable[0, :] = False
        playable[:, 0] = False
        candidates = np.flatnonzero(playable.reshape(-1))
        order = candidates[np.argsort(totals[candidates], kind="stable")]
        sorted_totals = totals[order]
        top = int(sorted_totals[-1])
        bounds = np.searchsorted(sorted_totals, np.arange(top + 2))
        for level in range(top + 1):
            batch = order[bounds[level] : bounds[level + 1]]
            if batch.shape[0]:
                _two_sided_batch(
                    batch,
                    start,
                    targets,
                    weight,
                    win,
                    nd_centred,
                    nd_owned,
                    e_centred,
                    e_owned,
                    e_opponent,
                )
            _report(progress, "two-sided", level + 1, top + 1)
        stored = tuple(
            table.astype(np.float32) for table in (win, nd_centred, nd_owned, e_opponent)
        )
        for table in stored:
            _readonly(table)
        return cls(*stored)

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: ProgressCallback | None = None,
    ) -> TwoSidedDatabase:
        """Load the database from ``directory`` (:func:`default_database_directory` if
        ``None``); if it is missing or unreadable and ``build`` is true, build it and
        save it there first.

        Raises:
            EngineError: if the file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        path = Path(directory or default_database_directory()) / TWO_SIDED_FILE
        return _open_or_build(path, cls._from_file, lambda: cls.build(progress), build)

    @classmethod
    def _from_file(cls, path: Path) -> TwoSidedDatabase:
        if not path.exists():
            raise EngineError(
                f"no two-sided bear-off database at {str(path)!r}; build it with: "
                f"python -m backgammon.engine.bearoff build"
            )
        arrays = _load(path, "two-sided")
        try:
            values = tuple(
                arrays[name].astype(np.float32, copy=False)
                for name in ("win", "centred_no_double", "owned_no_double", "opponent_owns")
            )
        except KeyError as exc:
            raise EngineError(f"{str(path)!r} lacks the array {exc}") from None
        for array in values:
            _readonly(array)
        return cls(*values)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the database into ``directory`` as ``bearoff2-6x6.npz``; returns the
        file's path."""
        path = Path(directory) / TWO_SIDED_FILE
        _save(
            path,
            {
                "kind": np.array("two-sided"),
                "format": np.array(_FORMAT),
                "win": self._win,
                "centred_no_double": self._nd_centred,
                "owned_no_double": self._nd_owned,
                "opponent_owns": self._opponent_owns,
            },
        )
        return path

    def _pair(
        self, player: Sequence[int] | npt.ArrayLike, opponent: Sequence[int] | npt.ArrayLike
    ) -> tuple[int, int]:
        mine = _checked_points(player, TWO_SIDED_CHECKERS)
        theirs = _checked_points(opponent, TWO_SIDED_CHECKERS)
        if not any(mine) and not any(theirs):
            raise InvalidPositionError("both sides have borne off every checker")
        return _index(mine), _index(theirs)

    def win_probability(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
    ) -> float:
        """Exact cubeless chance that the side on roll (``player``) wins, both sides
        playing to maximise their winning chances. A side with no checkers left has
        won.

        Raises:
            InvalidPositionError: if a side has more than 6 checkers or is malformed, or
                both are empty.
        """
        mine, theirs = self._pair(player, opponent)
        return float(self._win[mine, theirs])

    def cube_equities(
        self,
        player: Sequence[int] | npt.ArrayLike,
        opponent: Sequence[int] | npt.ArrayLike,
    ) -> BearoffCubeEquities:
        """Exact cubeful money equities for the side on roll (``player``); see
        :class:`BearoffCubeEquities`.

        Raises:
            InvalidPositionError: if a side has more than 6 checkers or is malformed, or
                both are empty.
        """
        mine, theirs = self._pair(player, opponent)
        centred = float(self._nd_centred[mine, theirs])
        owned = float(self._nd_owned[mine, theirs])
        opponent_owns = float(self._opponent_owns[mine, theirs])
        double_take = 2.0 * opponent_owns
        # A finished game has no cube action.
        doubled = centred if mine == 0 or theirs == 0 else min(double_take, 1.0)
        return BearoffCubeEquities(
            centred=max(centred, doubled),
            owned=max(owned, doubled),
            opponent_owns=opponent_owns,
            centred_no_double=centred,
            owned_no_double=owned,
            double_take=double_take,
        )

    def __repr__(self) -> str:
        return (
            f"<TwoSidedDatabase {TWO_SIDED_CHECKERS}x{POINTS}: "
            f"{TWO_SIDED_POSITIONS}x{TWO_SIDED_POSITIONS} pairs>"
        )


def _home_points(side: tuple[int, ...]) -> tuple[int, ...] | None:
    """Points 1..6 of a side's 26 slots, if it has no checker elsewhere; else None."""
    if any(side[7:]):
        return None
    return side[1:7]


class BearoffDatabase:
    """Both bear-off databases together: the evaluator for positions where both sides
    have all their checkers on their home points.

    Open it with :meth:`open` (loading, or building once, the cached files).
    """

    __slots__ = ("one_sided", "two_sided")

    one_sided: OneSidedDatabase
    two_sided: TwoSidedDatabase

    def __init__(self, one_sided: OneSidedDatabase, two_sided: TwoSidedDatabase) -> None:
        """Combine a one-sided and a two-sided database."""
        self.one_sided = one_sided
        self.two_sided = two_sided

    @classmethod
    def open(
        cls,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: ProgressCallback | None = None,
    ) -> BearoffDatabase:
        """Load both databases from ``directory`` (:func:`default_database_directory`
        if ``None``), building and saving a missing one first if ``build`` is true.

        Raises:
            EngineError: if a file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        return cls(
            OneSidedDatabase.open(directory, build=build, progress=progress),
            TwoSidedDatabase.open(directory, build=build, progress=progress),
        )

    def classify(self, position: Position) -> BearoffClass | None:
        """Which database evaluates ``position``: ``"bearoff2"`` if both sides have at
        most 6 checkers, all on their home points (the two-sided database);
        ``"bearoff1"`` if both have all their checkers (at most 15) on their home
        points (the one-sided database); ``None`` otherwise, also when the game is
        over. The names are GNU Backgammon's position classes.
        """
        mine = _home_points(position.player)
        theirs = _home_points(position.opponent)
        if mine is None or theirs is None:
            return None
        on_mine, on_theirs = sum(mine), sum(theirs)
        if not on_mine or not on_theirs:
            return None
        if on_mine <= TWO_SIDED_CHECKERS and on_theirs <= TWO_SIDED_CHECKERS:
            return "bearoff2"
        if on_mine <= ONE_SIDED_CHECKERS and on_theirs <= ONE_SIDED_CHECKERS:
            return "bearoff1"
        return None

    def covers(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which 52-slot boards (rows) the databases evaluate: both sides with
        checkers left, all on their home points, at most 15 each (the
        :class:`~backgammon.engine.evaluator.BearoffEvaluator` protocol)."""
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        result: npt.NDArray[np.bool_] = _covered_rows(array)
        return result

    @staticmethod
    def solved(boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.bool_]:
        """Which 52-slot boards (rows) the two-sided database values exactly: both
        sides with 1 to 6 checkers, all on their home points, and at least one borne
        off (so no gammon is possible). A lookahead search of them cannot change
        their value. It reads no table, so it can be asked of the class before the
        databases are opened (or built)."""
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        mine = array[:, 1:7].astype(np.int64).sum(axis=1)
        theirs = array[:, 27:33].astype(np.int64).sum(axis=1)
        result: npt.NDArray[np.bool_] = (
            _covered_rows(array)
            & (mine <= TWO_SIDED_CHECKERS)
            & (theirs <= TWO_SIDED_CHECKERS)
            & (array[:, 0] > 0)
            & (array[:, 26] > 0)
        )
        return result

    def cube_equity_rows(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """Exact cubeful money equities of 52-slot boards for their side on roll, per
        unit of cube, as ``float64[n, 3]``: no double with a centred cube, no double
        with its own cube, and the opponent owning the cube (see
        :class:`BearoffCubeEquities`); rows that :meth:`solved` does not cover are NaN.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        out = np.full((array.shape[0], 3), np.nan)
        two = self.two_sided
        for row in np.flatnonzero(self.solved(array)):
            mine = _index(tuple(int(v) for v in array[row, 1:7]))
            theirs = _index(tuple(int(v) for v in array[row, 27:33]))
            out[row] = (
                two._nd_centred[mine, theirs],
                two._nd_owned[mine, theirs],
                two._opponent_owns[mine, theirs],
            )
        return out

    def evaluate_boards(self, boards: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
        """:meth:`evaluate` for many 52-slot boards, all covered (see :meth:`covers`).

        Raises:
            InvalidPositionError: if a board is not a bear-off position.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        out = np.empty((array.shape[0], 5))
        bad = _evaluate_bearoff_rows(
            array,
            self.one_sided._distributions,
            self.one_sided._gammon,
            self.two_sided._win,
            out,
        )
        if bad >= 0:
            raise InvalidPositionError(
                f"board row {bad} is not a bear-off position: both sides need checkers "
                f"left, all on their home points, at most {ONE_SIDED_CHECKERS} each"
            )
        return out

    def evaluate(self, position: Position) -> tuple[float, float, float, float, float]:
        """Cubeless outcome chances for the side on roll of a bear-off position:
        ``(win, win gammon, win backgammon, lose gammon, lose backgammon)``, gammons
        including backgammons.

        The win chance is exact from the two-sided database for ``"bearoff2"``
        positions and from the two independent one-sided distributions for
        ``"bearoff1"`` (see :meth:`classify`). A side that has borne off no checker can
        lose a gammon; its chance comes from the one-sided gammon-saving distribution
        (module docstring), capped by the chance of losing. Backgammons are impossible.

        Raises:
            InvalidPositionError: if :meth:`classify` gives ``None``.
        """
        kind = self.classify(position)
        if kind is None:
            raise InvalidPositionError(
                f"{position!r} is not a bear-off position: both sides need checkers "
                f"left, all on their home points, at most {ONE_SIDED_CHECKERS} each"
            )
        mine = position.player[1:7]
        theirs = position.opponent[1:7]
        outcomes = self.one_sided._outcomes(
            _index(mine),
            _index(theirs),
            position.opponent_off == 0,
            position.player_off == 0,
        )
        if kind == "bearoff1":
            return outcomes
        win = self.two_sided.win_probability(mine, theirs)
        _, win_gammon, _, lose_gammon, _ = outcomes
        return (win, min(win_gammon, win), 0.0, min(lose_gammon, 1.0 - win), 0.0)

    def cube_equities(self, position: Position) -> BearoffCubeEquities | None:
        """Exact cubeful money equities of a ``"bearoff2"`` position for the side on
        roll (see :class:`BearoffCubeEquities`); ``None`` for any other position."""
        if self.classify(position) != "bearoff2":
            return None
        return self.two_sided.cube_equities(position.player[1:7], position.opponent[1:7])

    def __repr__(self) -> str:
        return f"<BearoffDatabase {self.one_sided!r} {self.two_sided!r}>"


def build_bearoff_databases(
    directory: str | os.PathLike[str] | None = None,
    progress: ProgressCallback | None = None,
) -> tuple[Path, Path]:
    """Build both databases and write them into ``directory``
    (:func:`default_database_directory` if ``None``), replacing any there.

    Takes about 2 s on two cores, 5 s the first time (Numba compiles the kernels on
    first use and caches them). ``progress(stage, done, total)`` is called as it goes.
    Returns the paths of the one-sided and two-sided files.

    Raises:
        OSError: if the files cannot be written.
    """
    folder = Path(directory or default_database_directory())
    one_sided = OneSidedDatabase.build(progress).save(folder)
    two_sided = TwoSidedDatabase.build(progress).save(folder)
    return one_sided, two_sided


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m backgammon.engine.bearoff build [--dir DIR] [--quiet]``
    builds both databases; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m backgammon.engine.bearoff",
        description="Build the exact bear-off databases (one-sided 15x6, two-sided 6x6).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="build both databases and cache them")
    build.add_argument(
        "--dir",
        default=None,
        help=f"folder for the files (default: {default_database_directory()})",
    )
    build.add_argument("--quiet", action="store_true", help="print nothing but errors")
    arguments = parser.parse_args(argv)

    def show(stage: str, done: int, total: int) -> None:
        print(f"\r{stage}: {done}/{total}", end="\n" if done == total else "", flush=True)

    began = time.perf_counter()
    try:
        paths = build_bearoff_databases(arguments.dir, None if arguments.quiet else show)
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if not arguments.quiet:
        for path in paths:
            print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
        print(f"done in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
