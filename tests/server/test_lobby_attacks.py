"""The lobby and the live connection under attack (issue 50): what one stranger with free
guest accounts can send over WebSockets and HTTP, against one real ``backgammon serve``
per database. Each attack runs while ``GET /healthz`` is asked every 0.2 s and must
answer within a second (:func:`~tests.server.test_tool_attacks.healthy`)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from typing import Any

import pytest

from backgammon.server.client import ClientError, ServerClient

from .conftest import BACKENDS, POSTGRESQL, ServerProcess, new_postgresql_database
from .test_tool_attacks import healthy

# A server process of its own (a module fixture); rates and latencies measured on the
# clock, so nothing else runs meanwhile.
pytestmark = [pytest.mark.slow, pytest.mark.alone]

CONFIG = json.dumps(
    {"variant": "standard", "length": 3, "cube": True, "crawford": True, "jacoby": False}
)
"""A match's settings as a row in the database holds them."""


@pytest.fixture(scope="module", params=BACKENDS)
def lobby_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server for the whole file (on SQLite, then on PostgreSQL), no bots, every
    guest from loopback allowed (sign-ups are not what is attacked here)."""
    if request.param == "postgresql" and not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    database = new_postgresql_database() if request.param == "postgresql" else ""
    server = ServerProcess(
        tmp_path_factory.mktemp("lobby"),
        database,
        "--no-warm-up",
        "--no-bots",
        "--signups-per-hour",
        "100000",
    )
    server.start()
    yield server
    server.stop()


async def _sql(server: ServerProcess, statement: str, rows: list[tuple[Any, ...]]) -> None:
    """Run one statement (``?`` for each value) once per row on the server's database:
    the tests' way to build in a moment what an attacker would take hours to."""
    if server.database:
        import asyncpg

        parts = statement.split("?")
        statement = "".join(f"{part}${i + 1}" for i, part in enumerate(parts[:-1])) + parts[-1]
        connection = await asyncpg.connect(server.database)
        try:
            await connection.executemany(statement, rows)
        finally:
            await connection.close()
    else:
        with sqlite3.connect(server.data / "backgammon.sqlite3", timeout=30) as database:
            database.executemany(statement, rows)


async def _count(server: ServerProcess, query: str, *values: Any) -> int:
    """One number the server's database answers (``?`` for each value)."""
    if server.database:
        import asyncpg

        parts = query.split("?")
        query = "".join(f"{part}${i + 1}" for i, part in enumerate(parts[:-1])) + parts[-1]
        connection = await asyncpg.connect(server.database)
        try:
            return int(await connection.fetchval(query, *values))
        finally:
            await connection.close()
    with sqlite3.connect(server.data / "backgammon.sqlite3", timeout=30) as database:
        return int(database.execute(query, values).fetchone()[0])


async def _guest(server: ServerProcess, connect: bool = True) -> ServerClient:
    client = ServerClient(server.url)
    await client.guest()
    if connect:
        await client.connect()
    return client


async def _answer(client: ServerClient, message: str, ref: str) -> dict[str, Any]:
    """Send raw text; the error or pong that names ``ref`` (or has no ref)."""
    mark = len(client.messages)
    await client.send(message)
    return await client.wait_for(
        lambda m: m["type"] in ("error", "pong") and m.get("ref") in (ref, None), since=mark
    )


def test_deeply_nested_json_is_a_bad_message_and_the_connection_stays(
    lobby_server: ServerProcess,
) -> None:
    async def attack() -> None:
        client = await _guest(lobby_server)
        try:
            nested = [
                "[" * 8000 + "]" * 8000,
                '{"type":"ping","ref":' + "[" * 2000 + "]" * 2000 + "}",
                '{"type":"ping","ref":"x","extra":' + '{"a":' * 1500 + "1" + "}" * 1501,
            ]
            for text in nested:
                answer = await _answer(client, text, "x")
                assert answer["type"] == "error" and answer["code"] == "bad_message", answer
            pong = await _answer(client, '{"type":"ping","ref":"still-here"}', "still-here")
            assert pong["type"] == "pong"
            assert client.closed_with is None
        finally:
            await client.close()

    with healthy(lobby_server.url):
        asyncio.run(attack())
    assert "RecursionError" not in lobby_server.log.read_text()


