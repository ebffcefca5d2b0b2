"""Events between server processes: what one process committed, the others hear.

With SQLite there is one process and :class:`LocalBus` does nothing. With
PostgreSQL, several ``backgammon serve`` processes share the database, and
:class:`PostgresBus` fans events out through ``LISTEN``/``NOTIFY`` on the channel
:data:`CHANNEL`: a match event is sent inside the very transaction that commits the
match's new actions (PostgreSQL delivers it only once that transaction commits), so
another process can never hear of an action before it is stored. Each process then
reads the new actions from the database and tells its own clients. Events are small
JSON objects (PostgreSQL caps a notification at 8,000 bytes); each carries its
sender's ``origin`` so a process ignores its own.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

__all__ = ["CHANNEL", "EventBus", "LocalBus", "PostgresBus"]

CHANNEL = "backgammon_events"
"""The PostgreSQL notification channel."""

MAX_PAYLOAD = 7900
"""The largest event sent (PostgreSQL refuses notifications of 8,000 bytes or more)."""

log = logging.getLogger("backgammon.server")

Handler = Callable[[dict[str, Any]], Coroutine[Any, Any, None]]


class EventBus(Protocol):
    """How a process tells the others (and hears them)."""

    origin: str

    async def start(self, handler: Handler) -> None:
        """Begin delivering other processes' events to ``handler``."""
        ...

    def send(self, event: dict[str, Any]) -> None:
        """Tell the other processes (after whatever was committed before)."""
        ...

    async def send_in(self, connection: AsyncConnection, event: dict[str, Any]) -> None:
        """Tell the other processes when ``connection``'s transaction commits."""
        ...

    async def close(self, farewell: dict[str, Any] | None = None) -> None:
        """Stop listening, telling the others ``farewell`` first (if given)."""
        ...


class LocalBus:
    """One process alone: nobody else to tell."""

    def __init__(self) -> None:
        self.origin = secrets.token_hex(6)

    async def start(self, handler: Handler) -> None:
        """Nothing to listen to."""

    def send(self, event: dict[str, Any]) -> None:
        """Nobody to tell."""

    async def send_in(self, connection: AsyncConnection, event: dict[str, Any]) -> None:
        """Nobody to tell."""

    async def close(self, farewell: dict[str, Any] | None = None) -> None:
        """Nothing to close."""


class PostgresBus:
    """``LISTEN``/``NOTIFY`` on a PostgreSQL database (``url`` in asyncpg's form,
    ``postgresql://...``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.origin = secrets.token_hex(6)
        self._listener: Any = None
        self._sender: Any = None
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._handler: Handler | None = None

    def _payload(self, event: dict[str, Any]) -> str | None:
        payload = json.dumps({**event, "origin": self.origin}, separators=(",", ":"))
        if len(payload.encode()) > MAX_PAYLOAD:
            log.warning("event too large to notify (%d bytes): %s", len(payload), event.get("k"))
            return None
        return payload

    async def start(self, handler: Handler) -> None:
        """Open the listening and sending connections."""
        import asyncpg  # type: ignore[import-untyped]

        self._handler = handler
        self._listener = await asyncpg.connect(self.url)
        self._sender = await asyncpg.connect(self.url)
        await self._listener.add_listener(CHANNEL, self._heard)
        self._tasks.add(asyncio.create_task(self._send_forever()))

    def _heard(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        try:
            event = json.loads(payload)
        except ValueError:
            return
        if event.get("origin") == self.origin or self._handler is None:
            return
        task = asyncio.create_task(self._handler(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def send(self, event: dict[str, Any]) -> None:
        """Queue an event for the sending connection."""
        payload = self._payload(event)
        if payload is not None:
            self._outbox.put_nowait(payload)

    async def _send_forever(self) -> None:
        while True:
            payload = await self._outbox.get()
            try:
                await self._sender.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
            except Exception:  # pragma: no cover - logged; the next event is tried
                log.exception("could not notify the other processes")

    async def send_in(self, connection: AsyncConnection, event: dict[str, Any]) -> None:
        """NOTIFY inside the caller's transaction (delivered when it commits)."""
        payload = self._payload(event)
        if payload is not None:
            await connection.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": CHANNEL, "payload": payload},
            )

    async def close(self, farewell: dict[str, Any] | None = None) -> None:
        """Close both connections, after sending ``farewell`` (if given) at once,
        ahead of anything still queued."""
        for task in list(self._tasks):
            task.cancel()
        payload = None if farewell is None else self._payload(farewell)
        if payload is not None and self._sender is not None:
            try:
                await self._sender.execute("SELECT pg_notify($1, $2)", CHANNEL, payload)
            except Exception:  # pragma: no cover - the others expire this process instead
                log.exception("could not say goodbye to the other processes")
        for connection in (self._listener, self._sender):
            if connection is not None:
                await connection.close()
