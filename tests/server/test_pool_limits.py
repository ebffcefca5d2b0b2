"""Limits on the engine work anyone can ask for over HTTP (issue 33, finding 4), tried
from outside against a real server process: concurrent requests, and bodies too
large (declared, or streamed without a length)."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

import httpx
import pytest

from backgammon.server.web.routes.analysis import MAX_UPLOAD_BYTES

from .test_review import SHORT_MATCH

# Requests in flight together, answered within a time: nothing else runs meanwhile.
pytestmark = pytest.mark.alone

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


@pytest.fixture
def backend() -> str:
    """The limits do not touch the database: SQLite is enough."""
    return "sqlite"


@pytest.fixture
def url(server_factory: Any) -> str:
    # Two tools' workers: a job's check runs in the pool too, and with one worker the
    # second job's check would wait for the first job to end.
    server = server_factory("--no-warm-up", "--no-bots", "--tool-processes", "2")
    return str(server.url)


async def _concurrently(
    url: str, requests: list[tuple[str, dict[str, Any], str | None]]
) -> list[httpx.Response]:
    """Send every (path, body, bearer token) at once; the answers in order."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:

        async def send(path: str, body: dict[str, Any], token: str | None) -> httpx.Response:
            headers = {} if token is None else {"authorization": f"Bearer {token}"}
            return await client.post(path, json=body, headers=headers)

        return await asyncio.gather(*(send(*request) for request in requests))


def _rollout(trials: int = 1296) -> dict[str, Any]:
    return {"position": START_XGID, "trials": trials, "ply": 1}


def _wait_until_finished(url: str, kind: str, job: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if httpx.get(f"{url}/api/{kind}/{job}", timeout=30).json()["state"] != "running":
            return
        time.sleep(0.2)
    raise AssertionError(f"{kind} {job} did not finish")


def test_concurrent_rollouts_pass_the_limits_one_per_user_two_in_all(url: str) -> None:
    """Before the fix the limit was checked before an ``await`` and counted after it,
    so eight rollouts sent at once were all accepted."""
    answers = asyncio.run(_concurrently(url, [("/api/rollout", _rollout(), None)] * 8))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [202] + [429] * 7, [answer.text for answer in answers]
    refusal = next(answer.json() for answer in answers if answer.status_code == 429)
    assert refusal["error"] == "throttled"
    assert "at most 1 rollouts at a time each" in refusal["message"]
    job = next(answer.json()["id"] for answer in answers if answer.status_code == 202)
    assert httpx.delete(f"{url}/api/rollout/{job}", timeout=30).status_code == 200
    _wait_until_finished(url, "rollout", job)

    # Three users at once: two rollouts in all, whoever comes first.
    tokens = [httpx.post(f"{url}/api/guest", timeout=30).json()["token"] for _ in range(3)]
    answers = asyncio.run(
        _concurrently(url, [("/api/rollout", _rollout(), token) for token in tokens])
    )
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [202, 202, 429], [answer.text for answer in answers]
    refused = next(answer.json() for answer in answers if answer.status_code == 429)
    assert "the server is busy (2 rollouts at a time)" in refused["message"]
    for answer in answers:
        if answer.status_code == 202:
            httpx.delete(f"{url}/api/rollout/{answer.json()['id']}", timeout=30)


def test_concurrent_analyses_pass_the_limit_of_two_per_user(url: str) -> None:
    """Six different files at once from one address: two analyses start (before the
    fix, all six did: the check read a count that the first ``await`` kept stale)."""
    files = [{"text": SHORT_MATCH + "\n" * k, "ply": 2} for k in range(6)]
    answers = asyncio.run(_concurrently(url, [("/api/analysis", body, None) for body in files]))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [202, 202] + [429] * 4, [answer.text for answer in answers]
    assert all(
        "at most 2 analyses at a time each" in answer.json()["message"]
        for answer in answers
        if answer.status_code == 429
    )


def test_concurrent_position_requests_are_limited_too(url: str) -> None:
    """``POST /api/position`` had no limit at all: ten 2-ply requests at once from
    one address were all computed. Now at most two are in flight per user."""
    body = {"position": START_XGID, "dice": "3-1", "ply": 2}
    answers = asyncio.run(_concurrently(url, [("/api/position", body, None)] * 10))
    statuses = [answer.status_code for answer in answers]
    assert statuses.count(200) >= 1 and statuses.count(429) >= 1, statuses
    assert set(statuses) == {200, 429}
    refusal = next(answer.json() for answer in answers if answer.status_code == 429)
    assert "at most 2 position evaluations at a time each" in refusal["message"]
    # Once they are answered, the user may ask again.
    again = httpx.post(f"{url}/api/position", json=body, timeout=120)
    assert again.status_code == 200, again.text


def _raw_request(url: str, head: str, body: bytes = b"", wait: float = 30.0) -> bytes:
    """Send ``head`` and ``body`` on a fresh connection (never finishing a chunked
    body), and read what comes back until the server closes or ``wait`` passes."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=wait) as sock:
        sock.sendall(head.encode("latin-1") + body)
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except TimeoutError:
            pass
    return answer


def test_a_body_over_its_declared_cap_is_refused_before_it_is_read(url: str) -> None:
    """A 5 MB Content-Length to the upload route: answered 413 at once, with no body
    sent at all (before the fix the server waited to read all of it)."""
    head = (
        "POST /api/analysis HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Content-Length: 5000000\r\n\r\n"
    )
    answer = _raw_request(url, head)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b'"error":"too_large"' in answer.replace(b" ", b"")
    assert f"at most {MAX_UPLOAD_BYTES} bytes".encode() in answer


def test_a_chunked_body_is_counted_as_it_streams_and_cut_off_at_the_cap(url: str) -> None:
    """No Content-Length, 40 KiB of chunks to a route capped at 16 KiB, and the body
    never ended: the 413 comes anyway (before the fix the server waited for the
    end of the body)."""
    head = (
        "POST /api/position HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 4096
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(10))
    answer = _raw_request(url, head, body)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"at most 16384 bytes" in answer
    # The server goes on serving.
    ok = httpx.post(f"{url}/api/position", json={"position": START_XGID}, timeout=120)
    assert ok.status_code == 200, ok.text
