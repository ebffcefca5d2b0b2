"""Supervised improvement beyond TD: the engine's own games, labelled by its own
lookahead search, fitted back into its networks.

TD self-play teaches a network to agree with itself one play later. The strong engines
went further: they collected positions from their own play, labelled each one with a
deeper (and so better) evaluation by the same engine, and trained the networks on
those labels. This module does that in three steps, each usable on its own:

1. :func:`collect_positions` plays games with the engine at 0-ply (with a little
   exploration so that the positions are varied) and keeps every position before a
   roll whose evaluation uses a network.
2. :func:`label_positions` evaluates each position with :func:`~backgammon.engine.
   search.evaluate_plies` at ``plies`` (1-ply: the average, over the 21 rolls, of the
   best play's result), using the engine's exact bear-off databases where they apply.
3. :func:`fit_networks` trains copies of the contact, crashed and race networks on the
   labels (mean squared error on the five sigmoid outputs, Adam, minibatches), each
   on the positions of its class, and reports the loss on held-out positions before
   and after.

Only our own networks and searches produce the labels: nothing here reads another
program's evaluations.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backgammon.engine.encoding import encode_batch, encode_race_batch
from backgammon.engine.evaluator import Engine, PositionClass, classify_boards
from backgammon.engine.network import Network, Networks
from backgammon.engine.plan_networks import split_by_plan
from backgammon.engine.search import equities, evaluate_plies, rank_children
from backgammon.rules.movegen import BOARD_SLOTS

__all__ = ["FitReport", "collect_positions", "fit_networks", "label_positions"]

Boards = npt.NDArray[np.uint8]
Targets = npt.NDArray[np.float64]
Progress = Callable[[int], None]

_HALF = BOARD_SLOTS // 2


def _over(board: Boards) -> bool:
    return not board[1:_HALF].any() or not board[_HALF + 1 :].any()


def _uses_network(engine: Engine, boards: Boards) -> npt.NDArray[np.bool_]:
    """Which boards the engine evaluates with a network (not over, not covered by an
    exact bear-off database)."""
    classes = classify_boards(boards)
    keep: npt.NDArray[np.bool_] = np.asarray(classes != int(PositionClass.OVER), dtype=bool)
    bearoff = engine.bearoff
    bear = np.flatnonzero(classes == int(PositionClass.BEAROFF))
    if bearoff is not None and bear.size:
        covered = np.asarray(bearoff.covers(boards[bear]), dtype=bool)
        keep[bear[covered]] = False
    return keep


def collect_positions(
    engine: Engine,
    games: int,
    seed: int,
    explore: float = 0.1,
    progress: Progress | None = None,
) -> Boards:
    """Positions (side on roll, before rolling) from ``games`` games of the engine
    against itself at 0-ply.

    With probability ``explore`` a turn plays a random one of the three best plays
    instead of the best, so that the games wander a little off the engine's favourite
    paths. Positions evaluated exactly (ended games, bear-offs in the databases) are
    left out. ``progress`` is called with the number of games finished each game.

    Raises:
        ValueError: for a negative number of games or an ``explore`` outside [0, 1].
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if not 0.0 <= explore <= 1.0:
        raise ValueError(f"explore must be within [0, 1], got {explore}")
    rng = np.random.default_rng(seed)
    side = np.array(engine.variant.start_counts(), dtype=np.uint8)
    start = np.concatenate((side, side))
    kept: list[Boards] = []
    for _ in range(games):
        board = start.copy()
        trail: list[Boards] = []
        first = True
        while not _over(board):
            die1, die2 = (int(d) for d in rng.integers(1, 7, size=2))
            if first:
                while die1 == die2:
                    die1, die2 = (int(d) for d in rng.integers(1, 7, size=2))
                first = False
            else:
                trail.append(board)
            _, children = rank_children(board, die1, die2)
            if children.shape[0] == 0:
                board = np.concatenate((board[_HALF:], board[:_HALF]))
                continue
            mover = -equities(engine.evaluate_boards(children))
            if children.shape[0] > 1 and rng.random() < explore:
                top = np.argsort(-mover, kind="stable")[:3]
                choice = int(top[rng.integers(0, top.shape[0])])
            else:
                choice = int(np.argmax(mover))
            board = children[choice].copy()
        if trail:
            stack = np.stack(trail)
            kept.append(stack[_uses_network(engine, stack)])
        if progress is not None:
            progress(1)
    if not kept:
        return np.zeros((0, BOARD_SLOTS), dtype=np.uint8)
    return np.ascontiguousarray(np.concatenate(kept))


def label_positions(
    engine: Engine,
    boards: npt.ArrayLike,
    plies: int = 1,
    batch: int = 256,
    progress: Progress | None = None,
) -> Targets:
    """The engine's ``plies``-deep evaluation of each board (``float64[n, 5]``, for
    the side on roll), as :meth:`Engine.evaluate_at` searches (its inner move filter,
    pruning and solved bear-offs), computed ``batch`` boards at a time; ``progress`` is
    called with the number of boards done after each batch.

    Raises:
        ValueError: for a malformed board array, ``plies`` < 0 or ``batch`` < 1.
    """
    if batch < 1:
        raise ValueError(f"batch must be >= 1, got {batch}")
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    if array.ndim != 2 or array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {array.shape}")
    out = np.empty((array.shape[0], 5))
    for begin in range(0, array.shape[0], batch):
        chunk = array[begin : begin + batch]
        out[begin : begin + chunk.shape[0]] = evaluate_plies(
            engine.evaluate_boards,
            chunk,
            plies,
            engine.inner_filter,
            None,
            engine.solved_boards,
            engine.pruning,
        )
        if progress is not None:
            progress(chunk.shape[0])
    return out


