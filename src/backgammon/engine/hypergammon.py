"""Hypergammon solved: exact values of every 1-, 2- and 3-checker position.

Hypergammon is backgammon with 1, 2 or 3 checkers a side (the variants
``hypergammon-1``, ``hypergammon-2`` and ``hypergammon``). Its positions are few
enough to solve exactly: this module computes, for every position, the cubeless
chances (win, win gammon, win backgammon, lose gammon, lose backgammon) under
optimal cubeless play and the money cubeful equities (cube centred, owned by the side
on roll, owned by its opponent) under optimal play and cube handling, stores them in
the cache folder and serves them to :class:`~backgammon.engine.evaluator.Engine` in
place of the networks. Everything here is computed from the rules alone; GNU
Backgammon's ``makehyper`` (which builds its ``hyperN.bd``) is used only to check the
results (``benchmarks/hypergammon_check.py`` and the tests).

**Positions.** One side's checkers lie on its 24 points, on the bar or borne off. A side
is ranked as a multiset of ``N`` locations ``0 .. 25`` (0 off, 1..24 its points in its
own numbering, 25 the bar): with the locations sorted, ``v_1 <= ... <= v_N``,
``rank = C(v_1, 1) + C(v_2 + 1, 2) + ... + C(v_N + N - 1, N)``, so the side with every
checker off is 0 and there are ``C(25 + N, N)`` sides (26, 351, 3,276). A position is the
pair ``player * S + opponent`` (``S`` sides), the side on roll first, before it rolls:
676, 123,201 and 10,732,176 pairs. Pairs where both sides hold the same point are not
positions (their values are NaN); pairs where a side has borne everything off are
finished games (exact values, never iterated).

**Moves.** A Numba kernel generates the legal plays of each roll under the standard
rules (enter from the bar first, use both dice or as many as possible, else the higher
die; bear off once every checker is home, with a higher die only from the highest
point), one per distinct result, as the rules' own generator does (the tests compare
them position by position).

**Cubeless values.** Value iteration, Gauss-Seidel (values updated in place) over the
positions sorted by the total pip count of both sides (so races, where every play lowers
it, come out exact in the first sweep): a position's five chances are the average over
the 21 rolls of those of the best play, the play that maximises the mover's cubeless
money equity ``2 win - 1 + win_gammon - lose_gammon + win_backgammon - lose_backgammon``
(a roll with no legal play passes the turn: the same position with the opponent on
roll). Equities are unique; the chances are not, because tied best plays can lead to
different win/gammon splits. **Tie-break:** among the plays whose equity is within
:data:`TIE` (1e-9) of the best, the one whose result has the lowest pair index (a play
that ends the game first, the larger win first). The iteration starts from a pip-count
race estimate (:func:`_starting_values`) and stops when a sweep changes no value by more
than the tolerance (:func:`default_tolerance`: 1e-9 for 1 and 2 checkers, 1e-8 for 3,
whose file is float32; values in float64); :func:`residual` then checks the stored
values against one more averaging step (self-consistency). Where the change shrinks by a
steady ratio ``r`` a sweep (one slow mode: hits send checkers back, so positions recur),
the values are moved at once by ``r / (1 - r)`` times the last change, the distance left
if the ratio held (:class:`_Extrapolation`); the next sweeps correct any overshoot. This
took the 2-checker solve from 49 sweeps to 28 (the values agree within 2e-9). A build
through :func:`build_database` saves its state every two minutes and resumes from it. A
sweep runs on every core: level by level of total pip count, each level shared among the
threads (:func:`_solve_sweep`), so it stays a Gauss-Seidel sweep. The plays of every
position and roll are generated once, before the first sweep, into a table the sweeps
read (:func:`_play_table`, within :data:`PLAY_TABLE_MEMORY`): generating them was most
of a sweep's time.

**Cubeful values.** In the same sweeps, for money with no Jacoby rule, no beavers and
an unlimited cube, in units of the current cube for the side on roll before it
rolls, with ``ND_x`` the value of not doubling now (the average over rolls of the best
play for the cube state after it):

* ``E_opponent_owns = ND_opponent_owns``: the side on roll cannot double; a play leads
  to a position whose side on roll owns the cube;
* ``E_centred = max(ND_centred, min(2 E_opponent_owns, 1))`` and
  ``E_owned = max(ND_owned, min(2 E_opponent_owns, 1))``: double when better; the
  opponent takes (then owns a cube twice as high) or passes (1), whichever is worse
  for the doubler. A play from a centred cube leads to a centred cube, from an owned
  cube to an "opponent owns" one and back. Each cube state has its own best play.

A roll with no legal play passes the turn with the cube as it is: the opponent, now on
roll, has its cube decision. (GNU Backgammon's ``makehyper`` flips the cube's owner
there and gives the opponent no cube decision, so its 2-checker cubeful equities differ
from these by up to 0.014, 0.027 with the cube action; ``gnubg_no_move=True``
reproduces its rule, for the comparison only.) A game won by bearing off the last
checker is worth 1, 2 (gammon: the loser has borne off nothing) or 3 (backgammon: and
it still has a checker on the bar or in the winner's home board) times the cube.

**Files.** :func:`build_database` solves one checker count and writes
``hypergammon-N.npz`` (arrays ``probabilities`` ``(P, 5)``, ``centred_no_double``,
``owned_no_double`` and ``opponent_owns`` ``(P,)``; float64 for 1 and 2 checkers,
float32 for 3) into
:func:`~backgammon.engine.bearoff.default_database_directory`;
``python -m backgammon.engine.hypergammon build --checkers N`` and
``backgammon build-hypergammon --checkers N`` do the same from the command line.
:meth:`HypergammonDatabase.open` loads a file, building it first if missing. The engine
builds the 1- and 2-checker files on first use (CPU time here: 0.2 s and about 10 s, 16
and 28 sweeps); the 3-checker one (every core, about 9 min on 2) only by the command or the
server's background build (see docs/variants.md for the figures and the checks).

>>> db = HypergammonDatabase.build(1)
>>> position = Position.from_points([0] * 23 + [1], [0] * 23 + [1], checkers=1)
>>> round(db.evaluate(position)[0], 4)  # the side on roll wins the 1-checker start
0.6016
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
from typing import Any, NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt
from numba import get_num_threads, njit, prange

from backgammon.engine.bearoff import default_database_directory
from backgammon.errors import EngineError, InvalidPositionError
from backgammon.rules.dice import ALL_ROLLS
from backgammon.rules.position import Position
from backgammon.rules.variant import STANDARD, Variant

__all__ = [
    "BUILD_COMMAND",
    "BUILT_ON_FIRST_USE",
    "CHECKER_COUNTS",
    "FLOAT32_TOLERANCE",
    "PLAY_TABLE_MEMORY",
    "TIE",
    "TOLERANCE",
    "HypergammonCubeEquities",
    "HypergammonDatabase",
    "SolveProgress",
    "available",
    "build_database",
    "database_file",
    "default_tolerance",
    "main",
    "pair_count",
    "pair_index",
    "play_table_memory",
    "probability_ranges",
    "read_gnubg_database",
    "residual",
    "side_count",
    "side_rank",
    "solves",
]

CHECKER_COUNTS = (1, 2, 3)
"""The checker counts solved here."""
BUILT_ON_FIRST_USE = (1, 2)
"""The checker counts whose databases the engine builds when it first needs them
(seconds); the 3-checker one (about 9 min on 2 cores) is built only by the command or the server."""
TOLERANCE = 1e-9
"""Default convergence tolerance: the iteration stops after a sweep that changes no
stored value by more than this."""
FLOAT32_TOLERANCE = 1e-7
"""The 3-checker build's tolerance: its file is float32 (rounding 6e-8 near 1). In
the last sweeps the change shrinks by about 0.73 a sweep, so the values are then
within about 0.73 / (1 - 0.73) = 2.7 times the last change, 3e-7, of the fixed
point; measured against a build to 1e-8, every stored value within 2.4e-7, 8 sweeps
fewer (docs/variants.md)."""
TIE = 1e-9
"""Plays whose cubeless equities differ by at most this are tied (see the tie-break in
the module docstring)."""
LOCATIONS = 26
"""Locations of a checker: 0 borne off, 1..24 the points, 25 the bar."""
BAR = 25
_FORMAT = 1

SolveProgress: TypeAlias = Callable[[int, float, float], None]
"""Called as ``progress(sweep, largest_change, seconds)`` after each sweep."""

FloatArray: TypeAlias = npt.NDArray[np.float64]
IntArray: TypeAlias = npt.NDArray[np.int64]
CountArray: TypeAlias = npt.NDArray[np.uint8]
ResultArray: TypeAlias = npt.NDArray[np.int32]
Boards: TypeAlias = npt.NDArray[np.uint8]


def _binomials() -> IntArray:
    table = np.zeros((40, 8), dtype=np.int64)
    for n in range(40):
        for k in range(8):
            table[n, k] = math.comb(n, k)
    table.setflags(write=False)
    return table


_BINOM = _binomials()


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


# --- kernels ---------------------------------------------------------------------------


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


def _levels(table: IntArray, order: IntArray) -> IntArray:
    """Where each total pip count begins in ``order`` (sorted by it), and its end."""
    size = table.shape[0]
    pips = table.sum(axis=1)
    totals = pips[order // size] + pips[order % size]
    starts = np.flatnonzero(np.diff(totals)) + 1
    return np.concatenate(([0], starts, [order.shape[0]])).astype(np.int64)


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


class _PlayTable(NamedTuple):
    """The distinct results of every roll's legal plays, generated once for the
    slots of a sweep's order whose ``starts`` is not -1 (see :func:`_sweep_slots`): a
    sweep then reads them instead of generating them again."""

    counts: CountArray
    starts: IntArray
    results: ResultArray


def _no_play_table(rolls: int) -> _PlayTable:
    """A table of no slot: every play generated in the sweep."""
    return _PlayTable(
        np.zeros((0, rolls), dtype=np.uint8),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int32),
    )


def _play_table(
    order: IntArray,
    table: IntArray,
    n: int,
    size: int,
    die1: IntArray,
    die2: IntArray,
    threads: int,
    memory: int,
) -> _PlayTable:
    """The play table of ``order`` in at most ``memory`` bytes: a byte a roll and eight
    a slot (the counts and starts), four a result (int32). The results array is
    allocated whole but only the part written is touched (the rest stays virtual);
    where it is too small, each thread's last slots are left out."""
    rolls = die1.shape[0]
    counts = np.zeros((order.shape[0], rolls), dtype=np.uint8)
    starts = np.empty(order.shape[0], dtype=np.int64)
    room = (memory - counts.nbytes - starts.nbytes) // 4
    if room <= 0:
        return _no_play_table(rolls)
    results = np.empty(room, dtype=np.int32)
    _fill_plays(order, table, n, size, die1, die2, threads, counts, starts, results)
    return _PlayTable(counts, starts, results)


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


