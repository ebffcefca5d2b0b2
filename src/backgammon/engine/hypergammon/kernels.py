"""The Numba kernels of solved hypergammon: move generation, the value-iteration
sweeps, the extrapolation's passes and board lookups (all compiled with
``cache=True``).

**Moves.** A Numba kernel generates the legal plays of each roll under the standard
rules (enter from the bar first, use both dice or as many as possible, else the higher
die; bear off once every checker is home, with a higher die only from the highest
point), one per distinct result, as the rules' own generator does (the tests compare
them position by position).

One module for every kernel, callers and callees together, about 700 lines: Numba
checks only the source file of the kernel it loads from its cache, not the files of
the kernels it calls (docs/architecture.md), so a kernel split from its callers could
keep running stale compiled code after an edit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

from backgammon.engine.hypergammon.indexing import (
    BAR,
    LOCATIONS,
    Boards,
    CountArray,
    FloatArray,
    IntArray,
    ResultArray,
)


def _binomials() -> IntArray:
    table = np.zeros((40, 8), dtype=np.int64)
    for n in range(40):
        for k in range(8):
            table[n, k] = math.comb(n, k)
    table.setflags(write=False)
    return table


_BINOM = _binomials()


@njit(cache=True)
def _rank(locations: IntArray, n: int) -> int:
    """Rank of ``n`` locations (in any order)."""
    a = locations[0]
    b = locations[1] if n > 1 else 0
    c = locations[2] if n > 2 else 0
    # sort the (at most three) values
    if n > 1 and b < a:
        a, b = b, a
    if n > 2:
        if c < b:
            b, c = c, b
        if b < a:
            a, b = b, a
    rank = _BINOM[a, 1]
    if n > 1:
        rank += _BINOM[b + 1, 2]
    if n > 2:
        rank += _BINOM[c + 2, 3]
    return int(rank)


@njit(cache=True)
def _side_table(n: int, size: int) -> IntArray:
    """Sorted locations of every side rank: ``table[rank]``, three locations, the
    unused ones (when ``n`` < 3) 0, as if borne off."""
    table = np.zeros((size, 3), dtype=np.int64)
    work = np.zeros(3, dtype=np.int64)
    for a in range(LOCATIONS):
        for b in range(a, LOCATIONS if n > 1 else a + 1):
            for c in range(b, LOCATIONS if n > 2 else b + 1):
                work[0] = a
                work[1] = b
                work[2] = c
                rank = _rank(work, n)
                table[rank, 3 - n :] = work[:n]
    return table


@njit(cache=True)
def _location(code: int, k: int) -> int:
    """Location of checker ``k`` of a packed pair code (0..2 the player's, 3..5 the
    opponent's in its own numbering)."""
    return (code >> (5 * k)) & 31


@njit(cache=True)
def _step(code: int, i: int, die: int) -> int:
    """Move the player's checker ``i`` by ``die``: the new packed code, or -1 if the
    step is illegal (or an earlier checker stands on the same point: the same step).

    A packed code holds six 5-bit locations: the player's three checkers, then the
    opponent's three (unused checkers, when a side has fewer, lie borne off)."""
    p = (code >> (5 * i)) & 31
    if p == 0:
        return -1
    for j in range(i):
        if ((code >> (5 * j)) & 31) == p:
            return -1
    m0 = code & 31
    m1 = (code >> 5) & 31
    m2 = (code >> 10) & 31
    if p != BAR and (m0 == BAR or m1 == BAR or m2 == BAR):
        return -1  # a checker on the bar enters first
    target = p - die
    if target >= 1:
        their_point = 25 - target
        count = 0
        blot = -1
        for k in range(3, 6):
            if ((code >> (5 * k)) & 31) == their_point:
                count += 1
                blot = k
        if count >= 2:
            return -1
        if count == 1:
            code = code + ((BAR - their_point) << (5 * blot))
        return code - (die << (5 * i))
    if m0 > 6 or m1 > 6 or m2 > 6:
        return -1  # bearing off needs every checker home
    if target < 0 and (m0 > p or m1 > p or m2 > p):
        return -1  # a higher die bears off only from the highest point
    return code - (p << (5 * i))


@njit(cache=True)
def _rank3(x: int, y: int, z: int, n: int) -> int:
    """Rank of a side whose checkers lie on ``x, y, z`` (unused ones off, at 0)."""
    if y < x:
        x, y = y, x
    if z < y:
        y, z = z, y
    if y < x:
        x, y = y, x
    # the ``n`` highest are the side's checkers (the unused ones are zeros)
    if n == 1:
        return int(_BINOM[z, 1])
    if n == 2:
        return int(_BINOM[y, 1] + _BINOM[z + 1, 2])
    return int(_BINOM[x, 1] + _BINOM[y + 1, 2] + _BINOM[z + 2, 3])


@njit(cache=True)
def _key(code: int, n: int, size: int) -> int:
    """A play's result as a key: the pair index from the opponent's side (it is on
    roll next), or ``-points`` (1, 2 or 3) when the player has borne off every
    checker and won."""
    mine = _rank3(code & 31, (code >> 5) & 31, (code >> 10) & 31, n)
    if mine == 0:
        gammon = True
        backgammon = False
        for k in range(3, 6):
            location = (code >> (5 * k)) & 31
            if location == 0:
                if k >= 6 - n:  # one of the opponent's n checkers is off
                    gammon = False
            elif location >= 19:
                backgammon = True
        if not gammon:
            return -1
        return -3 if backgammon else -2
    theirs = _rank3((code >> 15) & 31, (code >> 20) & 31, (code >> 25) & 31, n)
    return theirs * size + mine


@njit(cache=True)
def _push(key: int, depth: int, die: int, found: int, raw: IntArray) -> int:
    raw[3 * found] = key
    raw[3 * found + 1] = depth
    raw[3 * found + 2] = die
    return found + 1


@njit(cache=True)
def _successors(
    code: int, n: int, size: int, die1: int, die2: int, keys: IntArray, raw: IntArray
) -> int:
    """The distinct results (keys, see :func:`_key`) of the legal plays of a roll
    from the packed position ``code``, into ``keys``; returns how many (0: no legal
    play). ``raw`` is scratch space of at least 3 * 130 entries."""
    found = 0
    best = 0
    if die1 == die2:
        d = die1
        for i in range(3):
            c1 = _step(code, i, d)
            if c1 < 0:
                continue
            best = max(best, 1)
            found = _push(c1, 1, d, found, raw)
            for j in range(3):
                c2 = _step(c1, j, d)
                if c2 < 0:
                    continue
                best = max(best, 2)
                found = _push(c2, 2, d, found, raw)
                for k in range(3):
                    c3 = _step(c2, k, d)
                    if c3 < 0:
                        continue
                    best = max(best, 3)
                    found = _push(c3, 3, d, found, raw)
                    for m in range(3):
                        c4 = _step(c3, m, d)
                        if c4 < 0:
                            continue
                        best = 4
                        found = _push(c4, 4, d, found, raw)
    else:
        for order in range(2):
            first = die1 if order == 0 else die2
            second = die2 if order == 0 else die1
            for i in range(3):
                c1 = _step(code, i, first)
                if c1 < 0:
                    continue
                best = max(best, 1)
                found = _push(c1, 1, first, found, raw)
                for j in range(3):
                    c2 = _step(c1, j, second)
                    if c2 < 0:
                        continue
                    best = 2
                    found = _push(c2, 2, second, found, raw)
    if best == 0:
        return 0
    # keep the plays of the most steps; with one step of two different dice, those of
    # the higher die if any
    high = max(die1, die2)
    only_high = False
    if best == 1 and die1 != die2:
        for f in range(found):
            if raw[3 * f + 2] == high:
                only_high = True
    count = 0
    for f in range(found):
        if raw[3 * f + 1] != best or (only_high and raw[3 * f + 2] != high):
            continue
        key = _key(raw[3 * f], n, size)
        new = True
        for g in range(count):
            if keys[g] == key:
                new = False
                break
        if new:
            keys[count] = key
            count += 1
    return count


@njit(cache=True)
def _pair_code(table: IntArray, a: int, b: int) -> int:
    """The packed code of the pair of side ranks ``(a, b)``."""
    code = 0
    for j in range(3):
        code |= table[a, j] << (5 * j)
        code |= table[b, j] << (5 * (3 + j))
    return int(code)


@njit(cache=True)
def _equity5(p: FloatArray) -> float:
    """Cubeless money equity of five chances."""
    return float(2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4])


