"""``backgammon tournament simulate``, as typed, against the contract of issue 36."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from backgammon.apps.cli import app

runner = CliRunner()


def _simulate(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["tournament", "simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _check_contract(data: dict[str, Any], players: int) -> None:
    names = {f"bot{i:02d}" for i in range(1, players + 1)}
    for pairings in data["rounds"]:
        assert isinstance(pairings, list)
        for pairing in pairings:
            assert set(pairing) == {"players", "winner"}
            first, second = pairing["players"]
            assert first in names and (second is None or second in names)
            assert pairing["winner"] in (first, second)
            if second is None:
                assert pairing["winner"] == first  # a bye counts as a win
    standings = data["standings"]
    assert sorted(s["name"] for s in standings) == sorted(names)
    for standing in standings:
        assert set(standing) == {"name", "points", "tiebreaks"}
        assert isinstance(standing["tiebreaks"], dict)
    points = [s["points"] for s in standings]
    assert points == sorted(points, reverse=True)
    wins = sum(len(pairings) for pairings in data["rounds"])
    assert sum(points) == wins


@pytest.mark.parametrize(
    ("kind", "players", "rounds", "expected_rounds"),
    [
        ("swiss", 9, "4", 4),
        ("swiss", 16, None, 4),
        ("knockout", 11, None, 4),
        ("knockout", 2, "1", 1),
        ("round-robin", 7, None, 7),
        ("round-robin", 6, "3", 3),
    ],
)
def test_random_results_follow_the_contract_and_the_seed(
    kind: str, players: int, rounds: str | None, expected_rounds: int
) -> None:
    args = ["--format", kind, "--players", str(players), "--seed", "5", "--random-results"]
    if rounds is not None:
        args += ["--rounds", rounds]
    data = _simulate(*args)
    _check_contract(data, players)
    assert len(data["rounds"]) == expected_rounds
    assert _simulate(*args) == data
    other = _simulate(*[a if a != "5" else "6" for a in args])
    assert other["rounds"] != data["rounds"]


def test_a_knockout_lists_the_main_bracket_only_and_byes_go_to_the_top_seeds() -> None:
    data = _simulate("--format", "knockout", "--players", "6", "--seed", "1", "--random-results")
    sizes = [len(pairings) for pairings in data["rounds"]]
    assert sizes == [4, 2, 1]
    byes = [p["players"][0] for p in data["rounds"][0] if p["players"][1] is None]
    assert len(byes) == 2
    assert data["standings"][0]["name"] == data["rounds"][-1][0]["winner"]


def test_the_bots_play_the_matches_with_a_progress_bar_off_stdout() -> None:
    args = ["--format", "knockout", "--players", "4", "--seed", "2", "--bot", "heuristic"]
    data = _simulate(*args, "--length", "3")
    _check_contract(data, 4)
    assert [len(pairings) for pairings in data["rounds"]] == [2, 1]
    assert _simulate(*args, "--length", "3") == data  # the dice are seeded too


def test_the_command_as_typed() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "backgammon", "tournament", "simulate", "--format", "swiss",
         "--players", "10", "--rounds", "3", "--seed", "4", "--random-results", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    data = json.loads(completed.stdout)
    _check_contract(data, 10)
    assert len(data["rounds"]) == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "swiss", "--players", "1"], "at least 2 players, got 1"),
        (["--format", "knockout", "--players", "-3"], "at least 2 players, got -3"),
        (["--format", "ladder", "--players", "8"], "unknown format 'ladder'"),
        (["--format", "swiss", "--players", "5000"], "at most 1024, got 5000"),
        (["--format", "swiss", "--players", "6", "--rounds", "6"], "has 1 to 5 rounds, not 6"),
        (["--format", "round-robin", "--players", "5", "--rounds", "9"], "1 to 5 rounds, not 9"),
        (["--format", "knockout", "--players", "8", "--rounds", "4"], "exactly 3 rounds, not 4"),
        (["--format", "swiss", "--players", "8", "--length", "0"], "match length >= 1"),
        (["--format", "swiss", "--players", "8", "--bot", "gnubg"], "unknown bot 'gnubg'"),
    ],
)
def test_bad_input_gets_a_clear_error(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", "simulate", *args, "--seed", "1", "--json"])
    assert result.exit_code == 2
    assert message in " ".join(result.stderr.split())
    assert result.stdout == ""


def test_the_standings_print_as_a_table_with_tie_breaks_by_their_names() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "simulate",
            "--format",
            "swiss",
            "--players",
            "6",
            "--rounds",
            "3",
            "--seed",
            "2",
        ],
    )
    assert result.exit_code == 0, result.output
    table = result.output.split("Standings", 1)[1].splitlines()[1:]
    header = next(line for line in table if line.split()[:1] == ["#"])
    assert header.split()[:3] == ["#", "Player", "Points"], table
    assert "Buchholz" in header and "…" not in result.output  # headers fold, never cut
    text = "".join(result.output.split())
    assert "Median" in text and "Sonneborn-" in text and "Headto" in text
    assert "median_buchholz" not in result.output and "sonneborn_berger" not in result.output
    rows = [line for line in table if line.split() and line.split()[0].isdigit()]
    assert [row.split()[1] for row in rows] and len(rows) == 6