# --- building --------------------------------------------------------------------------


def _roll_arrays() -> tuple[IntArray, IntArray, FloatArray]:
    die1 = np.array([roll.high for roll in ALL_ROLLS], dtype=np.int64)
    die2 = np.array([roll.low for roll in ALL_ROLLS], dtype=np.int64)
    weight = np.array([float(roll.weight) for roll in ALL_ROLLS], dtype=np.float64)
    return die1, die2, weight


def _side_pips(table: IntArray, n: int) -> IntArray:
    pips: IntArray = table.sum(axis=1)
    return pips


def _finished_values(table: IntArray, n: int) -> tuple[FloatArray, FloatArray]:
    """Exact probabilities and cube equities of every pair (NaN where the sides clash,
    zero where the game goes on)."""
    size = table.shape[0]
    probs = np.zeros((size * size, 5))
    equity = np.zeros(size * size)
    on_point = np.zeros((size, 26), dtype=bool)
    for rank in range(size):
        for j in range(3):
            on_point[rank, table[rank, j]] = True
    # my point p (1..24) is their 25 - p
    mirrored = on_point[:, 24:0:-1]  # their slots 24..1 = my points 1..24
    clash = (on_point[:, None, 1:25] & mirrored[None, :, :]).any(axis=2).reshape(-1)
    probs[clash] = np.nan
    equity[clash] = np.nan
    none_off: npt.NDArray[np.bool_] = np.all(table[:, 3 - n :] > 0, axis=1)
    in_winner_home: npt.NDArray[np.bool_] = np.any(table >= 19, axis=1)
    for loser_first in (True, False):
        # the side with no checker left has won; the other (``loser``) lost
        for loser in range(1, size):
            gammon = bool(none_off[loser])
            backgammon = gammon and bool(in_winner_home[loser])
            points = 1 + gammon + backgammon
            if loser_first:  # side on roll lost: opponent rank 0
                pair = loser * size
                probs[pair] = (0.0, 0.0, 0.0, float(gammon), float(backgammon))
                equity[pair] = -points
            else:
                pair = loser
                probs[pair] = (1.0, float(gammon), float(backgammon), 0.0, 0.0)
                equity[pair] = points
    probs[0] = np.nan
    equity[0] = np.nan
    return probs, equity


