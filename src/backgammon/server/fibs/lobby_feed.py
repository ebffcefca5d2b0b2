"""The lobby told to a listener's FIBS sessions: each event formatted once, and what
gathered written to every session in one write per tick.

A login storm is quadratic in FIBS: each of N arriving users is announced to everyone
online (CLIP's ``7 NAME NAME logs in.`` and the newcomer's who line). Queued as one
message per session, each announcement woke N tasks that each formatted the same two
lines: with 2,000 sessions that was a quarter of the event loop, and every match that
started (a lobby event too, for ``watch NAME``) cost as much again. The feed is the
listener's one listener to the lobby instead:

- an event's lines are formatted once, in three views (a CLIP client; a person with
  ``notify`` on; one with it off);
- every :data:`FLUSH_INTERVAL` at most, the lines gathered since the last tick are
  written to every session's socket at once, the same text for all (a session whose
  own login or logout is in the batch gets the batch without it); a quiet lobby's
  event goes out at once;
- what concerns a few sessions only goes to their own queue, handled by their pump as
  before: a match starting (sessions watching someone by name), a login someone waits
  for (``waitfor``), a shout (``gag`` applies).

A session joins the feed before its who list is read and is held (its lines kept)
until its welcome is written, so no login or logout falls between the list and the
notices. A client whose socket holds more than :data:`WRITE_BUFFER_LIMIT` unread bytes
is disconnected as too slow, as a full queue is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from backgammon.server.db.repository import User
from backgammon.server.fibs.clip import line_safe
from backgammon.server.fibs.who_lines import WhoLines
from backgammon.server.lobby.hub import Connection
from backgammon.server.service import GameService, ServiceError

__all__ = ["FLUSH_INTERVAL", "WRITE_BUFFER_LIMIT", "FeedMember", "LobbyFeed"]

FLUSH_INTERVAL = 0.5
"""The shortest time between two writes of lobby lines to the sessions, in seconds."""

WRITE_BUFFER_LIMIT = 1 << 20
"""Bytes a client may leave unread before it is disconnected as too slow."""

FEED_USER = User(id=-1, name="", kind="system")
"""Whom the feed's connection belongs to (no account: it is never online)."""

CLIP, NOTIFY, QUIET = 0, 1, 2
"""A session's view of the lobby: a CLIP client, a person with ``notify`` on, off."""

log = logging.getLogger("backgammon.server.fibs")


class FeedMember(Protocol):
    """What the feed needs of a session (a FIBS session is one): its login, what it
    waits for and how it is told. The feed imports no session: sessions import it."""

    @property
    def connection(self) -> Connection | None:
        """The session's connection to the service (None before login)."""

    @property
    def user(self) -> User | None:
        """Who logged in (None before login)."""

    @property
    def watched_name(self) -> str | None:
        """The player watched by name (``watch NAME``), told when they start a match."""

    @property
    def waiting_for(self) -> set[str]:
        """The users whose login the session waits for (``waitfor``)."""

    @property
    def lobby_view(self) -> int:
        """Which lines the session is told: :data:`CLIP`, :data:`NOTIFY` or :data:`QUIET`."""

    def write_lobby(self, text: str) -> bool:
        """Write lines (safe, with their ends) at once; False when the client is too
        slow to read them."""


@dataclass(frozen=True)
class _Told:
    """One lobby event as lines (with their ends) for each view."""

    name: str
    texts: tuple[str, str, str]


