"""The position tool over HTTP: ``POST /api/position`` against a real server process."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from backgammon import Position, Roll
from backgammon.engine.cube import CubeOwner, cube_efficiency, match_cube_decision
from backgammon.engine.cubeful import cube_context_from_xgid, cube_decision_at
from backgammon.engine.evaluator import Engine
from backgammon.engine.met import kazaross_xg2
from backgammon.engine.rollout import RolloutSettings, rollout

START = Position.from_position_id("4HPwATDgc/ABMA")
FIBS_START = (
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:"
    "0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)


@pytest.fixture(scope="module")
def url(module_server_factory: Any) -> str:
    """One server for the module: the tool does not touch the database (SQLite
    is enough), and each test waits for the jobs it starts."""
    server = module_server_factory("--no-warm-up", "--bot-processes", "1")
    return str(server.url)


def test_an_xgid_with_dice_gives_the_engines_ranked_plays(url: str) -> None:
    position = Position.from_position_id("4PPgASTgc/ABMA")  # after an opening 5-2 split
    answer = httpx.post(
        f"{url}/api/position",
        json={"position": position.xgid, "dice": "6-4", "ply": 0},
        timeout=120,
    )
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["position_id"] == position.position_id
    assert report["xgid"] == position.xgid.replace(":1:00:", ":1:64:")  # with the dice
    assert report["dice_from"] == "field"
    assert report["cube"] is None  # dice to play: no cube decision
    assert report["dice"] == [6, 4]
    ranked = Engine().rank_plays(position, Roll(6, 4))
    assert [play["play"] for play in report["plays"]] == [
        item.play.notation() for item in ranked[:10]
    ]
    assert report["plays"][0]["equity"] == pytest.approx(ranked[0].equity, abs=1e-4)
    assert report["plays"][0]["difference"] == 0
    equities = [play["equity"] for play in report["plays"]]
    assert equities == sorted(equities, reverse=True)
    evaluation = report["evaluation"]
    assert len(evaluation["probabilities"]) == 5
    assert -3 <= evaluation["equity"] <= 3


def test_without_dice_only_the_evaluation_and_the_other_notations(url: str) -> None:
    for text in (START.position_id, START.xgid, FIBS_START):
        answer = httpx.post(f"{url}/api/position", json={"position": text}, timeout=120)
        assert answer.status_code == 200, answer.text
        report = answer.json()
        assert report["position_id"] == START.position_id
        # The FIBS board carries its player's roll, 6-2: its plays are ranked.
        assert (report["plays"] == []) == (text != FIBS_START)
        assert report["board"]["pips"] == [167, 167]
        assert report["evaluation"]["probabilities"][0] == pytest.approx(0.5, abs=0.1)
        # Where the figures come from: the network, with nothing exact to point to.
        assert report["source"] == {"exact": False, "label": "estimate", "note": None}


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"position": "not an id", "dice": "3-1"}, "position"),
        ({"position": "XGID=-b----E-C---eE---c-e----B-:0:0", "dice": "3-1"}, "position"),
        ({"position": START.position_id, "dice": "7-1"}, "dice"),
        ({"position": START.position_id, "ply": 3}, "ply"),
        ({"dice": "3-1"}, "position"),
        ({"position": START.position_id, "colour": "red"}, "colour"),
        # Sixteen checkers on X's 6 point.
        ({"position": "XGID=-b----P-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"}, "position"),
    ],
)
def test_bad_input_is_a_400_naming_the_problem(url: str, body: dict[str, Any], named: str) -> None:
    answer = httpx.post(f"{url}/api/position", json=body, timeout=30)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == "bad_request"
    assert answer.json()["message"].startswith(f"{named}:"), answer.json()


def test_a_body_that_is_not_json_is_a_400(url: str) -> None:
    answer = httpx.post(
        f"{url}/api/position",
        content=b"{position",
        headers={"content-type": "application/json"},
        timeout=30,
    )
    assert answer.status_code == 400
    assert "not JSON" in answer.json()["message"]


# The starting position, O (the top player) on roll holding a cube of 2, 7-point match,
# X 2, O 3: O needs 4 and X 5.
MATCH_XGID = "XGID=-b----E-C---eE---c-e----B-:1:-1:-1:00:2:3:0:7:10"


def test_an_xgids_cube_and_score_give_the_cube_decision(url: str) -> None:
    answer = httpx.post(f"{url}/api/position", json={"position": MATCH_XGID}, timeout=120)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    context = report["context"]
    assert context["source"] == "xgid"
    assert context["on_roll"].startswith("O")
    assert (context["cube"], context["owner"]) == (2, "player")
    assert (context["length"], context["score"]) == (7, [3, 2])
    assert report["dice"] is None and report["plays"] == []
    assert report["xgid"] == MATCH_XGID
    cube = report["cube"]
    probabilities = Engine().evaluate_at(START, 0).probabilities
    decision = match_cube_decision(
        probabilities,
        kazaross_xg2(),
        (4, 5),
        cube=2,
        owner=CubeOwner.PLAYER,
        efficiency=cube_efficiency(START),
    )
    assert cube["available"] is True and cube["kind"] == "match"
    assert cube["action"] == decision.action.value
    assert cube["no_double"] == pytest.approx(decision.no_double, abs=1e-4)
    assert cube["double_take"] == pytest.approx(decision.double_take, abs=1e-4)
    assert cube["double_pass"] == pytest.approx(decision.double_pass, abs=1e-4)
    # Deeper, the cube is carried through the search (the engine's cubeful search).
    deeper = httpx.post(
        f"{url}/api/position", json={"position": MATCH_XGID, "ply": 1}, timeout=120
    ).json()["cube"]
    engine = Engine()
    searched = cube_decision_at(
        engine.evaluate_boards,
        START.to_array(),
        1,
        cube_context_from_xgid(MATCH_XGID),
        engine.pruning,
    )
    assert deeper["ply"] == 1 and deeper["action"] == searched.action.value
    assert deeper["no_double"] == pytest.approx(searched.no_double, abs=1e-4)
    assert deeper["double_take"] == pytest.approx(searched.double_take, abs=1e-4)


def test_no_cube_decision_when_the_side_on_roll_cannot_double(url: str) -> None:
    owned = MATCH_XGID.replace(":1:-1:-1:", ":1:1:-1:")  # X, not on roll, owns the cube
    crawford = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:6:3:1:7:10"
    for text, reason in ((owned, "opponent owns"), (crawford, "Crawford")):
        answer = httpx.post(f"{url}/api/position", json={"position": text}, timeout=120)
        assert answer.status_code == 200, answer.text
        cube = answer.json()["cube"]
        assert cube["available"] is False
        assert reason in cube["reason"]


def test_the_texts_own_dice_unless_the_field_overrides_them(url: str) -> None:
    with_dice = START.xgid.replace(":1:00:", ":1:31:")
    report = httpx.post(f"{url}/api/position", json={"position": with_dice}, timeout=120).json()
    assert report["dice"] == [3, 1] and report["dice_from"] == "text"
    assert report["plays"][0]["play"] == "8/5 6/5"
    assert report["xgid"] == with_dice
    report = httpx.post(
        f"{url}/api/position", json={"position": with_dice, "dice": "6-5"}, timeout=120
    ).json()
    assert report["dice"] == [6, 5] and report["dice_from"] == "field"
    assert report["plays"][0]["play"] == "24/13"
    # "none" in the dice field: no dice, whatever the text says (issue 35, item 10).
    for none in ("none", "No dice", "-"):
        report = httpx.post(
            f"{url}/api/position", json={"position": with_dice, "dice": none}, timeout=120
        ).json()
        assert report["dice"] is None and report["dice_from"] is None, report
        assert report["plays"] == [] and report["xgid"] == START.xgid
    # A FIBS board: its player is on roll with 6-2 in a 3-point match.
    report = httpx.post(f"{url}/api/position", json={"position": FIBS_START}, timeout=120).json()
    assert report["dice"] == [6, 2]
    assert report["context"]["on_roll"] == "You"
    assert report["context"]["length"] == 3
    assert report["xgid"].endswith(":1:62:0:0:0:3:10")


def _poll(url: str, job: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    for _ in range(600):
        status: dict[str, Any] = httpx.get(f"{url}/api/rollout/{job}", timeout=30).json()
        seen.append(status)
        if status["state"] != "running":
            return status
        time.sleep(0.1)
    raise AssertionError("the rollout did not finish")


def test_a_rollout_reports_progress_and_ends_with_the_engines_figures(url: str) -> None:
    answer = httpx.post(
        f"{url}/api/rollout", json={"position": START.position_id, "trials": 48}, timeout=120
    )
    assert answer.status_code == 202, answer.text
    assert answer.json()["total"] == 48
    seen: list[dict[str, Any]] = []
    status = _poll(url, answer.json()["id"], seen)
    assert status["state"] == "done", status
    assert status["done"] == status["total"] == 48
    running = [s for s in seen if s["state"] == "running" and s["result"] is not None]
    assert any(0 < s["done"] < 48 for s in running)  # progress while it ran
    assert all(s["result"]["lines"][0]["trials"] == s["done"] for s in running)
    (line,) = status["result"]["lines"]
    expected = rollout(Engine().evaluate_boards, START, RolloutSettings(trials=48))
    assert line["play"] is None and line["trials"] == 48
    assert line["equity"] == pytest.approx(expected.equity, abs=1e-4)
    assert line["standard_error"] == pytest.approx(expected.standard_error, abs=1e-4)
    assert line["probabilities"] == pytest.approx(expected.probabilities, abs=1e-4)


def test_a_rollout_with_dice_rolls_out_the_best_plays_and_can_be_cancelled(url: str) -> None:
    answer = httpx.post(
        f"{url}/api/rollout",
        json={"position": START.xgid, "dice": "3-1", "trials": 432},  # 1,296 in all
        timeout=120,
    )
    assert answer.status_code == 202, answer.text
    job = answer.json()["id"]
    assert answer.json()["total"] == 3 * 432
    for _ in range(300):
        status = httpx.get(f"{url}/api/rollout/{job}", timeout=30).json()
        if status["done"] >= 36:
            break
        time.sleep(0.1)
    assert httpx.delete(f"{url}/api/rollout/{job}", timeout=30).json() == {"ok": True}
    status = _poll(url, job, [])
    assert status["state"] == "cancelled"
    assert 0 < status["done"] < status["total"]
    lines = status["result"]["lines"]
    ranked = Engine().rank_plays(START, Roll(3, 1))
    assert [line["play"] for line in lines] == [item.play.notation() for item in ranked[:3]]
    assert all(line["standard_error"] is not None for line in lines)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"position": START.position_id, "trials": 1297}, "trials"),
        ({"position": START.position_id, "trials": 0}, "trials"),
        ({"position": "nonsense", "trials": 36}, "position"),
        ({"position": START.position_id, "dice": "0-1"}, "dice"),
    ],
)
def test_a_bad_rollout_is_a_400_naming_the_problem(
    url: str, body: dict[str, Any], named: str
) -> None:
    answer = httpx.post(f"{url}/api/rollout", json=body, timeout=30)
    assert answer.status_code == 400, answer.text
    assert answer.json()["message"].startswith(f"{named}:"), answer.json()


def test_an_unknown_rollout_is_a_404(url: str) -> None:
    assert httpx.get(f"{url}/api/rollout/nothing", timeout=30).status_code == 404
    assert httpx.delete(f"{url}/api/rollout/nothing", timeout=30).status_code == 404
