"""Reads under attack (issue 50): anonymous downloads of finished matches and polls
of a finished analysis, each many times over, against a real server process, while
``/healthz`` must answer within a second."""

from __future__ import annotations

import asyncio
import re
import time
from typing import Any

import httpx
import pytest

from backgammon.server.client import ServerClient

from .test_tool_attacks import healthy

# Each test measures the server's latency during an attack: nothing else runs meanwhile.
pytestmark = pytest.mark.alone

PASSWORD = "a long enough password"
SAMPLE = "tests/data/xg/gammonview/C07OQCKyw4Pe-CnjFiAMYO.mat"


def _live_matches(url: str) -> int:
    text = httpx.get(f"{url}/metrics", timeout=10).text
    found = re.search(r"^backgammon_live_matches (\d+)", text, re.MULTILINE)
    assert found is not None, text[:500]
    return int(found.group(1))


async def _finished_matches(url: str, count: int) -> list[str]:
    """``count`` one-point matches between anna and ben, each resigned at once."""
    async with ServerClient(url) as anna, ServerClient(url) as ben:
        await anna.register("anna", PASSWORD)
        await ben.register("ben", PASSWORD)
        await anna.connect()
        await ben.connect()
        finished = []
        for _ in range(count):
            match_id = (await anna.create_match(length=1, opponent="ben"))["id"]
            await ben.join(match_id)
            await anna.subscribe(match_id)
            await ben.subscribe(match_id)
            state = anna.states[match_id]
            mover, other = (anna, ben) if state["waiting_for"] == 0 else (ben, anna)
            answer = await mover.act(match_id, "resign", level=1)
            assert answer["type"] == "ack", answer
            answer = await other.act(match_id, "accept")
            assert answer["type"] == "ack", answer
            finished.append(match_id)
        return finished


def test_anonymous_reads_of_finished_matches_do_not_pile_up_in_memory(
    server_factory: Any,
) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    matches = asyncio.run(_finished_matches(server.url, 6))
    assert _live_matches(server.url) == 0
    with healthy(server.url), httpx.Client(base_url=server.url, timeout=30) as client:
        for _ in range(3):
            for match_id in matches:
                state = client.get(f"/api/matches/{match_id}")
                assert state.status_code == 200, state.text
                assert state.json()["result"] is not None
                for kind in ("mat", "sgf", "dice"):
                    record = client.get(f"/api/matches/{match_id}/record.{kind}")
                    assert record.status_code == 200, record.text
    # Before the fix each match read stayed in memory for good (one per download).
    assert _live_matches(server.url) == 0


def test_polls_of_a_finished_analysis_do_not_block_the_server(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots")
    with open(SAMPLE) as file:
        text = file.read()
    with httpx.Client(base_url=server.url, timeout=300) as client:
        job = client.post("/api/analysis", json={"text": text, "name": "sample.mat"})
        assert job.status_code == 202, job.text
        status: dict[str, Any] = {}
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            status = client.get(f"/api/analysis/{job.json()['id']}").json()
            if status["state"] != "running":
                break
            time.sleep(0.5)
        assert status["state"] == "done", status
        first = client.get(f"/api/analysis/{job.json()['id']}").content

    async def poll_many() -> list[bytes]:
        async with httpx.AsyncClient(base_url=server.url, timeout=60) as client:
            answers = await asyncio.gather(
                *(client.get(f"/api/analysis/{job.json()['id']}") for _ in range(200))
            )
        return [answer.content for answer in answers]

    with healthy(server.url):
        answers = asyncio.run(poll_many())
    assert all(answer == first for answer in answers)
    assert len(first) > 100_000  # the summary of a whole match
    _polls_with_the_tag_get_no_body(server.url, str(job.json()["id"]))


def _polls_with_the_tag_get_no_body(url: str, job_id: str) -> None:
    """A poller that has the done summary names its tag and gets 304 with no body,
    200 times over; a tag of something else gets the whole summary again."""
    with httpx.Client(base_url=url, timeout=60) as client:
        whole = client.get(f"/api/analysis/{job_id}")
        tag = whole.headers.get("etag")
        assert tag, whole.headers
        for _ in range(200):
            again = client.get(f"/api/analysis/{job_id}", headers={"If-None-Match": tag})
            assert (again.status_code, again.content) == (304, b"")
        other = client.get(f"/api/analysis/{job_id}", headers={"If-None-Match": '"other"'})
        assert other.status_code == 200 and other.content == whole.content


def test_a_done_analysis_is_encoded_once_and_old_results_are_forgotten() -> None:
    """Every poll of a done job gets the very bytes encoded when it finished; beyond
    ``kept_bytes`` the oldest finished results are forgotten."""
    from backgammon.server.bots.pool import BotPool
    from backgammon.server.tools.review import ReviewJobs

    with open(SAMPLE) as file:
        text = file.read()

    async def scenario() -> None:
        pool = BotPool(processes=0)
        jobs = ReviewJobs(pool)
        try:
            first = await jobs.start(text, "a.mat", 0, "owner")
            assert first.task is not None
            await first.task
            body = jobs.status_json(first.id)
            assert body is not None and body is jobs.status_json(first.id)
            assert b'"state": "done"' in body
            jobs.kept_bytes = first.size + 1  # room for one result only
            second = await jobs.start(text, "b.mat", 0, "owner")
            assert second.task is not None
            await second.task
            assert not jobs.known(first.id) and jobs.known(second.id)
        finally:
            jobs.close()
            pool.close()

    asyncio.run(scenario())


def test_watching_and_chatting_in_finished_matches_keeps_them_out_of_memory(
    server_factory: Any,
) -> None:
    """A logged-in stranger who subscribes to and chats in many finished matches
    leaves none of them live; the players' ratings and presence still come."""
    server = server_factory("--no-warm-up", "--no-bots")
    matches = asyncio.run(_finished_matches(server.url, 4))

    async def stranger() -> None:
        async with ServerClient(server.url) as eve:
            await eve.register("eve", PASSWORD)
            await eve.connect()
            for match_id in matches:
                mark = len(eve.messages)
                await eve.subscribe(match_id)
                ratings = await eve.wait_for(lambda m: m["type"] == "ratings", since=mark)
                assert len(ratings["ratings"]) == 2
                await eve.send({"type": "chat", "room": match_id, "text": "gg", "ref": "c"})
                heard = await eve.wait_for(
                    lambda m, room=match_id: m["type"] == "chat" and m["room"] == room,
                    since=mark,
                )
                assert heard["audience"] == "spectators"

    with healthy(server.url):
        asyncio.run(stranger())
    assert _live_matches(server.url) == 0
