"""Live connections and the rooms they listen to, with a bounded queue each.

A :class:`Connection` is one client's WebSocket (or another front end's session):
what is sent to it goes through its own queue, drained by its own writer task, so a
slow client never delays anyone else; a client whose queue fills is disconnected
(it reconnects and gets the whole state). Rooms are ``"lobby"`` and match ids.

An anonymous viewer (someone watching a match without an account) is a connection of
:data:`ANONYMOUS`, counted by client network (an IPv6 client by its /64) and told
only a match's public messages (:data:`VIEWER_MESSAGES`).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from typing import Any

from backgammon.server.accounts.throttle import client_address
from backgammon.server.db.repository import User

__all__ = ["ANONYMOUS", "VIEWER_MESSAGES", "Connection", "Hub", "Message"]

ANONYMOUS = User(id=0, name="", kind="anonymous")
"""Who an anonymous viewer is: no account (no user has id 0), seated nowhere."""

VIEWER_MESSAGES = frozenset(
    {
        "welcome",
        "state",
        "presence",
        "chouette",
        "chouette_tables",
        "chouette_table",
        "error",
        "pong",
    }
)
"""What an anonymous viewer is told: a match's (or a chouette table's) state and who
is connected, the list of chouette tables, and the answers to its own messages (no
chat, lobby or user's message)."""


class Message(dict[str, Any]):
    """A message for clients: a dict, turned into JSON text once however many
    connections send it."""

    __slots__ = ("_text",)

    def json(self) -> str:
        """The message as compact JSON (computed on first use, then kept)."""
        try:
            return self._text
        except AttributeError:
            self._text: str = json.dumps(self, separators=(",", ":"))
            return self._text


class Connection:
    """One client: who it is, what it listens to, and its outgoing queue.

    Args:
        user: the logged-in account, or :data:`ANONYMOUS` for a viewer.
        queue_size: messages that may wait for a slow client before it is dropped.
        address: the client's address; :attr:`network`, what a user's connections
            and anonymous viewers are counted by, is its IPv6 /64 (an IPv4 address
            itself).
    """

    def __init__(self, user: User, queue_size: int = 256, address: str = "") -> None:
        self.user = user
        self.address = address
        self.network = client_address(address) if address else ""
        self.rooms: set[str] = set()
        self.queue: asyncio.Queue[Message | None] = asyncio.Queue(queue_size)
        self.closed = False
        self.overflowed = False
        self.lobby_events: frozenset[str] | None = None
        """The lobby events this client is told of (None: all): a FIBS client hears
        who comes and goes and which matches start, not open or finished ones."""
        self.reads_legal_plays = True
        """Whether the client is sent each roll's legal plays in a match's state (a
        FIBS client is not: it is sent boards, and a match whose every connection is
        one is published without them, see :meth:`Hub.any_reads_legal_plays`)."""

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a full queue marks the client as too slow and closes it."""
        if self.closed:
            return
        if self.anonymous and message.get("type") not in VIEWER_MESSAGES:
            return
        if (
            self.lobby_events is not None
            and message.get("type") == "lobby_event"
            and message.get("event") not in self.lobby_events
        ):
            return
        if not isinstance(message, Message):
            message = Message(message)
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            self.close()

    @property
    def anonymous(self) -> bool:
        """Whether this is an anonymous viewer (read-only, no account)."""
        return self.user.id == ANONYMOUS.id

    def close(self) -> None:
        """Stop sending; the writer ends when it reaches the marker."""
        if not self.closed:
            self.closed = True
            try:
                self.queue.put_nowait(None)
            except asyncio.QueueFull:
                # The writer sees ``closed`` after draining; make room for the marker.
                self.queue.get_nowait()
                self.queue.put_nowait(None)


class Hub:
    """Every connection of this process, by room and by user."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}
        self._by_user: dict[int, set[Connection]] = {}
        self._viewers: dict[str, set[Connection]] = {}
        self._by_network: dict[str, int] = {}

    def add_viewer(self, connection: Connection) -> None:
        """Register an anonymous viewer (by its network: an IPv6 client's /64; it is
        no user's)."""
        self._viewers.setdefault(connection.network, set()).add(connection)

    def remove_viewer(self, connection: Connection) -> None:
        """Forget an anonymous viewer and the rooms it listened to."""
        for room in list(connection.rooms):
            self.leave(connection, room)
        viewers = self._viewers.get(connection.network, set())
        viewers.discard(connection)
        if not viewers:
            self._viewers.pop(connection.network, None)

    def viewers_from(self, network: str) -> int:
        """Anonymous viewers connected here from ``network`` (a :attr:`Connection.network`:
        an IPv4 address, or an IPv6 client's /64)."""
        return len(self._viewers.get(network, ()))

    @property
    def viewer_count(self) -> int:
        """Anonymous viewers connected here."""
        return sum(len(viewers) for viewers in self._viewers.values())

    def add(self, connection: Connection) -> bool:
        """Register a connection; True if it is the user's first here."""
        connections = self._by_user.setdefault(connection.user.id, set())
        if connection not in connections and connection.network:
            self._by_network[connection.network] = self.connections_from(connection.network) + 1
        connections.add(connection)
        return len(connections) == 1

    def connections_from(self, network: str) -> int:
        """Users' connections here from ``network`` (a :attr:`Connection.network`)."""
        return self._by_network.get(network, 0)

    def remove(self, connection: Connection) -> bool:
        """Forget a connection; True if the user has no other connection here."""
        for room in list(connection.rooms):
            self.leave(connection, room)
        connections = self._by_user.get(connection.user.id, set())
        if connection in connections and connection.network:
            left = self._by_network.pop(connection.network, 1) - 1
            if left:
                self._by_network[connection.network] = left
        connections.discard(connection)
        if not connections:
            self._by_user.pop(connection.user.id, None)
            return True
        return False

    def join(self, connection: Connection, room: str) -> None:
        """Let ``connection`` hear ``room``."""
        connection.rooms.add(room)
        self._rooms.setdefault(room, set()).add(connection)

    def leave(self, connection: Connection, room: str) -> None:
        """Stop ``connection`` hearing ``room``."""
        connection.rooms.discard(room)
        members = self._rooms.get(room)
        if members is not None:
            members.discard(connection)
            if not members:
                del self._rooms[room]

    def user_in_room(self, user_id: int, room: str) -> bool:
        """Whether a connection of ``user_id`` here listens to ``room``."""
        return any(member.user.id == user_id for member in self._rooms.get(room, ()))

    def has_room(self, room: str) -> bool:
        """Whether any connection here listens to ``room``."""
        return bool(self._rooms.get(room))

    def publish(
        self,
        room: str,
        message: dict[str, Any],
        only: Callable[[Connection], bool] | None = None,
    ) -> int:
        """Send ``message`` to the room's connections (those ``only`` accepts);
        returns how many got it."""
        sent = 0
        shared = message if isinstance(message, Message) else Message(message)
        for connection in list(self._rooms.get(room, ())):
            if only is None or only(connection):
                connection.send(shared)
                sent += 1
        return sent

    def any_reads_legal_plays(self, room: str) -> bool:
        """Whether a connection in ``room`` is sent the legal plays in match states."""
        return any(connection.reads_legal_plays for connection in self._rooms.get(room, ()))

    def connections_of(self, user_id: int) -> Iterable[Connection]:
        """The user's connections here."""
        return tuple(self._by_user.get(user_id, ()))

    def online(self) -> list[User]:
        """Users with at least one connection here."""
        return [next(iter(connections)).user for connections in self._by_user.values()]

    @property
    def connection_count(self) -> int:
        """Open connections."""
        return sum(len(connections) for connections in self._by_user.values())

    def close_all(self) -> None:
        """Close every connection (shutdown)."""
        for connections in [*self._by_user.values(), *self._viewers.values()]:
            for connection in list(connections):
                connection.close()
