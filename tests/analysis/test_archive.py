"""``backgammon archive``: a player's matches from a folder of files written by several
programs (GNU Backgammon's .mat, an eXtreme Gammon .xg laid out as XG writes it, our
OGXM and SGF), run as typed; its JSON checked against the per-match analyses it
summarises, its HTML page well formed with its plots; bad input named."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from backgammon import Position
from backgammon.analysis import AnalysisSettings, analyze_match, summarize
from backgammon.analysis.annotate import GameAnalysis
from backgammon.analysis.archive import (
    match_date,
    player_archive,
    position_kind,
    read_archive,
    score_label,
)
from backgammon.analysis.archive_report import archive_html
from backgammon.errors import MatchFileError
from backgammon.formats import MatchRecord, read_match, write_match
from backgammon.formats.ogxm import write_ogxm
from tests.formats.xg_files import xg_of
from tests.reference import FORMATS

PLAYER = "gnubg"


def _dated(record: MatchRecord, date: str | None) -> MatchRecord:
    metadata = {key: value for key, value in record.info.metadata.items() if key != "date"}
    if date is not None:
        metadata["date"] = date
    return MatchRecord(replace(record.info, metadata=metadata), record.games, record.comment)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four matches from four programs' formats (dated 2026-11-22, 2023-03-15,
    2025-06-01 and undated), a broken match file and a file that is no match."""
    folder = tmp_path_factory.mktemp("archive")
    first = read_match(FORMATS / "match01_3pt.mat")
    second = read_match(FORMATS / "match02_3pt.mat")
    shutil.copy(FORMATS / "match01_3pt.mat", folder / "a_gnubg.mat")  # 2026-11-22
    (folder / "b_xg.xg").write_bytes(xg_of(second))  # XG's header date: 2023-03-15
    (folder / "c_ours.ogxm").write_bytes(write_ogxm(_dated(second, "2025-06-01")))
    write_match(_dated(first, None), folder / "d_undated.sgf")
    (folder / "e_broken.mat").write_text(" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: x\n")
    (folder / "notes.txt").write_text("not a match")
    return folder


