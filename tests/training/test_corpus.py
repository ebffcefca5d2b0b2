"""The labelling corpus: its line formats, its files, the ``label --corpus`` modes as
typed, a labeller killed and resumed, malformed files refused by file and line."""

from __future__ import annotations

import gzip
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from backgammon import Position
from backgammon.apps.cli import app
from backgammon.engine import Engine
from backgammon.engine.plans import Plan, plan_of
from backgammon.engine.rollout import RolloutSettings, rollout
from backgammon.engine.workers import LocalProcesses
from backgammon.training.corpus import (
    Corpus,
    CorpusFileError,
    CorpusSettings,
    Label,
    QueuedPosition,
    corpus_status,
    run_queue,
)
from backgammon.training.corpus.fill import sample_positions
from backgammon.training.corpus.format import (
    KINDS,
    SOURCES,
    format_label,
    format_queued,
    parse_label,
    parse_queued,
)
from backgammon.training.corpus.labeller import chunk_seed, labeller_lock
from backgammon.training.corpus.status import status_lines

ROOT = Path(__file__).resolve().parents[2]


def short_race(pips: int) -> Position:
    """A race of a few checkers each side, not in the bear-off databases' reach."""
    player = [0] * 24
    opponent = [0] * 24
    player[pips - 1] = 1
    player[0] = 1
    opponent[1] = 2
    return Position.from_points(player, opponent)


def queue(corpus: Corpus, chunks: int, size: int = 2) -> list[str]:
    """``chunks`` chunks of ``size`` short races each."""
    positions = [
        QueuedPosition(short_race(8 + k % 10).position_id, "R", Plan.RACE, "fi")
        for k in range(chunks * size)
    ]
    return corpus.add_chunks(positions, size, {"source": "test"})


queued_positions = st.builds(
    QueuedPosition,
    st.sampled_from([Position.initial().position_id, short_race(9).position_id]),
    st.sampled_from(sorted(KINDS)),
    st.sampled_from(list(Plan)),
    st.sampled_from(sorted(SOURCES)),
)
probabilities = st.integers(0, 10_000).map(lambda n: n / 10_000)


@given(
    queued_positions,
    st.tuples(*[probabilities] * 5),
    st.integers(-30_000, 30_000).map(lambda n: n / 10_000),
    probabilities,
    st.integers(1, 100_000),
)
def test_lines_round_trip(
    queued: QueuedPosition,
    chances: tuple[float, float, float, float, float],
    equity: float,
    error: float,
    trials: int,
) -> None:
    assert parse_queued(format_queued(queued)) == queued
    label = Label(queued, chances, equity, error, trials)
    assert parse_label(format_label(label)) == label
    assert format_label(parse_label(format_label(label))) == format_label(label)


def test_plans() -> None:
    assert plan_of(Position.initial()) is Plan.DEEP_ANCHOR
    assert plan_of(short_race(9)) is Plan.RACE
    assert Plan.OTHER_CONTACT.label == "other contact"


