"""The FIBS listener: a line-based TCP server (asyncio streams) that runs a
:class:`~backgammon.server.fibs.session.FibsSession` per connection.

Lines end in LF (a CR before it is dropped); telnet's IAC negotiation bytes are
removed. A line longer than :data:`MAX_LINE` bytes is discarded with an error and the
connection stays open, as FIBS keeps it; bytes that are not UTF-8 text get an error
too. Connections per address are limited (an IPv6 client by its /64, as the login
throttles count it: one subscriber holds a whole /64). Behind a TCP load balancer the
client's address comes from the PROXY protocol line the balancer sends first
(:mod:`~backgammon.server.fibs.proxy_protocol`), read only from the balancers named.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import re
from collections.abc import Iterable

from backgammon.server.accounts.throttle import client_address
from backgammon.server.fibs.lobby_feed import WRITE_BUFFER_LIMIT, LobbyFeed
from backgammon.server.fibs.proxy_protocol import MAX_PROXY_LINE, ProxyLineError, proxy_source
from backgammon.server.fibs.session import FibsSession, LineTooLongError
from backgammon.server.fibs.who_lines import WhoLines
from backgammon.server.service import GameService

__all__ = ["MAX_LINE", "SHUTDOWN", "FibsListener"]

MAX_LINE = 4096
"""The longest line a client may send, in bytes."""

BACKLOG = 2048
"""Connections the kernel may hold before the listener accepts them (asyncio's
default, 100, drops connections when a restarted server is met by a thousand
reconnecting clients at once: their handshake completes, then nothing comes)."""

SHUTDOWN = "** The server is shutting down.\r\n** All running games will be saved.\r\n"
"""What every connection is told when the server stops (the second line is FIBS's)."""

MAX_CONNECTIONS_PER_ADDRESS = 20
"""Open FIBS connections one address (an IPv6 /64) may hold."""

PROXY_LINE_SECONDS = 5.0
"""How long a trusted balancer has to send its PROXY line (it sends it at once)."""

_TELNET = re.compile(rb"\xff[\xfb-\xfe].|\xff[\xf0-\xfa]|\xff\xff", re.DOTALL)

log = logging.getLogger("backgammon.server.fibs")


class FibsListener:
    """Accepts FIBS clients on ``host``:``port`` for a game service."""

    def __init__(
        self,
        service: GameService,
        host: str = "127.0.0.1",
        port: int = 4321,
        proxies: Iterable[str] = (),
    ) -> None:
        self.service = service
        self.host = host
        self.port = port
        self._proxies = [ipaddress.ip_network(proxy, strict=False) for proxy in proxies]
        self._server: asyncio.Server | None = None
        self._sessions: set[asyncio.Task[None]] = set()
        self._writers: set[asyncio.StreamWriter] = set()
        self._stopping = False
        self._per_address: dict[str, int] = {}
        self._who_lines = WhoLines()
        self._feed = LobbyFeed(service, self._who_lines)

    async def start(self) -> None:
        """Begin listening."""
        self._server = await asyncio.start_server(
            self._serve, self.host, self.port, limit=MAX_LINE, backlog=BACKLOG
        )
        sockets = self._server.sockets or ()
        if sockets:
            self.port = int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop listening and end every session, each told why first."""
        self._stopping = True
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            if not writer.is_closing():
                writer.write(SHUTDOWN.encode("utf-8"))
        for task in list(self._sessions):
            task.cancel()
        for task in list(self._sessions):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._feed.stop()

    async def _client(self, reader: asyncio.StreamReader, peer: str) -> str:
        """The client's address: ``peer``'s own, or from a trusted balancer the one
        its PROXY line names.

        Raises:
            ProxyLineError: a trusted balancer sent no valid PROXY line in time.
        """
        try:
            trusted = any(ipaddress.ip_address(peer) in net for net in self._proxies)
        except ValueError:
            trusted = False
        if not trusted:
            return peer
        try:
            line = await asyncio.wait_for(reader.readuntil(b"\n"), PROXY_LINE_SECONDS)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
            raise ProxyLineError("no PROXY line came from the load balancer") from None
        if len(line) > MAX_PROXY_LINE:
            raise ProxyLineError("the PROXY line is too long")
        return proxy_source(line) or peer

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        try:
            address = await self._client(reader, str(peer[0]) if peer else "unknown")
        except ProxyLineError as error:
            log.warning("FIBS connection from %s refused: %s", peer, error)
            writer.close()
            return
        key = client_address(address)
        if self._per_address.get(key, 0) >= MAX_CONNECTIONS_PER_ADDRESS:
            writer.write(b"** Too many connections from your address.\r\n")
            writer.close()
            return
        self._per_address[key] = self._per_address.get(key, 0) + 1
        task = asyncio.current_task()
        if task is not None:
            self._sessions.add(task)
        self._writers.add(writer)

        async def read_line() -> str:
            try:
                data = await reader.readuntil(b"\n")
            except asyncio.IncompleteReadError as error:
                if not error.partial:
                    raise EOFError from None
                data = error.partial
            except asyncio.LimitOverrunError:
                # Discard the rest of the long line, then report it.
                while True:
                    try:
                        await reader.readuntil(b"\n")
                        break
                    except asyncio.LimitOverrunError as overrun:
                        await reader.readexactly(overrun.consumed)
                    except asyncio.IncompleteReadError:
                        raise EOFError from None
                raise LineTooLongError from None
            cleaned = _TELNET.sub(b"", data).replace(b"\r", b"").rstrip(b"\n")
            text = cleaned.decode("utf-8")
            if any(ord(ch) < 32 and ch != "\t" for ch in text):
                raise UnicodeDecodeError("utf-8", cleaned, 0, len(cleaned), "control bytes")
            return text

        async def write(text: str) -> None:
            writer.write(text.encode("utf-8"))
            await writer.drain()

        def write_now(text: str) -> bool:
            if writer.transport.is_closing():
                return True  # gone: the session ends when its reader sees it
            writer.write(text.encode("utf-8"))
            return writer.transport.get_write_buffer_size() <= WRITE_BUFFER_LIMIT

        session = FibsSession(
            self.service, read_line, write, address, self._who_lines, self._feed, write_now
        )
        try:
            await session.run()
        except asyncio.CancelledError:
            if not self._stopping:
                raise  # (ended by the listener's stop: nothing to report)
        except Exception:  # pragma: no cover - logged; the listener goes on
            log.exception("FIBS session failed")
        finally:
            self._per_address[key] -= 1
            if not self._per_address[key]:
                del self._per_address[key]  # (kept, it would grow with every address)
            if task is not None:
                self._sessions.discard(task)
            self._writers.discard(writer)
            with contextlib.suppress(Exception):
                writer.close()