_VALUES = 8
"""Columns of the packed values a sweep works on: the five chances, then no double
with a centred cube, no double with the cube owned, the opponent owning the cube
(one 64-byte row a position, so that reading a successor is one cache line)."""
_CENTRED, _OWNED, _OPPONENT = 5, 6, 7


@njit(cache=True)
def _sweep_slots(
    order: IntArray,
    lo: int,
    hi: int,
    table: IntArray,
    n: int,
    size: int,
    die1: IntArray,
    die2: IntArray,
    weight: FloatArray,
    values: FloatArray,
    tie: float,
    gnubg_no_move: bool,
    update: bool,
    change: FloatArray,
    by_equity: bool,
    play_counts: CountArray,
    play_starts: IntArray,
    play_results: ResultArray,
) -> float:
    """One Gauss-Seidel pass over ``order[lo:hi]``; returns the largest change of any
    value.

    The plays of a slot whose ``play_starts[slot]`` is not -1 are read from the play
    table (:func:`_play_table`: ``play_counts[slot, roll]`` results, from
    ``play_results[play_starts[slot]]`` on, roll after roll); the others' (and every
    slot's when ``play_starts`` is empty) are generated.

    ``values`` is packed (see :data:`_VALUES`). With ``update`` false nothing is
    written: the pass only measures how far every position is from the average of its
    rolls (:func:`residual`); ``change`` receives each position's largest difference
    (indexed like ``order``). With ``by_equity`` the chances count through their
    cubeless equity only."""
    keys = np.empty(256, dtype=np.int64)
    raw = np.empty(3 * 256, dtype=np.int64)
    play_equity = np.empty(256)
    new = np.empty(5)
    best_p = np.empty(5)
    largest = 0.0
    tabled = play_starts.shape[0]
    for slot in range(lo, hi):
        pair = order[slot]
        a = pair // size
        b = pair % size
        code = _pair_code(table, a, b)
        for k in range(5):
            new[k] = 0.0
        v_centred = 0.0
        v_owned = 0.0
        v_opponent = 0.0
        at = play_starts[slot] if slot < tabled else -1
        read = at >= 0
        for roll in range(die1.shape[0]):
            w = weight[roll]
            if read:
                count = int(play_counts[slot, roll])
                for k in range(count):
                    keys[k] = play_results[at + k]
                at += count
            else:
                count = _successors(code, n, size, die1[roll], die2[roll], keys, raw)
            if count == 0:
                p = values[b * size + a]
                best_p[0] = 1.0 - p[0]
                best_p[1] = p[3]
                best_p[2] = p[4]
                best_p[3] = p[1]
                best_p[4] = p[2]
                e_u = p[_OPPONENT]
                double = min(2.0 * e_u, 1.0)
                if gnubg_no_move:
                    b_centred = -p[_CENTRED]
                    b_owned = -p[_OWNED]
                    b_opponent = -e_u
                else:
                    b_centred = -max(p[_CENTRED], double)
                    b_owned = -e_u
                    b_opponent = -max(p[_OWNED], double)
            else:
                best_e = -1e300
                b_centred = -1e300
                b_owned = -1e300
                b_opponent = -1e300
                # the best cubeless equity, and each cube state's best
                for k in range(count):
                    key = keys[k]
                    if key < 0:
                        e = float(-key)
                        c_centred = e
                        c_owned = e
                        c_opponent = e
                    else:
                        p = values[key]
                        e = -_equity5(p)
                        e_u = p[_OPPONENT]
                        double = min(2.0 * e_u, 1.0)
                        c_centred = -max(p[_CENTRED], double)
                        c_owned = -e_u
                        c_opponent = -max(p[_OWNED], double)
                    play_equity[k] = e
                    best_e = max(best_e, e)
                    b_centred = max(b_centred, c_centred)
                    b_owned = max(b_owned, c_owned)
                    b_opponent = max(b_opponent, c_opponent)
                # tie-break: the lowest key among the plays within ``tie`` of the best,
                # judged by the equities read above: another thread may be writing a
                # successor in this level, and a second read could leave no play
                # within ``tie`` of ``best_e`` (and an unset key read as a row)
                chosen = np.int64(1) << 62
                for k in range(count):
                    key = keys[k]
                    if play_equity[k] >= best_e - tie and key < chosen:
                        chosen = key
                if chosen < 0:
                    points = -chosen
                    best_p[0] = 1.0
                    best_p[1] = 1.0 if points >= 2 else 0.0
                    best_p[2] = 1.0 if points == 3 else 0.0
                    best_p[3] = 0.0
                    best_p[4] = 0.0
                else:
                    p = values[chosen]
                    best_p[0] = 1.0 - p[0]
                    best_p[1] = p[3]
                    best_p[2] = p[4]
                    best_p[3] = p[1]
                    best_p[4] = p[2]
            for k in range(5):
                new[k] += w * best_p[k]
            v_centred += w * b_centred
            v_owned += w * b_owned
            v_opponent += w * b_opponent
        row = values[pair]
        diff = 0.0
        if by_equity:
            diff = abs(_equity5(new) - _equity5(row))
        else:
            for k in range(5):
                diff = max(diff, abs(new[k] - row[k]))
        diff = max(diff, abs(v_centred - row[_CENTRED]))
        diff = max(diff, abs(v_owned - row[_OWNED]))
        diff = max(diff, abs(v_opponent - row[_OPPONENT]))
        change[slot] = diff
        largest = max(largest, diff)
        if update:
            for k in range(5):
                row[k] = new[k]
            row[_CENTRED] = v_centred
            row[_OWNED] = v_owned
            row[_OPPONENT] = v_opponent
    return largest