async def _tab(server: ServerProcess, token: str | None) -> ServerClient:
    """Another WebSocket with ``token`` (another tab of the same person)."""
    client = ServerClient(server.url)
    client.token = token
    return client


async def _refused_connection(client: ServerClient, words: str) -> None:
    with pytest.raises(ConnectionError):
        await client.connect()
    error = next(m for m in client.messages if m["type"] == "error")
    assert error["code"] == "throttled" and words in error["message"], error
    assert client.closed_with == 4429


def test_websockets_are_capped_per_user_and_per_address(lobby_server: ServerProcess) -> None:
    async def attack() -> None:
        opened: list[ServerClient] = []
        try:
            first = await _guest(lobby_server, connect=False)
            opened.append(first)
            for _ in range(8):
                tab = await _tab(lobby_server, first.token)
                opened.append(tab)
                await tab.connect()
            for _ in range(3):  # (with the same token, over and over)
                tab = await _tab(lobby_server, first.token)
                opened.append(tab)
                await _refused_connection(tab, "connections of yours (at most 8)")
            for _ in range(3):  # 8 more each: 32 from this address
                guest = await _guest(lobby_server, connect=False)
                opened.append(guest)
                for _ in range(8):
                    tab = await _tab(lobby_server, guest.token)
                    opened.append(tab)
                    await tab.connect()
            another = await _guest(lobby_server, connect=False)
            opened.append(another)
            await _refused_connection(another, "from your address (at most 32)")
            for tab in opened[1:9]:  # the first guest closes its tabs: room for others
                await tab.close()
            await asyncio.sleep(0.5)
            tab = await _tab(lobby_server, another.token)
            opened.append(tab)
            welcome = await tab.connect()
            assert welcome["user"]["name"] == another.user["name"]  # type: ignore[index]
        finally:
            await asyncio.gather(*(client.close() for client in opened))

    with healthy(lobby_server.url):
        asyncio.run(attack())


def test_chat_is_rate_limited_per_user_and_its_history_is_bounded(
    lobby_server: ServerProcess,
) -> None:
    async def attack() -> None:
        talker = await _guest(lobby_server, connect=False)
        tabs = [await _tab(lobby_server, talker.token) for _ in range(4)]
        listener = await _guest(lobby_server)
        try:
            await listener.subscribe("lobby")
            for tab in tabs:
                await tab.connect()
            began = time.monotonic()
            for number in range(10):  # 40 lines in about a second, from 4 connections
                for index, tab in enumerate(tabs):
                    line = {"type": "chat", "room": "lobby", "text": f"spam {number}-{index}"}
                    await tab.send({**line, "ref": f"s{number}-{index}"})
                await asyncio.sleep(0.1)
            await listener.send({"type": "ping", "ref": "after"})
            await asyncio.sleep(1.0)
            took = time.monotonic() - began
            heard = [
                m["text"]
                for m in listener.messages
                if m["type"] == "chat" and m["text"].startswith("spam")
            ]
            assert 5 <= len(heard) <= 5 + took + 1, heard  # a burst of 5, then 1 a second
            refusals = [m for tab in tabs for m in tab.messages if m["type"] == "error"]
            assert len(heard) + len(refusals) == 40
            assert {m["code"] for m in refusals} == {"throttled"}
            # The room keeps its newest 200 lines: 300 old ones, then one more line.
            name = listener.user["name"]  # type: ignore[index]
            await _sql(
                lobby_server,
                "INSERT INTO chat_messages (room, audience, user_id, text, at) "
                "VALUES ('lobby', 'all', (SELECT id FROM users WHERE name = ?), ?, ?)",
                [(name, f"old {number}", float(number)) for number in range(300)],
            )
            mark = len(listener.messages)
            await listener.send({"type": "chat", "room": "lobby", "text": "the newest"})
            await listener.wait_for(lambda m: m.get("text") == "the newest", since=mark)
            query = "SELECT count(*) FROM chat_messages WHERE room = 'lobby'"
            assert await _count(lobby_server, query) == 200
            newest = "SELECT count(*) FROM chat_messages WHERE text = ?"
            assert await _count(lobby_server, newest, "the newest") == 1
        finally:
            await asyncio.gather(*(client.close() for client in (talker, listener, *tabs)))

    with healthy(lobby_server.url):
        asyncio.run(attack())


