"""Heavy jobs against everyone else (issue 50, "every heavy job counted against its
owner"), driven over HTTP against a real server process: a stranger's long rollout or
analysis must not hold up anyone's position tool or upload, an analysis too costly is
refused before any work, and only who started a job may cancel it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .test_review import SHORT_MATCH
from .test_tool_attacks import START_XGID, healthy

# Each test measures how long a request waits behind others' work: nothing else runs meanwhile.
pytestmark = pytest.mark.alone

SAMPLE = Path(__file__).parents[1] / "data" / "xg" / "gammonview" / "B4_SrGcsKAQmoTyHlgJCbM.mat"
PASSWORD = "a long enough password"
QUICK = 10.0
"""The longest a quick request may take while a long job runs (seconds; before the
fix, minutes)."""


@pytest.fixture
def backend() -> str:
    """The tools do not touch the database: SQLite is enough."""
    return "sqlite"


def repeated_game(games: int) -> str:
    """A money session of the sample's first game played ``games`` times (42 actions
    each), as the tester's 984 KB upload was the same game repeated."""
    head, _, rest = SAMPLE.read_text().partition(" Game 1\n")
    body = rest.split("\n Game ")[0].rstrip("\n").split("\n", 1)[1] + "\n\n"
    return head + "".join(
        f" Game {k}\n Fox : {k - 1}   Bluepoint02 : 0\n{body}" for k in range(1, games + 1)
    )


@pytest.fixture
def server(server_factory: Any) -> Iterator[Any]:
    server = server_factory("--no-warm-up", "--no-bots")
    yield server


def _clients(url: str) -> tuple[httpx.Client, httpx.Client, httpx.Client]:
    """An anonymous stranger, a registered user, and a guest (each their own owner)."""
    anonymous = httpx.Client(base_url=url, timeout=60)
    made = httpx.post(f"{url}/api/register", json={"name": "alice", "password": PASSWORD})
    assert made.status_code == 201, made.text
    user = httpx.Client(
        base_url=url, timeout=60, headers={"authorization": f"Bearer {made.json()['token']}"}
    )
    guest_token = httpx.post(f"{url}/api/guest", timeout=30).json()["token"]
    guest = httpx.Client(
        base_url=url, timeout=60, headers={"authorization": f"Bearer {guest_token}"}
    )
    return anonymous, user, guest


def _quick_position(client: httpx.Client, timeout: float = QUICK) -> float:
    """Ask a position (a play at 0 ply); how long the answer took (it must be a 200;
    infinite past ``timeout``)."""
    started = time.monotonic()
    try:
        answer = client.post(
            "/api/position", json={"position": START_XGID, "dice": "3-1", "ply": 0}, timeout=timeout
        )
    except httpx.TimeoutException:
        return float("inf")
    assert answer.status_code == 200, answer.text
    return time.monotonic() - started


def _wait_for_state(client: httpx.Client, kind: str, job: str, states: set[str]) -> dict[str, Any]:
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        status: dict[str, Any] = client.get(f"/api/{kind}/{job}").json()
        if status["state"] in states:
            return status
        time.sleep(0.2)
    raise AssertionError(f"{kind} {job} never reached {states}: {status}")


def _wait_until_working(client: httpx.Client, kind: str, job: str) -> None:
    """Until the job has done some work (so that it holds a worker)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if client.get(f"/api/{kind}/{job}").json()["done"] > 0:
            return
        time.sleep(0.2)
    raise AssertionError(f"{kind} {job} did no work in three minutes")


def test_a_position_is_answered_at_once_while_a_strangers_long_rollout_runs(
    server: Any,
) -> None:
    """Before the fix the rollout (1,296 trials, minutes) held the only tools' worker
    and the registered user's position waited until it ended."""
    anonymous, user, guest = _clients(server.url)
    with anonymous, user, guest, healthy(server.url):
        # The quick worker's first use starts it (and may compile the kernels).
        assert _quick_position(user, timeout=180) < 180
        started = anonymous.post(
            "/api/rollout", json={"position": START_XGID, "trials": 1296, "ply": 0}
        )
        assert started.status_code == 202, started.text
        job = started.json()["id"]
        _wait_until_working(anonymous, "rollout", job)
        took = _quick_position(user)
        assert took < QUICK, f"a position took {took:.1f} s behind a stranger's rollout"
        assert anonymous.delete(f"/api/rollout/{job}").status_code == 200
        _wait_for_state(anonymous, "rollout", job, {"cancelled", "done"})


