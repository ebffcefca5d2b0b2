"""Supervised improvement: collecting positions, labelling them by search, fitting, and
widening networks."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from backgammon import Position
from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.engine.evaluator import PositionClass, classify_boards
from backgammon.engine.network import Networks
from backgammon.engine.search import evaluate_plies
from backgammon.training.supervised import collect_positions, fit_networks, label_positions


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


def test_collected_positions_need_a_network(engine: Engine) -> None:
    boards = collect_positions(engine, 4, seed=3)
    assert boards.shape[1] == 52 and boards.shape[0] > 50
    classes = classify_boards(boards)
    assert not np.any(classes == int(PositionClass.OVER))
    bearoff = engine.bearoff
    assert bearoff is not None
    bear = boards[classes == int(PositionClass.BEAROFF)]
    if bear.shape[0]:
        assert not np.any(bearoff.covers(bear))
    # Every board keeps 15 checkers a side; the same seed gives the same positions.
    assert np.all(boards[:, :26].sum(axis=1) == 15) and np.all(boards[:, 26:].sum(axis=1) == 15)
    assert np.array_equal(boards, collect_positions(engine, 4, seed=3))
    with pytest.raises(ValueError, match="explore"):
        collect_positions(engine, 1, seed=0, explore=2.0)


def test_labels_are_the_engines_own_search(engine: Engine) -> None:
    boards = collect_positions(engine, 1, seed=5)[:12]
    assert np.allclose(label_positions(engine, boards, 0), engine.evaluate_boards(boards))
    one_ply = label_positions(engine, boards, 1, batch=5)
    for board, label in zip(boards, one_ply, strict=True):
        searched = engine.evaluate_at(Position.from_array(board), 1)
        assert label[0] == pytest.approx(searched.win)
        assert label[3] == pytest.approx(searched.lose_gammon)
    unpruned = Engine()
    unpruned.pruning = None
    exact = label_positions(unpruned, boards, 1)
    assert np.allclose(exact, evaluate_plies(unpruned.evaluate_boards, boards, 1))
    assert not np.allclose(one_ply, engine.evaluate_boards(boards))
    with pytest.raises(ValueError, match="shaped"):
        label_positions(engine, np.zeros((3, 10), dtype=np.uint8))


def test_fit_moves_the_networks_toward_the_labels(engine: Engine) -> None:
    boards = collect_positions(engine, 6, seed=8)
    rng = np.random.default_rng(0)
    # Labels the networks do not give: the fit must bring the held-out error down.
    targets = np.clip(
        engine.evaluate_boards(boards) + rng.normal(0.05, 0.01, (len(boards), 5)), 0, 1
    )
    fitted, reports = fit_networks(
        engine.networks, boards, targets, epochs=30, learning_rate=1e-3, held_out=0.2, seed=1
    )
    contact = next(report for report in reports if report.network == "contact")
    assert contact.loss_after < contact.loss_before
    assert contact.train_positions + contact.held_out == int(
        np.sum(classify_boards(boards) == int(PositionClass.CONTACT))
    )
    # The originals are untouched.
    assert fitted.contact.params is not engine.networks.contact.params
    assert np.array_equal(engine.networks.contact.params, Engine().networks.contact.params)
    with pytest.raises(ValueError, match="targets"):
        fit_networks(engine.networks, boards, targets[:-1])


def test_widened_networks_compute_the_same_function() -> None:
    small = Networks.random(seed=2, hidden=8)
    wide = small.widened(20, seed=4)
    assert wide.contact.hidden == 20 and wide.race.hidden == 20
    x = np.random.default_rng(1).random((6, small.contact.inputs), dtype=np.float32)
    assert np.allclose(small.contact.forward(x), wide.contact.forward(x), atol=1e-6)
    with pytest.raises(ValueError, match="cannot widen"):
        small.contact.widened(4)


def test_distill_command_runs_and_resumes(tmp_path: Path) -> None:
    folder = tmp_path / "distill"
    args = ["distill", "--folder", str(folder), "--games", "2", "--epochs", "1", "--seed", "4"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    written = json.loads(result.output.strip().splitlines()[-1])["weights"]
    networks = Networks.load(written)
    history = networks.metadata.extra["distillation"]
    assert history[-1]["games"] == 2 and history[-1]["plies"] == 1
    labels = np.load(folder / "labels-1ply.npy")
    assert labels.shape == (np.load(folder / "positions.npy").shape[0], 5)
    again = CliRunner().invoke(app, args)  # resumes from the saved steps
    assert again.exit_code == 0, again.output


def test_distill_fits_chosen_networks_on_several_folders(tmp_path: Path) -> None:
    first = tmp_path / "first"
    common = ["--games", "2", "--epochs", "1"]
    made = CliRunner().invoke(app, ["distill", "--folder", str(first), *common, "--seed", "5"])
    assert made.exit_code == 0, made.output
    both = tmp_path / "both"
    args = ["distill", "--folder", str(both), *common, "--seed", "6", "--also", str(first)]
    result = CliRunner().invoke(app, [*args, "--fit", "contact", "--others-from", "default"])
    assert result.exit_code == 0, result.output
    assert f"labelled positions from {first}" in result.output
    fitted = Networks.load(json.loads(result.output.strip().splitlines()[-1])["weights"])
    shipped = Engine().networks
    assert np.array_equal(fitted.race.params, shipped.race.params)
    assert np.array_equal(fitted.crashed.params, shipped.crashed.params)
    assert not np.array_equal(fitted.contact.params, shipped.contact.params)
    assert fitted.metadata.extra["distillation"][-1]["fitted"] == ["contact"]
    all_positions = fitted.metadata.extra["distillation"][-1]["positions"]
    assert all_positions == sum(
        np.load(folder / "positions.npy").shape[0] for folder in (both, first)
    )
    bad = CliRunner().invoke(app, [*args, "--fit", "contact,bogus"])
    assert bad.exit_code != 0
    assert "bogus" in bad.output
    unfinished = tmp_path / "unfinished"
    unfinished.mkdir()
    np.save(unfinished / "positions.npy", np.zeros((3, 52), dtype=np.uint8))
    refused = CliRunner().invoke(app, [*args, "--also", str(unfinished)])
    assert refused.exit_code != 0
    assert "0 of 3 positions" in refused.output


def _small_corpus(tmp_path: Path, shards: int) -> Path:
    """A corpus folder holding the first ``shards`` shards of the repository's own."""
    import shutil

    source = Path(__file__).resolve().parents[2] / "corpus"
    folder = tmp_path / "corpus"
    (folder / "shards").mkdir(parents=True)
    (folder / "queue").mkdir()
    for path in sorted((source / "shards").glob("*.txt.gz"))[:shards]:
        shutil.copy(path, folder / "shards" / path.name)
        chunk = path.name.removesuffix(".gz")
        shutil.copy(source / "queue" / chunk, folder / "queue" / chunk)
    return folder


