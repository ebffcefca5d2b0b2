"""FIBS behind a TCP load balancer (issue 53): the PROXY protocol's line read from the
balancers named (``serve --fibs-proxy-protocol``), so that the per-address limits
count each client, not the balancer; a balancer's connection without a valid line is
refused, and nobody else can name an address."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from backgammon.server.fibs.listener import MAX_CONNECTIONS_PER_ADDRESS
from backgammon.server.fibs.proxy_protocol import ProxyLineError, proxy_source

from .test_fibs import _fibs_port

SQLITE_ONLY = pytest.mark.parametrize("backend", ["sqlite"])  # the listener's, not the database's


def test_a_proxy_line_names_the_client() -> None:
    assert proxy_source(b"PROXY TCP4 203.0.113.7 192.0.2.1 56324 4321\r\n") == "203.0.113.7"
    assert proxy_source(b"PROXY TCP6 2001:db8::7 2001:db8::1 1 65535\r\n") == "2001:db8::7"
    assert proxy_source(b"PROXY UNKNOWN\r\n") is None
    assert proxy_source(b"PROXY UNKNOWN ffff::1 ffff::2 1 2\r\n") is None


@pytest.mark.parametrize(
    "line",
    [
        b"login guest\r\n",
        b"PROXY TCP4 203.0.113.7 192.0.2.1 56324 4321\n",  # no CR
        b"PROXY TCP4 2001:db8::7 192.0.2.1 1 2\r\n",  # the wrong family
        b"PROXY TCP6 203.0.113.7 2001:db8::1 1 2\r\n",
        b"PROXY TCP4 203.0.113.7 192.0.2.1 1 65536\r\n",
        b"PROXY TCP4 203.0.113.7 192.0.2.1 -1 2\r\n",
        b"PROXY TCP4 203.0.113.7 192.0.2.1 1\r\n",
        b"PROXY UDP4 203.0.113.7 192.0.2.1 1 2\r\n",
        b"PROXY TCP4 203.0.113.7 192.0.2.1 1 2 " + b"9" * 100 + b"\r\n",  # over 107
        b"PROXY TCP4 \xff.0.113.7 192.0.2.1 1 2\r\n",
    ],
)
def test_a_bad_proxy_line_is_refused(line: bytes) -> None:
    with pytest.raises(ProxyLineError):
        proxy_source(line)


async def _connect(port: int, proxy: bytes | None) -> tuple[asyncio.StreamReader, Any]:
    """A connection as the balancer makes it: its PROXY line first (if any)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if proxy is not None:
        writer.write(proxy)
        await writer.drain()
    return reader, writer


async def _greeting(reader: asyncio.StreamReader) -> bytes:
    """What the server says first (the login prompt, or a refusal), up to 5 s."""
    data = b""
    while b"login:" not in data and b"Too many" not in data:
        chunk = await asyncio.wait_for(reader.read(4096), 5)
        if not chunk:
            break
        data += chunk
    return data


def _line(client: str) -> bytes:
    return f"PROXY TCP4 {client} 127.0.0.1 40000 4321\r\n".encode()


@SQLITE_ONLY
def test_the_limits_count_each_client_behind_the_balancer(server_factory: Any) -> None:
    """From the trusted balancer (loopback here), the per-address cap counts the
    address each PROXY line names: one client's connection past the cap is refused
    while another client's is let in; a balancer's connection without a PROXY line
    is closed unanswered; the server answers throughout."""
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0",
                            "--fibs-proxy-protocol", "127.0.0.1")  # fmt: skip
    port = _fibs_port(server)

    async def scenario() -> None:
        held = []
        for _ in range(MAX_CONNECTIONS_PER_ADDRESS):
            reader, writer = await _connect(port, _line("203.0.113.7"))
            assert b"login:" in await _greeting(reader)
            held.append(writer)
        reader, writer = await _connect(port, _line("203.0.113.7"))
        assert b"Too many connections from your address." in await _greeting(reader)
        writer.close()
        reader, writer = await _connect(port, _line("198.51.100.9"))
        assert b"login:" in await _greeting(reader)
        held.append(writer)
        reader, writer = await _connect(port, b"login guest\r\n")
        assert await _greeting(reader) == b""  # closed: no PROXY line
        writer.close()
        async with httpx.AsyncClient() as client:
            answer = await client.get(f"{server.url}/healthz", timeout=1.0)
        assert answer.status_code == 200
        for writer in held:
            writer.close()

    asyncio.run(scenario())


@SQLITE_ONLY
def test_a_proxy_line_from_anyone_else_is_not_believed(server_factory: Any) -> None:
    """Without ``--fibs-proxy-protocol`` a PROXY line is only a line: the connection
    is counted as its own address, so a client cannot dodge the cap by naming
    others."""
    server = server_factory("--no-warm-up", "--no-bots", "--fibs-port", "0")
    port = _fibs_port(server)

    async def scenario() -> None:
        held = []
        for number in range(MAX_CONNECTIONS_PER_ADDRESS):
            reader, writer = await _connect(port, _line(f"203.0.113.{number + 1}"))
            assert b"login:" in await _greeting(reader)
            held.append(writer)
        reader, refused = await _connect(port, _line("198.51.100.9"))
        assert b"Too many connections from your address." in await _greeting(reader)
        for writer in [*held, refused]:
            writer.close()

    asyncio.run(scenario())
