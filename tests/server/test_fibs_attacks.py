"""The FIBS front end under attack (issue 50): each test drives a real server as an
attacker would, over raw telnet sockets on loopback or HTTP, and checks that the
server still answers ``GET /healthz`` within a second and that its state stayed right."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx
import pytest

from backgammon.server.client import ServerClient
from backgammon.server.fibs.listener import MAX_CONNECTIONS_PER_ADDRESS

from .clip_client import ClipClient
from .health import run_healthy
from .test_fibs_proxy_protocol import _greeting

# Timeouts and rate limits, measured on the clock: nothing else runs meanwhile.
pytestmark = pytest.mark.alone

PASSWORD = "a long enough password"


def _fibs_port(server: Any) -> int:
    for line in server.log.read_text().splitlines():
        if "FIBS clients: telnet" in line:
            return int(line.rsplit(" ", 1)[1])
    raise AssertionError("the server did not say where FIBS clients connect")


async def _healthy(url: str) -> None:
    """The server answers its readiness probe within a second."""
    async with httpx.AsyncClient() as client:
        started = time.monotonic()
        answer = await client.get(f"{url}/healthz", timeout=1.0)
        assert answer.status_code == 200, answer.text
        assert time.monotonic() - started < 1.0


async def _connect(port: int) -> ClipClient:
    client = ClipClient("127.0.0.1", port)
    await client.connect()
    await client.wait_prompt("login: ")
    return client


async def _clip_login(port: int, name: str) -> ClipClient:
    client = await _connect(port)
    await client.send(f"login TestClient 1008 {name} {PASSWORD}")
    await client.wait_for(lambda line: line == "6")
    return client


async def _closed(client: ClipClient, timeout: float) -> bool:
    """Whether the server closes ``client``'s connection within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not client.closed and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return client.closed


def test_refused_lines_count_against_the_fibs_rate_limit(server_factory: Any) -> None:
    """Lines the listener refuses (control bytes, over-long lines) take tokens as good
    lines do: 3,000 of them, before login or after, get at most a burst's worth of
    answers and the flooding disconnect, not 3,000 answers and a kept connection."""
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0", "--rate-limit", "5")
    port = _fibs_port(server)
    httpx.post(
        f"{server.url}/api/register", json={"name": "mallory", "password": PASSWORD}
    ).raise_for_status()

    async def flood(client: ClipClient, line: bytes) -> None:
        assert client._writer is not None
        with contextlib.suppress(ConnectionError):  # the server may close it meanwhile
            for _ in range(30):
                client._writer.write((line + b"\r\n") * 100)
                await client._writer.drain()
        assert await _closed(client, 10.0), "the flooding client was kept"
        answers = [text for text in client.lines if text.startswith("** ")]
        # A burst's worth of answers, then "too fast" ones until the disconnect (whose
        # own line may be lost in the reset of a connection closed with bytes unread).
        assert len(answers) < 400, len(answers)
        await client.close()

    async def scenario() -> None:
        before_login = await _connect(port)
        await flood(before_login, b"\x01")
        await _healthy(server.url)
        logged_in = await _clip_login(port, "mallory")
        await flood(logged_in, b"x" * 5000)
        await _healthy(server.url)
        # The server still serves a well-behaved client.
        again = await _clip_login(port, "mallory")
        await again.send("help")
        await again.wait_for(lambda line: line == "  Type 'help beginner' to get started.")
        await again.close()

    asyncio.run(run_healthy(server.url, scenario()))