def test_the_corpus_labels_as_arrays(tmp_path: Path) -> None:
    from backgammon.training.corpus import Corpus, labelled_arrays

    corpus = Corpus(_small_corpus(tmp_path, 2))
    labels = [
        label for name in sorted(corpus.shard_names()) for label in corpus.read_shard(name).labels
    ]
    boards, targets = labelled_arrays(corpus)
    assert boards.shape == (len(labels), 52) and targets.shape == (len(labels), 5)
    first = labels[0]
    assert Position.from_array(boards[0]).position_id == first.queued.position_id
    assert np.allclose(targets[0], first.probabilities)
    empty = labelled_arrays(Corpus(tmp_path / "none"))
    assert empty[0].shape == (0, 52) and empty[1].shape == (0, 5)


def test_the_corpus_labels_rolled_out_to_the_end_alone(tmp_path: Path) -> None:
    """``untruncated_only`` leaves out the contact labels of truncated shards (they
    lean on the network), and keeps races and the shards rolled out to the end."""
    from backgammon.training.corpus import Corpus, labelled_arrays

    corpus = Corpus(_small_corpus(tmp_path, 2))
    labels = [
        label for name in sorted(corpus.shard_names()) for label in corpus.read_shard(name).labels
    ]
    contact = [label for label in labels if label.queued.kind in ("C", "X")]
    assert contact and all(
        corpus.read_shard(name).header["settings"]["contact"]["truncation"] == 7
        for name in corpus.shard_names()
    )
    # A shard rolled out to the end, of one of the contact positions relabelled.
    (name,) = corpus.add_chunks([contact[0].queued], 1, {"contact_truncation": None})
    settings = {"race": {"truncation": None}, "contact": {"truncation": None}}
    corpus.write_shard(name, {"settings": settings}, [contact[0]])
    boards, _ = labelled_arrays(corpus, untruncated_only=True)
    kept = {Position.from_array(board).position_id for board in boards}
    races = {label.queued.position_id for label in labels if label.queued.kind in ("R", "B")}
    assert kept == races | {contact[0].queued.position_id}
    assert labelled_arrays(corpus)[0].shape[0] == len(
        {label.queued.position_id for label in labels}
    )


def test_distill_fits_a_plans_network_on_the_corpus(tmp_path: Path) -> None:
    """``--fit blitz`` starts the blitz network as a copy of the contact network and
    fits it alone, on the corpus's rollouts as well as the folder's labels."""
    corpus = _small_corpus(tmp_path, 3)
    folder = tmp_path / "plans"
    args = ["distill", "--folder", str(folder), "--games", "2", "--epochs", "2", "--seed", "7"]
    result = CliRunner().invoke(
        app, [*args, "--fit", "blitz", "--corpus", str(corpus), "--corpus-repeat", "2"]
    )
    assert result.exit_code == 0, result.output
    assert f"rollout labels from the corpus {corpus}, x2" in result.output
    assert "untruncated" not in result.output
    fitted = Networks.load(json.loads(result.output.strip().splitlines()[-1])["weights"])
    shipped = Engine().networks
    assert list(fitted.plans) == ["blitz"]
    for name in ("contact", "crashed", "race"):
        assert np.array_equal(fitted.by_name()[name].params, shipped.by_name()[name].params)
    assert not np.array_equal(fitted.plans["blitz"].params, shipped.contact.params)
    step = fitted.metadata.extra["distillation"][-1]
    assert step["corpus"] == str(corpus) and step["corpus_repeat"] == 2
    assert [report["network"] for report in step["held_out"]] == ["blitz"]
    elsewhere = [*args[:2], str(tmp_path / "untouched"), *args[3:]]
    missing = CliRunner().invoke(app, [*elsewhere, "--corpus", str(tmp_path / "no")])
    assert missing.exit_code != 0
    assert "isnotafolder" in re.sub(r"[\s│╭╮╰╯─]", "", missing.output)
    assert not (tmp_path / "untouched").exists(), "refused before any work"
