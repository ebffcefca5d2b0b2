"""Analysis of uploaded match files over HTTP: ``POST /api/analysis`` and polling
``GET /api/analysis/{id}`` against a real server process."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

# Two blunders by the engine's measure: Alice's bar/23 6/5, Bob's 13/7(2) 8/2*(2).
SHORT_MATCH = """ 3 point match

 Game 1
 Alice : 0                            Bob : 0
  1)                                 31: 8/5 6/5
  2) 64: 24/14                       52: 13/8 13/11*
  3) 21: 25/23 6/5                   66: 13/7 13/7 8/2 8/2
"""


@pytest.fixture
def backend() -> str:
    """The analysis does not touch the database: SQLite is enough."""
    return "sqlite"


@pytest.fixture
def url(server_factory: Any) -> str:
    server = server_factory("--no-warm-up", "--bot-processes", "1")
    return str(server.url)


def _wait(url: str, job: str, timeout: float = 120.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status: dict[str, Any] = httpx.get(f"{url}/api/analysis/{job}", timeout=30).json()
        assert 0 <= status["done"] <= status["total"]
        if status["state"] != "running":
            return status
        time.sleep(0.2)
    raise AssertionError(f"the analysis did not finish in {timeout} s")


def test_an_uploaded_mat_file_is_analysed_with_progress(url: str) -> None:
    answer = httpx.post(
        f"{url}/api/analysis", json={"text": SHORT_MATCH, "name": "short.mat"}, timeout=60
    )
    assert answer.status_code == 202, answer.text
    started = answer.json()
    assert started["total"] > 0 and started["done"] == 0
    status = _wait(url, started["id"])
    assert status["state"] == "done", status
    assert status["done"] == status["total"] == started["total"]
    result = status["result"]
    assert [player["name"] for player in result["players"]] == ["Alice", "Bob"]
    for player in result["players"]:
        assert player["error_rate"] >= 0 and player["pr"] >= 0
        assert isinstance(player["luck_rate"], float)
    plays = [error for error in result["errors"] if error["kind"] == "checker"]
    assert {(error["player"], error["move"]) for error in plays} >= {("Alice", 4), ("Bob", 5)}
    moves = [(error["game"], error["move"]) for error in result["errors"]]
    assert moves == sorted(moves)
    # Each error carries the board before it, seen from the player who erred, and a
    # checker error its dice and both plays as single-die steps in that numbering.
    alice = next(error for error in plays if error["player"] == "Alice")
    assert alice["board"]["player"][25] == 1 and sum(alice["board"]["player"]) == 15
    assert sum(alice["board"]["opponent"]) == 15 and len(alice["board"]["opponent"]) == 26
    assert alice["dice"] == [2, 1]
    assert alice["played"] == [[25, 23], [6, 5]]
    assert alice["best"] and alice["best"][0][0] == 25 and alice["best"] != alice["played"]
    assert alice["cube"] == {"value": 1, "owner": None}
    for error in result["errors"]:
        assert len(error["board"]["player"]) == 26
        assert ("played" in error) == (error["kind"] == "checker")


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"text": SHORT_MATCH.replace("25/23 6/5", "6/4 6/5"), "name": "x.mat"}, "text"),
        ({"text": "no match here", "name": "x.txt"}, "text"),
        ({"text": ""}, "text"),
        ({"name": "x.mat"}, "text"),
    ],
)
def test_bad_uploads_are_a_400_naming_the_problem(
    url: str, body: dict[str, Any], named: str
) -> None:
    answer = httpx.post(f"{url}/api/analysis", json=body, timeout=60)
    assert answer.status_code == 400, answer.text
    assert answer.json()["message"].startswith(f"{named}:"), answer.json()


def test_too_large_and_unknown_jobs(url: str) -> None:
    big = {"text": "x" * 1_200_000, "name": "big.mat"}
    assert httpx.post(f"{url}/api/analysis", json=big, timeout=60).status_code == 413
    assert httpx.get(f"{url}/api/analysis/nope", timeout=30).status_code == 404