def test_fibs_logins_time_out_and_metrics_are_not_public(server_factory: Any) -> None:
    """A FIBS connection that has not logged in within ``--fibs-login-timeout`` is
    told and closed, however it keeps the connection busy (blank lines, a name and no
    password); one that logged in stays. ``/metrics`` answers loopback and the bearer
    of ``--metrics-token``, not a client from elsewhere (here through the trusted
    local proxy's ``X-Forwarded-For``, as behind nginx)."""
    token = "a metrics token for the scraper"
    server = server_factory(
        "--no-warm-up",
        "--no-bots",
        "--fibs-port",
        "0",
        "--fibs-login-timeout",
        "2",
        "--metrics-token",
        token,
    )
    port = _fibs_port(server)
    httpx.post(
        f"{server.url}/api/register", json={"name": "carol", "password": PASSWORD}
    ).raise_for_status()

    async def scenario() -> None:
        silent, chatty, named = [await _connect(port) for _ in range(3)]
        await named.send("carol")
        await named.wait_prompt("password: ")
        member = await _clip_login(port, "carol")
        started = time.monotonic()
        with contextlib.suppress(ConnectionError):  # closed meanwhile
            while not chatty.closed and time.monotonic() - started < 2.5:
                await chatty.send("")  # a blank line: 'login: ' again
                await asyncio.sleep(0.25)
        for client in (silent, chatty, named):
            assert await _closed(client, 3.0), "a connection that never logged in was kept"
            assert any("did not log in" in line for line in client.lines), client.lines[-3:]
        await _healthy(server.url)
        assert not member.closed
        await member.send("help")
        await member.wait_for(lambda line: line == "  Type 'help beginner' to get started.")
        await member.close()

    asyncio.run(run_healthy(server.url, scenario()))
    elsewhere = {"X-Forwarded-For": "203.0.113.7"}
    assert httpx.get(f"{server.url}/metrics", headers=elsewhere).status_code == 403
    wrong = {**elsewhere, "Authorization": "Bearer not the token"}
    assert httpx.get(f"{server.url}/metrics", headers=wrong).status_code == 403
    scraper = {**elsewhere, "Authorization": f"Bearer {token}"}
    answer = httpx.get(f"{server.url}/metrics", headers=scraper)
    assert answer.status_code == 200 and "backgammon_connections" in answer.text
    assert httpx.get(f"{server.url}/metrics").status_code == 200  # loopback
    asyncio.run(_healthy(server.url))


def test_fibs_connection_caps_count_an_ipv6_client_by_its_64(server_factory: Any) -> None:
    """One IPv6 subscriber holds a /64: connections from many addresses in it count
    together against the per-address cap (before, each address had its own 20). Over
    real sockets, with the addresses an attacker's machine would have named by the
    PROXY line of a trusted load balancer in front of the port (loopback has a single
    IPv6 address of its own)."""
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0",
                            "--fibs-proxy-protocol", "127.0.0.1")  # fmt: skip
    port = _fibs_port(server)

    async def from_address(address: str) -> tuple[bytes, Any]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"PROXY TCP6 {address} ::1 50000 4321\r\n".encode())
        await writer.drain()
        return await _greeting(reader), writer

    async def scenario() -> None:
        answers = [
            await from_address(f"2001:db8:1:2::{number + 1:x}")
            for number in range(MAX_CONNECTIONS_PER_ADDRESS + 5)
        ]
        refused = [data for data, _ in answers if b"Too many connections" in data]
        assert len(refused) == 5
        neighbour, writer = await from_address("2001:db8:1:3::1")  # another subscriber
        assert b"login:" in neighbour
        for _, held in [*answers, (neighbour, writer)]:
            held.close()

    asyncio.run(run_healthy(server.url, scenario()))


def test_fibs_does_not_show_an_unlisted_match_to_a_stranger(server_factory: Any) -> None:
    """An unlisted match (the web's 'Invite by link': its id is the link) is its
    players' business: a stranger on FIBS who watches a player by name is not taken
    into it when it starts, and ``look``, ``watch``, ``whois`` and ``who`` do not show
    it or whom its players play; a player still sees their own match."""
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        alice, bob = ServerClient(server.url), ServerClient(server.url)
        await alice.register("alice", PASSWORD)
        await bob.register("bob", PASSWORD)
        await ServerClient(server.url).register("eve", PASSWORD)
        eve = await _clip_login(port, "eve")
        await eve.send("watch alice")  # watch her next match, as FIBS does
        await eve.wait_for(lambda line: "not doing anything interesting" in line)
        match_id = str((await alice.create_match(length=3, public=False))["id"])
        await bob.join(match_id)
        await asyncio.sleep(1.5)  # the lobby feed's ticks
        seen = len(eve.lines)
        await eve.send("look alice")
        await eve.wait_for(lambda line: "alice is not playing" in line, since=seen)
        await eve.send("watch bob")
        await eve.wait_for(lambda line: "bob is not doing anything interesting" in line, seen)
        await eve.send("whois alice")
        await eve.wait_for(lambda line: "Rating:" in line, since=seen)
        await eve.send("rawwho")
        done = await eve.wait_for(lambda line: line == "6", since=seen)
        shown = "\n".join(eve.lines)
        assert "board:" not in shown and "start a" not in shown, eve.lines[-20:]
        assert "playing with" not in shown and match_id not in shown
        assert [line for line in eve.lines[seen:done] if line.startswith("5 alice bob")] == []
        await _healthy(server.url)
        # Alice, a player, sees her own match from FIBS; the web shows it to her.
        own = await _clip_login(port, "alice")
        await own.wait_for(lambda line: "Your running match was loaded" in line)
        await own.send("look bob")
        await own.wait_for(lambda line: line.startswith("board:"))
        state = await alice.request("GET", f"/api/matches/{match_id}")
        assert state["players"] == ["alice", "bob"]
        for client in (eve, own):
            await client.close()
        await alice.close()
        await bob.close()

    asyncio.run(run_healthy(server.url, scenario()))