def test_a_position_and_an_upload_are_answered_while_a_strangers_long_analysis_runs(
    server: Any,
) -> None:
    """Before the fix the analysis held the only tools' worker: the position tool and
    another upload's check waited behind it (the tester waited 90 s, then gave up)."""
    anonymous, user, guest = _clients(server.url)
    with anonymous, user, guest, healthy(server.url):
        assert _quick_position(user, timeout=180) < 180
        started = anonymous.post(
            "/api/analysis", json={"text": repeated_game(100), "name": "x.mat", "ply": 2}
        )
        assert started.status_code == 202, started.text
        job = started.json()["id"]
        assert started.json()["total"] == 4200
        _wait_until_working(anonymous, "analysis", job)
        took = _quick_position(user)
        assert took < QUICK, f"a position took {took:.1f} s behind a stranger's analysis"
        before = time.monotonic()
        upload = user.post("/api/analysis", json={"text": SHORT_MATCH, "ply": 0}, timeout=QUICK)
        assert upload.status_code == 202, upload.text
        assert time.monotonic() - before < QUICK
        assert anonymous.delete(f"/api/analysis/{job}").status_code == 200
        _wait_for_state(anonymous, "analysis", job, {"cancelled"})


def test_an_analysis_over_the_cost_limit_is_refused_at_once_naming_it(server: Any) -> None:
    """The tester's upload (the same game 320 times, 13,440 actions here) at 2 plies
    ran for ten minutes; now it is refused before any analysis, naming the limit and
    the file's size; at 0 ply the same file is within the limit."""
    text = repeated_game(320)
    with healthy(server.url), httpx.Client(base_url=server.url, timeout=60) as client:
        started = time.monotonic()
        answer = client.post("/api/analysis", json={"text": text, "name": "x.mat", "ply": 2})
        assert answer.status_code == 400, answer.text
        assert time.monotonic() - started < QUICK
        message = answer.json()["message"]
        assert "13,440 actions" in message, message
        assert "at most 6,250 at 2 plies" in message, message
        # A rollout's trials are bounded in all too: 1,296 for each of 3 plays is refused.
        rollout = client.post(
            "/api/rollout",
            json={"position": START_XGID, "dice": "3-1", "trials": 1296, "ply": 0},
        )
        assert rollout.status_code == 400, rollout.text
        assert "over the limit of 1296" in rollout.json()["message"]
        assert "at most 432 each" in rollout.json()["message"]


def test_only_who_started_a_rollout_or_an_analysis_may_cancel_it(server: Any) -> None:
    """Before the fix anyone who knew a rollout's id could cancel it, and an analysis
    could not be cancelled at all (no ``DELETE /api/analysis/{id}``)."""
    anonymous, user, guest = _clients(server.url)
    starts = [
        ("rollout", user, {"position": START_XGID, "trials": 1296}),
        ("analysis", anonymous, {"text": repeated_game(100), "name": "x.mat", "ply": 2}),
    ]
    with anonymous, user, guest:
        for kind, owner, body in starts:
            started = owner.post(f"/api/{kind}", json=body)
            assert started.status_code == 202, started.text
            job = started.json()["id"]
            strangers = [client for client in (anonymous, user, guest) if client is not owner]
            for stranger in strangers:
                refused = stranger.delete(f"/api/{kind}/{job}")
                assert refused.status_code == 403, (kind, refused.text)
                assert refused.json()["error"] == "forbidden"
            assert owner.delete(f"/api/{kind}/nosuchjob").status_code == 404
            assert owner.get(f"/api/{kind}/{job}").json()["state"] == "running"
            assert owner.delete(f"/api/{kind}/{job}").status_code == 200
            _wait_for_state(owner, kind, job, {"cancelled"})
