"""The bear-off databases' Numba kernels: a position's code and index, the results of
each roll, the dynamic programming sweeps of the one-sided and two-sided databases,
and the evaluation of rows of boards (see :mod:`backgammon.engine.bearoff` for the methods)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.bearoff.indexing import (
    _BINOM,
    ONE_SIDED_CHECKERS,
    Float32Array,
    FloatArray,
    IntArray,
)

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
