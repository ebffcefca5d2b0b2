"""``backgammon analyze`` of many matches (a folder, an ``.ogxms`` stream), run as
typed: one summary table per match and per player; a bad file named and skipped."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from backgammon.analysis import AnalysisSettings, MatchAnalysis, analyze_match, summarize
from backgammon.analysis.batch import analyze_on, batch_summary, read_matches
from backgammon.apps.cli import app
from backgammon.engine.workers import RayCluster, ray_installed
from backgammon.formats import read_match
from backgammon.formats.ogxm import write_ogxm

FORMATS = Path(__file__).parent.parent / "data" / "reference" / "formats"
MATCHES = [FORMATS / "match01_3pt.mat", FORMATS / "match02_3pt.mat"]


def _analyze(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backgammon", "analyze", *arguments, "--processes", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def test_a_folder_is_analysed_into_one_table(tmp_path: Path) -> None:
    for path in MATCHES:
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "broken.mat").write_text(
        " 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/6\n"
    )
    (tmp_path / "notes.txt").write_text("not a match: not read")
    done = _analyze(str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "skipped broken.mat" in done.stderr + done.stdout
    assert "notes.txt" not in done.stdout + done.stderr
    out = done.stdout
    assert f"{tmp_path.name}: 2 matches at 0-ply" in " ".join(out.split())
    records = [read_match(path) for path in MATCHES]
    for path, record in zip(MATCHES, records, strict=True):
        assert out.count(path.name) == 2  # a line per player
        for name in record.info.players:
            assert name in out
    assert out.count("all (") == len({n for r in records for n in r.info.players})


def test_a_stream_is_analysed_and_its_totals_add_up(tmp_path: Path) -> None:
    records = [read_match(path) for path in MATCHES]
    stream = tmp_path / "two.ogxms"
    stream.write_bytes(b"".join(write_ogxm(record) for record in records))
    read = list(read_matches(stream))
    assert [label for label, _ in read] == ["two.ogxms#1", "two.ogxms#2"]
    analyses = [
        (label, analyze_match(record, settings=AnalysisSettings(ply=0), store=False))
        for label, record in read
        if not isinstance(record, Exception)
    ]
    lines, players = batch_summary(analyses)
    assert len(lines) == 4
    for total in players:
        mine = [s for _, a in analyses for s in summarize(a) if s.name == total.player]
        decisions = sum(s.decisions for s in mine)
        assert total.decisions == decisions and total.matches == len(mine)
        loss = sum(s.equity_loss for s in mine)
        assert abs(total.error_rate - 1000 * loss / decisions) < 1e-9
    done = _analyze(str(stream))
    assert done.returncode == 0, done.stderr
    assert "two.ogxms#1" in done.stdout and "two.ogxms#2" in done.stdout


def test_many_matches_refuse_single_match_outputs_and_a_bad_stream(tmp_path: Path) -> None:
    refused = _analyze(str(tmp_path), "--json", str(tmp_path / "x.json"))
    assert refused.returncode == 2 and "one match, not many" in refused.stderr
    bad = tmp_path / "bad.ogxms"
    bad.write_bytes(b"OGXM" + bytes(40))
    done = _analyze(str(bad))
    assert done.returncode == 2 and "bad.ogxms" in done.stderr and "OGXM" in done.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = _analyze(str(empty))
    assert nothing.returncode == 2 and "empty holds no match file" in nothing.stderr


@pytest.mark.skipif(not ray_installed(), reason="needs the cluster extra (Ray)")
@pytest.mark.slow  # a local Ray cluster
def test_games_on_a_local_ray_cluster_give_the_local_analysis(tmp_path: Path) -> None:
    """Every game a task on a 2-CPU local Ray cluster: the same decisions and equity
    losses as the analysis here, put together in each match's order."""
    records = [read_match(path) for path in MATCHES]
    settings = AnalysisSettings(ply=0)
    with RayCluster("local", cpus=2) as cluster:
        assert cluster.cores == 2
        done = analyze_on(cluster, records, settings)
    for record, result in zip(records, done, strict=True):
        assert isinstance(result, MatchAnalysis)
        here = analyze_match(record, settings=settings, store=False)
        assert len(result.games) == len(record.games) == len(here.games)
        for got, want in zip(result.games, here.games, strict=True):
            assert [d.kind for d in got.decisions] == [d.kind for d in want.decisions]
            assert [d.equity_loss for d in got.decisions] == pytest.approx(
                [d.equity_loss for d in want.decisions], abs=1e-9
            )
        assert summarize(result) == summarize(here)


@pytest.mark.skipif(not ray_installed(), reason="needs the cluster extra (Ray)")
@pytest.mark.slow  # a local Ray cluster
def test_a_folder_on_ray_as_typed_names_what_it_skips(tmp_path: Path) -> None:
    for path in MATCHES:
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "broken.mat").write_text(
        " 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/6\n"
    )
    command = [sys.executable, "-m", "backgammon", "analyze", str(tmp_path)]
    done = subprocess.run(
        [*command, "--ray", "local", "--processes", "2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "skipped broken.mat" in done.stderr
    games = sum(len(read_match(path).games) for path in MATCHES)
    assert f"2 matches ({games} games) in" in done.stderr and "on 2 CPUs" in done.stderr
    assert f"{tmp_path.name}: 2 matches at 0-ply" in " ".join(done.stdout.split())
    local = _analyze(str(tmp_path))
    assert local.returncode == 0, local.stderr
    assert done.stdout == local.stdout  # the same table, to the last digit


def test_ray_asked_without_ray_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("backgammon.engine.workers.ray_installed", lambda: False)
    result = CliRunner().invoke(app, ["analyze", str(MATCHES[0]), "--ray", "local"])
    assert result.exit_code == 2
    assert "Ray is not installed" in result.output and "[cluster]" in result.output
