"""Who is connected, and claiming the win from a player who stayed away (issue 35,
item 5), over the WebSocket against a real ``backgammon serve`` process whose wait
before a claim is 2 seconds (``--claim-after 2``; 300 by default).

The players and spectators of a match hear when a player leaves and returns (a
second tab of the same player changes nothing); a claim is refused, changing
nothing, while the opponent is connected, before the wait, by a spectator, when the
match waits on the claimant, or in a match with a clock; after the wait it ends the
match as abandoned.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from backgammon.server.client import ServerClient

from .conftest import POSTGRESQL

CLAIM_AFTER = 2.0


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """SQLite unless a test asks for PostgreSQL (two processes need its NOTIFY)."""
    kind = str(getattr(request, "param", "sqlite"))
    if kind == "postgresql" and not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    return kind


def _presence(room: str, connected: list[bool]) -> Any:
    def accept(message: dict[str, Any]) -> bool:
        return (
            message["type"] == "presence"
            and message["match"] == room
            and [player["connected"] for player in message["players"]] == connected
        )

    return accept


async def _guests(url: str, count: int) -> list[ServerClient]:
    clients = [ServerClient(url) for _ in range(count)]
    for client in clients:
        await client.guest()
        await client.connect()
    return clients


async def _untimed_match(alice: ServerClient, bob: ServerClient, **settings: Any) -> str:
    assert bob.user is not None
    settings.setdefault("clock", None)
    created = await alice.create_match(opponent=str(bob.user["name"]), length=3, **settings)
    await bob.join(created["id"])
    return str(created["id"])


def test_leaving_and_returning_are_told_and_a_claim_ends_the_match(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--claim-after", str(CLAIM_AFTER))

    async def run() -> None:
        alice, bob, carol = await _guests(server.url, 3)
        match_id = await _untimed_match(alice, bob)
        for client in (alice, bob, carol):
            state = (await client.subscribe(match_id))["state"]
            told = await client.wait_for(_presence(match_id, [True, True]))
            assert told["claim_after"] == CLAIM_AFTER
        waiting = state["waiting_for"]
        players = [alice, bob]
        stayer, leaver = players[1 - waiting], players[waiting]
        watchers = [stayer, carol]

        # A second tab of the leaver opens and closes: nobody is told anything.
        second = ServerClient(server.url)
        second.token = leaver.token
        await second.connect()
        marks = [len(client.messages) for client in watchers]
        await second.close()
        await asyncio.sleep(0.3)
        for client, mark in zip(watchers, marks, strict=True):
            assert not [m for m in client.messages[mark:] if m["type"] == "presence"]

        # The leaver's last connection closes: the stayer and the spectator are told.
        connected = [True, True]
        connected[waiting] = False
        await leaver.close()
        for client in watchers:
            told = await client.wait_for(_presence(match_id, connected))
            assert told["players"][waiting]["away_since"] <= told["now"]

        # The leaver returns: told again.
        back = ServerClient(server.url)
        back.token = leaver.token
        await back.connect()
        for client in watchers:
            await client.wait_for(_presence(match_id, [True, True]))
        refused = await stayer.act(match_id, "claim")
        assert refused["type"] == "error" and refused["code"] == "opponent_connected"

        # Away again, then past the wait: the claim ends the match as abandoned.
        mark = len(carol.messages)
        await back.close()
        await carol.wait_for(_presence(match_id, connected), since=mark)
        await asyncio.sleep(CLAIM_AFTER + 0.2)
        answer = await stayer.act(match_id, "claim")
        assert answer["type"] == "ack", answer
        ended = await carol.wait_for(lambda m: m["type"] == "state" and m["state"]["result"])
        result = ended["state"]["result"]
        assert result["reason"] == "abandoned" and result["winner"] == 1 - waiting
        assert result["score"][1 - waiting] == 3
        for client in (alice, bob, carol):
            await client.close()

    asyncio.run(run())


def test_a_claim_is_refused_unless_the_server_saw_the_opponent_away_long_enough(
    server_factory: Any,
) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--claim-after", str(CLAIM_AFTER))

    async def run() -> None:
        alice, bob, carol = await _guests(server.url, 3)
        match_id = await _untimed_match(alice, bob)
        for client in (alice, bob, carol):
            state = (await client.subscribe(match_id))["state"]
        waiting = state["waiting_for"]
        players = [alice, bob]
        stayer, leaver = players[1 - waiting], players[waiting]

        async def refused(client: ServerClient, code: str, words: str) -> None:
            answer = await client.act(match_id, "claim")
            assert answer["type"] == "error" and answer["code"] == code, answer
            assert words in answer["message"], answer
            current = (await carol.subscribe(match_id))["state"]
            assert current["seq"] == state["seq"] and current["result"] is None

        await refused(stayer, "opponent_connected", "is connected")
        await leaver.close()
        await stayer.wait_for(
            lambda m: (
                m["type"] == "presence" and not all(player["connected"] for player in m["players"])
            )
        )
        await refused(stayer, "too_early", "try again in")
        await refused(carol, "not_a_player", "not a player")
        # The player the match waits on may not claim (their opponent is here).
        other = ServerClient(server.url)
        other.token = leaver.token
        await other.connect()
        await stayer.close()
        await asyncio.sleep(CLAIM_AFTER + 0.2)
        await refused(other, "not_waiting", "not waiting on")
        answer = await other.send(
            {"type": "action", "match": match_id, "action": {"kind": "claim", "level": 9}}
        )
        assert answer is None
        bad = await other.wait_for(lambda m: m["type"] == "error" and m["code"] == "bad_message")
        assert "level" in bad["message"]

        # A match with a clock: whoever stays away loses on time, never by a claim.
        dave, erin = await _guests(server.url, 2)
        timed = await _untimed_match(dave, erin, clock={"delay": 60})
        first = (await dave.subscribe(timed))["state"]
        pair = [dave, erin]
        await pair[first["waiting_for"]].close()
        await asyncio.sleep(CLAIM_AFTER + 0.2)
        answer = await pair[1 - first["waiting_for"]].act(timed, "claim")
        assert answer["type"] == "error" and answer["code"] == "timed", answer
        for client in (other, carol, pair[1 - first["waiting_for"]]):
            await client.close()

    asyncio.run(run())


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_player_leaving_another_process_is_told_and_claimed_against(
    server_factory: Any,
) -> None:
    """Each process learns who is connected elsewhere from the others' online and
    offline events, and on starting from their rosters: alice, connected to process
    A before B starts, is seen connected by B; a player leaving one process is heard
    on the other, where the claim is then checked."""
    options = ("--no-warm-up", "--no-bots", "--claim-after", str(CLAIM_AFTER))
    first = server_factory(*options)

    async def run() -> None:
        alice = (await _guests(first.url, 1))[0]
        second = await asyncio.to_thread(server_factory, *options)
        bob = (await _guests(second.url, 1))[0]
        match_id = await _untimed_match(alice, bob)
        players = [alice, bob]
        for client in players:
            state = (await client.subscribe(match_id))["state"]
            await client.wait_for(_presence(match_id, [True, True]))
        waiting = state["waiting_for"]
        stayer, leaver = players[1 - waiting], players[waiting]
        connected = [True, True]
        connected[waiting] = False
        await leaver.close()
        await stayer.wait_for(_presence(match_id, connected))
        early = await stayer.act(match_id, "claim")
        assert early["type"] == "error" and early["code"] == "too_early", early
        await asyncio.sleep(CLAIM_AFTER + 0.2)
        answer = await stayer.act(match_id, "claim")
        assert answer["type"] == "ack", answer
        await stayer.close()

    asyncio.run(run())
