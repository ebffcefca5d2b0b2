"""The pruning network: its kernel, its file, and the engine's pruned search."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from backgammon import Position
from backgammon.engine import Engine
from backgammon.engine.network import Networks
from backgammon.engine.pruning import (
    MAX_COUNT,
    PruningNetwork,
    default_pruning_network,
    pruning_hidden_into,
    pruning_score_near,
)
from backgammon.errors import EngineError


def reference_scores(net: PruningNetwork, boards: np.ndarray) -> np.ndarray:
    """The network's definition in NumPy."""
    counts = np.minimum(boards & 0x7F, MAX_COUNT).astype(np.int64)
    pre = np.tile(net.b1.astype(np.float64), (boards.shape[0], 1))
    for slot in range(52):
        occupied = counts[:, slot] > 0
        pre[occupied] += net.embedding[slot, counts[occupied, slot]]
    return np.maximum(pre, 0.0) @ net.w2.astype(np.float64) + net.b2


def test_kernel_matches_its_definition() -> None:
    net = PruningNetwork.random(hidden=8, seed=3)
    rng = np.random.default_rng(1)
    boards = rng.integers(0, 20, size=(300, 52)).astype(np.uint8)
    assert np.allclose(net.scores(boards), reference_scores(net, boards), atol=1e-5)
    with pytest.raises(ValueError, match="52"):
        net.scores(boards[:, :40])


def test_scoring_from_a_nearby_board_matches_scoring_from_scratch() -> None:
    net = PruningNetwork.random(hidden=8, seed=4)
    rng = np.random.default_rng(2)
    parent = rng.integers(0, 20, size=52).astype(np.uint8)
    children = np.tile(parent, (200, 1))
    for child in children:  # a few slots changed, as a play changes them
        slots = rng.choice(52, size=rng.integers(0, 6), replace=False)
        child[slots] = rng.integers(0, 20, size=slots.size)
    base = np.empty(8, dtype=np.float32)
    acc = np.empty(8, dtype=np.float32)
    for shift in (0, 26):
        pruning_hidden_into(parent, shift, net.weights, base)
        near = [
            pruning_score_near(child, parent, base, shift, net.weights, acc) for child in children
        ]
        flipped = np.roll(children, -shift, axis=1)
        assert np.allclose(near, reference_scores(net, flipped), atol=1e-4)


def test_file_round_trip_and_bad_files(tmp_path: Path) -> None:
    net = PruningNetwork.random(hidden=4, seed=1)
    path = tmp_path / "prune.npz"
    net.save(path)
    again = PruningNetwork.load(path)
    board = Position.initial().to_array()[None, :]
    assert again.scores(board)[0] == pytest.approx(net.scores(board)[0])
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(EngineError, match="not a pruning network"):
        PruningNetwork.load(tmp_path / "other.npz")
    with pytest.raises(EngineError, match="cannot read"):
        PruningNetwork.load(tmp_path / "missing.npz")


def test_shipped_network_ranks_like_the_full_network() -> None:
    shipped = default_pruning_network()
    assert shipped is not None
    assert shipped.metadata["recall"]["5"] > 0.85
    engine = Engine()
    position = Position.initial()
    plays = position.legal_plays((3, 1))
    boards = np.array([play.position.flip().to_array() for play in plays], dtype=np.uint8)
    full = engine.evaluate_boards(boards)
    full_equity = 2 * full[:, 0] - 1 + full[:, 1] - full[:, 3] + full[:, 2] - full[:, 4]
    # 8/5 6/5 is the best 3-1 by far; the pruning network puts it among its best 5.
    best = int(np.argmin(full_equity))
    assert best in np.argsort(shipped.scores(boards))[:5]


def test_engine_prunes_only_with_its_own_networks() -> None:
    assert Engine().pruning is not None
    assert Engine(Networks.random(1)).pruning is None
    engine = Engine()
    engine.cache.put(b"x", 1, np.zeros(5))
    engine.pruning = None
    assert len(engine.cache) == 0


def test_pruned_two_ply_agrees_with_the_full_search_on_a_quiet_position() -> None:
    engine = Engine()
    position = Position.initial()
    pruned = engine.best_play(position, (6, 5), ply=2)
    engine.pruning = None
    assert engine.best_play(position, (6, 5), ply=2) == pruned
