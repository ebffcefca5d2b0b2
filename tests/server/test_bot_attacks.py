"""The bots under attack (issue 50, finding 4): each test drives a real server as an
attacker would, trying to flood the bots' workers until bots lose on time, and checks
throughout that the server answers ``GET /healthz`` within a second."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any

import httpx

from backgammon.server.bots.limits import MAX_BOTS_PER_EVENT, MAX_EXPENSIVE_BOTS_PER_EVENT
from backgammon.server.client import ClientError, ServerClient
from backgammon.server.service import MAX_OPEN_MATCHES

from .health import healthy_throughout
from .players import Policy, play_seat

PASSWORD = "a long enough password"


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
        async with healthy_throughout(server.url):
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
        async with healthy_throughout(server.url):
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


async def _bot_decisions_waiting(url: str) -> int:
    """``backgammon_bot_decisions_waiting`` from the server's metrics (asked from
    loopback, which may read them)."""
    async with httpx.AsyncClient() as client:
        text = (await client.get(f"{url}/metrics", timeout=5.0)).text
    for line in text.splitlines():
        if line.startswith("backgammon_bot_decisions_waiting "):
            return int(line.split()[1])
    raise AssertionError("the metrics do not count the bot decisions waiting")


async def _flood_with_arenas(organiser: ServerClient, events: int) -> list[str]:
    """``events`` arenas, each full of the organiser's bots (as many world-class
    ones as an event takes) and so started at once: bots playing bots, every
    decision the organiser's, on a clock with no delay (so that each decision's wait
    shows in its bot's reserve) and an hour's reserve a point. Returns their ids."""
    levels = ["worldclass"] * MAX_EXPENSIVE_BOTS_PER_EVENT
    levels += ["expert"] * (MAX_BOTS_PER_EVENT - MAX_EXPENSIVE_BOTS_PER_EVENT)
    arenas = []
    for number in range(events):
        arena = await organiser.request(
            "POST",
            "/api/tournaments",
            {
                "name": f"bots playing bots {number}",
                "format": "arena",
                "duration_seconds": 600,
                "max_players": MAX_BOTS_PER_EVENT,
                "start_when_full": True,
                "clock": {"delay_seconds": 0, "reserve_per_point_seconds": 3600},
            },
        )
        path = f"/api/tournaments/{arena['id']}/bots"
        for level in levels:
            await organiser.request("POST", path, {"level": level})
        arenas.append(arena["id"])
    return arenas


def _seconds_spent(state: dict[str, Any], seats: list[int]) -> float:
    """The time ``seats`` of a match (no delay on its clock) have spent thinking."""
    length, clock = state["settings"]["length"], state["clock"]
    reserve = state["settings"]["clock"]["reserve_per_point"] * length
    return sum(reserve - clock["reserves"][seat] for seat in seats)


async def _flood_wait_per_action(client: ServerClient, arenas: list[str]) -> float:
    """How long the arenas' bots have waited for each action, on average, in the
    matches of theirs the arenas list (finished ones too)."""
    spent, actions = 0.0, 0
    for arena in arenas:
        view = await client.request("GET", f"/api/tournaments/{arena}")
        for game in view["games"]:
            state = await client.request("GET", f"/api/matches/{game['match']}")
            spent += _seconds_spent(state, [0, 1])
            actions += state["seq"]
    assert actions > 40, actions
    return spent / actions


def test_a_bot_on_a_short_clock_is_served_before_an_organisers_flood_of_bots(
    server_factory: Any,
) -> None:
    """Before the fix bot decisions were first come first served: organisers'
    arenas of bots playing bots (every decision queued at once) kept the bot in
    someone else's clocked match waiting behind all of theirs, until it lost on time
    once the flood was big enough. Now another owner's decision waits behind at most
    one of each organiser's per worker, and one whose bot's time runs short goes
    first. Two organisers' ten arenas (40 matches of bots, 30 decisions and more
    waiting): the victim's bot waits for each action less than a quarter of what the
    organisers' bots wait (here about 1/40 to 1/10; first come first served, about
    half as long: the test fails then, as tried by making the schedule's order the
    arrivals')."""
    server = server_factory("--no-warm-up", "--bot-processes", "1")

    async def scenario() -> None:
        async with healthy_throughout(server.url):
            olga, oscar = await _user(server.url, "olga"), await _user(server.url, "oscar")
            arenas = await _flood_with_arenas(olga, events=5)
            arenas += await _flood_with_arenas(oscar, events=5)
            deadline = time.monotonic() + 60
            while await _bot_decisions_waiting(server.url) < 30:
                assert time.monotonic() < deadline, "the organiser's bots never queued up"
                await asyncio.sleep(0.2)
            vera = await _user(server.url, "vera")
            await vera.connect()
            created = await vera.create_match(
                opponent="bot:expert", length=1, clock={"delay": 0, "reserve_per_point": 5}
            )
            await vera.subscribe(created["id"])
            policy = Policy(seed=3, double_first=False, stop_at_seq=40)
            final = await play_seat(vera, created["id"], 0, policy, timeout=60)
            flood = await _flood_wait_per_action(olga, arenas)
            result = final["result"]
            assert result is None or result["reason"] == "score", result
            victim = _seconds_spent(final, [1]) / (final["seq"] / 2)
            assert victim < flood / 4, (victim, flood)
            for client in (vera, olga, oscar):
                await client.close()

    asyncio.run(scenario())
