"""The bots under attack (issue 50, finding 4): each test drives a real server as an
attacker would, trying to flood the bots' workers until bots lose on time, and checks
throughout that the server answers ``GET /healthz`` within a second."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any

import httpx

from backgammon.server.bots.limits import MAX_BOTS_PER_EVENT, MAX_EXPENSIVE_BOTS_PER_EVENT
from backgammon.server.client import ClientError, ServerClient
from backgammon.server.service import MAX_OPEN_MATCHES

PASSWORD = "a long enough password"


@asynccontextmanager
async def _healthy_throughout(url: str) -> AsyncIterator[None]:
    """Ask ``GET /healthz`` every 0.2 s while the block runs; each answer must come
    within a second, and say 200."""
    slow: list[str] = []
    stop = asyncio.Event()

    async def probe() -> None:
        async with httpx.AsyncClient() as client:
            while not stop.is_set():
                started = time.monotonic()
                try:
                    answer = await client.get(f"{url}/healthz", timeout=1.0)
                    took = time.monotonic() - started
                    if answer.status_code != 200 or took >= 1.0:
                        slow.append(f"{answer.status_code} in {took:.2f} s")
                except httpx.HTTPError as error:
                    slow.append(repr(error))
                await asyncio.sleep(0.2)

    task = asyncio.create_task(probe())
    try:
        yield
    finally:
        stop.set()
        await task
    assert not slow, slow


async def _user(url: str, name: str) -> ServerClient:
    client = ServerClient(url)
    await client.register(name, PASSWORD)
    return client


async def _refusals(calls: list[Awaitable[Any]]) -> tuple[int, list[ClientError]]:
    """Run ``calls`` at once: how many succeeded, and the refusals."""
    results = await asyncio.gather(*calls, return_exceptions=True)
    refused = [result for result in results if isinstance(result, ClientError)]
    others = [r for r in results if isinstance(r, BaseException) and r not in refused]
    assert not others, others
    return len(results) - len(refused), refused


def test_one_account_cannot_start_more_bot_matches_than_the_limit(server_factory: Any) -> None:
    """Before the fix the limit of 20 counted open matches only, so one account
    started 30 matches against bots (each keeps a bot thinking). Now 30 requests at
    once start exactly :data:`MAX_OPEN_MATCHES`; the rest, and an open match, are
    refused while those are unfinished."""
    server = server_factory("--no-warm-up")

    async def scenario() -> None:
        async with _healthy_throughout(server.url):
            mallory = await _user(server.url, "mallory")
            calls = [
                mallory.create_match(opponent="bot:expert", length=25, clock=None)
                for _ in range(30)
            ]
            started, refused = await _refusals(calls)
            assert started == MAX_OPEN_MATCHES, (started, refused[:1])
            assert all(error.status == 409 for error in refused)
            assert "finish or cancel one first" in refused[0].message
            # Nor may an open match (or an invitation) be added to them.
            _, refused = await _refusals([mallory.create_match(length=1)])
            assert len(refused) == 1 and refused[0].status == 409
            await mallory.close()

    asyncio.run(scenario())


def test_an_organiser_cannot_enter_more_bots_than_the_bound(server_factory: Any) -> None:
    """Before the fix an organiser entered as many bots as the event took (256), at
    any level: 40 world-class bots in one 24-hour arena keep the bots' workers busy
    all day. Now an event takes :data:`MAX_BOTS_PER_EVENT` bots, of which
    :data:`MAX_EXPENSIVE_BOTS_PER_EVENT` world-class ones."""
    server = server_factory("--no-warm-up")

    async def scenario() -> None:
        async with _healthy_throughout(server.url):
            olga = await _user(server.url, "olga")
            arena = await olga.request(
                "POST",
                "/api/tournaments",
                {
                    "name": "bots all day",
                    "format": "arena",
                    "duration_seconds": 86_400,
                    "max_players": 256,
                },
            )
            path = f"/api/tournaments/{arena['id']}/bots"
            entered, refused = 0, []
            for level in ["worldclass"] * 5 + ["expert"] * 40:
                try:
                    await olga.request("POST", path, {"level": level})
                    entered += 1
                except ClientError as error:
                    refused.append((level, error))
            assert entered == MAX_BOTS_PER_EVENT, entered
            assert all(error.status == 409 for _, error in refused)
            costly = [error for level, error in refused if level == "worldclass"]
            assert len(costly) == 5 - MAX_EXPENSIVE_BOTS_PER_EVENT
            view = await olga.request("GET", f"/api/tournaments/{arena['id']}")
            bots = [player["name"] for player in view["players"] if player["bot"]]
            assert len(bots) == MAX_BOTS_PER_EVENT
            assert sum(name.startswith("bot_worldclass") for name in bots) == 2
            await olga.close()

    asyncio.run(scenario())
