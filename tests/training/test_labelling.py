"""Rollout labels in resumable shards: the CLI as typed, a killed run resumed, bad
input refused, and a local Ray cluster giving the local processes' labels."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from backgammon import Position
from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.engine.rollout import RolloutSettings, rollout
from backgammon.engine.workers import LocalProcesses, RayCluster, ray_installed
from backgammon.training.labelling import label_positions, read_labels, read_positions

ROOT = Path(__file__).resolve().parents[2]


@cache
def engine() -> Engine:
    return Engine()


def positions(count: int) -> list[Position]:
    """``count`` different positions: the starting position after a few plays."""
    found = [Position.initial()]
    rolls = [(3, 1), (6, 5), (4, 2), (5, 3), (6, 1), (2, 1), (6, 4), (5, 2)]
    while len(found) < count:
        last = found[-1]
        play = last.legal_plays(rolls[len(found) % len(rolls)])[len(found) % 3]
        found.append(play.position.flip())
    return found


def positions_file(folder: Path, count: int) -> Path:
    path = folder / "positions.txt"
    lines = ["# positions to label", ""] + [p.position_id for p in positions(count)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_label_command_writes_every_label_in_file_order(tmp_path: Path) -> None:
    source = positions_file(tmp_path, 3)
    out = tmp_path / "labels"
    arguments = ["label", str(source), "--out", str(out), "--trials", "36", "--truncate", "3"]
    result = CliRunner().invoke(app, [*arguments, "--shard-size", "2"])
    assert result.exit_code == 0, result.output
    assert "trials/s/core" in result.output
    labels = read_labels(out)
    assert [label["position_id"] for label in labels] == [p.position_id for p in positions(3)]
    expected = rollout(
        engine().evaluate_boards, positions(3)[1], RolloutSettings(36, seed=1, truncation=3)
    )
    assert labels[1]["equity"] == pytest.approx(expected.equity)
    assert labels[1]["trials"] == 36
    assert sorted(os.listdir(out / "shards")) == ["shard-00000.json", "shard-00001.json"]
    # Run again: every shard is done already, nothing is redone.
    again = CliRunner().invoke(app, [*arguments, "--shard-size", "2"])
    assert again.exit_code == 0, again.output
    assert "(2 already done)" in again.output and "0 trials" in again.output
    # Another job in the same folder is refused.
    other = CliRunner().invoke(app, [*arguments, "--shard-size", "1"])
    assert other.exit_code == 2
    assert "another job" in other.output


def test_a_killed_run_resumes_without_losing_or_repeating_a_shard(tmp_path: Path) -> None:
    source = positions_file(tmp_path, 8)
    out = tmp_path / "labels"
    command = [
        *(sys.executable, "-m", "backgammon", "label", str(source), "--out", str(out)),
        *("--trials", "36", "--truncate", "4", "--shard-size", "1"),
    ]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    first = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    shards = out / "shards"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and first.poll() is None:
        if shards.is_dir() and len(list(shards.glob("shard-*.json"))) >= 2:
            break
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)
    first.wait()
    before = {path.name: path.stat().st_mtime_ns for path in shards.glob("shard-*.json")}
    assert 2 <= len(before) < 8, "the run was to be killed mid-way"
    assert not (out / "labels.jsonl").exists()
    resumed = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({len(before)} already done)" in resumed.stdout
    after = {path.name: path.stat().st_mtime_ns for path in shards.glob("shard-*.json")}
    assert sorted(after) == [f"shard-{n:05d}.json" for n in range(8)]
    assert all(after[name] == stamp for name, stamp in before.items()), "a shard was redone"
    labels = read_labels(out)
    assert [label["position_id"] for label in labels] == [p.position_id for p in positions(8)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4HPwATDgc/ABMA\nnot a position\n", "line 2: 'not a position'"),
        ("# only a comment\n\n", "holds no positions"),
        ("4HPwATDgc/ABMA\nXGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0\x00\n", "line 2"),
    ],
)
def test_a_malformed_positions_file_is_refused_and_writes_nothing(
    tmp_path: Path, text: str, expected: str
) -> None:
    source = tmp_path / "positions.txt"
    source.write_text(text)
    out = tmp_path / "labels"
    result = CliRunner().invoke(app, ["label", str(source), "--out", str(out)])
    assert result.exit_code == 2
    assert expected in result.output
    assert not out.exists()
    with pytest.raises(ValueError, match=r"positions\.txt"):
        read_positions(source)


def test_ray_asked_without_ray_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("backgammon.engine.workers.ray_installed", lambda: False)
    source = positions_file(tmp_path, 1)
    result = CliRunner().invoke(
        app, ["label", str(source), "--out", str(tmp_path / "out"), "--ray", "local"]
    )
    assert result.exit_code == 2
    assert "Ray is not installed" in result.output and "[cluster]" in result.output


@pytest.mark.skipif(not ray_installed(), reason="needs the cluster extra (Ray)")
@pytest.mark.slow  # a local Ray cluster
def test_a_local_ray_cluster_gives_the_local_processes_labels(tmp_path: Path) -> None:
    chosen = positions(3)
    settings = RolloutSettings(trials=36, seed=3, truncation=1)
    evaluator = engine().evaluate_boards
    with LocalProcesses(1) as local:
        label_positions(evaluator, chosen, tmp_path / "local", settings, local, shard_size=1)
    with RayCluster("local", cpus=2) as cluster:
        assert cluster.cores == 2
        summary = label_positions(
            evaluator, chosen, tmp_path / "ray", settings, cluster, shard_size=1
        )
        # A single rollout's trials split over the cluster: the same result too.
        spread = rollout(evaluator, chosen[2], settings, runner=cluster)
    assert summary.shards == 3 and summary.trials == 3 * 36
    assert read_labels(tmp_path / "ray") == read_labels(tmp_path / "local")
    alone = rollout(evaluator, chosen[2], settings)
    assert spread.equity == pytest.approx(alone.equity, abs=1e-12)
    assert json.loads((tmp_path / "ray" / "job.json").read_text())["shard_size"] == 1
