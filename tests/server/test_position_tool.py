"""The position tool over HTTP: ``POST /api/position`` against a real server process."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from backgammon import Position, Roll
from backgammon.engine.evaluator import Engine

START = Position.from_position_id("4HPwATDgc/ABMA")
FIBS_START = (
    "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:"
    "0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0"
)


@pytest.fixture
def backend() -> str:
    """The tool does not touch the database: SQLite is enough."""
    return "sqlite"


@pytest.fixture
def url(server_factory: Any) -> str:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
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
    assert report["xgid"] == position.xgid
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
        assert report["plays"] == []
        assert report["board"]["pips"] == [167, 167]
        assert report["evaluation"]["probabilities"][0] == pytest.approx(0.5, abs=0.1)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"position": "not an id", "dice": "3-1"}, "position"),
        ({"position": "XGID=-b----E-C---eE---c-e----B-:0:0", "dice": "3-1"}, "position"),
        ({"position": START.position_id, "dice": "7-1"}, "dice"),
        ({"position": START.position_id, "ply": 3}, "ply"),
        ({"dice": "3-1"}, "position"),
        ({"position": START.position_id, "colour": "red"}, "colour"),
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
