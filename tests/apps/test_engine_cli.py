"""The engine's commands: hint, eval, cube, rollout (with --json)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from backgammon.apps.cli import app

START = "4HPwATDgc/ABMA"


def run(*args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_hint_ranks_every_play_best_first() -> None:
    data = run("hint", START, "--roll", "3-1", "--json", "--top", "20")
    plays = data["plays"]
    assert isinstance(plays, list) and len(plays) == 16
    equities = [row["equity"] for row in plays]
    assert equities == sorted(equities, reverse=True)
    assert plays[0]["difference"] == 0.0
    one_ply = run("hint", START, "--roll", "3-1", "--ply", "1", "--json")
    assert one_ply["ply"] == 1


def test_eval_cube_and_rollout() -> None:
    evaluation = run("eval", START, "--json")
    assert evaluation["class"] == "contact"
    probabilities = evaluation["probabilities"]
    assert isinstance(probabilities, list) and len(probabilities) == 5
    decision = run("cube", START, "--json")
    assert decision["action"] in (
        "no double",
        "double, take",
        "double, pass",
        "too good to double, pass",
    )
    assert decision["double_pass"] == 1.0
    rolled = run("rollout", START, "--trials", "36", "--truncation", "4", "--json")
    assert rolled["trials"] == 36
    assert isinstance(rolled["standard_error"], float)


def test_bad_input_exits_with_an_error() -> None:
    result = CliRunner().invoke(app, ["hint", "not-an-id", "--roll", "3-1"])
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["hint", START, "--roll", "7-1"])
    assert result.exit_code == 2