def _playable_order(table: IntArray, n: int, win: FloatArray) -> IntArray:
    """The positions to iterate (not finished, not clashing: ``win`` not NaN), by
    the total pip count of both sides, then by the opponent's side: every result of a
    play from ``(player, opponent)`` is a pair ``(opponent, player')``, one block of
    ``size`` rows, so consecutive positions read the same block (it stays in the
    cache: 20% off a 3-checker sweep)."""
    size = table.shape[0]
    pips = _side_pips(table, n)
    totals = (pips[:, None] + pips[None, :]).reshape(-1)
    index = np.arange(size * size, dtype=np.int64)
    live = (index // size != 0) & (index % size != 0) & ~np.isnan(win)
    candidates = index[live]
    order: IntArray = candidates[
        np.lexsort((candidates // size, candidates % size, totals[candidates]))
    ]
    return order


class _Solution(NamedTuple):
    probabilities: FloatArray
    centred_no_double: FloatArray
    owned_no_double: FloatArray
    opponent_owns: FloatArray
    sweeps: int
    seconds: float


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


class _Extrapolation:
    """Speeds value iteration up where its total change shrinks by a steady ratio ``r`` a
    sweep (one slow mode, once the best plays have settled): the remaining distance
    is then about ``r / (1 - r)`` times the last change, so the values are moved that
    far at once. Applied to one group of values (:data:`_GROUPS`) when its ratio held
    within :data:`_STEADY_RATIO` over two sweeps, at most every
    :data:`_EXTRAPOLATE_EVERY` sweeps; the sweeps that follow correct any overshoot
    (value iteration converges from any start), and the stopping rule and
    :func:`residual` judge only sweeps. A group whose jump is followed by a larger
    total change than the one before it is not extrapolated again (at the end, jumps
    only switch tied plays). Two passes over the packed values a sweep, on
    ``threads`` (numba): one sums each group's change, one jumps and keeps a copy."""

    def __init__(self, values: FloatArray, threads: int) -> None:
        self._before = values.copy()
        self._threads = threads
        self._last: list[float | None] = [None] * _GROUPS
        self._ratio: list[float | None] = [None] * _GROUPS
        self._since = [0] * _GROUPS
        self._jumped_from: list[float | None] = [None] * _GROUPS
        self._enabled = [True] * _GROUPS

    def after_sweep(self, values: FloatArray) -> None:
        """Compare with the values before the sweep; extrapolate where steady."""
        # The total change, not the largest: steadier while a few positions' best
        # plays still switch.
        sizes = _change_sums(values, self._before, self._threads)
        factors = np.zeros(_GROUPS)
        for k in range(_GROUPS):
            factors[k] = self._factor(k, float(sizes[k]))
        _jump_and_keep(values, self._before, factors, self._threads)

    def _factor(self, k: int, size: float) -> float:
        """How far group ``k`` jumps after a sweep that changed it by ``size`` in all."""
        jumped_from = self._jumped_from[k]
        if jumped_from is not None and size > jumped_from:
            # The sweep after a jump undid more than the sweep before it did: near
            # the end, jumps switch tied best plays back and forth. Stop.
            self._enabled[k] = False
        self._jumped_from[k] = None
        last, previous = self._last[k], self._ratio[k]
        ratio = size / last if last else None
        self._since[k] += 1
        factor = 0.0
        if (
            self._enabled[k]
            and ratio is not None
            and previous is not None
            and self._since[k] >= _EXTRAPOLATE_EVERY
            and 0.3 < ratio < 0.98
            and abs(ratio - previous) < _STEADY_RATIO
        ):
            factor = ratio / (1.0 - ratio)
            self._since[k] = 0
            self._jumped_from[k] = size
            ratio = None
        self._last[k], self._ratio[k] = size, ratio
        return factor


PLAY_TABLE_MEMORY = 6 * 2**30
"""At most this many bytes hold the table of the plays a build generates once
(:func:`_play_table`; about 3.8 GB for every 3-checker position; positions that do
not fit are generated every sweep). A build takes at most half the memory available
when it starts (:func:`play_table_memory`)."""


def play_table_memory() -> int:
    """The play table's budget: :data:`PLAY_TABLE_MEMORY`, or half the memory
    available now where that is less (a server's background build must not push the
    machine into swap; with less room, more positions are generated every sweep)."""
    try:
        available = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return PLAY_TABLE_MEMORY
    return int(min(PLAY_TABLE_MEMORY, available // 2))


_EXTRAPOLATE_EVERY = 2
_STEADY_RATIO = 0.02
_CHECKPOINT_SECONDS = 120.0
"""Seconds between two saves of a resumable build's state (a 3-checker state is 540
MB: saved every few sweeps, the saves cost about 2% of the build)."""


def _starting_values(table: IntArray, values: FloatArray) -> None:
    """Fill the live positions of ``values`` (packed, see :data:`_VALUES`) with a
    pip-count estimate, a better start than zeros: the side on roll wins with the
    chance of a race ``lead / spread`` standard deviations ahead (``lead`` its pip
    lead plus 4, half a roll; ``spread`` growing with the square root of the pips
    left), no gammons, and the cube equities the cubeless equity. Finished games and
    clashes (exact, NaN) are left as they are."""
    size = table.shape[0]
    pips = table.sum(axis=1).astype(np.float64)
    live = ~np.isnan(values[:, 0])
    for mine in range(1, size):
        rows = slice(mine * size + 1, (mine + 1) * size)
        lead = pips[1:] - pips[mine] + 4.0
        spread = 1.0 + 0.5 * np.sqrt(pips[1:] + pips[mine])
        win = 0.5 * (1.0 + np.tanh(0.8 * lead / spread))
        block = values[rows]
        here = live[rows]
        block[here, 0] = win[here]
        block[here, 1:5] = 0.0
        block[here, 5:] = (2.0 * win[here] - 1.0)[:, None]


def default_tolerance(checkers: int) -> float:
    """The stopping tolerance of a build: :data:`TOLERANCE` for 1 and 2 checkers
    (stored in float64); for 3 checkers (stored in float32, whose rounding near 1 is
    6e-8) :data:`FLOAT32_TOLERANCE`."""
    return TOLERANCE if _check_checkers(checkers) <= 2 else FLOAT32_TOLERANCE


def _solve(
    checkers: int,
    tolerance: float | None = None,
    *,
    max_sweeps: int = 10_000,
    progress: SolveProgress | None = None,
    gnubg_no_move: bool = False,
    state: Path | None = None,
    threads: int | None = None,
    play_memory: int | None = None,
) -> _Solution:
    """Solve by value iteration (see the module doc) on ``threads`` threads (by default
    Numba's count, every core, for 3 checkers; one for 1 and 2) to ``tolerance``
    (:func:`default_tolerance` by default). With ``state``, a file where the iteration's
    values are saved every :data:`_CHECKPOINT_SECONDS` (and when ``max_sweeps`` stops it)
    and from which it resumes when the file exists (a
    long build survives being stopped). The plays are generated once into a table of
    at most ``play_memory`` bytes (:func:`_play_table`; 0: generated every sweep; by
    default :func:`play_table_memory`)."""
    n = _check_checkers(checkers)
    limit = default_tolerance(n) if tolerance is None else tolerance
    size = side_count(n)
    table = _side_table(n, size)
    probs, equity = _finished_values(table, n)
    values = np.empty((size * size, _VALUES))
    values[:, :5] = probs
    values[:, 5:] = equity[:, None]
    del probs, equity
    _starting_values(table, values)
    sweeps = 0
    if state is not None and state.exists():
        with np.load(state) as saved:
            if int(saved["checkers"]) != n or saved["values"].shape != values.shape:
                raise EngineError(f"{state} holds another build's state")
            values[...] = saved["values"]
            sweeps = int(saved["sweeps"])
    order = _playable_order(table, n, values[:, 0])
    levels = _levels(table, order)
    die1, die2, weight = _roll_arrays()
    weight = weight / weight.sum()
    change = np.empty(order.shape[0])
    began = saved = time.perf_counter()
    # 1 and 2 checkers take seconds: the threads' hand-over at each level would cost
    # more than it saves on a busy machine.
    default_workers = get_num_threads() if n == 3 else 1
    workers = default_workers if threads is None else max(1, int(threads))
    speedup = _Extrapolation(values, workers)
    budget = play_table_memory() if play_memory is None else play_memory
    plays = (
        _play_table(order, table, n, size, die1, die2, workers, budget)
        if budget > 0
        else _no_play_table(die1.shape[0])
    )
    while True:
        sweeps += 1
        largest = _solve_sweep(
            order,
            levels,
            table,
            n,
            size,
            die1,
            die2,
            weight,
            values,
            TIE,
            gnubg_no_move,
            True,
            change,
            False,
            workers,
            *plays,
        )
        if progress is not None:
            progress(sweeps, largest, time.perf_counter() - began)
        if largest <= limit:
            break
        if sweeps >= max_sweeps:
            if state is not None:
                _save_state(state, n, sweeps, values)  # what was done is kept
            raise EngineError(
                f"hypergammon-{n} did not converge to {limit} in {max_sweeps} sweeps "
                f"(last change {largest:.3g})"
            )
        speedup.after_sweep(values)
        if state is not None and time.perf_counter() - saved >= _CHECKPOINT_SECONDS:
            _save_state(state, n, sweeps, values)
            saved = time.perf_counter()
    if _has_missing_values(values, order):
        raise EngineError(f"hypergammon-{n}: the solve left a live position without values")
    arrays = (values[:, :5], values[:, _CENTRED], values[:, _OWNED], values[:, _OPPONENT])
    return _Solution(*arrays, sweeps, time.perf_counter() - began)


def _has_missing_values(values: FloatArray, order: IntArray) -> bool:
    """Whether any position of ``order`` has a NaN among its packed values (a row's
    sum is NaN then; summed row by row, not copied: 3 checkers have 8 million rows)."""
    return bool(np.isnan(values.sum(axis=1)[order]).any())


def _save_state(path: Path, checkers: int, sweeps: int, values: FloatArray) -> None:
    """Write a resumable build's state atomically (a stop mid-write keeps the last)."""
    temporary = path.with_name(f"{path.name}.{uuid.uuid4().hex}.tmp")
    try:
        with open(temporary, "wb") as stream:
            np.savez(stream, values=values, checkers=np.array(checkers), sweeps=np.array(sweeps))
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def residual(database: HypergammonDatabase, sample: int | None = None, seed: int = 0) -> float:
    """Self-consistency of a database: the largest difference, over every position and
    every stored value, between the value and the average over the 21 rolls of the
    best play's value computed from the stored values (0 for an exact solution);
    with ``sample``, over that many positions drawn at random (``seed``), a quick
    check of a large database. A live position whose values are missing (NaN) makes
    it infinite.
    Chances are taken from the tie-break's play, so ties do not count as errors. For a
    database stored in float32 (3 checkers) the chances count through their cubeless
    equity: rounding moves tied plays' equities apart by more than :data:`TIE`, so the
    tie-break may pick another of them, whose chances split the same equity
    differently."""
    n = database.checkers
    size = side_count(n)
    table = _side_table(n, size)
    values = np.empty((size * size, _VALUES))
    values[:, :5] = database._probabilities
    values[:, _CENTRED] = database._centred_no_double
    values[:, _OWNED] = database._owned_no_double
    values[:, _OPPONENT] = database._opponent_owns
    # The live positions come from the rules, not from the stored values: a live
    # position whose values are NaN would be left out and ignored as a successor.
    order = _playable_order(table, n, _finished_values(table, n)[0][:, 0])
    if _has_missing_values(values, order):
        return math.inf
    if sample is not None and sample < order.shape[0]:
        chosen = np.random.default_rng(seed).choice(order.shape[0], sample, replace=False)
        order = np.ascontiguousarray(order[np.sort(chosen)])
    die1, die2, weight = _roll_arrays()
    change = np.empty(order.shape[0])
    return float(
        _solve_sweep(
            order,
            np.array([0, order.shape[0]], dtype=np.int64),  # nothing written: one level
            table,
            n,
            size,
            die1,
            die2,
            weight / weight.sum(),
            values,
            TIE,
            False,
            False,
            change,
            database._probabilities.dtype != np.float64,
            get_num_threads(),
            *_no_play_table(die1.shape[0]),
        )
    )


def probability_ranges(
    database: HypergammonDatabase, tolerance: float = TOLERANCE, tie: float = 1e-7
) -> tuple[FloatArray, FloatArray]:
    """The lowest and highest value of each cubeless chance of every position over
    all optimal strategy pairs (both sides always choosing among the plays whose
    equity is within ``tie`` of the best): two ``float64[P, 5]`` arrays. Equities are
    unique, chances are not; where the two arrays differ, tied plays lead to
    different win/gammon splits, and any value between them is as right as the
    database's (its tie-break picks one).

    Computed by value iteration from the database's own chances (a point inside the
    ranges), maximising and minimising each chance, to ``tolerance``.
    """
    n = database.checkers
    size = side_count(n)
    table = _side_table(n, size)
    probs = database._probabilities.astype(np.float64)
    order = _playable_order(table, n, probs[:, 0])
    die1, die2, weight = _roll_arrays()
    weight = weight / weight.sum()
    low = probs.copy()
    high = probs.copy()
    for _ in range(10_000):
        change = _range_sweep(order, table, n, size, die1, die2, weight, probs, low, high, tie)
        if change <= tolerance:
            break
    return low, high


def database_file(checkers: int) -> str:
    """The file name of the database of ``checkers`` checkers: ``hypergammon-N.npz``."""
    return f"hypergammon-{_check_checkers(checkers)}.npz"


def available(checkers: int, directory: str | os.PathLike[str] | None = None) -> bool:
    """Whether the database of ``checkers`` checkers is in ``directory`` (the cache
    folder by default)."""
    folder = Path(directory or default_database_directory())
    return (folder / database_file(checkers)).exists()


class HypergammonCubeEquities(NamedTuple):
    """Exact cubeful money equities of a hypergammon position, for the side on roll
    before it rolls, per unit of the current cube (no Jacoby rule, no beavers).

    ``centred``, ``owned`` and ``opponent_owns`` are the equities with optimal play and
    cube action by both sides, for the three cube positions; ``centred_no_double`` and
    ``owned_no_double`` if the side on roll does not double now, ``double_take`` if it
    doubles and is taken. A double that is passed is worth exactly 1.
    """

    centred: float
    owned: float
    opponent_owns: float
    centred_no_double: float
    owned_no_double: float
    double_take: float


class HypergammonDatabase:
    """Exact cubeless chances and money cubeful equities of every position of
    hypergammon with ``checkers`` checkers a side (see the module docstring).

    Build it with :meth:`build` or load it (building it once) with :meth:`open`.
    """

    __slots__ = (
        "_centred_no_double",
        "_opponent_owns",
        "_owned_no_double",
        "_probabilities",
        "checkers",
        "sweeps",
        "tolerance",
    )

    checkers: int
    """Checkers per side."""
    sweeps: int
    """How many sweeps the iteration took (0 when unknown)."""
    tolerance: float
    """The tolerance the iteration ran to."""

    def __init__(
        self,
        checkers: int,
        probabilities: npt.NDArray[np.floating[Any]],
        centred_no_double: npt.NDArray[np.floating[Any]],
        owned_no_double: npt.NDArray[np.floating[Any]],
        opponent_owns: npt.NDArray[np.floating[Any]],
        *,
        sweeps: int = 0,
        tolerance: float = TOLERANCE,
    ) -> None:
        """Wrap arrays indexed by :func:`pair_index`: ``probabilities`` ``(P, 5)`` and
        the three cube arrays ``(P,)``.

        Raises:
            EngineError: if the shapes are wrong.
        """
        pairs = pair_count(_check_checkers(checkers))
        if probabilities.shape != (pairs, 5) or any(
            array.shape != (pairs,) for array in (centred_no_double, owned_no_double, opponent_owns)
        ):
            raise EngineError(f"hypergammon-{checkers} arrays have the wrong shapes")
        self.checkers = checkers
        self._probabilities = probabilities
        self._centred_no_double = centred_no_double
        self._owned_no_double = owned_no_double
        self._opponent_owns = opponent_owns
        self.sweeps = sweeps
        self.tolerance = tolerance
        for array in (probabilities, centred_no_double, owned_no_double, opponent_owns):
            array.setflags(write=False)

    @classmethod
    def build(
        cls,
        checkers: int,
        tolerance: float | None = None,
        progress: SolveProgress | None = None,
        state: str | os.PathLike[str] | None = None,
        threads: int | None = None,
    ) -> HypergammonDatabase:
        """Solve ``checkers``-checker hypergammon in memory (float64) to ``tolerance``
        (:func:`default_tolerance` if ``None``) on ``threads`` threads (if ``None``,
        every core for 3 checkers, one for 1 and 2); with ``state``, saving the
        iteration there every two minutes and resuming from it if present.

        Raises:
            ValueError: for a checker count other than 1, 2 or 3.
            EngineError: if the iteration does not converge.
        """
        limit = default_tolerance(checkers) if tolerance is None else tolerance
        solution = _solve(
            checkers,
            limit,
            progress=progress,
            state=None if state is None else Path(state),
            threads=threads,
        )
        return cls(
            checkers,
            solution.probabilities,
            solution.centred_no_double,
            solution.owned_no_double,
            solution.opponent_owns,
            sweeps=solution.sweeps,
            tolerance=limit,
        )

    @classmethod
    def open(
        cls,
        checkers: int,
        directory: str | os.PathLike[str] | None = None,
        *,
        build: bool = True,
        progress: SolveProgress | None = None,
    ) -> HypergammonDatabase:
        """Load the database of ``checkers`` checkers from ``directory``
        (:func:`~backgammon.engine.bearoff.default_database_directory` if ``None``);
        if it is missing or unreadable and ``build`` is true, solve it and save it
        there first (2 checkers: seconds; 3 checkers: see docs/variants.md).

        Raises:
            ValueError: for a checker count other than 1, 2 or 3.
            EngineError: if the file is missing or unreadable and ``build`` is false.
            OSError: if a built database cannot be written.
        """
        path = Path(directory or default_database_directory()) / database_file(checkers)
        if path.exists() or not build:
            try:
                return cls._from_file(path, checkers)
            except EngineError:
                if not build:
                    raise
        database = cls.build(checkers, progress=progress)
        database.save(path.parent)
        return database

    @classmethod
    def _from_file(cls, path: Path, checkers: int) -> HypergammonDatabase:
        command = BUILD_COMMAND.format(checkers=checkers)
        if not path.exists():
            raise EngineError(f"no hypergammon database at {str(path)!r}; build it with: {command}")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: data[name] for name in data.files}
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise EngineError(f"cannot read hypergammon database {str(path)!r}: {exc}") from None
        if (
            str(arrays.get("kind", "")) != "hypergammon"
            or int(arrays.get("format", -1)) != _FORMAT
            or int(arrays.get("checkers", -1)) != checkers
        ):
            raise EngineError(
                f"{str(path)!r} is not a format-{_FORMAT} {checkers}-checker hypergammon "
                f"database; rebuild it with: {command}"
            )
        try:
            return cls(
                checkers,
                arrays["probabilities"],
                arrays["centred_no_double"],
                arrays["owned_no_double"],
                arrays["opponent_owns"],
                sweeps=int(arrays["sweeps"]),
                tolerance=float(arrays["tolerance"]),
            )
        except KeyError as exc:
            raise EngineError(f"{str(path)!r} lacks the array {exc}") from None

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the database into ``directory`` as ``hypergammon-N.npz`` (compressed,
        atomically; float64 for 1 and 2 checkers, float32 for 3); returns the file's
        path."""
        path = Path(directory) / database_file(self.checkers)
        dtype = np.float64 if self.checkers <= 2 else np.float32
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
        arrays = {
            "kind": np.array("hypergammon"),
            "format": np.array(_FORMAT),
            "checkers": np.array(self.checkers),
            "sweeps": np.array(self.sweeps),
            "tolerance": np.array(self.tolerance),
            "probabilities": self._probabilities.astype(dtype),
            "centred_no_double": self._centred_no_double.astype(dtype),
            "owned_no_double": self._owned_no_double.astype(dtype),
            "opponent_owns": self._opponent_owns.astype(dtype),
        }
        try:
            with open(temporary, "wb") as stream:
                np.savez_compressed(stream, **arrays)  # type: ignore[arg-type]
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        return path

    # -- lookups ----------------------------------------------------------------------

    def pairs(self, boards: npt.ArrayLike) -> IntArray:
        """The pair indices of 52-slot boards (rows).

        Raises:
            InvalidPositionError: if a board does not have this many checkers a side.
        """
        array = np.ascontiguousarray(boards, dtype=np.uint8).reshape(-1, 52)
        out = np.empty(array.shape[0], dtype=np.int64)
        bad = _board_pairs(array, self.checkers, side_count(self.checkers), out)
        if bad >= 0:
            raise InvalidPositionError(
                f"board row {bad} is not a {self.checkers}-checker hypergammon position"
            )
        return out

    def evaluate_boards(self, boards: npt.ArrayLike) -> FloatArray:
        """The five cubeless chances ``float64[n, 5]`` of 52-slot boards, each for its
        side on roll before it rolls (exact results for finished games).

        Raises:
            InvalidPositionError: if a board is not a position of this database.
        """
        pairs = self.pairs(boards)
        values = np.asarray(self._probabilities[pairs], dtype=np.float64)
        if np.isnan(values).any():
            row = int(np.flatnonzero(np.isnan(values[:, 0]))[0])
            raise InvalidPositionError(f"board row {row} has both sides on one point")
        return values

    def evaluate(self, position: Position) -> tuple[float, float, float, float, float]:
        """The five cubeless chances of ``position`` for the side on roll:
        ``(win, win gammon, win backgammon, lose gammon, lose backgammon)``.

        Raises:
            InvalidPositionError: if it is not a position of this database.
        """
        row = self.evaluate_boards(position.to_array())[0]
        return (float(row[0]), float(row[1]), float(row[2]), float(row[3]), float(row[4]))

    def cube_equity_rows(self, boards: npt.ArrayLike) -> FloatArray:
        """Exact money cubeful equities of 52-slot boards for their side on roll, per
        unit of cube, as ``float64[n, 3]``: no double with a centred cube, no double
        with its own cube, and the opponent owning the cube (see
        :class:`HypergammonCubeEquities`); NaN for finished games (the
        :data:`~backgammon.engine.cubeful.ExactCubeEquities` form).

        Raises:
            InvalidPositionError: if a board is not a position of this database.
        """
        pairs = self.pairs(boards)
        out = np.stack(
            [
                np.asarray(self._centred_no_double[pairs], dtype=np.float64),
                np.asarray(self._owned_no_double[pairs], dtype=np.float64),
                np.asarray(self._opponent_owns[pairs], dtype=np.float64),
            ],
            axis=1,
        )
        size = side_count(self.checkers)
        out[(pairs // size == 0) | (pairs % size == 0)] = np.nan
        return out

    def cube_equities(self, position: Position) -> HypergammonCubeEquities:
        """Exact money cubeful equities of ``position`` (see
        :class:`HypergammonCubeEquities`); a finished game's result for all.

        Raises:
            InvalidPositionError: if it is not a position of this database.
        """
        self.evaluate_boards(position.to_array())
        pair = int(self.pairs(position.to_array())[0])
        centred = float(self._centred_no_double[pair])
        owned = float(self._owned_no_double[pair])
        opponent_owns = float(self._opponent_owns[pair])
        double_take = 2.0 * opponent_owns
        size = side_count(self.checkers)
        over = pair // size == 0 or pair % size == 0
        doubled = centred if over else min(double_take, 1.0)
        return HypergammonCubeEquities(
            centred=max(centred, doubled),
            owned=max(owned, doubled),
            opponent_owns=opponent_owns,
            centred_no_double=centred,
            owned_no_double=owned,
            double_take=double_take,
        )

    def __repr__(self) -> str:
        return (
            f"<HypergammonDatabase {self.checkers} checkers: {pair_count(self.checkers):,} pairs>"
        )


def _gnubg_side_index(counts: Sequence[int], checkers: int) -> int:
    """GNU Backgammon's ``PositionBearoff(counts, 25, checkers)``: the rank of one
    side's counts on its points 1..24 and the bar (``counts[24]``)."""
    points = 25
    j = points - 1 + sum(counts)
    bits = 1 << j
    for i in range(points - 1):
        j -= counts[i] + 1
        bits |= 1 << j
    index = 0
    n, r = checkers + points, points
    while n != r:
        if bits & (1 << (n - 1)):
            index += math.comb(n - 1, r)
            r -= 1
        n -= 1
    return index


def read_gnubg_database(path: str | os.PathLike[str], checkers: int) -> HypergammonDatabase:
    """Read GNU Backgammon's ``hyperN.bd`` (as ``makehyper`` writes it) into a
    :class:`HypergammonDatabase` indexed like ours, for comparisons.

    The format (GNU Backgammon's ``makehyper.c``): a 40-byte header
    ``gnubg-HN`` padded with ``x`` and a newline, then one 28-byte record per pair
    ``i * S + j`` (``i`` the side on roll, ``j`` its opponent, each ranked by GNU
    Backgammon's ``PositionBearoff`` over 25 points, the bar last, ``S = C(25 + N, N)``):
    the five cubeless chances as 24-bit little-endian fractions of ``0xFFFFFF``, then
    four equities as 24-bit values ``e`` with ``(e / 0xFFFFFF - 0.5) * 6`` the equity:
    no double with an owned cube, no double with a centred cube, the same under the
    Jacoby rule, and the opponent owning the cube; one padding byte. Pairs where both
    sides hold one point are zeros there; they become NaN here.

    Raises:
        ValueError: for a checker count other than 1, 2 or 3.
        EngineError: if the file is not such a database.
    """
    n = _check_checkers(checkers)
    size = side_count(n)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise EngineError(f"cannot read {os.fspath(path)!r}: {exc}") from None
    if len(data) != 40 + 28 * size * size or not data.startswith(f"gnubg-H{n}".encode()):
        raise EngineError(f"{os.fspath(path)!r} is not GNU Backgammon's hyper{n}.bd")
    raw = np.frombuffer(data, dtype=np.uint8, offset=40).reshape(size * size, 28)
    triples = raw[:, :27].reshape(-1, 9, 3).astype(np.int64)
    values = (triples[:, :, 0] | triples[:, :, 1] << 8 | triples[:, :, 2] << 16) / 16777215.0
    table = _side_table(n, size)
    gnubg = np.empty(size, dtype=np.int64)
    for rank in range(size):
        counts = [0] * 25
        for location in table[rank]:
            if location:
                counts[location - 1] += 1
        gnubg[rank] = _gnubg_side_index(counts, n)
    mine = np.arange(size)
    order = (gnubg[:, None] * size + gnubg[None, :]).reshape(-1)
    records = values[order]
    ours, _ = _finished_values(table, n)
    probabilities = records[:, :5].copy()
    equities = (records[:, 5:] - 0.5) * 6.0
    clash = np.isnan(ours[:, 0])
    probabilities[clash] = np.nan
    equities[clash] = np.nan
    del mine
    return HypergammonDatabase(
        n,
        probabilities,
        equities[:, 1].copy(),
        equities[:, 0].copy(),
        equities[:, 3].copy(),
    )


def build_database(
    checkers: int,
    directory: str | os.PathLike[str] | None = None,
    tolerance: float | None = None,
    progress: SolveProgress | None = None,
    threads: int | None = None,
) -> Path:
    """Solve ``checkers``-checker hypergammon on ``threads`` threads (if ``None``, every
    core for 3 checkers, one for 1 and 2) to ``tolerance`` (:func:`default_tolerance` if
    ``None``) and write it into ``directory``
    (:func:`~backgammon.engine.bearoff.default_database_directory` if ``None``),
    replacing any file there; returns its path. The iteration's state is kept beside it
    (``hypergammon-N.npz.partial``) every two minutes, so a build that is stopped resumes
    where it was when run again.

    Raises:
        ValueError: for a checker count other than 1, 2 or 3.
        OSError: if the file cannot be written.
    """
    folder = Path(directory or default_database_directory())
    folder.mkdir(parents=True, exist_ok=True)
    state = folder / f"{database_file(checkers)}.partial"
    database = HypergammonDatabase.build(checkers, tolerance, progress, state, threads)
    path = database.save(folder)
    state.unlink(missing_ok=True)
    return path


BUILD_COMMAND = "backgammon build-hypergammon --checkers {checkers}"
"""The command that builds a database (formatted with the checker count)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m backgammon.engine.hypergammon build --checkers N
    [--dir DIR] [--tolerance T] [--threads K] [--niceness X] [--quiet]``; returns the
    exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m backgammon.engine.hypergammon",
        description="Solve 1-, 2- or 3-checker hypergammon and cache the database.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="solve and cache one database")
    build.add_argument("--checkers", type=int, choices=CHECKER_COUNTS, default=3)
    build.add_argument(
        "--dir", default=None, help=f"folder for the file (default: {default_database_directory()})"
    )
    build.add_argument("--tolerance", type=float, default=None)
    build.add_argument(
        "--threads",
        type=int,
        default=None,
        help="default: every core for 3 checkers, else 1",
    )
    build.add_argument(
        "--niceness", type=int, default=0, help="lower this process's priority by this much"
    )
    build.add_argument("--quiet", action="store_true", help="print nothing but errors")
    build.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="end when the process that started this one ends (Linux; a server's build)",
    )
    arguments = parser.parse_args(argv)
    if arguments.exit_with_parent:
        _exit_with_parent()
    if arguments.niceness > 0:
        os.nice(arguments.niceness)
    return run_build(
        arguments.checkers,
        arguments.dir,
        arguments.tolerance,
        arguments.quiet,
        threads=arguments.threads,
    )


def _exit_with_parent() -> None:
    """Have the kernel kill this process when its parent ends (Linux's
    ``PR_SET_PDEATHSIG``): a server killed with SIGKILL cannot stop its background
    build, and a thread watching the parent would not run while a kernel holds the
    GIL. Elsewhere nothing is done."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    parent = os.getppid()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent ended before the request was made
        os._exit(0)


def run_build(
    checkers: int,
    directory: str | None,
    tolerance: float | None = None,
    quiet: bool = False,
    *,
    threads: int | None = None,
) -> int:
    """Build one database with a progress bar (the digits converged: the largest
    change of each sweep against the tolerance) unless ``quiet``; the exit status."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    limit = default_tolerance(checkers) if tolerance is None else tolerance
    digits = max(1.0, -math.log10(limit))
    began = time.perf_counter()
    bar = Progress(
        TextColumn(f"hypergammon-{checkers}"),
        BarColumn(),
        TextColumn("{task.fields[status]}"),
        TimeElapsedColumn(),
        disable=quiet,
    )
    task = bar.add_task("solve", total=digits, status="sweep 1")

    def show(sweep: int, change: float, seconds: float) -> None:
        done = min(digits, max(0.0, -math.log10(max(change, 1e-300))))
        status = f"sweep {sweep}: largest change {change:.2g}"
        bar.update(task, completed=done, status=status)

    try:
        with bar:
            path = build_database(checkers, directory, limit, show, threads)
    except (OSError, EngineError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if not quiet:
        print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB)")
        print(f"done in {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
