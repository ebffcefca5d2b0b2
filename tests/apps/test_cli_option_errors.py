"""Bad options are one line naming what is wrong, before any work (issue 54): the cube
command's --match-length, --away and --owner, and every --ply."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from backgammon.apps.cli import app

runner = CliRunner()
START = "4HPwATDgc/ABMA"
MATCH = "tests/data/reference/formats/match01_3pt.mat"


def _flat(output: str) -> str:
    """The output with rich's error box unwrapped into one line."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", output).split())


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--away", "3"], "Invalid value for --away: needs --match-length"),
        (["--away", "2,2"], "Invalid value for --away: needs --match-length"),
        (["--match-length", "3", "--away", "5,1"], "each side needs 1 to 3 points"),
        (["--match-length", "3", "--away", "3"], "'mine,theirs'"),
        (["--match-length", "3", "--away", "a,b"], "'mine,theirs'"),
        (["--match-length", "-1"], "Invalid value for --match-length: a length >= 0"),
        (["--owner", "me"], "'me' is not one of centred, player, opponent"),
        (["--ply", "-1"], "Invalid value for '--ply'"),
    ],
)
def test_the_cube_command_refuses_bad_options(arguments: list[str], words: str) -> None:
    result = runner.invoke(app, ["cube", START, *arguments])
    assert result.exit_code == 2, result.output
    assert words in _flat(result.output), result.output


def test_a_match_length_alone_is_the_start_of_the_match() -> None:
    result = runner.invoke(app, ["cube", START, "--match-length", "3", "--json"])
    assert result.exit_code == 0, result.output
    assert '"action": "no double"' in result.output


@pytest.mark.parametrize(
    "command",
    [
        ["eval", START, "--ply", "-1"],
        ["hint", START, "--roll", "3-1", "--ply", "9"],
        ["analyze", MATCH, "--ply", "-2"],
    ],
)
def test_a_lookahead_out_of_range_is_refused(command: list[str]) -> None:
    result = runner.invoke(app, command)
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--ply'" in _flat(result.output), result.output
