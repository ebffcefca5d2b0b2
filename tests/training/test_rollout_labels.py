"""Rollout labels: positions played out by the engine's own 0-ply player."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from backgammon import Position
from backgammon.apps.cli import app
from backgammon.engine.network import Networks
from backgammon.training.rollout_labels import rollout_labels


@pytest.fixture(scope="module")
def networks() -> Networks:
    return Networks.random(seed=5, hidden=8, race_hidden=6)


def side(points: dict[int, int], off: int = 0) -> list[int]:
    counts = [0] * 26
    counts[0] = off
    for point, count in points.items():
        counts[point] = count
    return counts


def test_a_sure_gammon_is_labelled_exactly(networks: Networks) -> None:
    # One checker left on the ace point: any roll bears it off; the opponent has
    # nothing off, so every trial is a gammon (not a backgammon: all home).
    won = Position(side({1: 1}, off=14), side({6: 15}))
    # The side on roll has all 15 in the opponent's home board; the opponent bears off
    # its last checker on its next roll, whatever happens first.
    lost = Position(side({1: 1}, off=14), side({23: 2, 20: 13})).flip()
    labels = rollout_labels(networks, np.stack([won.to_array(), lost.to_array()]), trials=36)
    assert np.allclose(labels[0], [1.0, 1.0, 0.0, 0.0, 0.0])
    # The side on roll (15 checkers, two in the opponent's home board) cannot get home
    # before the opponent's next roll: lost, a backgammon.
    assert np.allclose(labels[1], [0.0, 0.0, 0.0, 1.0, 1.0])


def test_labels_are_means_of_outcomes_and_reproducible(networks: Networks) -> None:
    boards = np.stack([Position.initial().to_array()] * 3)
    first = rollout_labels(networks, boards, trials=36, seed=3, chunk=2)
    again = rollout_labels(networks, boards, trials=36, seed=3, chunk=2, processes=2)
    assert np.array_equal(first, again)
    other = rollout_labels(networks, boards, trials=36, seed=4, chunk=2)
    assert not np.array_equal(first, other)
    # Means of 36 outcomes: multiples of 1/36, gammons within wins.
    assert np.allclose(first * 36, np.round(first * 36))
    assert (first[:, 0] >= first[:, 1]).all() and (first[:, 1] >= first[:, 2]).all()
    assert (1 - first[:, 0] >= first[:, 3]).all() and (first[:, 3] >= first[:, 4]).all()
    assert 0.0 < first[0, 0] < 1.0


def test_bad_arguments_are_refused(networks: Networks) -> None:
    with pytest.raises(ValueError, match="52"):
        rollout_labels(networks, np.zeros((2, 40), dtype=np.uint8))
    with pytest.raises(ValueError, match="trials"):
        rollout_labels(networks, np.zeros((1, 52), dtype=np.uint8), trials=0)


def test_label_rollouts_command_samples_labels_and_feeds_distill(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    race = Position(side({3: 5, 2: 5, 1: 5}), side({6: 5, 5: 5, 4: 5}))
    contact = Position.initial().to_array()
    boards = np.stack([race.to_array(), contact, contact])
    np.save(source / "positions.npy", boards)
    folder = tmp_path / "rollouts"
    args = ["label-rollouts", "--folder", str(folder), "--trials", "2", "--processes", "1"]
    refused = CliRunner().invoke(app, args)  # nothing to sample from
    assert refused.exit_code != 0 and "--from" in refused.output
    too_many = CliRunner().invoke(app, [*args, "--from", str(source), "--positions", "3"])
    assert too_many.exit_code != 0 and "fewer than 3" in too_many.output
    made = CliRunner().invoke(app, [*args, "--from", str(source), "--positions", "2"])
    assert made.exit_code == 0, made.output
    sampled = np.load(folder / "positions.npy")
    labels = np.load(folder / "labels-rollout.npy")
    assert sampled.shape == (2, 52) and labels.shape == (2, 5)
    assert not (sampled == race.to_array()).all(axis=1).any()  # races are not sampled
    assert np.allclose(labels * 2, np.round(labels * 2))  # means of two games
    distill = ["distill", "--folder", str(tmp_path / "d"), "--games", "2", "--epochs", "1"]
    distilled = CliRunner().invoke(
        app, [*distill, "--rollouts", str(folder), "--fit", "contact", "--others-from", "default"]
    )
    assert distilled.exit_code == 0, distilled.output
    assert f"2 labelled positions from {folder}" in distilled.output
