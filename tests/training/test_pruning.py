"""Training the pruning network on the engine's own evaluations."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.engine.pruning import PruningNetwork
from backgammon.training.pruning import (
    fit_pruning_network,
    pruning_samples,
    ranking_recall,
)
from backgammon.training.supervised import collect_positions


def test_fit_learns_the_engines_ranking() -> None:
    engine = Engine()
    boards = collect_positions(engine, 60, seed=3)
    samples = pruning_samples(engine, boards, seed=4)
    assert samples.spans.shape[0] > 100
    for start, stop in samples.spans:
        assert stop - start >= 2
    assert np.allclose(
        samples.targets[:5],
        [
            2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]
            for p in engine.evaluate_boards(samples.boards[:5])
        ],
    )
    untrained = PruningNetwork.random(hidden=8, seed=0)
    net, losses = fit_pruning_network(samples, hidden=8, epochs=4, seed=0)
    assert losses[-1] < losses[0]
    assert ranking_recall(net, samples, 3) > ranking_recall(untrained, samples, 3)
    assert ranking_recall(net, samples, 1000) == 1.0


def test_command_writes_a_network_with_its_recall(tmp_path: Path) -> None:
    out = tmp_path / "prune.npz"
    result = CliRunner().invoke(
        app, ["train-prune", "--out", str(out), "--games", "40", "--hidden", "4", "--epochs", "2"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output.strip().splitlines()[-1])
    net = PruningNetwork.load(out)
    assert net.hidden == 4
    assert net.metadata["recall"] == report["recall"]
    assert 0.0 < report["recall"]["5"] <= 1.0
