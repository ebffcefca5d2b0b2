"""The FIBS front end under attack (issue 50): each test drives a real server as an
attacker would, over raw telnet sockets on loopback or HTTP, and checks that the
server still answers ``GET /healthz`` within a second and that its state stayed right."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

import httpx

from .clip_client import ClipClient

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
        await again.wait_for(lambda line: line.startswith("Commands:"))
        await again.close()

    asyncio.run(scenario())
