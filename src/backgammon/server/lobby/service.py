"""The lobby and connections: who is connected and where, presence, the who list, the
lobby's snapshot and events, subscriptions.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

import time
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from backgammon import __version__
from backgammon.server.common import (
    LOBBY_CACHE_SECONDS,
    VIEWER_ROOMS,
    ServiceError,
    _login_required,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import MatchRow, User
from backgammon.server.lobby.hub import Connection
from backgammon.server.lobby.presence import WhoFacts
from backgammon.server.protocol import (
    PROTOCOL_VERSION,
)

if TYPE_CHECKING:
    from backgammon.server.service import GameService


LIVE_SHOWN = 12
"""The most matches in play the landing page lists."""


class LobbyService:
    """The lobby and connections: who is connected and where, presence, the who list, the
    lobby's snapshot and events, subscriptions."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    def _away_since(self, user: User) -> float | None:
        """Since when ``user`` has had no connection in any process, as this process
        knows it (None: connected; bots always are)."""
        if user.kind == "bot" or self._connected(user.id):
            return None
        return self.site._left_at.get(user.id, self.site._started_at)

    def _connected(self, user_id: int) -> bool:
        return bool(self.site.hub.connections_of(user_id)) or user_id in self.site._elsewhere

    def _presence_changed(self, user_id: int) -> None:
        """After a connection of ``user_id`` came or went (here or elsewhere): if the
        user went from connected to away or back, note when, and tell every match
        room here where they sit."""
        connected = self._connected(user_id)
        if connected == (user_id in self.site._present):
            return
        if connected:
            self.site._present.add(user_id)
            self.site._left_at.pop(user_id, None)
        else:
            self.site._present.discard(user_id)
            self.site._left_at[user_id] = self.site.clock.now()
        matches = self.site._matches_of.get(user_id, set())
        for match_id in list(matches):
            seats = self.site._seats.get(match_id)
            if seats is None or not any(u is not None and u.id == user_id for u in seats.users):
                matches.discard(match_id)
            elif self.site.hub.has_room(match_id):
                self.site.hub.publish(match_id, self.presence(match_id))
        if not matches:
            self.site._matches_of.pop(user_id, None)

    def presence(self, match_id: str) -> dict[str, Any]:
        """A live match's ``presence`` message: for each seat whether its player is
        connected, whether at the match's board (a connection of theirs in this
        process hears the match; a bot always is), and since when they have been
        away (server time), the wait before a claim (None in a match with a clock)
        and the server's time now."""
        seats = self.site.match_service._seating(match_id)
        live = self.site._live.get(match_id)
        players: list[dict[str, Any] | None] = []
        for user in () if seats is None else seats.users:
            players.append(None if user is None else self._seat_presence(user, match_id))
        untimed = live is not None and live.settings.clock is None
        return {
            "type": "presence",
            "match": match_id,
            "players": players,
            "claim_after": self.site.settings.claim_after if untimed else None,
            "now": self.site.clock.now(),
        }

    def _seat_presence(self, user: User, match_id: str) -> dict[str, Any]:
        away = self._away_since(user)
        at_board = user.kind == "bot" or self.site.hub.user_in_room(user.id, match_id)
        return {"connected": away is None, "at_board": at_board, "away_since": away}

    def board_changed(self, connection: Connection, room: str) -> None:
        """After ``connection`` began or stopped hearing a match: if its user plays
        in it, tell the match's room whether they are at the board."""
        seats = self.site.match_service._seating(room)
        if seats is None or seats.seat_of(connection.user) is None:
            return
        if self.site.hub.has_room(room) and room in self.site._live:
            self.site.hub.publish(room, self.presence(room))

    def unsubscribe(self, connection: Connection, room: str) -> None:
        """Stop a client hearing a match (or the lobby); its players are told if it
        was a player's."""
        was_here = room in connection.rooms
        self.site.hub.leave(connection, room)
        if was_here and room != "lobby":
            self.board_changed(connection, room)

    async def _summary(self, row: MatchRow) -> dict[str, Any]:
        # Each distinct user once: a started invitation's invitee is one of its players.
        ids = (row.player0, row.player1, row.invitee)
        names = [await self._name_of(user_id) for user_id in ids]
        return {
            "id": row.id,
            "status": row.status,
            "settings": row.config,
            "players": names[:2],
            "invitee": names[2],
            "rated": row.rated,
            "public": row.public,
            "commitment": row.commitment,
            "result": row.result,
            "created_at": row.created_at,
        }

    async def _name_of(self, user_id: int | None) -> str | None:
        """A user's name (None for no user), from memory after the first time."""
        if user_id is None:
            return None
        name = self.site._names.get(user_id)
        if name is None:
            async with self.site.db.transaction() as connection:
                user = await repo.user_by_id(connection, user_id)
            if user is None:
                return None
            name = user.name
            self.site._names.put(user_id, name)
        return name

    async def _read_who(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        async with self.site.db.transaction() as connection:
            rows = await repo.who_facts(connection, user_ids)
        return {user_id: WhoFacts(*row) for user_id, row in rows.items()}

    async def who(self, user_id: int) -> WhoFacts:
        """What the who list shows of a user: rating, experience, current opponent
        (kept in memory briefly: see :mod:`backgammon.server.lobby.presence`).

        Raises:
            ServiceError: ``not_found`` for no such user.
        """
        facts = await self.site._who.get(user_id)
        if facts is None:
            raise ServiceError("not_found", f"no user {user_id}", 404)
        return facts

    async def who_many(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        """:meth:`who` of several users at once (those that exist), read together."""
        return await self.site._who.get_many(user_ids)

    def who_kept(self, user_id: int) -> WhoFacts | None:
        """:meth:`who` of a user if the facts are kept in memory and fresh (no wait)."""
        return self.site._who.peek(user_id)

    def online_names(self) -> list[tuple[int, str]]:
        """Everyone online in any process (user id, name), by name: :meth:`online`
        without the public facts, for the lists that need only names."""
        here = {user.id: user.name for user in self.site.hub.online()}
        for key, public in self.site._elsewhere.items():
            here.setdefault(key, str(public["name"]))
        return sorted(here.items(), key=itemgetter(1))

    def online(self) -> list[tuple[int, dict[str, Any]]]:
        """Everyone online in any process (user id, public facts), by name, with no
        database query."""
        here = {user.id: user.public() for user in self.site.hub.online()}
        for key, public in self.site._elsewhere.items():
            here.setdefault(key, public)
        return sorted(here.items(), key=lambda item: str(item[1]["name"]))

    async def lobby(self, user: User) -> dict[str, Any]:
        """The lobby as ``user`` sees it: who is online, the bots, the open public
        matches that invite no one in particular, the invitations to ``user``
        (``invitations``), ``user``'s own invitations and unlisted matches still
        open (``sent``), the public matches in play, and ``user``'s own matches in
        play (``yours``: public or not, against people or bots: a returning player
        is told they wait). The open matches and those
        in play are summarised once for everyone (:meth:`_lobby_matches`)."""
        shared = await self._lobby_matches()
        async with self.site.db.transaction() as connection:
            own = await repo.list_matches(connection, status="open", user_id=user.id)
            in_play = await repo.list_matches(connection, status="playing", user_id=user.id)
            friend_ids = await repo.friend_ids(connection, user.id)
        listed: set[str] = shared["listed"]
        online = self.online()
        shown = [user_id for user_id, _public in online] + friend_ids + shared["players"]
        shown += [bot.id for bot in self.site._bot_users.values()]
        for row in own + in_play:
            shown += [i for i in (row.player0, row.player1, row.invitee) if i is not None]
        facts = await self.who_many(list(dict.fromkeys(shown)))
        return {
            "type": "lobby",
            "protocol": PROTOCOL_VERSION,
            "ratings": {f.name: round(f.rating) for f in facts.values() if f.kind != "guest"},
            "friends": self.site.social_service._friend_entries(friend_ids, facts),
            "online": [public for _user_id, public in online],
            "bots": [bot.public() for bot in self.site._bot_users.values()],
            "open": shared["open"],
            "invitations": [await self._summary(row) for row in own if row.invitee == user.id],
            "sent": [
                await self._summary(row)
                for row in own
                if row.player0 == user.id and row.player1 is None and row.id not in listed
            ],
            "playing": shared["playing"],
            "yours": [await self._summary(row) for row in in_play],
        }

    async def live(self) -> dict[str, Any]:
        """What anyone, without an account, may see of the lobby (the landing page):
        the public matches in play to watch (at most :data:`LIVE_SHOWN`, with their
        players' ratings) and how many public matches wait for an opponent. From the
        lobby's shared part (:meth:`_lobby_matches`): no query of its own while that
        is kept."""
        shared = await self._lobby_matches()
        playing = shared["playing"][:LIVE_SHOWN]
        return {"playing": playing, "waiting": len(shared["open"])}

    async def _lobby_matches(self) -> dict[str, Any]:
        """The lobby's part that is the same for everyone: the open public matches
        that invite no one (``open``, their ids ``listed``), the public matches in
        play (``playing``) and the ids of their ``players``. Built once and shared
        until a lobby event about a match (here or in another process) or
        :data:`LOBBY_CACHE_SECONDS`; one build at a time."""
        async with self.site._lobby_building:
            cached = self.site._lobby_cache
            if cached is not None and time.monotonic() - cached[0] < LOBBY_CACHE_SECONDS:
                return cached[1]
            changes = self.site._lobby_changes
            async with self.site.db.transaction() as connection:
                open_rows = await repo.list_matches(
                    connection, status="open", public_only=True, open_to_all=True
                )
                playing = await repo.list_matches(connection, status="playing", limit=100)
            players: list[int] = []
            for row in (*open_rows, *playing):
                players += [i for i in (row.player0, row.player1, row.invitee) if i is not None]
            shared = {
                "open": [await self._summary(row) for row in open_rows],
                "listed": {row.id for row in open_rows},
                # (_findable without the user's own: the web lists those as "sent")
                "playing": [await self._summary(row) for row in playing if row.public],
                "players": list(dict.fromkeys(players)),
            }
            if changes == self.site._lobby_changes:  # (else built while it changed: not kept)
                self.site._lobby_cache = (time.monotonic(), shared)
            return shared

    def _lobby_changed(self, event: dict[str, Any]) -> None:
        """Forget the lobby's shared part if ``event`` changes its matches."""
        if event.get("event") not in ("online", "offline"):
            self.site._lobby_changes += 1
            self.site._lobby_cache = None

    def _lobby_event(self, event: dict[str, Any]) -> None:
        self._lobby_changed(event)
        self.site._to_room("lobby", {"type": "lobby_event", **event})

    def connect(self, connection: Connection, since: int | None = None) -> None:
        """Register a client; the lobby hears that its user came online.

        ``since``: the :attr:`moderation_epoch` taken before the client was
        authenticated; if the user was kicked or banned after it, the connection is
        closed at once (the kick was heard before the connection was registered).
        """
        if self.site.hub.add(connection):
            self._lobby_event(
                {"event": "online", "user": connection.user.public(), "user_id": connection.user.id}
            )
            self._presence_changed(connection.user.id)
        connection.send(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "server": f"backgammon {__version__}",
                "user": connection.user.public(),
            }
        )
        if since is not None and self.site._standings.closed_since(connection.user.id, since):
            connection.send({"type": "kicked", "message": "kick by an administrator"})
            connection.close()

    def connect_capped(self, connection: Connection, since: int | None = None) -> None:
        """:meth:`connect` a client that opens as many connections as it likes (a
        WebSocket), within ``websockets_per_user`` connections of its user and
        ``websockets_per_address`` of its client address (an IPv6 client's /64).

        Raises:
            ServiceError: ``throttled`` when either is reached (nothing registered).
        """
        per_user = self.site.settings.websockets_per_user
        if len(tuple(self.site.hub.connections_of(connection.user.id))) >= per_user:
            raise ServiceError(
                "throttled",
                f"too many connections of yours (at most {per_user}): close another tab",
                429,
                retry_after=10,
            )
        per_address = self.site.settings.websockets_per_address
        if connection.network and self.site.hub.connections_from(connection.network) >= per_address:
            raise ServiceError(
                "throttled",
                f"too many connections from your address (at most {per_address})",
                429,
                retry_after=10,
            )
        self.connect(connection, since)

    def connect_viewer(self, connection: Connection) -> None:
        """Register an anonymous viewer (a connection of
        :data:`~backgammon.server.lobby.hub.ANONYMOUS`): no one hears of it, and it may
        only watch matches (:meth:`subscribe`).

        Raises:
            ServiceError: ``throttled`` when its address has ``viewers_per_address``
                viewers connected here, ``busy`` when this process has ``viewers``.
        """
        per_address = self.site.settings.viewers_per_address
        if self.site.hub.viewers_from(connection.network) >= per_address:
            raise ServiceError(
                "throttled",
                f"too many anonymous viewers from your address (at most {per_address}): "
                "close another tab or log in",
                429,
                retry_after=10,
            )
        if self.site.hub.viewer_count >= self.site.settings.viewers:
            raise ServiceError(
                "busy", "too many anonymous viewers: log in to watch", 503, retry_after=10
            )
        self.site.hub.add_viewer(connection)
        connection.send(
            {
                "type": "welcome",
                "protocol": PROTOCOL_VERSION,
                "server": f"backgammon {__version__}",
                "user": None,
            }
        )

    def disconnect(self, connection: Connection) -> None:
        """Forget a client; the lobby hears if its user went offline."""
        connection.close()
        if connection.anonymous:
            self.site.hub.remove_viewer(connection)
            return
        if self.site.hub.remove(connection):
            self._lobby_event(
                {
                    "event": "offline",
                    "user": connection.user.public(),
                    "user_id": connection.user.id,
                }
            )
            self._presence_changed(connection.user.id)

    async def subscribe(self, connection: Connection, room: str, snapshot: bool = True) -> None:
        """Let a client hear a match (its whole state now, then every change) or the
        lobby (a snapshot now unless ``snapshot`` is False or the client hears the
        lobby already: it has had its snapshot, and events since). An
        anonymous viewer hears a started match's state and presence only, in at most
        :data:`VIEWER_ROOMS` matches at once.

        Raises:
            ServiceError: ``not_found``; for an anonymous viewer, ``login_required``
                (the lobby, an open match) or ``too_many`` (rooms).
        """
        if connection.anonymous:
            if room == "lobby":
                raise _login_required("see the lobby")
            if room not in connection.rooms and len(connection.rooms) >= VIEWER_ROOMS:
                raise ServiceError(
                    "too_many", f"an anonymous viewer watches at most {VIEWER_ROOMS} matches"
                )
        if room == "lobby":
            if room in connection.rooms:
                return  # (each snapshot was a database read and tens of kilobytes)
            self.site.hub.join(connection, room)
            if snapshot:
                connection.send(await self.lobby(connection.user))
                async with self.site.db.transaction() as connection_db:
                    shouts = await repo.recent_chat(connection_db, "lobby")
                connection.send({"type": "chat_history", "room": "lobby", "lines": shouts})
            return
        prefix = room.partition(":")[0] + ":"
        if prefix in self.site.room_snapshots:
            message = await self.site.room_snapshots[prefix](room)  # refuses an unknown room
            self.site.hub.join(connection, room)
            connection.send(message)
            return
        # Every change to a match is published under its lock, so under the lock the
        # snapshot and the joining are one step: each later change is heard after the
        # snapshot (an invitation accepted meanwhile reaches a spectator who
        # subscribed while it was open), and none is lost in between.
        async with self.site._lock(room):
            state = await self.site.match_service.state(room, anonymous=connection.anonymous)
            joined = room not in connection.rooms
            self.site.hub.join(connection, room)
            connection.send({"type": "state", "match": room, "entries": [], "state": state})
            if "open" not in state:
                connection.send(self.presence(room))
                if joined:
                    self.board_changed(connection, room)
        seated = self.site.match_service._seating(room)
        if seated is not None:
            ids = [u.id for u in seated.users if u is not None]
            connection.send(
                {"type": "ratings", "ratings": await self.site.social_service.ratings_of(ids)}
            )
        if connection.anonymous:
            return  # no chat for anonymous viewers
        async with self.site.db.transaction() as connection_db:
            chat = await repo.recent_chat(connection_db, room)
        seats = self.site.match_service._seating(room)
        is_player = seats is not None and seats.seat_of(connection.user) is not None
        visible = [line for line in chat if line["audience"] == "all" or not is_player]
        if visible:
            connection.send({"type": "chat_history", "room": room, "lines": visible})