@dataclass(frozen=True, slots=True)
class FitReport:
    """How one network's fit went: positions used and held out, and the mean squared
    error per output on the held-out positions before and after."""

    network: str
    train_positions: int
    held_out: int
    loss_before: float
    loss_after: float


def _network_rows(networks: Networks, boards: Boards) -> dict[str, npt.NDArray[np.int64]]:
    """The rows of ``boards`` each of ``networks`` evaluates (as the engine chooses)."""
    classes = classify_boards(boards)
    race = (classes == int(PositionClass.RACE)) | (classes == int(PositionClass.BEAROFF))
    contact, by_plan = split_by_plan(
        networks, boards, np.flatnonzero(classes == int(PositionClass.CONTACT))
    )
    return {
        "contact": contact,
        "crashed": np.flatnonzero(classes == int(PositionClass.CRASHED)),
        "race": np.flatnonzero(race),
        **by_plan,
    }


def _forward(
    net: Network, x: npt.NDArray[np.float32]
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    hidden = x @ net.w1 + net.b1
    np.negative(hidden, out=hidden)
    np.exp(hidden, out=hidden)
    hidden += 1.0
    np.reciprocal(hidden, out=hidden)
    out = hidden @ net.w2 + net.b2
    out = 1.0 / (1.0 + np.exp(-out))
    return hidden, out.astype(np.float32)


def _loss(net: Network, x: npt.NDArray[np.float32], y: npt.NDArray[np.float32]) -> float:
    if x.shape[0] == 0:
        return math.nan
    total = 0.0
    for begin in range(0, x.shape[0], 4096):
        _, out = _forward(net, x[begin : begin + 4096])
        total += float(((out - y[begin : begin + 4096]) ** 2).sum())
    return total / float(x.shape[0] * 5)


def _fit_one(
    net: Network,
    x: npt.NDArray[np.float32],
    y: npt.NDArray[np.float32],
    epochs: int,
    learning_rate: float,
    batch: int,
    rng: np.random.Generator,
) -> None:
    """Adam on the mean squared error, updating ``net``'s parameters in place."""
    params = [net.w1, net.b1, net.w2t, net.b2]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    step = 0
    n = x.shape[0]
    for _ in range(epochs):
        order = rng.permutation(n)
        for begin in range(0, n, batch):
            rows = order[begin : begin + batch]
            xb = x[rows]
            hidden, out = _forward(net, xb)
            # d(mean squared error)/d(pre-sigmoid output)
            g_out = (2.0 / rows.shape[0]) * (out - y[rows]) * out * (1.0 - out)
            g_w2t = g_out.T @ hidden
            g_b2 = g_out.sum(axis=0)
            g_hidden = (g_out @ net.w2t) * hidden * (1.0 - hidden)
            g_w1 = xb.T @ g_hidden
            g_b1 = g_hidden.sum(axis=0)
            step += 1
            correction1 = 1.0 - beta1**step
            correction2 = 1.0 - beta2**step
            for p, g, m, v in zip(params, (g_w1, g_b1, g_w2t, g_b2), first, second, strict=True):
                m *= beta1
                m += (1.0 - beta1) * g
                v *= beta2
                v += (1.0 - beta2) * g * g
                p -= (learning_rate * (m / correction1) / (np.sqrt(v / correction2) + eps)).astype(
                    np.float32
                )


def fit_networks(
    networks: Networks,
    boards: npt.ArrayLike,
    targets: npt.ArrayLike,
    *,
    checkers: int = 15,
    epochs: int = 4,
    learning_rate: float = 3e-4,
    batch: int = 128,
    held_out: float = 0.05,
    seed: int = 0,
    only: Collection[str] | None = None,
) -> tuple[Networks, list[FitReport]]:
    """Copies of ``networks`` trained on ``boards`` → ``targets`` (each position
    trains the network that evaluates it: its class's, or its plan's where
    ``networks`` has one), with a report per network that had positions. ``only``
    names the networks to train (``"contact"``, ``"crashed"``, ``"race"``, a plan's
    network such as ``"blitz"``; ``None``: all); the others are kept as they are.

    Raises:
        ValueError: if boards and targets disagree in length or shape.
    """
    array = np.ascontiguousarray(boards, dtype=np.uint8)
    labels = np.asarray(targets, dtype=np.float32)
    if array.ndim != 2 or array.shape[1] != BOARD_SLOTS:
        raise ValueError(f"boards must be shaped (n, {BOARD_SLOTS}), got {array.shape}")
    if labels.shape != (array.shape[0], 5):
        raise ValueError(f"targets must be shaped ({array.shape[0]}, 5), got {labels.shape}")
    rng = np.random.default_rng(seed)
    trained = {name: net.copy() for name, net in networks.by_name().items()}
    reports: list[FitReport] = []
    if only is not None and not set(only) <= set(trained):
        raise ValueError(f"unknown networks {sorted(set(only) - set(trained))}")
    for name, rows in _network_rows(networks, array).items():
        if rows.shape[0] == 0 or (only is not None and name not in only):
            continue
        net = trained[name]
        encode = encode_race_batch if name == "race" else encode_batch
        x = encode(array[rows], checkers)
        y = labels[rows]
        order = rng.permutation(rows.shape[0])
        cut = round(rows.shape[0] * held_out)
        test, train = order[:cut], order[cut:]
        before = _loss(net, x[test], y[test])
        _fit_one(net, x[train], y[train], epochs, learning_rate, batch, rng)
        after = _loss(net, x[test], y[test])
        reports.append(FitReport(name, int(train.shape[0]), int(cut), before, after))
    return networks.with_networks(trained), reports
