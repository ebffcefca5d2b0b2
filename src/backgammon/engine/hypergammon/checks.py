"""Checks of a hypergammon database: self-consistency (:func:`residual`), the ranges
of the chances over tied strategies (:func:`probability_ranges`), and GNU Backgammon's
``hyperN.bd`` read for comparisons (:func:`read_gnubg_database`;
``benchmarks/hypergammon_check.py`` and the tests)."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numba import get_num_threads

from backgammon.engine.hypergammon.database import HypergammonDatabase
from backgammon.engine.hypergammon.indexing import FloatArray, _check_checkers, side_count
from backgammon.engine.hypergammon.kernels import (
    _CENTRED,
    _OPPONENT,
    _OWNED,
    _VALUES,
    _range_sweep,
    _side_table,
    _solve_sweep,
)
from backgammon.engine.hypergammon.solver import (
    TIE,
    TOLERANCE,
    _finished_values,
    _has_missing_values,
    _no_play_table,
    _playable_order,
    _roll_arrays,
)
from backgammon.errors import EngineError

__all__ = ["probability_ranges", "read_gnubg_database", "residual"]


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