async def _finished_match(server: ServerProcess, clients: list[ServerClient]) -> str:
    """A match between two new guests (kept in ``clients``, its leaver first) that one
    of them left: its id."""
    leaver, stayer = await _guest(server), await _guest(server, connect=False)
    clients += [leaver, stayer]
    match_id = (await leaver.create_match(length=3, public=False))["id"]
    await stayer.join(match_id)
    await leaver.subscribe(match_id)
    answer = await leaver.act(match_id, "leave")
    assert answer["type"] == "ack", answer
    return str(match_id)


def test_open_matches_are_bounded_per_address_and_lobby_snapshots_are_not_rebuilt(
    lobby_server: ServerProcess,
) -> None:
    async def attack() -> None:
        clients: list[ServerClient] = []
        try:
            # A match between two guests, left by one: over, so its rematch is an
            # invitation that waits (an open match of its asker's address).
            finished = await _finished_match(lobby_server, clients)
            # Guests are free: two of them make 10 open matches each from one address
            # (each account may have 20); a third may make none.
            for _ in range(2):
                host = await _guest(lobby_server, connect=False)
                clients.append(host)
                for _ in range(10):
                    await host.create_match(length=3)
            third = await _guest(lobby_server, connect=False)
            clients.append(third)
            with pytest.raises(ClientError) as refused:
                await third.create_match(length=3)
            assert (refused.value.status, refused.value.code) == (429, "throttled")
            assert "from your address" in refused.value.message
            # Nor may a rematch (it counted no address before).
            with pytest.raises(ClientError) as refused:
                await clients[0].request("POST", f"/api/matches/{finished}/rematch")
            assert (refused.value.status, refused.value.code) == (429, "throttled")
            # A lobby as big as an attacker once made it (580 open matches): rows
            # copied in the database, as from many addresses.
            name = host.user["name"]  # type: ignore[index]
            await _sql(
                lobby_server,
                "INSERT INTO matches (id, created_at, created_by, config, status, player0, "
                "rated, public, seed, commitment, nonce0, nonce1) VALUES (?, ?, "
                "(SELECT id FROM users WHERE name = ?), ?, 'open', "
                "(SELECT id FROM users WHERE name = ?), ?, ?, ?, ?, '', '')",
                [
                    (f"copy{number:05}", float(number), name, CONFIG, name, False, True, *seed)
                    for number in range(600)
                    for seed in [("0" * 64, f"{number:064x}")]
                ],
            )
            # Five connections ask for the lobby 19 times a second each for 3 s.
            tabs = [await _tab(lobby_server, third.token) for _ in range(5)]
            clients += tabs
            for tab in tabs:
                await tab.connect()
                lobby = await tab.subscribe("lobby")
                assert lobby["type"] == "lobby" and len(lobby["open"]) == 200, lobby["type"]
            for _ in range(57):
                for tab in tabs:
                    await tab.send({"type": "subscribe", "match": "lobby"})
                await asyncio.sleep(1 / 19)
            for tab in tabs:
                await _answer(tab, '{"type":"ping","ref":"done"}', "done")
                snapshots = [m for m in tab.messages if m["type"] == "lobby"]
                assert len(snapshots) == 1, len(snapshots)
        finally:
            await asyncio.gather(*(client.close() for client in clients))

    with healthy(lobby_server.url):
        asyncio.run(attack())
