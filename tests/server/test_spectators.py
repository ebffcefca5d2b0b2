"""Anonymous viewers over the network (issue 35, item 6): a WebSocket without a
session may watch a started match, and nothing else; every action it tries is
refused with ``login_required`` and changes nothing; an address may have only so many
of them connected."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from backgammon.server.client import ServerClient
from backgammon.server.db.database import Database
from backgammon.server.lobby.hub import ANONYMOUS, Connection
from backgammon.server.service import GameService, ServiceError
from backgammon.server.settings import Settings

PASSWORD = "a long enough password"
PER_ADDRESS = 3


def _seq(url: str, match_id: str) -> int:
    return int(httpx.get(f"{url}/api/matches/{match_id}").json()["seq"])


async def _a_match(url: str) -> tuple[ServerClient, ServerClient, ServerClient, str, str]:
    """anna and ben play a 3-point match (connected, subscribed), carl watches it
    logged in; anna also has an invitation to carl waiting. Returns the three clients,
    the match and the invitation."""
    anna, ben, carl = (ServerClient(url) for _ in range(3))
    for client, name in ((anna, "anna"), (ben, "ben"), (carl, "carl")):
        await client.register(name, PASSWORD)
    match_id = (await anna.create_match(length=3, opponent="ben"))["id"]
    await ben.join(match_id)
    invitation = (await anna.create_match(length=1, opponent="carl"))["id"]
    for client in (anna, ben, carl):
        await client.connect()
        await client.subscribe(match_id)
    return anna, ben, carl, match_id, invitation


def test_an_anonymous_viewer_watches_and_may_do_nothing_else(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--viewers-per-address", str(PER_ADDRESS))
    url = server.url

    async def scenario() -> None:
        anna, ben, carl, match_id, invitation = await _a_match(url)
        viewer = ServerClient(url)
        assert (await viewer.connect())["user"] is None
        snapshot = await viewer.subscribe(match_id)
        assert snapshot["type"] == "state", snapshot
        state = snapshot["state"]
        assert state["players"] == ["anna", "ben"]
        before = state["seq"]
        assert before == _seq(url, match_id)

        async def refused(message: dict[str, Any], code: str = "login_required") -> None:
            mark = len(viewer.messages)
            await viewer.send(message)
            error = await viewer.wait_for(lambda m: m["type"] == "error", since=mark)
            assert error["code"] == code, error
            assert "log in" in error["message"] or code != "login_required", error
            assert _seq(url, match_id) == before

        def action(kind: str, **fields: Any) -> dict[str, Any]:
            return {"type": "action", "match": match_id, "action": {"kind": kind, **fields}}

        # Every action, whoever's turn it is, every kind of word, the lobby and an
        # invitation: refused, nothing changes.
        game = state["game"]
        move = game["legal_plays"][0] if game["legal_plays"] else "24/18"
        for kind, fields in (("roll", {}), ("double", {}), ("play", {"move": move})):
            await refused(action(kind, **fields))
        await refused(action("claim"))
        await refused(action("leave"))
        await refused({"type": "chat", "room": match_id, "text": "hello players"})
        await refused({"type": "chat", "room": "lobby", "text": "hello lobby"})
        await refused({"type": "tell", "to": "anna", "text": "psst"})
        await refused({"type": "subscribe", "match": "lobby"})
        await refused({"type": "subscribe", "match": invitation})
        await refused({"type": "subscribe", "match": "nosuchmatch"}, "not_found")
        # Over HTTP: no joining, no open match's summary (an invitation is private).
        join = httpx.post(f"{url}/api/matches/{invitation}/join", json={"nonce": "x"})
        assert join.status_code == 401
        assert httpx.get(f"{url}/api/matches/{invitation}").status_code == 401
        carl_sees = await carl.request("GET", f"/api/matches/{invitation}")
        assert carl_sees["open"]["invitee"] == "carl"
        assert httpx.get(f"{url}/api/matches/{match_id}").status_code == 200

        # The viewer hears the match (a move arrives) but no chat, neither the
        # players' nor the logged-in spectators'.
        mover = (anna, ben)[state["waiting_for"]]
        mark = len(viewer.messages)
        await anna.send({"type": "chat", "room": match_id, "text": "players' words"})
        await carl.send({"type": "chat", "room": match_id, "text": "spectators' words"})
        await carl.wait_for(lambda m: m["type"] == "chat" and m["from"] == "anna")
        kind = "roll" if game["dice"] is None else "play"
        fields = {} if kind == "roll" else {"move": move}
        assert (await mover.act(match_id, kind, **fields))["type"] == "ack"
        moved = await viewer.wait_for(
            lambda m: m["type"] == "state" and m["state"]["seq"] > before, since=mark
        )
        assert moved["entries"] and moved["entries"][0]["kind"] == kind
        await carl.wait_for(lambda m: m["type"] == "chat" and m["from"] == "carl")
        await mover.wait_for(lambda m: m["type"] == "state" and m["state"]["seq"] > before)
        kinds = {m["type"] for m in viewer.messages}
        assert kinds <= {"welcome", "state", "presence", "error"}, kinds

        # Too many anonymous sockets from one address: the one over the limit is
        # told why and closed; closing one makes room for another.
        others = [ServerClient(url) for _ in range(PER_ADDRESS - 1)]
        for other in others:
            await other.connect()
        over = ServerClient(url)
        try:
            await over.connect()
        except ConnectionError:
            pass
        else:
            raise AssertionError("a viewer over the limit was accepted")
        assert over.closed_with == 4429, over.closed_with
        assert over.messages[-1]["code"] == "throttled", over.messages
        assert "too many anonymous viewers" in over.messages[-1]["message"]
        # Logged-in users are not counted: carl still connects.
        carl_again = ServerClient(url)
        carl_again.token = carl.token
        assert (await carl_again.connect())["user"]["name"] == "carl"
        await others[0].close()
        await asyncio.sleep(0.2)
        later = ServerClient(url)
        assert (await later.connect())["user"] is None
        for client in (anna, ben, carl, viewer, *others, over, carl_again, later):
            await client.close()

    asyncio.run(scenario())


def test_the_server_wide_limit_on_anonymous_viewers(tmp_path: Path) -> None:
    """In-process: a process admits ``viewers`` anonymous viewers in all, whatever
    their addresses; one leaving makes room for the next."""

    async def main() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False, viewers=2)
        service = GameService(settings, Database(settings.database))
        await service.start()
        try:
            first, second, third = (
                Connection(ANONYMOUS, address=f"10.0.0.{n}") for n in range(1, 4)
            )
            service.connect_viewer(first)
            service.connect_viewer(second)
            with pytest.raises(ServiceError) as refused:
                service.connect_viewer(third)
            assert refused.value.code == "busy" and "log in" in refused.value.message
            assert service.hub.viewer_count == 2 and service.hub.viewers_from("10.0.0.3") == 0
            service.disconnect(first)
            service.connect_viewer(third)
            assert service.hub.viewer_count == 2
            assert service.online() == [], "viewers are nobody online"
        finally:
            await service.stop()

    asyncio.run(main())


def test_anonymous_viewers_of_one_ipv6_subscriber_are_counted_together(tmp_path: Path) -> None:
    """In-process: viewers from different addresses of one IPv6 /64 (one subscriber's
    allocation) share its ``viewers_per_address``; another /64 is counted apart."""

    async def main() -> None:
        settings = Settings(data_dir=tmp_path, bots=(), warm_up=False, viewers_per_address=2)
        service = GameService(settings, Database(settings.database))
        await service.start()
        try:
            first, second, third = (
                Connection(ANONYMOUS, address=f"2001:db8:1:2::{n}") for n in range(1, 4)
            )
            service.connect_viewer(first)
            service.connect_viewer(second)
            with pytest.raises(ServiceError) as refused:
                service.connect_viewer(third)
            assert refused.value.code == "throttled"
            assert service.hub.viewers_from("2001:db8:1:2::/64") == 2
            service.connect_viewer(Connection(ANONYMOUS, address="2001:db8:1:3::1"))
            service.disconnect(first)
            service.connect_viewer(third)
            assert service.hub.viewer_count == 3
        finally:
            await service.stop()

    asyncio.run(main())
