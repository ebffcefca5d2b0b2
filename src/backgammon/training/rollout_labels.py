"""Rollout labels: what the engine's own play makes of a position, as training targets.

Distillation (:mod:`backgammon.training.supervised`) teaches the networks their own
deeper search; a search built on a network inherits that network's biases (in
blitzes and ace-point games ours overrates the gammons). A rollout does not: it plays
the position out many times and counts what happened. Here each position is played
to the end ``trials`` times by the 0-ply greedy player of :mod:`backgammon.training.td`
(every play scored by the networks, the best taken, both sides), and its label is the
mean outcome for the side on roll: win, win gammon, win backgammon, lose gammon, lose
backgammon (gammons include backgammons), the network's own outputs.

The first roll of trial ``t`` is the ``t mod 36``-th of the 36 ordered rolls (so 36
trials see each first roll once, a free variance reduction); later rolls come from
an explicit xorshift state, so labels are reproducible from a seed. Positions are
split over worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.network import Networks
from backgammon.rules.fastgame import random_die
from backgammon.rules.movegen import BOARD_SLOTS
from backgammon.training.td import Params, game_outcome, greedy_child, parameter_views

__all__ = ["rollout_labels", "rollout_outcomes"]

_HALF = BOARD_SLOTS // 2
_MAX_PLIES = 10_000


@njit(cache=True)
def rollout_outcomes(
    boards: npt.NDArray[np.uint8],
    trials: int,
    checkers: int,
    w1s: tuple[Params, Params, Params],
    b1s: tuple[Params, Params, Params],
    w2ts: tuple[Params, Params, Params],
    b2s: tuple[Params, Params, Params],
    state: npt.NDArray[np.uint64],
    out: npt.NDArray[np.float64],
) -> None:
    """For each board (side on roll, before rolling), the mean outcome of ``trials``
    greedy 0-ply games from it into ``out[i]`` (the five outputs, for that side).
    ``state`` is the xorshift dice state, advanced in place."""
    hidden_size = max(b1s[0].shape[0], b1s[1].shape[0], b1s[2].shape[0])
    x_contact = np.zeros(w1s[0].shape[0], dtype=np.float32)
    x_race = np.zeros(w1s[1].shape[0], dtype=np.float32)
    hidden = np.zeros(hidden_size, dtype=np.float32)
    child_out = np.zeros(5, dtype=np.float32)
    best_out = np.zeros(5, dtype=np.float32)
    result = np.zeros(5, dtype=np.float32)
    board = np.empty(BOARD_SLOTS, dtype=np.uint8)
    flipped = np.empty(BOARD_SLOTS, dtype=np.uint8)
    best_child = np.empty(BOARD_SLOTS, dtype=np.uint8)
    for i in range(boards.shape[0]):
        total = np.zeros(5)
        for trial in range(trials):
            board[:] = boards[i]
            mover_is_root = True
            for ply in range(_MAX_PLIES):
                if game_outcome(board, result):
                    break
                if ply == 0:
                    die1 = (trial % 36) // 6 + 1
                    die2 = trial % 6 + 1
                else:
                    die1 = random_die(state)
                    die2 = random_die(state)
                greedy_child(
                    board,
                    die1,
                    die2,
                    checkers,
                    w1s,
                    b1s,
                    w2ts,
                    b2s,
                    x_race,
                    x_contact,
                    hidden,
                    flipped,
                    child_out,
                    best_child,
                    best_out,
                )
                board[:] = best_child
                mover_is_root = not mover_is_root
            if mover_is_root:
                for k in range(5):
                    total[k] += result[k]
            else:  # the result is the other side's: swap the points of view
                total[0] += 1.0 - result[0]
                total[1] += result[3]
                total[2] += result[4]
                total[3] += result[1]
                total[4] += result[2]
        for k in range(5):
            out[i, k] = total[k] / trials


def _label_chunk(
    networks: Networks, boards: npt.NDArray[np.uint8], trials: int, checkers: int, seed: int
) -> npt.NDArray[np.float64]:
    """One worker's share (module level so that processes can run it)."""
    out = np.empty((boards.shape[0], 5))
    state = np.array([seed * 0x9E3779B97F4A7C15 % (1 << 64) or 1], dtype=np.uint64)
    rollout_outcomes(boards, trials, checkers, *parameter_views(networks), state, out)
    return out


def rollout_labels(
    networks: Networks,
    boards: npt.ArrayLike,
    trials: int = 36,
    *,
    checkers: int = 15,
    seed: int = 1,
    processes: int = 1,
    chunk: int = 500,
    progress: Callable[[int], None] | None = None,
) -> npt.NDArray[np.float64]:
    """Rollout labels (``float64[n, 5]``) of ``boards`` (``uint8[n, 52]``, side on roll
    first, before rolling): the mean outcome of ``trials`` games each, played by
    ``networks`` at 0-ply. Work goes out in chunks of ``chunk`` boards to ``processes``
    workers; ``progress`` is called with the number of boards done after each chunk.
    The same seed, chunk size and boards give the same labels.

    Raises:
        ValueError: for a malformed board array or a bad count.
    """
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    if array.ndim != 2 or array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {array.shape}")
    for name, value in (("trials", trials), ("processes", processes), ("chunk", chunk)):
        if value < 1:
            raise ValueError(f"{name} must be >= 1, got {value}")
    out = np.empty((array.shape[0], 5))
    starts = range(0, array.shape[0], chunk)
    seeds = [seed * 1_000_003 + index for index in range(math.ceil(array.shape[0] / chunk))]
    if processes == 1:
        for begin, chunk_seed in zip(starts, seeds, strict=True):
            part = array[begin : begin + chunk]
            out[begin : begin + part.shape[0]] = _label_chunk(
                networks, part, trials, checkers, chunk_seed
            )
            if progress is not None:
                progress(part.shape[0])
        return out
    with ProcessPoolExecutor(max_workers=processes) as pool:
        jobs = [
            (
                begin,
                pool.submit(
                    _label_chunk,
                    networks,
                    array[begin : begin + chunk],
                    trials,
                    checkers,
                    chunk_seed,
                ),
            )
            for begin, chunk_seed in zip(starts, seeds, strict=True)
        ]
        for begin, job in jobs:
            labels = job.result()
            out[begin : begin + labels.shape[0]] = labels
            if progress is not None:
                progress(labels.shape[0])
    return out