def test_files_round_trip_and_shards_are_written_once(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    names = queue(corpus, 2)
    assert corpus.chunk_names() == names and corpus.pending() == names
    chunk = corpus.read_chunk(names[0])
    labels = [Label(entry, (0.5, 0.1, 0.0, 0.1, 0.0), 0.0, 0.01, 36) for entry in chunk.positions]
    corpus.write_shard(names[0], {"network": "n"}, labels)
    shard = corpus.read_shard(names[0])
    assert shard.labels == tuple(labels) and shard.header["chunk"] == names[0]
    assert corpus.pending() == names[1:]
    with pytest.raises(FileExistsError):
        corpus.write_shard(names[0], {}, labels)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("4HPwATDgc/ABMA C oc", "expected 4 fields"),
        ("4HPwATDgc/ABM! C oc sp", "is not a Position ID"),
        ("4HPwATDgc/ABMA Q oc sp", "'Q' is not a kind"),
        ("4HPwATDgc/ABMA C zz sp", "'zz' is not a plan"),
        ("4HPwATDgc/ABMA C oc xx", "'xx' is not a source"),
    ],
)
def test_a_malformed_queue_line_names_the_file_and_line(
    tmp_path: Path, line: str, expected: str
) -> None:
    corpus = Corpus(tmp_path)
    name = queue(corpus, 1)[0]
    path = corpus.queue_folder / f"{name}.txt"
    path.write_text(path.read_text() + line + "\n")
    with pytest.raises(CorpusFileError, match=f"{name}.txt, line 4: .*{expected}"):
        corpus.read_chunk(name)
    result = CliRunner().invoke(app, ["label", "--corpus", str(tmp_path), "--status"])
    assert result.exit_code == 2
    assert f"{name}.txt, line 4" in result.output and expected in result.output


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (b"#backgammon-corpus-shard 2 {}\n", "line 1: format version '2'"),
        (b"#backgammon-corpus-shard 1 {}\n4HPwATDgc/ABMA C oc sp 0.5 0 0 0 0 0 0\n", "line 2"),
        (b"#backgammon-corpus-shard 1 {}\n4HPwATDgc/ABMA C oc sp 2.5 0 0 0 0 0 0 36\n", "[-1, 2]"),
        (b"#backgammon-corpus-shard 1 {}\n4HPwATDgc/ABMA C oc sp a 0 0 0 0 0 0 36\n", "numbers"),
        (b"", "line 1: the file is empty"),
    ],
)
def test_a_malformed_shard_names_the_file_and_line(
    tmp_path: Path, body: bytes, expected: str
) -> None:
    corpus = Corpus(tmp_path)
    name = queue(corpus, 1)[0]
    corpus.shard_folder.mkdir()
    (corpus.shard_folder / f"{name}.txt.gz").write_bytes(gzip.compress(body))
    with pytest.raises(CorpusFileError, match=rf"{name}\.txt\.gz, line") as caught:
        corpus.read_shard(name)
    assert expected in str(caught.value)
    (corpus.shard_folder / f"{name}.txt.gz").write_bytes(body + b"not gzip")
    with pytest.raises(CorpusFileError, match="not a whole gzip file"):
        corpus.read_shard(name)


