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
    # The cube decision rolled out: the same as the engine's cubeful rollout.
    from backgammon import Position
    from backgammon.engine import Engine
    from backgammon.engine.rollout import RolloutSettings, cubeful_rollout

    cubeful = run("rollout", START, "--trials", "36", "--truncation", "4", "--cubeful", "--json")
    expected = cubeful_rollout(
        Engine().evaluate_boards,
        Position.from_position_id(START),
        settings=RolloutSettings(trials=36, seed=1, truncation=4),
    )
    assert cubeful["no_double"] == expected.no_double
    assert cubeful["double_take"] == expected.double_take
    assert expected.decision is not None and cubeful["action"] == expected.decision.action.value


def test_bad_input_exits_with_an_error() -> None:
    result = CliRunner().invoke(app, ["hint", "not-an-id", "--roll", "3-1"])
    assert result.exit_code == 2
    result = CliRunner().invoke(app, ["hint", START, "--roll", "7-1"])
    assert result.exit_code == 2


def test_cube_hint_and_eval_search_cubefully() -> None:
    """At ply > 0 the cube command, ``hint --cubeful`` and ``eval --cubeful`` carry the
    cube through the search, with an XGID's own cube and score."""
    import numpy as np

    from backgammon import Position
    from backgammon.engine import Engine
    from backgammon.engine.cubeful import (
        cube_context_from_xgid,
        cube_decision_at,
        cubeful_play_values,
        cubeful_values,
    )

    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"  # 2-cube, ours, 4-6 away
    position = Position.from_xgid(xgid)
    context = cube_context_from_xgid(xgid)
    assert context.away == (4, 6) and context.cube == 2
    engine = Engine()
    board = position.to_array()

    decision = run("cube", xgid, "--ply", "1", "--json")
    expected = cube_decision_at(engine.evaluate_boards, board, 1, context, engine.pruning)
    assert decision["no_double"] == expected.no_double
    assert decision["double_take"] == expected.double_take
    assert decision["action"] == expected.action.value

    evaluation = run("eval", xgid, "--ply", "1", "--cubeful", "--json")
    value = cubeful_values(engine.evaluate_boards, board[None, :], 1, [context], engine.pruning)
    assert evaluation["cubeful_equity"] == context.normalised(float(value[0, 0]))

    hint = run("hint", xgid, "--roll", "6-4", "--ply", "1", "--cubeful", "--json", "--top", "3")
    plays = hint["plays"]
    assert isinstance(plays, list) and len(plays) == 3
    equities = [row["equity"] for row in plays]
    assert equities == sorted(equities, reverse=True)
    best = next(p for p in position.legal_plays((6, 4)) if p.notation() == plays[0]["play"])
    mine = cubeful_play_values(
        engine.evaluate_boards,
        best.position.flip().to_array()[None, :],
        1,
        context,
        engine.pruning,
    )
    assert plays[0]["equity"] == round(context.normalised(float(mine[0])), 4)
    assert np.isfinite(equities).all()


def test_variants_search_with_their_own_plays_and_the_cubeful_search_says_where_it_stops() -> None:
    egyptian = run("hint", START, "--roll", "3-1", "--ply", "1", "--variant", "egyptian", "--json")
    assert egyptian["ply"] == 1
    result = CliRunner().invoke(app, ["cube", START, "--variant", "egyptian", "--ply", "1"])
    assert result.exit_code == 2
    assert "follows standard movement; egyptian is valued cubefully at --ply 0 only" in (
        result.output
    )
    result = CliRunner().invoke(app, ["eval", START, "--variant", "russian", "--ply", "1"])
    assert result.exit_code == 2
    assert "does not follow russian's turns" in result.output


def test_cube_says_why_in_the_analysis_terms() -> None:
    """`cube` explains its action as the analysis does (issue 56): the doubling window,
    the taker's chances against its take point (three-to-one, moved by the gammons)
    and the market; the JSON carries the same explanation, its take point recomputed
    here from the printed chances."""
    from backgammon.analysis.explain.cube import take_point

    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:7:10"
    decision = run("cube", xgid, "--json")
    why = decision["explanation"]
    assert isinstance(why, dict) and why["kind"] == "cube"
    assert why["action"] == decision["action"]
    assert [theme["id"] for theme in why["themes"]] == [
        "chances",
        "gammons",
        "take-point",
        "market",
    ]
    assert isinstance(decision["probabilities"], list)
    assert why["take_point"] == round(take_point(decision["probabilities"]), 4)
    assert 0 <= why["market"] <= 36
    text = CliRunner().invoke(app, ["cube", xgid]).output
    line = next(line for line in text.splitlines() if line.startswith("Why: "))
    assert "take point" in line and "three-to-one" in line and "doubling window" in line
    assert not line.startswith("Why: Right:")  # the action is on the line above
    hyper = CliRunner().invoke(app, ["cube", "AACgAgAAKgAAAA", "--variant", "hypergammon"])
    assert hyper.exit_code == 0 and "Why:" not in hyper.output, hyper.output  # no measures