class LobbyFeed:
    """One listener's lobby events, formatted once and written to its sessions.

    Args:
        service: the game service (whose lobby the feed listens to).
        who_lines: the listener's rendered who lines.
        interval: the shortest time between two writes (:data:`FLUSH_INTERVAL`).
    """

    def __init__(
        self, service: GameService, who_lines: WhoLines, interval: float = FLUSH_INTERVAL
    ) -> None:
        self.service = service
        self.who_lines = who_lines
        self.interval = interval
        # Each session, with its lines held while its welcome is written (None: told).
        self._members: dict[FeedMember, list[str] | None] = {}
        self._told: list[_Told] = []
        self._started: list[dict[str, Any]] = []
        self._online: dict[str, dict[str, Any]] = {}
        self._connection: Connection | None = None
        self._pump: asyncio.Task[None] | None = None
        self._flush_at: asyncio.TimerHandle | None = None
        self._last_flush = 0.0

    def join(self, session: FeedMember) -> None:
        """Tell the lobby to ``session`` from now on, held until :meth:`release`."""
        self._members[session] = []
        if self._pump is None:
            connection = Connection(FEED_USER, queue_size=0)
            connection.lobby_events = frozenset({"online", "offline", "match_started"})
            self.service.hub.join(connection, "lobby")
            self._connection = connection
            self._pump = asyncio.create_task(self._run(connection))

    def release(self, session: FeedMember) -> None:
        """``session``'s welcome is written: send what was held, then tell it live."""
        held = self._members.get(session)
        if held:
            self._write(session, "".join(held))
        if session in self._members:
            self._members[session] = None

    async def leave(self, session: FeedMember) -> None:
        """Stop telling ``session``; the feed stops listening after its last one."""
        self._members.pop(session, None)
        if not self._members:
            await self.stop()

    async def stop(self) -> None:
        """Stop listening to the lobby (the sessions are told nothing more)."""
        if self._flush_at is not None:
            self._flush_at.cancel()
            self._flush_at = None
        self._told, self._started, self._online = [], [], {}
        connection, pump = self._connection, self._pump
        self._connection, self._pump = None, None
        if connection is not None:
            self.service.hub.leave(connection, "lobby")
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump

    # -- events in ---------------------------------------------------------------------

    async def _run(self, connection: Connection) -> None:
        while True:
            message = await connection.queue.get()
            if message is None:
                return
            try:
                await self._take(message)
            except Exception:  # pragma: no cover - logged; the feed goes on
                log.exception("FIBS lobby feed could not tell an event")

    async def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "chat":
            for session in list(self._members):
                if session.connection is not None:
                    session.connection.send(message)
            return
        if kind != "lobby_event":
            return
        event = message.get("event")
        if event == "match_started":
            self._started.append(message)
            self._schedule()
            return
        user = message.get("user") or {}
        name = line_safe(str(user.get("name") or ""))
        if not name:
            return
        if event == "online":
            who = await self._who_line(int(message["user_id"]))
            clip = f"7 {name} {name} logs in.\r\n" + (f"{who}\r\n" if who else "")
            self._told.append(_Told(name, (clip, f"{name} logs in.\r\n", "")))
            self._online[name] = message
        elif event == "offline":
            logout = f"{name} logs out.\r\n"
            drop = f"8 {name} {name} drops connection.\r\n"
            self._told.append(_Told(name, (drop, logout, logout)))
        else:
            return
        self._schedule()

    async def status_changed(self, user_id: int, name: str) -> None:
        """``name`` toggled ``ready`` or began or stopped watching: their who line,
        and the end of who lines (``6``), to the CLIP clients with the next write."""
        who = await self._who_line(user_id)
        if who:
            self._told.append(_Told(line_safe(name), (f"{who}\r\n6\r\n", "", "")))
            self._schedule()

    async def _who_line(self, user_id: int) -> str:
        try:
            facts = self.service.who_kept(user_id) or await self.service.who(user_id)
        except ServiceError:
            return ""  # gone already
        return self.who_lines.line(user_id, facts)

    # -- lines out ---------------------------------------------------------------------

    def _schedule(self) -> None:
        if self._flush_at is not None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self._last_flush + self.interval - loop.time())
        self._flush_at = loop.call_later(delay, self._flush)

    def _flush(self) -> None:
        """Write what gathered since the last tick to every session."""
        self._flush_at = None
        self._last_flush = asyncio.get_running_loop().time()
        told, self._told = self._told, []
        started, self._started = self._started, []
        online, self._online = self._online, {}
        names = {item.name for item in told}
        shared: dict[int, str] = {}
        for session, held in list(self._members.items()):
            connection, user = session.connection, session.user
            if connection is None or connection.closed or user is None:
                continue
            if started and session.watched_name is not None:
                for message in started:
                    connection.send(message)
            if session.waiting_for:
                for name in session.waiting_for & online.keys():
                    connection.send(online[name])
            view = session.lobby_view
            if user.name in names:
                text = "".join(item.texts[view] for item in told if item.name != user.name)
            else:
                text = shared.get(view, "")
                if view not in shared:
                    text = shared[view] = "".join(item.texts[view] for item in told)
            if not text:
                continue
            if held is not None:
                held.append(text)
            else:
                self._write(session, text)

    @staticmethod
    def _write(session: FeedMember, text: str) -> None:
        if not session.write_lobby(text) and session.connection is not None:
            session.connection.overflowed = True
            session.connection.close()
