"""Moderation bites at once: mute, kick and ban reach every open connection of the
user (WebSocket and FIBS), in every server process (two processes on PostgreSQL),
and a kick or ban revokes the user's session tokens."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from backgammon.server.client import ClientError, ServerClient

from .clip_client import ClipClient
from .test_fibs import _clip_login

PASSWORD = "a long enough password"


def _servers(server_factory: Any, backend: str) -> tuple[Any, Any]:
    """Where the administrator acts and where the moderated user also is: two
    processes on one PostgreSQL database, or one SQLite server. ``root`` is an
    administrator; carl, dora and erin have accounts."""
    options = ("--no-warm-up", "--no-bots", "--fibs-port", "0")
    first = server_factory(*options, "--admin", "root")
    for name in ("root", "carl", "dora", "erin"):
        body = {"name": name, "password": PASSWORD}
        assert httpx.post(f"{first.url}/api/register", json=body).status_code == 201
    first.stop()  # made root an administrator when it starts again
    first.start()
    second = server_factory(*options) if backend == "postgresql" else first
    return first, second


def _fibs_port(server: Any) -> int:
    """The FIBS port the server's latest start announced."""
    lines = [line for line in server.log.read_text().splitlines() if "FIBS clients: telnet" in line]
    return int(lines[-1].rsplit(" ", 1)[1])


async def _logged_in(url: str, name: str) -> ServerClient:
    client = ServerClient(url)
    await client.login(name, PASSWORD)
    await client.connect()
    return client


async def _refused(client: ServerClient, message: dict[str, Any]) -> dict[str, Any]:
    mark = len(client.messages)
    await client.send(message)
    return await client.wait_for(lambda m: m["type"] == "error", since=mark)


async def _closed(client: ClipClient, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not client.closed:
        assert time.monotonic() < deadline, f"the session goes on: {client.lines[-5:]}"
        await asyncio.sleep(0.05)


def test_moderation_reaches_open_sessions_in_every_process(
    server_factory: Any, backend: str
) -> None:
    first, second = _servers(server_factory, backend)

    async def scenario() -> None:
        root = await _logged_in(first.url, "root")
        carl_here = await _logged_in(first.url, "carl")
        carl_there = await _logged_in(second.url, "carl")
        dora = await _logged_in(second.url, "dora")
        await dora.subscribe("lobby")
        await carl_there.send({"type": "chat", "room": "lobby", "text": "before"})
        await dora.wait_for(lambda m: m["type"] == "chat" and m["text"] == "before")
        # Mute: both of carl's open connections stop speaking at once.
        await root.request("POST", "/api/admin/users/carl/mute")
        for carl in (carl_here, carl_there):
            notice = await carl.wait_for(lambda m: m["type"] == "moderation")
            assert notice["action"] == "mute"
            for message in (
                {"type": "chat", "room": "lobby", "text": "after"},
                {"type": "tell", "to": "dora", "text": "psst"},
            ):
                error = await _refused(carl, message)
                assert (error["code"], error["message"]) == ("forbidden", "you are muted")
        await root.request("POST", "/api/admin/users/carl/unmute")
        await carl_there.wait_for(lambda m: m.get("action") == "unmute")
        await carl_there.send({"type": "chat", "room": "lobby", "text": "back"})
        await dora.wait_for(lambda m: m["type"] == "chat" and m["text"] == "back")
        assert not any(m.get("text") in ("after", "psst") for m in dora.messages)
        # A FIBS user (on the other process) muted, then kicked: told, and the
        # command loop ends; the web page's token no longer works.
        erin_web = await _logged_in(first.url, "erin")
        erin = await _clip_login(_fibs_port(second), "erin", PASSWORD)
        await root.request("POST", "/api/admin/users/erin/mute")
        await erin.wait_for(lambda line: line == "** you are muted")
        mark = len(erin.lines)
        await erin.send("shout hello")
        await erin.wait_for(lambda line: line == "** you are muted", since=mark)
        await root.request("POST", "/api/admin/users/erin/kick")
        await erin.wait_for(lambda line: line == "** You were disconnected by the server.")
        await _closed(erin)
        with pytest.raises(ConnectionError):
            await erin_web.wait_for(lambda m: False, timeout=10)
        with pytest.raises(ClientError) as revoked:
            await erin_web.request("GET", "/api/me")
        assert revoked.value.status == 401
        await erin_web.login("erin", PASSWORD)  # a kick is not a ban
        # Ban: every connection closes, every token dies, no login.
        await root.request("POST", "/api/admin/users/carl/ban")
        for carl in (carl_here, carl_there):
            await carl.wait_for(lambda m: m["type"] == "kicked")
            with pytest.raises(ConnectionError):
                await carl.wait_for(lambda m: False, timeout=10)
            with pytest.raises(ClientError) as refused:
                await carl.request("GET", "/api/me")
            assert refused.value.status == 401
        with pytest.raises(ClientError) as banned:
            await carl_here.login("carl", PASSWORD)
        assert banned.value.status == 403
        for client in (root, carl_here, carl_there, dora, erin_web):
            await client.close()
        await erin.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_fibs_flood_is_refused_then_disconnected(server_factory: Any) -> None:
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0", "--rate-limit", "1")
    port = _fibs_port(server)

    async def scenario() -> None:
        assert httpx.post(
            f"{server.url}/api/register", json={"name": "flo", "password": PASSWORD}
        ).is_success
        flo = await _clip_login(port, "flo", PASSWORD)
        mark = len(flo.lines)
        await flo.send(b"\r\n".join([b"help"] * 400))
        await _closed(flo, timeout=30)
        lines = flo.lines[mark:]
        answered = sum(line.startswith("Commands: ") for line in lines)
        slow = lines.count("** You are sending commands too fast; wait a moment.")
        assert 1 <= answered <= 45, answered  # the burst of 40 (and a refill of 1/s)
        assert slow > 100
        assert lines[-1] == "** Too many commands: you are disconnected."
        # Other clients are served as before.
        other = await _clip_login(port, "flo", PASSWORD)
        await other.send("help")
        await other.wait_for(lambda line: line.startswith("Commands: "))
        await other.close()

    asyncio.run(scenario())