async def _store_old_messages(server: Any, recipient: str, sender: str, count: int) -> None:
    """Put ``count`` messages 31 days old in ``recipient``'s stored messages, straight
    into the server's database (as if they had waited that long)."""
    at = time.time() - 31 * 86400
    names = "SELECT id FROM users WHERE name = {}"
    insert = (
        "INSERT INTO stored_messages (recipient, sender, text, at) "
        f"VALUES (({names.format('{0}')}), ({names.format('{1}')}), {{2}}, {{3}})"
    )
    if server.database:  # PostgreSQL
        import asyncpg

        connection = await asyncpg.connect(server.database)
        try:
            for number in range(count):
                query = insert.format("$1", "$2", "$3", "$4")
                await connection.execute(query, recipient, sender, f"old {number}", at)
        finally:
            await connection.close()
        return
    import sqlite3

    with sqlite3.connect(server.data / "backgammon.sqlite3", timeout=10) as database:
        for number in range(count):
            database.execute(
                insert.format("?", "?", "?", "?"), (recipient, sender, f"old {number}", at)
            )


def test_stored_fibs_messages_are_bounded_gagged_and_expire(server_factory: Any) -> None:
    """FIBS's ``message`` to a user who is offline is kept for their next login: one
    sender may keep only a few for one user and a bounded number in all; a ``gag``
    outlives the login, so a gagged user's messages never arrive (not even those kept
    while the gagger was away); messages older than 30 days are dropped, so the
    mailbox of a user who never logs in over FIBS empties."""
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)
    recipients = ["rita", "rick", "rosa", "ron"]

    async def saved(client: ClipClient, name: str, times: int) -> list[bool]:
        """Send ``times`` messages to ``name``; for each, whether it was kept."""
        kept = []
        for number in range(times):
            start = len(client.lines)
            await client.send(f"message {name} note {number}")
            index = await client.wait_for(
                lambda line: line == f"11 {name}" or line.startswith("** "), since=start
            )
            kept.append(client.lines[index] == f"11 {name}")
        return kept

    async def scenario() -> None:
        for name in ["alice", "bob", "mallory", "webby", *recipients]:
            await ServerClient(server.url).register(name, PASSWORD)
        alice = await _clip_login(port, "alice")
        await alice.send("gag mallory")
        await alice.wait_for(lambda line: line == "** You gag mallory.")
        await alice.close()
        mallory = await _clip_login(port, "mallory")
        assert await saved(mallory, "rita", 8) == [True] * 5 + [False] * 3
        for name in recipients[1:]:
            assert await saved(mallory, name, 5) == [True] * 5
        assert await saved(mallory, "bob", 1) == [False]  # 20 waiting in all
        await saved(mallory, "alice", 3)  # gagged: never to arrive
        await _healthy(server.url)
        await _store_old_messages(server, "webby", "bob", 50)
        await _store_old_messages(server, "alice", "bob", 1)
        bob = await _clip_login(port, "bob")
        assert await saved(bob, "webby", 1) == [True]  # the expired 50 made room
        assert await saved(bob, "alice", 1) == [True]
        alice = await _clip_login(port, "alice")
        told = [line for line in alice.lines if line.startswith("9 ")]
        assert [line.split(" ", 3)[::3] for line in told] == [["9", "note 0"]], told
        assert told[0].split()[1] == "bob"
        await mallory.send("tell alice are you there?")  # the gag outlived the login
        await mallory.wait_for(lambda line: line == "16 alice are you there?")
        await bob.send("tell alice hello")
        await alice.wait_for(lambda line: line == "12 bob hello")
        assert not any(line.startswith(("9 mallory", "12 mallory")) for line in alice.lines)
        rita = await _clip_login(port, "rita")
        assert len([line for line in rita.lines if line.startswith("9 mallory ")]) == 5
        await _healthy(server.url)
        for client in (alice, bob, mallory, rita):
            await client.close()

    asyncio.run(run_healthy(server.url, scenario()))
