"""Throttling and limits that hold for a user across ``backgammon serve`` processes on
one PostgreSQL database (issue 53, item 3): what they count is in the database, so a
stranger cannot spread guesses or sign-ups over the processes to get more."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import Any

import httpx
import pytest

from backgammon.server.client import ServerClient

from .test_accounts_security import PASSWORD, QUIET, _from

pytestmark = [pytest.mark.slow, pytest.mark.postgresql]


@pytest.fixture
def backend() -> str:
    """PostgreSQL only: several processes share one database only there."""
    from .conftest import POSTGRESQL

    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    return "postgresql"


def test_wrong_passwords_on_one_process_count_on_the_others(server_factory: Any) -> None:
    """alice's free budget of wrong passwords (10) spent on A; the next guesses on B
    and C are refused unchecked (429), while alice herself, at the address she
    registered from, logs in on C at once."""
    first, second, third = (server_factory(*QUIET) for _ in range(3))

    async def scenario() -> None:
        owner = _from("10.0.0.1")
        async with httpx.AsyncClient(timeout=60) as http:
            made = await http.post(
                f"{first.url}/api/register",
                json={"name": "alice", "password": PASSWORD},
                headers=owner,
            )
            assert made.status_code == 201

            async def guess(url: str, number: int) -> int:
                answer = await http.post(
                    f"{url}/api/login",
                    json={"name": "alice", "password": f"guess number {number}"},
                    headers=_from(f"10.6.6.{number}"),
                )
                return answer.status_code

            spent = [await guess(first.url, n) for n in range(10)]
            assert spent == [401] * 10
            elsewhere = [
                await guess(url, 10 + n) for n, url in enumerate([second.url, third.url] * 3)
            ]
            assert Counter(elsewhere) == {429: 6}, elsewhere
            back = await http.post(
                f"{third.url}/api/login",
                json={"name": "alice", "password": PASSWORD},
                headers=owner,
            )
            assert back.status_code == 200, back.text

    asyncio.run(scenario())


def test_sign_ups_from_one_address_count_on_every_process(server_factory: Any) -> None:
    """One address's sign-ups (3 an hour) spread over three processes: 3 accounts in
    all, not 3 on each."""
    servers = [server_factory(*QUIET, "--signups-per-hour", "3") for _ in range(3)]

    async def scenario() -> None:
        async with httpx.AsyncClient(timeout=60) as http:
            statuses = []
            for n in range(9):
                answer = await http.post(
                    f"{servers[n % 3].url}/api/register",
                    json={"name": f"spreader{n}", "password": PASSWORD},
                    headers=_from("10.9.9.9"),
                )
                statuses.append(answer.status_code)
            assert Counter(statuses) == {201: 3, 429: 6}, statuses

    asyncio.run(scenario())


def test_chat_said_through_three_processes_counts_against_one_allowance(
    server_factory: Any,
) -> None:
    """One user with a WebSocket on each of three processes says 30 lines in about a
    second, ten through each: a burst of 5 and then a line a second get through in
    all, as on one process (before, each process had its own bucket: 15 got through,
    5 on each)."""
    servers = [server_factory(*QUIET) for _ in range(3)]

    async def scenario() -> None:
        talker = ServerClient(servers[0].url)
        await talker.register("talker", PASSWORD)
        listener = ServerClient(servers[1].url)
        await listener.register("listener", PASSWORD)
        await listener.connect()
        await listener.subscribe("lobby")
        tabs = []
        for server in servers:
            tab = ServerClient(server.url)
            tab.token = talker.token
            await tab.connect()
            tabs.append(tab)
        began = time.monotonic()
        for number in range(10):
            for index, tab in enumerate(tabs):
                line = {"type": "chat", "room": "lobby", "text": f"spam {number}-{index}"}
                await tab.send({**line, "ref": f"s{number}-{index}"})
            await asyncio.sleep(0.1)
        took = time.monotonic() - began
        await asyncio.sleep(1.5)  # every line heard or refused by now
        heard = [m for m in listener.messages if m["type"] == "chat" and "spam" in m["text"]]
        refused = [m for tab in tabs for m in tab.messages if m["type"] == "error"]
        assert {m["code"] for m in refused} == {"throttled"}
        assert len(heard) + len(refused) == 30
        assert 5 <= len(heard) <= 5 + took + 1, (len(heard), took)
        for client in [talker, listener, *tabs]:
            await client.close()

    asyncio.run(scenario())
