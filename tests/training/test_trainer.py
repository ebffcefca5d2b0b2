"""Self-play training: it learns something, and a checkpoint resumes exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from backgammon import EngineError
from backgammon.training import Trainer, TrainingSettings

TINY = TrainingSettings(hidden=8, alpha=0.1, seed=7)


def weights(trainer: Trainer) -> list[np.ndarray]:
    nets = trainer.networks.by_name()
    return [array.copy() for net in nets.values() for array in (net.w1, net.b1, net.w2t, net.b2)]


def test_resuming_a_checkpoint_gives_identical_results(tmp_path: Path) -> None:
    straight = Trainer(TINY)
    first = straight.train(12, chunk=5)

    split = Trainer(TINY)
    head = split.train(7, chunk=5)
    split.save(tmp_path / "checkpoint")
    resumed = Trainer.resume(tmp_path / "checkpoint")
    assert resumed.games_played == 7
    tail = resumed.train(5, chunk=5)

    assert np.array_equal(first, np.concatenate([head, tail]))
    for a, b in zip(weights(straight), weights(resumed), strict=True):
        assert np.array_equal(a, b)
    metadata = resumed.stamped().metadata
    assert metadata.trained and metadata.training_games == 12


def test_training_changes_the_weights_and_games_end() -> None:
    trainer = Trainer(TINY)
    before = weights(trainer)
    results = trainer.train(10)
    assert results.shape == (10, 3)
    assert set(results[:, 0]) <= {0, 1}
    assert set(results[:, 1]) <= {1, 2, 3}
    assert (results[:, 2] > 0).all()
    assert any(not np.array_equal(a, b) for a, b in zip(before, weights(trainer), strict=True))


def test_bad_settings_and_checkpoints(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        TrainingSettings(hidden=0)
    with pytest.raises(EngineError, match="not a training checkpoint"):
        Trainer.resume(tmp_path)


def test_td_lambda_near_zero_matches_td_zero() -> None:
    zero = Trainer(TINY)
    tiny_lambda = Trainer(TrainingSettings(hidden=8, alpha=0.1, seed=7, lam=1e-12))
    assert np.array_equal(zero.train(3), tiny_lambda.train(3))
    for a, b in zip(weights(zero), weights(tiny_lambda), strict=True):
        assert np.allclose(a, b, atol=1e-5)


def test_td_lambda_learns_and_resumes_exactly(tmp_path: Path) -> None:
    settings = TrainingSettings(hidden=4, alpha=0.1, seed=3, lam=0.7)
    straight = Trainer(settings)
    first = straight.train(6, chunk=3)
    split = Trainer(settings)
    head = split.train(3, chunk=3)
    split.save(tmp_path / "lambda")
    resumed = Trainer.resume(tmp_path / "lambda")
    assert resumed.settings.lam == 0.7
    tail = resumed.train(3, chunk=3)
    assert np.array_equal(first, np.concatenate([head, tail]))
    for a, b in zip(weights(straight), weights(resumed), strict=True):
        assert np.array_equal(a, b)
    td0 = Trainer(TrainingSettings(hidden=4, alpha=0.1, seed=3))
    td0.train(6, chunk=3)
    assert any(not np.allclose(a, b) for a, b in zip(weights(td0), weights(straight), strict=True))
    with pytest.raises(ValueError):
        TrainingSettings(lam=1.0)


def test_train_command_writes_and_resumes_a_checkpoint(tmp_path: Path) -> None:
    import csv

    from typer.testing import CliRunner

    from backgammon.apps.cli import app

    folder = tmp_path / "run"
    args = [
        "train",
        "--checkpoint",
        str(folder),
        "--games",
        "6",
        "--hidden",
        "4",
        "--save-every",
        "3",
        "--check-games",
        "4",
    ]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert (folder / "networks.npz").exists() and (folder / "trainer.json").exists()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0, again.output
    assert "resuming" in again.output
    rows = list(csv.DictReader((folder / "training.csv").open()))
    assert [int(row["games"]) for row in rows] == [3, 6, 9, 12]
    assert all("ppg_vs_heuristic" in row for row in rows)
    assert Trainer.resume(folder).games_played == 12


def test_train_command_starts_a_wider_run_from_given_weights(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from backgammon.apps.cli import app
    from backgammon.engine.network import Networks

    base = Networks.random(seed=9, hidden=6)
    base.save(tmp_path / "base.npz")
    folder = tmp_path / "wide"
    args = ["train", "--checkpoint", str(folder), "--games", "3", "--hidden", "10"]
    args += ["--check-games", "0", "--start-from", str(tmp_path / "base.npz")]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    trained = Trainer.resume(folder)
    assert trained.networks.contact.hidden == 10 and trained.settings.hidden == 10
    # The old units carried over (training moved them only a little).
    old = base.contact.w1
    assert np.abs(trained.networks.contact.w1[:, :6] - old).max() < 0.5
