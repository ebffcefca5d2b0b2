"""``backgammon explain``: the JSON form's keys and names, and bad input as a one-line
error with exit code 2."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from backgammon.analysis.explain import PLAN_NAMES, THEME_IDS
from backgammon.apps.cli import app

START = "4HPwATDgc/ABMA"
START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


def test_explain_json() -> None:
    args = ["explain", START, "--roll", "3-1", "--play", "24/21 6/5", "--against", "8/5 6/5"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"plans", "themes", "text"} <= set(data)
    for moment in ("before", "after"):
        assert set(data["plans"][moment]) == {"player", "opponent"}
        assert set(data["plans"][moment].values()) <= set(PLAN_NAMES)
    ids = [theme["id"] for theme in data["themes"]]
    assert ids and set(ids) <= set(THEME_IDS)
    for theme in data["themes"]:
        assert {"id", "played", "best", "says"} <= set(theme) and theme["says"]
    shots = next(theme for theme in data["themes"] if theme["id"] == "shots")
    assert shots["played"]["hitting_rolls"] == 36 and shots["best"]["hitting_rolls"] == 0
    blot = shots["played"]["blots"][0]
    assert {"point", "direct", "indirect", "shots"} <= set(blot)
    assert data["text"].startswith("8/5 6/5 is better than 24/21 6/5")


def test_the_better_of_two_plays_typed_is_the_engines_not_the_order_typed() -> None:
    """--play the better, --against the worse: the text said the --against play was
    better, whatever the plays were. Now the engine says which, and by how much; the
    JSON keeps --play as ``played`` (the names outside checks read)."""
    args = ["explain", START, "--roll", "3-1", "--play", "8/5 6/5", "--against", "24/21 6/5"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["text"].startswith("8/5 6/5 is better than 24/21 6/5 by 0.")
    shots = next(theme for theme in data["themes"] if theme["id"] == "shots")
    assert shots["played"]["hitting_rolls"] == 0 and shots["best"]["hitting_rolls"] == 36
    assert "The measures favour" not in data["text"]


def test_explain_against_the_engine_in_words() -> None:
    result = CliRunner().invoke(app, ["explain", START_XGID, "--roll", "6-4", "--play", "24/14"])
    assert result.exit_code == 0, result.output
    assert "is better than 24/14" in result.output


@pytest.mark.parametrize(
    ("args", "names"),
    [
        ([START, "--roll", "3-1", "--play", "24/20 6/5"], "--play"),
        ([START, "--roll", "3-1", "--play", "8/5 6/5", "--against", "x"], "--against"),
        ([START, "--roll", "3-7", "--play", "8/5 6/5"], "roll '3-7'"),
        ([START, "--roll", "three", "--play", "8/5 6/5"], "roll 'three'"),
        (["4HPwATDgc/AB", "--roll", "3-1", "--play", "8/5 6/5"], "position '4HPwATDgc/AB'"),
    ],
)
def test_bad_input_is_one_line(args: list[str], names: str) -> None:
    result = CliRunner().invoke(app, ["explain", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and names in lines[0]
