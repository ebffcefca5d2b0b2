"""Presence across server processes with expiry (issue 53, item 2), with three real
``backgammon serve`` processes on one PostgreSQL database.

Each process beats on the event bus every 2 s; the others take one silent for 6 s
for dead and drop its users: they leave the lobby, and their matches hear them
away. A process stopping cleanly says goodbye, which drops its users at once.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from backgammon.server.client import ServerClient

from .conftest import POSTGRESQL, ServerProcess

pytestmark = [pytest.mark.slow, pytest.mark.postgresql]

OPTIONS = ("--no-warm-up", "--no-bots")

DEAD_WITHIN = 10.0
"""The longest a dead process's users may still be listed elsewhere."""


@pytest.fixture
def backend() -> str:
    """PostgreSQL only: processes hear each other through its NOTIFY."""
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    return "postgresql"


async def _guest(url: str) -> ServerClient:
    client = ServerClient(url)
    await client.guest()
    await client.connect()
    return client


async def _online(client: ServerClient) -> set[str]:
    lobby = await client.request("GET", "/api/lobby")
    return {str(user["name"]) for user in lobby["online"]}


async def _until_online(client: ServerClient, name: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while name not in await _online(client):
        assert time.monotonic() < deadline, f"{name} never listed online"
        await asyncio.sleep(0.1)


def _away(room: str) -> Any:
    """A presence message of ``room`` where exactly one player is connected."""

    def accept(message: dict[str, Any]) -> bool:
        return (
            message["type"] == "presence"
            and message["match"] == room
            and sorted(player["connected"] for player in message["players"]) == [False, True]
        )

    return accept


def _offline(name: str) -> Any:
    def accept(message: dict[str, Any]) -> bool:
        return bool(
            message["type"] == "lobby_event"
            and message["event"] == "offline"
            and message["user"]["name"] == name
        )

    return accept


async def _players_apart(first: ServerProcess, second: ServerProcess) -> tuple[Any, ...]:
    """alice on ``first``, bob on ``second``, in an untimed match that alice hears;
    alice's lobby lists bob."""
    alice = await _guest(first.url)
    bob = await _guest(second.url)
    assert bob.user is not None
    name = str(bob.user["name"])
    created = await alice.create_match(opponent=name, length=3, clock=None)
    await bob.join(created["id"])
    await alice.subscribe("lobby")
    await _until_online(alice, name)
    await alice.subscribe(str(created["id"]))
    return alice, bob, name, str(created["id"])


async def _gone_after(
    alice: ServerClient, name: str, match_id: str, since: int, began: float
) -> float:
    """Seconds from ``began`` until alice hears bob offline in the lobby and away in
    the match (and her lobby no longer lists him)."""
    await alice.wait_for(_offline(name), timeout=DEAD_WITHIN, since=since)
    await alice.wait_for(_away(match_id), timeout=DEAD_WITHIN, since=since)
    elapsed = time.monotonic() - began
    assert name not in await _online(alice)
    return elapsed


async def _close(*clients: ServerClient) -> None:
    await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)


@pytest.mark.parametrize(
    ("how", "within"),
    [
        pytest.param("kill", DEAD_WITHIN, id="killed"),
        pytest.param("stop", 3.0, id="stopped"),
    ],
)
def test_a_gone_process_users_leave_the_others(
    server_factory: Any, how: str, within: float
) -> None:
    """bob, connected to B, is listed online in the lobbies of A and C. B killed
    (SIGKILL, no goodbye): within 10 s both lobbies drop him and his match with
    alice on A says him away. B stopped cleanly (SIGTERM): the same at once (it
    says goodbye)."""
    first, second, third = (server_factory(*OPTIONS) for _ in range(3))

    async def run() -> None:
        alice, bob, name, match_id = await _players_apart(first, second)
        carol = await _guest(third.url)
        await carol.subscribe("lobby")
        await _until_online(carol, name)
        marks = len(alice.messages), len(carol.messages)
        began = time.monotonic()
        await asyncio.to_thread(getattr(second, how))
        elapsed = await _gone_after(alice, name, match_id, marks[0], began)
        await carol.wait_for(_offline(name), timeout=DEAD_WITHIN, since=marks[1])
        elapsed = max(elapsed, time.monotonic() - began)
        assert name not in await _online(carol)
        print(f"after {how}, its user left the other processes' lobbies in {elapsed:.1f} s")
        assert elapsed < within
        await _close(alice, bob, carol)

    asyncio.run(run())
