"""Moderation bites at once: mute, kick and ban reach every open connection of the
user (WebSocket and FIBS), in every server process (two processes on PostgreSQL),
and a kick or ban revokes the user's session tokens."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from backgammon.server.client import ClientError, ServerClient
from backgammon.server.db import repository
from backgammon.server.db.repository import User
from backgammon.server.lobby.hub import Connection
from backgammon.server.moderation.flags import Standings
from backgammon.server.service import GameService

from .browser import needs_chromium
from .clip_client import ClipClient
from .test_fibs import _clip_login
from .test_service import _run

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
        answered = lines.count("  Type 'help beginner' to get started.")  # help's last line
        slow = lines.count("** You are sending commands too fast; wait a moment.")
        assert 1 <= answered <= 45, answered  # the burst of 40 (and a refill of 1/s)
        assert slow > 100
        assert lines[-1] == "** Too many commands: you are disconnected."
        # Other clients are served as before.
        other = await _clip_login(port, "flo", PASSWORD)
        await other.send("help")
        await other.wait_for(lambda line: line == "  Type 'help beginner' to get started.")
        await other.close()

    asyncio.run(scenario())


def test_a_connection_authenticated_before_a_kick_and_registered_after_it_is_closed(
    tmp_path: Path,
) -> None:
    async def body(service: GameService, _clock: object) -> None:
        admin, _ = await service.register("root", PASSWORD)
        async with service.db.transaction() as db:
            await repository.set_user_flags(db, admin.id, is_admin=True)
        admin = await service.user_named("root")
        erin, token = await service.register("erin", PASSWORD)
        # A page authenticates (its token still valid), then the kick is heard, then
        # the page's connection is registered.
        since = service.moderation_epoch
        assert await service.authenticate(token) is not None
        await service.moderate(admin, "erin", "kick")
        late = Connection(erin)
        service.connect(late, since)
        assert late.closed
        # A login after the kick is a new session: it stays open.
        again, _ = await service.login("erin", PASSWORD, "10.0.0.1")
        fresh = Connection(again)
        service.connect(fresh, service.moderation_epoch)
        assert not fresh.closed

    _run(tmp_path, body)


def test_a_read_that_raced_a_moderation_is_not_cached() -> None:
    standings = Standings()
    carl = User(id=7, name="carl", kind="human")
    epoch = standings.epoch  # a read of carl's flags begins
    standings.forget(7)  # carl is muted meanwhile
    standings.store(carl, epoch)  # the read ends with the old flags
    assert standings.get(7) is None
    standings.store(carl, standings.epoch)
    assert standings.get(7) == carl


@needs_chromium
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_kicked_page_is_logged_out_and_does_not_come_back(
    server_factory: Any, browser: Any
) -> None:
    """The page used to reconnect half a second after a kick with its still valid
    cookie: now the kick revokes it, and the page shows the login form."""
    first, _ = _servers(server_factory, "sqlite")
    page = browser.new_context().new_page()
    page.goto(first.url + "/", wait_until="load")
    page.locator("#login-form input[name=name]").fill("erin")
    page.locator("#login-form input[name=password]").fill(PASSWORD)
    page.locator("#login-form button[value=login]").click()
    page.wait_for_selector("#lobby-view:not([hidden])")
    token = httpx.post(
        f"{first.url}/api/login", json={"name": "root", "password": PASSWORD}
    ).json()["token"]
    kicked = httpx.post(
        f"{first.url}/api/admin/users/erin/kick", headers={"authorization": f"Bearer {token}"}
    )
    assert kicked.status_code == 200
    page.wait_for_selector("#login-view:not([hidden])", timeout=10_000)
    assert "kick by an administrator" in page.locator("#status").text_content()
    time.sleep(1.5)  # past the page's reconnection delay: it stays logged out
    assert page.locator("#login-view").is_visible()
    assert (
        page.context.cookies() == []
        or httpx.get(
            f"{first.url}/api/me", cookies={c["name"]: c["value"] for c in page.context.cookies()}
        ).status_code
        == 401
    )
    page.close()
