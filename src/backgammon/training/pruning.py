"""Training the pruning network (:mod:`backgammon.engine.pruning`) on the engine's own
evaluations.

The samples are what a search has to rank: every play of a random roll from positions
of the engine's self-play (:func:`backgammon.training.supervised.collect_positions`),
each labelled with the full network's 0-ply cubeless equity for the side then on roll.
The pruning network is fitted to those equities by plain stochastic gradient descent
(a Numba kernel). :func:`ranking_recall` measures what matters to the search: how
often the full network's best play is among the pruning network's best ``k``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from backgammon.engine.evaluator import Engine, PositionClass, classify_boards
from backgammon.engine.pruning import MAX_COUNT, PRUNE_SLOTS, PruningNetwork
from backgammon.engine.search import equities, rank_children

__all__ = ["PruningSamples", "fit_pruning_network", "pruning_samples", "ranking_recall"]

Progress = Callable[[int], None]


@dataclass(frozen=True)
class PruningSamples:
    """Children of (position, roll) pairs with their full-network equities.

    ``boards[spans[k, 0]:spans[k, 1]]`` are the plays of one roll (results, opponent on
    roll); ``targets`` the full network's equity of each for the side on roll.
    """

    boards: npt.NDArray[np.uint8]
    targets: npt.NDArray[np.float64]
    spans: npt.NDArray[np.int64]


def pruning_samples(engine: Engine, positions: npt.NDArray[np.uint8], seed: int) -> PruningSamples:
    """The plays of one random roll of each position, with the engine's 0-ply
    equities; rolls with fewer than two plays, and plays ending the game or reaching
    the bear-off databases, are left out (the search needs no ranking there)."""
    rng = np.random.default_rng(seed)
    parts: list[npt.NDArray[np.uint8]] = []
    spans: list[tuple[int, int]] = []
    total = 0
    for board in positions:
        die1, die2 = (int(d) for d in rng.integers(1, 7, size=2))
        _, children = rank_children(board, die1, die2)
        if children.shape[0] < 2:
            continue
        classes = classify_boards(children)
        keep = (classes != int(PositionClass.OVER)) & (classes != int(PositionClass.BEAROFF))
        children = children[keep]
        if children.shape[0] < 2:
            continue
        parts.append(children)
        spans.append((total, total + children.shape[0]))
        total += children.shape[0]
    boards = np.concatenate(parts) if parts else np.zeros((0, PRUNE_SLOTS), dtype=np.uint8)
    targets = equities(engine.evaluate_boards(boards)) if total else np.zeros(0)
    return PruningSamples(boards, targets, np.array(spans, dtype=np.int64).reshape(-1, 2))


@njit(cache=True)
def _sgd_epoch(
    boards: npt.NDArray[np.uint8],
    targets: npt.NDArray[np.float64],
    order: npt.NDArray[np.int64],
    embedding: npt.NDArray[np.float32],
    b1: npt.NDArray[np.float32],
    w2: npt.NDArray[np.float32],
    b2: npt.NDArray[np.float32],
    rate: float,
) -> float:
    """One pass of squared-error SGD over ``boards[order]``; the mean squared error
    before each step."""
    hidden = b1.shape[0]
    pre = np.empty(hidden, dtype=np.float32)
    slots = np.empty(PRUNE_SLOTS, dtype=np.int64)
    counts = np.empty(PRUNE_SLOTS, dtype=np.int64)
    loss = 0.0
    for index in order:
        board = boards[index]
        occupied = 0
        for slot in range(PRUNE_SLOTS):
            count = board[slot] & 0x7F
            if count:
                slots[occupied] = slot
                counts[occupied] = min(count, MAX_COUNT)
                occupied += 1
        pre[:] = b1
        for k in range(occupied):
            pre += embedding[slots[k], counts[k]]
        output = float(b2[0])
        for j in range(hidden):
            if pre[j] > 0.0:
                output += pre[j] * w2[j]
        error = output - targets[index]
        loss += error * error
        step = rate * max(-1.0, min(1.0, error))
        b2[0] -= step
        for j in range(hidden):
            if pre[j] > 0.0:
                back = step * w2[j]
                w2[j] -= step * pre[j]
                b1[j] -= back
                for k in range(occupied):
                    embedding[slots[k], counts[k], j] -= back
    return float(loss / max(order.shape[0], 1))


def fit_pruning_network(
    samples: PruningSamples,
    hidden: int = 16,
    epochs: int = 6,
    learning_rate: float = 0.01,
    seed: int = 0,
    progress: Progress | None = None,
) -> tuple[PruningNetwork, list[float]]:
    """A pruning network fitted to ``samples`` (SGD, the rate halving each epoch after
    the second), and the mean squared error of each epoch.

    Raises:
        ValueError: for no samples or a bad setting.
    """
    if samples.boards.shape[0] == 0:
        raise ValueError("no samples to fit")
    if epochs < 1 or learning_rate <= 0:
        raise ValueError(f"need epochs >= 1 and a positive rate, got {epochs}, {learning_rate}")
    net = PruningNetwork.random(hidden, seed)
    embedding = net.embedding.copy()
    b1 = net.b1.copy()
    w2 = net.w2.copy()
    b2 = np.array([net.b2], dtype=np.float32)
    rng = np.random.default_rng(seed)
    losses = []
    rate = learning_rate
    for epoch in range(epochs):
        order = rng.permutation(samples.boards.shape[0]).astype(np.int64)
        losses.append(
            _sgd_epoch(samples.boards, samples.targets, order, embedding, b1, w2, b2, rate)
        )
        if epoch >= 1:
            rate *= 0.5
        if progress is not None:
            progress(epoch + 1)
    fitted = PruningNetwork(embedding, b1, w2, float(b2[0]))
    return fitted, losses


def ranking_recall(net: PruningNetwork, samples: PruningSamples, keep: int) -> float:
    """The share of the sample's rolls whose best play by the full network (lowest
    equity for the opponent) is among the ``keep`` best by the pruning network."""
    if samples.spans.shape[0] == 0:
        raise ValueError("no rolls to measure")
    scores = net.scores(samples.boards)
    hits = 0
    for start, stop in samples.spans:
        best = int(np.argmin(samples.targets[start:stop]))
        order = np.argsort(scores[start:stop], kind="stable")[:keep]
        hits += int(best in order)
    return float(hits / samples.spans.shape[0])
