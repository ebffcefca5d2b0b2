"""Two server processes on one PostgreSQL database serve the same lobby and the same
matches: players connected to different processes play each other."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from backgammon.server.client import ServerClient
from backgammon.server.matches.fair_dice import verify_record

from .players import play_match

PASSWORD = "a long enough password"


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_players_on_different_processes(server_factory: Any) -> None:
    first = server_factory("--no-warm-up", "--no-bots")
    second = server_factory("--no-warm-up", "--no-bots")
    assert first.port != second.port

    async def scenario() -> None:
        alice, bob, watcher = (
            ServerClient(first.url),
            ServerClient(second.url),
            ServerClient(second.url),
        )
        await alice.register("alice", PASSWORD)
        await bob.login((await bob.register("bob", PASSWORD))["user"]["name"], PASSWORD)
        await watcher.register("watcher", PASSWORD)
        for client in (alice, bob, watcher):
            await client.connect()
        await bob.subscribe("lobby")
        created = await alice.create_match(length=3)
        # The lobby on the other process hears of the open match and of alice.
        await bob.wait_for(lambda m: m.get("event") == "match_open" and m["match"] == created["id"])
        lobby = await bob.request("GET", "/api/lobby")
        assert "alice" in {user["name"] for user in lobby["online"]}
        assert created["id"] in {match["id"] for match in lobby["open"]}
        # The watcher subscribes on the second process while the match is open.
        await watcher.subscribe(created["id"])
        await bob.join(created["id"])
        for client in (alice, bob):
            await client.subscribe(created["id"])
        await watcher.wait_for(
            lambda m: m["type"] == "state" and m["state"].get("game") is not None
        )
        # Chat crosses processes: alice's words reach bob and the watcher.
        await alice.send({"type": "chat", "room": created["id"], "text": "hello from A"})
        for client in (bob, watcher):
            await client.wait_for(lambda m: m["type"] == "chat" and m["text"] == "hello from A")
        final = await play_match((alice, bob), created["id"], seed=21)
        assert final["result"]["reason"] == "score"
        await watcher.wait_for(
            lambda m: m["type"] == "state" and m["state"].get("result") is not None
        )
        assert watcher.states[created["id"]]["seq"] == final["seq"]
        assert bob.states[created["id"]] == alice.states[created["id"]] | {
            "clock": bob.states[created["id"]]["clock"]
        }
        dice = await watcher.download(created["id"], "dice")
        assert verify_record(json.loads(dice)) is None
        for client in (alice, bob, watcher):
            await client.close()

    asyncio.run(scenario())