@njit(cache=True, parallel=True)
def _solve_sweep(
    order: IntArray,
    levels: IntArray,
    table: IntArray,
    n: int,
    size: int,
    die1: IntArray,
    die2: IntArray,
    weight: FloatArray,
    values: FloatArray,
    tie: float,
    gnubg_no_move: bool,
    update: bool,
    change: FloatArray,
    by_equity: bool,
    threads: int,
    play_counts: CountArray,
    play_starts: IntArray,
    play_results: ResultArray,
) -> float:
    """One sweep over ``order`` on ``threads`` threads (see :func:`_sweep_slots`);
    returns the largest change of any value.

    ``order[levels[k]:levels[k + 1]]`` are the positions of one total pip count
    (:func:`_playable_order`), taken level by level, each level shared among the
    threads. A play lowers the mover's pips, so a position's successors lie in
    earlier levels, already updated, as in a one-thread Gauss-Seidel sweep, and
    positions of one level can be updated at once; the exceptions (a hit that gives
    back as many pips as the play used, a roll with no play: the same level) read a
    value another thread may be writing, before or after its update, which value
    iteration tolerates (it converges to the same fixed point) as long as a position
    reads each successor's equity once (:func:`_sweep_slots`), and the last sweep,
    which changes nothing beyond the tolerance, is what the stopping rule and
    :func:`residual` judge."""
    largest = np.zeros(threads)
    for level in range(levels.shape[0] - 1):
        lo = levels[level]
        span = levels[level + 1] - lo
        for t in prange(threads):
            first = lo + span * t // threads
            last = lo + span * (t + 1) // threads
            if last > first:
                found = _sweep_slots(
                    order,
                    first,
                    last,
                    table,
                    n,
                    size,
                    die1,
                    die2,
                    weight,
                    values,
                    tie,
                    gnubg_no_move,
                    update,
                    change,
                    by_equity,
                    play_counts,
                    play_starts,
                    play_results,
                )
                largest[t] = max(largest[t], found)
    return float(largest.max())


