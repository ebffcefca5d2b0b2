"""Solving hypergammon: value iteration to the exact cubeless chances and money
cubeful equities of every position (the kernels it runs are in
:mod:`~backgammon.engine.hypergammon.kernels`).

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
through :func:`~backgammon.engine.hypergammon.build.build_database` saves its state
every two minutes and resumes from it. A sweep runs on every core: level by level of
total pip count, each level shared among the threads
(:func:`~backgammon.engine.hypergammon.kernels._solve_sweep`), so it stays a
Gauss-Seidel sweep. The plays of every position and roll are generated once, before the
first sweep, into a table the sweeps read (:func:`_play_table`, within
:data:`PLAY_TABLE_MEMORY`): generating them was most of a sweep's time.

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
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple, TypeAlias

import numpy as np
import numpy.typing as npt
from numba import get_num_threads

from backgammon.engine.hypergammon.indexing import (
    CountArray,
    FloatArray,
    IntArray,
    ResultArray,
    _check_checkers,
    side_count,
)
from backgammon.engine.hypergammon.kernels import (
    _CENTRED,
    _GROUPS,
    _OPPONENT,
    _OWNED,
    _VALUES,
    _change_sums,
    _fill_plays,
    _jump_and_keep,
    _side_table,
    _solve_sweep,
)
from backgammon.errors import EngineError
from backgammon.rules.dice import ALL_ROLLS

__all__ = [
    "FLOAT32_TOLERANCE",
    "PLAY_TABLE_MEMORY",
    "TIE",
    "TOLERANCE",
    "SolveProgress",
    "default_tolerance",
    "play_table_memory",
]

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

SolveProgress: TypeAlias = Callable[[int, float, float], None]
"""Called as ``progress(sweep, largest_change, seconds)`` after each sweep."""


def _levels(table: IntArray, order: IntArray) -> IntArray:
    """Where each total pip count begins in ``order`` (sorted by it), and its end."""
    size = table.shape[0]
    pips = table.sum(axis=1)
    totals = pips[order // size] + pips[order % size]
    starts = np.flatnonzero(np.diff(totals)) + 1
    return np.concatenate(([0], starts, [order.shape[0]])).astype(np.int64)


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