def _archive(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "backgammon", "archive", *arguments, "--processes", "1"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


class _Balance(HTMLParser):
    """Checks that every element opened is closed, in order (void elements aside)."""

    VOID = frozenset({"meta", "br", "img", "input", "hr", "link", "col", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()


def _check_html(page: str, matches: int) -> None:
    checker = _Balance()
    checker.feed(page)
    checker.close()
    assert checker.problems == [] and checker.open == []
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    svgs = re.findall(r"<svg .*?</svg>", page, flags=re.DOTALL)
    plots = {}
    for svg in svgs:
        tree = ElementTree.fromstring(svg)  # each picture is well-formed XML
        plots[tree.get("class")] = tree
    namespace = "{http://www.w3.org/2000/svg}"
    errors = plots["error-rate-plot"]
    assert len(errors.findall(f"{namespace}circle[@class='match']")) == matches
    assert errors.find(f"{namespace}path[@class='running']") is not None
    luck = plots["luck-plot"]
    assert len(luck.findall(f"{namespace}rect[@class='match']")) == matches
    assert plots["kinds-plot"].findall(f"{namespace}rect[@class='kind']")


def test_the_cli_summarises_a_folder_and_its_json_adds_up(folder: Path, tmp_path: Path) -> None:
    out_json, out_html = tmp_path / "archive.json", tmp_path / "archive.html"
    done = _archive("GNUBG", str(folder), "--json", str(out_json), "--html", str(out_html))
    assert done.returncode == 0, done.stderr
    assert "skipped e_broken.mat" in done.stderr and "notes.txt" not in done.stderr
    assert "gnubg: 4 matches at 0-ply" in done.stdout
    data: dict[str, Any] = json.loads(out_json.read_text())
    labels = [match["label"] for match in data["matches"]]
    assert labels == ["b_xg.xg", "c_ours.ogxm", "a_gnubg.mat", "d_undated.sgf"]
    assert [match["date"] for match in data["matches"]] == [
        "2023-03-15",
        "2025-06-01",
        "2026-11-22",
        None,
    ]
    assert data["skipped"][0]["label"] == "e_broken.mat"
    # What the player's errors have in common (tests/analysis/test_archive_lessons.py).
    assert data["lessons"]["text"].startswith("You lose most in ")
    assert data["lessons"]["text"] in " ".join(done.stdout.split())

    settings = AnalysisSettings(ply=0)
    decisions = rolls = 0
    loss = luck = 0.0
    for match in data["matches"]:
        analysis = analyze_match(read_match(folder / match["label"]), settings=settings)
        mine = summarize(analysis)[match["side"]]
        assert mine.name == PLAYER and match["opponent"] == "root"
        for key in ("decisions", "checker_decisions", "cube_decisions", "rolls"):
            assert match["figures"][key] == getattr(mine, key)
        for key in ("error_rate", "equity_loss", "luck", "luck_rate", "cube_error_rate"):
            assert match["figures"][key] == pytest.approx(getattr(mine, key), abs=1e-6)
        decisions += mine.decisions
        rolls += mine.rolls
        loss += mine.equity_loss
        luck += mine.luck
    totals = data["totals"]
    assert totals["matches"] == 4 and totals["decisions"] == decisions
    assert totals["error_rate"] == pytest.approx(1000 * loss / decisions, abs=1e-5)
    assert totals["luck_rate"] == pytest.approx(luck / rolls, abs=1e-5)
    kinds = {line["kind"]: line for line in data["kinds"]}
    assert list(kinds) == ["bear-off", "containment", "race", "contact", "cube"]
    assert sum(line["decisions"] for line in kinds.values()) == decisions
    assert sum(line["equity_loss"] for line in kinds.values()) == pytest.approx(loss, abs=1e-5)
    cube = sum(match["figures"]["cube_decisions"] for match in data["matches"])
    assert kinds["cube"]["decisions"] == cube
    assert sum(line["decisions"] for line in data["cube_by_score"]) == cube
    assert {line["score"] for line in data["cube_by_score"]} <= {
        f"{mine}-away/{theirs}-away" for mine in (1, 2, 3) for theirs in (1, 2, 3)
    } | {f"{mine}-away/{theirs}-away post-Crawford" for mine in (1, 2, 3) for theirs in (1, 2, 3)}
    marked = sum(line["errors"] for line in kinds.values())
    missed = [item for items in data["missed"].values() for item in items]
    assert missed and sum(item["missed"] for item in missed) <= marked
    sides = {match["label"]: match["side"] for match in data["matches"]}
    for item in missed:
        worst = item["worst"]
        assert worst["player"] == sides[item["match"]] and worst["mark"] is not None
        assert item["equity_loss"] >= worst["equity_loss"] - 1e-9
        assert item["faced"] >= item["missed"] >= 1
    _check_html(out_html.read_text(encoding="utf-8"), 4)


def test_bad_input_is_named_and_writes_nothing(folder: Path, tmp_path: Path) -> None:
    out_json = tmp_path / "x.json"
    unknown = _archive("nobody", str(folder), "--json", str(out_json))
    assert unknown.returncode == 2
    assert "'nobody'" in unknown.stderr and "gnubg, root" in unknown.stderr
    assert not out_json.exists()
    broken = _archive(PLAYER, str(folder / "a_gnubg.mat"), str(folder / "e_broken.mat"))
    assert broken.returncode == 2 and "e_broken.mat" in broken.stderr
    missing = _archive(PLAYER, str(tmp_path / "gone.sgf"), "--json", str(out_json))
    assert missing.returncode == 2
    assert "gone.sgf" in missing.stderr and "no such file or folder" in missing.stderr
    assert not out_json.exists()


def test_read_archive_names_what_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(MatchFileError, match="nowhere"):
        read_archive([tmp_path / "nowhere"])
    (tmp_path / "bad.ogxms").write_bytes(b"OGXM" + bytes(40))
    with pytest.raises(MatchFileError, match=r"bad\.ogxms"):
        read_archive([tmp_path / "bad.ogxms"])
    shutil.copy(FORMATS / "match02_3pt.mat", tmp_path / "m.mat")
    matches, skipped = read_archive([tmp_path / "m.mat", tmp_path / "m.mat"])
    assert [label for label, _ in matches] == ["m.mat", "m.mat (2)"] and skipped == []


def test_an_ogxm_stream_is_an_archive_and_the_html_draws_each_match(tmp_path: Path) -> None:
    records = [read_match(FORMATS / name) for name in ("match02_3pt.mat", "match01_3pt.sgf")]
    stream = tmp_path / "both.ogxms"
    stream.write_bytes(b"".join(write_ogxm(record) for record in records))
    matches, _ = read_archive([stream])
    analysed = [(label, record, analyze_match(record)) for label, record in matches]
    archive = player_archive("Root", analysed)
    assert archive.player == "root" and [m.label for m in archive.matches] == [
        "both.ogxms#1",
        "both.ogxms#2",
    ]
    assert all(match.side == 1 and match.opponent == "gnubg" for match in archive.matches)
    _check_html(archive_html(archive), 2)
    with pytest.raises(ValueError, match=r"'someone'.*gnubg, root"):
        player_archive("someone", analysed)


def _position(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position from ``{point: checkers}`` of each side (its own numbering)."""
    return Position.from_points(
        [mine.get(point, 0) for point in range(1, 25)],
        [theirs.get(point, 0) for point in range(1, 25)],
    )


def test_kinds_of_position() -> None:
    assert position_kind(Position.initial()) == "contact"
    race = _position({8: 10, 3: 5}, {6: 15})
    assert position_kind(race) == "race"
    home = _position({1: 5, 2: 5, 6: 5}, {6: 15})
    assert position_kind(home) == "bear-off"
    against_anchor = _position({1: 5, 2: 5, 6: 3}, {20: 2, 1: 13})  # their anchor on my 5pt
    assert position_kind(against_anchor) == "bear-off"
    primed = _position({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 13: 5}, {24: 2, 6: 13})
    assert position_kind(primed) == "containment"


def test_score_labels_and_dates() -> None:
    def game(score: tuple[int, int], crawford: bool = False) -> GameAnalysis:
        return GameAnalysis(1, score, crawford, None, 0, ())

    assert score_label(game((0, 0)), 0, 0) == "money"
    assert score_label(game((1, 3)), 5, 0) == "4-away/2-away"
    assert score_label(game((1, 3)), 5, 1) == "2-away/4-away"
    assert score_label(game((4, 2), True), 5, 1) == "3-away/1-away Crawford"
    assert score_label(game((4, 3)), 5, 0) == "1-away/2-away post-Crawford"
    record = read_match(FORMATS / "match02_3pt.mat")
    for written, expected in (
        ("2024.5.7", "2024-05-07"),
        ("2024/05/07 12:00", "2024-05-07"),
        ("May 2024", None),
        ("2024-13-01", None),
    ):
        assert match_date(_dated(record, written)) == expected
    assert match_date(_dated(record, None)) is None
