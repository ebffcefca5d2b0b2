"""Tests for backgammon.apps.cli: the ``backgammon`` command line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from backgammon.apps.cli import app
from backgammon.rules.position import Position

START_ID = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"
NUMBERED = re.compile(r"^\s*(\d+)\. (\S.*)$")

runner = CliRunner()


def test_play_with_a_seed_then_quit() -> None:
    result = runner.invoke(app, ["play", "--seed", "5"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "You (X) against Computer (O)." in result.output
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in result.output
    assert "Opening roll:" in result.output
    assert "Game abandoned." in result.output


def test_play_is_reproducible_with_a_seed() -> None:
    first = runner.invoke(app, ["play", "--seed", "9", "--opponent", "random"], input="quit\n")
    second = runner.invoke(app, ["play", "--seed", "9", "--opponent", "random"], input="quit\n")
    assert first.exit_code == second.exit_code == 0
    assert first.output == second.output


def test_play_ends_cleanly_when_input_ends() -> None:
    result = runner.invoke(app, ["play", "--seed", "5"], input="")
    assert result.exit_code == 0, result.output
    assert "Game abandoned." in result.output


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--opponent", "gnubg"),
        ("--level", "bogus"),
        ("--variant", "tabula"),
        ("--variant", "nope"),
        ("--match", "-1"),
        ("--save", "{missing}/folder/x.mat"),
    ],
)
def test_play_refuses_a_bad_option_naming_it(option: str, value: str, tmp_path: Path) -> None:
    """Each bad option is one line naming the option and what was typed (several
    said 'Invalid value:' without the option), before any game starts."""
    value = value.format(missing=tmp_path / "missing")
    result = runner.invoke(app, ["play", "--seed", "5", option, value], input="quit\n")
    assert result.exit_code == 2
    assert f"Invalid value for '{option}'" in result.output, result.output
    assert value.split("/")[-1] in result.output
    assert "Opening roll" not in result.output


@pytest.mark.parametrize("text", [START_ID, START_XGID, START_XGID.removeprefix("XGID=")])
def test_show_draws_the_board(text: str) -> None:
    result = runner.invoke(app, ["show", "--", text])  # a bare XGID starts with "-"
    assert result.exit_code == 0, result.output
    assert result.output.count("pips 167") == 2
    assert "BAR" in result.output
    assert f"Position ID: {START_ID}" in result.output
    assert START_XGID in result.output


def test_show_an_asymmetric_position() -> None:
    position = Position.initial().legal_plays((6, 5))[0].position.flip()
    result = runner.invoke(app, ["show", position.position_id])
    assert result.exit_code == 0, result.output
    assert str(position) in result.output
    assert position.xgid in result.output


def test_moves_lists_every_play_numbered() -> None:
    result = runner.invoke(app, ["moves", START_ID, "--roll", "3-1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    matches = [NUMBERED.match(line) for line in lines]
    assert all(matches), lines
    numbers = [int(match.group(1)) for match in matches if match]
    plays = [match.group(2) for match in matches if match]
    assert numbers == list(range(1, 17))
    assert "8/5 6/5" in plays
    assert plays == [str(play) for play in Position.initial().legal_plays((3, 1))]


def test_moves_with_the_short_option_and_a_double() -> None:
    result = runner.invoke(app, ["moves", START_ID, "-r", "66"])
    assert result.exit_code == 0, result.output
    assert len(result.output.splitlines()) == len(Position.initial().legal_plays((6, 6)))
    assert "24/18(2) 13/7(2)" in result.output


def test_moves_when_nothing_can_move() -> None:
    closed = Position.from_points(
        [0, 0, 0, 0, 0, 10, 0, 4, *[0] * 16],
        [2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 3, *[0] * 12],
        player_bar=1,
    )
    result = runner.invoke(app, ["moves", closed.position_id, "--roll", "6-5"])
    assert result.exit_code == 0, result.output
    assert "6-5: no legal play" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["show", "not-an-id"],
        ["show", "4HPwATDgc/ABM"],
        ["show", "XGID=garbage:0:0:1:00:0:0:0:0:10"],
        ["moves", "not-an-id", "--roll", "3-1"],
    ],
)
def test_a_malformed_position_exits_with_code_2_and_names_it(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "error:" in result.stderr
    assert args[1] in result.stderr
    assert result.stdout == ""


def test_a_malformed_roll_exits_with_code_2_and_names_it() -> None:
    result = runner.invoke(app, ["moves", START_ID, "--roll", "7-1"])
    assert result.exit_code == 2
    assert "7-1" in result.stderr


def test_python_dash_m_backgammon_help() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "backgammon", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    for command in ("play", "show", "moves"):
        assert command in completed.stdout


@pytest.mark.parametrize("columns", ["80", "140"])
def test_serve_help_names_every_option_whole_on_a_narrow_terminal(columns: str) -> None:
    """On 80 columns rich's tables cut long option names ('--fibs-login-timeo…');
    under 100 the help is plain text, each name whole and its help wrapped beside."""
    import os

    completed = subprocess.run(
        [sys.executable, "-m", "backgammon", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "COLUMNS": columns},
    )
    assert completed.returncode == 0, completed.stderr
    assert "…" not in completed.stdout
    for option in ("--fibs-login-timeout", "--forwarded-allow-ips", "--open-matches-per-address"):
        assert option in completed.stdout, option
    assert max(len(line) for line in completed.stdout.splitlines()) <= int(columns)


def test_serve_refuses_an_unknown_event_loop_before_starting() -> None:
    result = runner.invoke(app, ["serve", "--loop", "twisted", "--no-build-hypergammon"])
    assert result.exit_code == 2
    assert "--loop must be auto, asyncio or uvloop, not 'twisted'" in result.output