@njit(cache=True, parallel=True)
def _fill_plays(
    order: IntArray,
    table: IntArray,
    n: int,
    size: int,
    die1: IntArray,
    die2: IntArray,
    threads: int,
    counts: CountArray,
    starts: IntArray,
    results: ResultArray,
) -> None:
    """Generate the plays of every slot of ``order`` once into the table (see
    :func:`_sweep_slots`): ``counts[slot, roll]`` results from ``starts[slot]`` on in
    ``results``, roll after roll. Each thread fills its share of the slots into its
    share of ``results``; the slots that no longer fit get ``starts[slot] = -1``
    (generated in each sweep)."""
    slots = order.shape[0]
    room = results.shape[0]
    rolls = die1.shape[0]
    for t in prange(threads):
        keys = np.empty(rolls * 256, dtype=np.int64)
        raw = np.empty(3 * 256, dtype=np.int64)
        cursor = room * t // threads
        end = room * (t + 1) // threads
        full = False
        for slot in range(slots * t // threads, slots * (t + 1) // threads):
            starts[slot] = -1
            if full:
                continue
            pair = order[slot]
            code = _pair_code(table, pair // size, pair % size)
            total = 0
            for roll in range(rolls):
                count = _successors(code, n, size, die1[roll], die2[roll], keys[total:], raw)
                counts[slot, roll] = count
                total += count
            if cursor + total > end:
                full = True
                continue
            for k in range(total):
                results[cursor + k] = keys[k]
            starts[slot] = cursor
            cursor += total


@njit(cache=True)
def _range_sweep(
    order: IntArray,
    table: IntArray,
    n: int,
    size: int,
    die1: IntArray,
    die2: IntArray,
    weight: FloatArray,
    probs: FloatArray,
    low: FloatArray,
    high: FloatArray,
    tie: float,
) -> float:
    """One Gauss-Seidel sweep of :func:`probability_ranges`; the largest change."""
    keys = np.empty(256, dtype=np.int64)
    raw = np.empty(3 * 256, dtype=np.int64)
    new_low = np.empty(5)
    new_high = np.empty(5)
    best_low = np.empty(5)
    best_high = np.empty(5)
    # the mover's chance k is the opponent's chance SWAP[k] (win: one minus it)
    swap = np.array([0, 3, 4, 1, 2])
    largest = 0.0
    for slot in range(order.shape[0]):
        pair = order[slot]
        a = pair // size
        b = pair % size
        code = _pair_code(table, a, b)
        new_low[:] = 0.0
        new_high[:] = 0.0
        for roll in range(die1.shape[0]):
            count = _successors(code, n, size, die1[roll], die2[roll], keys, raw)
            if count == 0:
                keys[0] = b * size + a
                count = 1
            best_e = -1e300
            for k in range(count):
                key = keys[k]
                e = float(-key) if key < 0 else -_equity5(probs[key])
                best_e = max(best_e, e)
            best_low[:] = 1e300
            best_high[:] = -1e300
            for k in range(count):
                key = keys[k]
                e = float(-key) if key < 0 else -_equity5(probs[key])
                if e < best_e - tie:
                    continue
                for c in range(5):
                    if key < 0:
                        points = -key
                        if c == 0:
                            v_low = 1.0
                            v_high = 1.0
                        elif c == 1:
                            v_low = v_high = 1.0 if points >= 2 else 0.0
                        elif c == 2:
                            v_low = v_high = 1.0 if points == 3 else 0.0
                        else:
                            v_low = v_high = 0.0
                    elif c == 0:
                        v_low = 1.0 - high[key, 0]
                        v_high = 1.0 - low[key, 0]
                    else:
                        v_low = low[key, swap[c]]
                        v_high = high[key, swap[c]]
                    best_low[c] = min(best_low[c], v_low)
                    best_high[c] = max(best_high[c], v_high)
            for c in range(5):
                new_low[c] += weight[roll] * best_low[c]
                new_high[c] += weight[roll] * best_high[c]
        for c in range(5):
            largest = max(largest, abs(new_low[c] - low[pair, c]), abs(new_high[c] - high[pair, c]))
            low[pair, c] = new_low[c]
            high[pair, c] = new_high[c]
    return largest


@njit(cache=True)
def _successor_keys(
    table: IntArray, n: int, size: int, a: int, b: int, die1: int, die2: int, out: IntArray
) -> int:
    """The result keys of one position and roll (for tests)."""
    raw = np.empty(3 * 256, dtype=np.int64)
    return _successors(_pair_code(table, a, b), n, size, die1, die2, out, raw)


@njit(cache=True)
def _board_pairs(boards: Boards, n: int, size: int, out: IntArray) -> int:
    """The pair index of each 52-slot board into ``out``; the first board that is not
    a position of ``n`` checkers a side stops it and is returned (-1: none)."""
    locations = np.zeros(3, dtype=np.int64)
    for row in range(boards.shape[0]):
        board = boards[row]
        ranks = np.zeros(2, dtype=np.int64)
        for side in range(2):
            base = 26 * side
            count = 0
            for slot in range(1, 26):
                for _ in range(board[base + slot] & 0x7F):
                    if count < 3:
                        locations[count] = slot
                    count += 1
            if count > n:
                return row
            off = board[base]
            if off != 0 and off + count != n:
                return row
            while count < n:
                locations[count] = 0
                count += 1
            ranks[side] = _rank(locations, n)
        out[row] = ranks[0] * size + ranks[1]
    return -1


_GROUPS = 4
"""The value arrays the extrapolation judges apart: the five chances, then each of the
three cube columns (:data:`_VALUES`)."""


@njit(cache=True)
def _group_of(column: int) -> int:
    """Which of the :data:`_GROUPS` a packed column belongs to."""
    return 0 if column < _CENTRED else column - _CENTRED + 1


@njit(cache=True, parallel=True)
def _change_sums(values: FloatArray, before: FloatArray, threads: int) -> FloatArray:
    """Each group's total absolute change from ``before`` to ``values`` (NaN, where a
    row is not a position, counts nothing); one pass over both, on ``threads``."""
    rows = values.shape[0]
    partial = np.zeros((threads, _GROUPS))
    for t in prange(threads):
        for row in range(rows * t // threads, rows * (t + 1) // threads):
            for column in range(_VALUES):
                delta = values[row, column] - before[row, column]
                if delta == delta:
                    partial[t, _group_of(column)] += abs(delta)
    sums: FloatArray = partial.sum(axis=0)
    return sums


@njit(cache=True, parallel=True)
def _jump_and_keep(
    values: FloatArray, before: FloatArray, factors: FloatArray, threads: int
) -> None:
    """Move each group's values by ``factors`` times their change since ``before``
    (0: not at all), then keep the result in ``before`` for the next sweep."""
    rows = values.shape[0]
    for t in prange(threads):
        for row in range(rows * t // threads, rows * (t + 1) // threads):
            for column in range(_VALUES):
                value = values[row, column]
                factor = factors[_group_of(column)]
                if factor != 0.0:
                    delta = value - before[row, column]
                    if delta == delta:
                        value += delta * factor
                        values[row, column] = value
                before[row, column] = value