def test_run_queue_labels_every_chunk_once(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    names = queue(corpus, 3)
    settings = CorpusSettings(race=RolloutSettings(trials=8), contact=RolloutSettings(trials=8))
    evaluator = Engine().evaluate_boards
    with labeller_lock(corpus), LocalProcesses(1) as runner:
        summary = run_queue(corpus, evaluator, "test", runner, settings, limit=2, reverse=True)
        assert summary.shards == 2 and summary.positions == 4 and summary.trials == 32
        assert corpus.pending() == names[:1]
        again = run_queue(corpus, evaluator, "test", runner, settings)
    assert again.shards == 1 and corpus.pending() == []
    shard = corpus.read_shard(names[0])
    assert shard.header["network"] == "test"
    assert shard.header["settings"]["race"]["truncation"] is None
    assert all(label.trials == 8 for label in shard.labels)
    status = corpus_status(corpus)
    assert status.labelled[Plan.RACE, "R"] == 6 and status.waiting == 0


def test_each_chunk_says_how_far_its_contact_positions_are_rolled_out(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    contact = [QueuedPosition(Position.initial().position_id, "C", Plan.OTHER_CONTACT, "fi")]
    plies = {None: "to the end", 7: "truncated at 7", 3: "truncated at 3"}
    headers = {  # a chunk queued before chunks said it keeps the default (7)
        None: {"source": "test", "contact_truncation": None},
        7: {"source": "test"},
        3: {"source": "test", "contact_truncation": 3},
    }
    names = {plies: corpus.add_chunks(contact, 1, h)[0] for plies, h in headers.items()}
    settings = CorpusSettings(contact=RolloutSettings(trials=2, truncation=7))
    engine = Engine()
    with labeller_lock(corpus), LocalProcesses(1) as runner:
        run_queue(corpus, engine.evaluate_boards, "test", runner, settings)
    for truncation, name in names.items():
        shard = corpus.read_shard(name)
        assert shard.header["settings"]["contact"]["truncation"] == truncation
        alone = RolloutSettings(trials=2, truncation=truncation, seed=chunk_seed(name))
        expected = rollout(engine.evaluate_boards, Position.initial(), alone)
        assert shard.labels[0].probabilities == pytest.approx(expected.probabilities, abs=1e-4)
    assert status_lines(corpus_status(corpus))[-1] == "contact rollouts: " + ", ".join(
        f"{plies[t]} 1/1" for t in (3, 7, None)
    )
    # A chunk that asks for something else is refused, naming the chunk.
    bad = corpus.add_chunks(contact, 1, {"source": "test", "contact_truncation": 0})[0]
    with pytest.raises(CorpusFileError, match=f"chunk {bad}: contact_truncation"):
        settings.for_chunk(corpus.read_chunk(bad))


def test_fill_keeps_positions_new_and_labellable() -> None:
    known = {Position.initial().position_id}
    found = sample_positions(Engine(), 40, random.Random(3), known)
    assert len(found) == 40 and len({entry.position_id for entry in found}) == 40
    assert Position.initial().position_id not in {entry.position_id for entry in found}
    assert known >= {entry.position_id for entry in found}
    for entry in found:
        position = Position.from_position_id(entry.position_id)
        assert plan_of(position) is entry.plan and not position.is_game_over()


def test_label_corpus_as_typed(tmp_path: Path) -> None:
    folder = tmp_path / "corpus"
    filled = CliRunner().invoke(
        app, ["label", "--corpus", str(folder), "--fill", "12", "--chunk-size", "5"]
    )
    assert filled.exit_code == 0, filled.output
    assert "queued 12 positions in 3 chunks" in filled.output
    first = Corpus(folder).read_chunk(Corpus(folder).chunk_names()[0])
    assert first.header["contact_truncation"] is None  # contact rolled out to the end
    refused = CliRunner().invoke(
        app, ["label", "--corpus", str(folder), "--fill", "5", "--truncate", "0"]
    )
    assert refused.exit_code == 2 and "--truncate must be >= 1" in refused.output
    queue(Corpus(folder), 1)
    status = CliRunner().invoke(app, ["label", "--corpus", str(folder), "--status"])
    assert status.exit_code == 0, status.output
    assert "0 of 4 chunks labelled" in status.output and "14 positions waiting" in status.output
    # The short races' chunk is the newest: label it alone.
    arguments = ["label", "--corpus", str(folder), "--reverse", "--chunks", "1", "--no-nice"]
    run = CliRunner().invoke(app, arguments)
    assert run.exit_code == 0, run.output
    assert "done: 1 shards, 2 positions" in run.output
    status = CliRunner().invoke(app, ["label", "--corpus", str(folder), "--status"])
    assert "1 of 4 chunks labelled: 2 positions" in status.output
    with labeller_lock(Corpus(folder)):
        busy = CliRunner().invoke(app, arguments)
    assert busy.exit_code == 0 and "another labeller" in busy.output
    neither = CliRunner().invoke(app, ["label"])
    assert neither.exit_code == 2 and "--corpus" in neither.output


@pytest.mark.slow  # the command line as a subprocess, killed and resumed
def test_a_killed_labeller_resumes_without_losing_or_repeating_a_shard(tmp_path: Path) -> None:
    corpus = Corpus(tmp_path)
    names = queue(corpus, 8, size=3)
    command = [sys.executable, "-m", "backgammon", "label", "--corpus", str(tmp_path)]
    environment = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    first = subprocess.Popen(
        command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and first.poll() is None and len(corpus.shard_names()) < 2:
        time.sleep(0.02)
    first.send_signal(signal.SIGKILL)
    first.wait()
    before = {p.name: p.stat().st_mtime_ns for p in corpus.shard_folder.glob("*.txt.gz")}
    assert 2 <= len(before) < 8, "the run was to be killed mid-way"
    assert corpus_status(corpus).shards == len(before)
    resumed = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"labelling {8 - len(before)} pending chunks" in resumed.stdout
    after = {p.name: p.stat().st_mtime_ns for p in corpus.shard_folder.glob("*.txt.gz")}
    assert sorted(after) == [f"{name}.txt.gz" for name in names]
    assert all(after[name] == stamp for name, stamp in before.items()), "a shard was redone"
    status = corpus_status(corpus)
    assert status.shards == 8 and status.labelled[Plan.RACE, "R"] == 24 and status.waiting == 0
    assert [label.queued for label in corpus.read_shard(names[3]).labels] == list(
        corpus.read_chunk(names[3]).positions
    )
