"""Social: chat, tells and stored messages, gags, friends and ratings.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from backgammon.server.common import (
    MAX_FRIENDS,
    MAX_GAGS,
    MAX_STORED_FROM_ONE,
    MAX_STORED_MESSAGES,
    MAX_STORED_SENT,
    STORED_MESSAGE_DAYS,
    ServiceError,
    _Seats,
    _throttled,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import User

if TYPE_CHECKING:
    from backgammon.server.lobby.hub import Connection
    from backgammon.server.lobby.presence import WhoFacts
    from backgammon.server.service import GameService


class SocialService:
    """Social: chat, tells and stored messages, gags, friends and ratings."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    async def chat(self, user: User, room: str, text: str, audience: str = "auto") -> None:
        """Say ``text`` in the lobby or a match: players' words reach everyone there,
        spectators' only other spectators (``audience="spectators"``: a player
        whispers to the spectators only).

        Raises:
            ServiceError: ``bad_request`` for a text others may not receive (see
                :mod:`backgammon.server.social.user_text`), ``forbidden`` for a muted or
                banned user, ``throttled`` past the user's ``chat_lines_per_second``
                (all their rooms and tells together), ``not_found`` for a room.
        """
        await self.site.moderation_service._check_speaker(user, text)
        await self._take_chat_line(user)
        only: Callable[[Connection], bool] | None = None
        if room == "lobby":
            audience = "all"
        else:
            await self.site.match_service._view(room)
            seats = self.site.match_service._seating(room)
            assert seats is not None  # the match is held, live or finished
            if seats.seat_of(user) is None or audience == "spectators":
                # Spectators' words (and a player's whisper) reach spectators only.
                audience = "spectators"

                def only(connection: Connection, seats: _Seats = seats) -> bool:
                    return seats.seat_of(connection.user) is None

            else:
                audience = "all"
        now = self.site.clock.now()
        async with self.site.db.transaction() as connection:
            await repo.add_chat(connection, room, audience, user.id, text, now)
        message = {
            "type": "chat",
            "room": room,
            "from": user.name,
            "text": text,
            "audience": audience,
            "at": now,
        }
        self.site.hub.publish(room, message, only)
        seating = self.site.match_service._seating(room)
        players = [] if seating is None else [u.id for u in seating.users if u]
        self.site.bus.send(
            {
                "k": "room",
                "room": room,
                "message": message,
                "spectators_only": audience == "spectators",
                "players": players,
            }
        )

    async def tell(self, user: User, name: str, text: str, kind: str = "tell") -> User:
        """A private message from ``user`` to the user called ``name`` (``kind``:
        ``tell``, or ``say`` for a word to one's opponent in a match); returns the
        addressee.

        Raises:
            ServiceError: ``bad_request`` for a text others may not receive, oneself
                or a bot (a ``tell``); ``forbidden`` for a muted or banned user,
                ``throttled`` as :meth:`chat`, ``not_found``.
        """
        await self.site.moderation_service._check_speaker(user, text)
        await self._take_chat_line(user)
        target = await self.site.account_service.user_named(name)
        if target.id == user.id:
            raise ServiceError("bad_request", "to: you cannot tell yourself")
        if target.kind == "bot" and kind == "tell":  # (a word to a bot opponent is harmless)
            raise ServiceError("bad_request", f"to: {target.name} is a bot and reads no messages")
        now = self.site.clock.now()
        self.site._to_user(target.id, {"type": kind, "from": user.name, "text": text, "at": now})
        if kind == "tell":
            # The sender's pages show the thread (every tab, in every process).
            self.site._to_user(
                user.id, {"type": "told", "to": target.name, "text": text, "at": now}
            )
        return target

    async def tell_waited_for(self, user: User, name: str) -> None:
        """Tell the user called ``name`` (who just logged in) that ``user`` waited
        for them (FIBS's ``waitfor``); nothing if there is no such user."""
        try:
            target = await self.site.account_service.user_named(name)
        except ServiceError:
            return
        self.site._to_user(target.id, {"type": "waited_for", "from": user.name})

    async def leave_message(self, user: User, name: str, text: str) -> tuple[User, bool]:
        """FIBS's ``message``: ``text`` for the user called ``name``, told at once
        if they are online, else kept (at most :data:`MAX_STORED_MESSAGES` for one
        user) and told at their next login (:meth:`take_messages`). Returns the
        addressee and whether it was delivered now.

        Raises:
            ServiceError: ``bad_request`` for a text others may not receive or a
                bot addressee, ``forbidden`` for a muted or banned user,
                ``not_found``, ``conflict`` when the addressee's messages are full.
        """
        await self.site.moderation_service._check_speaker(user, text)
        target = await self.site.account_service.user_named(name)
        if target.kind == "bot":
            raise ServiceError("bad_request", f"{target.name} is a bot and reads no messages")
        now = self.site.clock.now()
        if any(user_id == target.id for user_id, _public in self.site.lobby_service.online()):
            self.site._to_user(
                target.id, {"type": "message", "from": user.name, "text": text, "at": now}
            )
            return target, True
        async with self.site.db.transaction() as connection:
            await repo.lock_user(connection, user.id)  # a sender's counts, one at a time
            await repo.forget_stored_messages(connection, now - STORED_MESSAGE_DAYS * 86400)
            await self._check_mailbox(connection, user, target)
            if user.name not in await repo.gagged_names(connection, target.id):
                await repo.add_stored_message(connection, target.id, user.id, text, now)
        return target, False  # (to a user who gags the sender: not kept, not said)

    @staticmethod
    async def _check_mailbox(connection: Any, user: User, target: User) -> None:
        """Refuse a stored message from ``user`` to ``target`` over a bound:
        :data:`MAX_STORED_MESSAGES` for ``target``, :data:`MAX_STORED_FROM_ONE` from
        ``user`` to ``target``, :data:`MAX_STORED_SENT` from ``user`` in all."""
        bounds = (
            (await repo.count_stored_messages(connection, target.id), MAX_STORED_MESSAGES),
            (
                await repo.count_stored_messages_from(connection, user.id, target.id),
                MAX_STORED_FROM_ONE,
            ),
            (await repo.count_stored_messages_from(connection, user.id), MAX_STORED_SENT),
        )
        whose = (f"{target.name} has {{}}", f"you have {{}} for {target.name}", "you have {}")
        for (waiting, bound), who in zip(bounds, whose, strict=True):
            if waiting >= bound:
                kept = who.format(f"{waiting} messages waiting")
                raise ServiceError("conflict", f"{kept} already (at most {bound})", 409)

    async def take_messages(self, user: User) -> list[dict[str, Any]]:
        """The messages kept for ``user`` (``from``, ``text``, ``at``; oldest first),
        removed as they are handed over; those from users ``user`` gags and those
        older than :data:`STORED_MESSAGE_DAYS` are removed untold."""
        since = self.site.clock.now() - STORED_MESSAGE_DAYS * 86400
        async with self.site.db.transaction() as connection:
            return await repo.take_stored_messages(connection, user.id, since)

    async def gags(self, user: User) -> set[str]:
        """The names of the users ``user`` gags (FIBS's ``gag``: whose words ``user``
        does not hear; kept across logins)."""
        async with self.site.db.transaction() as connection:
            return await repo.gagged_names(connection, user.id)

    async def set_gag(self, user: User, target: User, gagged: bool) -> None:
        """Gag ``target`` for ``user`` (or stop gagging them when not ``gagged``).

        Raises:
            ServiceError: ``conflict`` past :data:`MAX_GAGS` (nothing changed).
        """
        async with self.site.db.transaction() as connection:
            count = await repo.set_gag(
                connection, user.id, target.id, gagged, self.site.clock.now()
            )
            if count > MAX_GAGS:
                raise ServiceError("conflict", f"you can gag at most {MAX_GAGS} users", 409)

    async def fibs_settings(self, user: User) -> dict[str, Any]:
        """The FIBS toggles and variables ``user`` changed (kept with the account, as
        FIBS keeps them); empty if none."""
        async with self.site.db.transaction() as connection:
            stored = await repo.fibs_settings_of(connection, user.id)
        if stored is None:
            return {}
        value = json.loads(stored)
        return value if isinstance(value, dict) else {}

    async def set_fibs_settings(self, user: User, settings: dict[str, bool | int | str]) -> None:
        """Keep ``user``'s FIBS toggles and variables (a few dozen short values).

        Raises:
            ServiceError: ``bad_request`` for more than 64 values or one too long.
        """
        text = json.dumps(settings, sort_keys=True)
        if len(settings) > 64 or len(text) > 4096:
            raise ServiceError("bad_request", "too many FIBS settings")
        async with self.site.db.transaction() as connection:
            await repo.set_fibs_settings(connection, user.id, text, self.site.clock.now())

    async def rating_of(self, user: User, variant: str = "standard") -> tuple[float, int]:
        """A user's (rating, experience) in a variant (1500 and 0 if never rated)."""
        async with self.site.db.transaction() as connection:
            stored = await repo.get_rating(connection, user.id, variant)
        return (1500.0, 0) if stored is None else stored

    async def ratings_of(self, user_ids: list[int]) -> dict[str, int]:
        """The standard rating, rounded, of each rated user among ``user_ids`` (bots
        and accounts; guests play unrated), by name, from the who cache."""
        facts = await self.site.lobby_service.who_many(list(dict.fromkeys(user_ids)))
        return {f.name: round(f.rating) for f in facts.values() if f.kind != "guest"}

    async def friends(self, user: User) -> list[dict[str, Any]]:
        """``user``'s friends list (their own, nobody else's): each friend's
        ``name``, ``kind``, ``rating`` (None for a guest) and whether they are
        ``online`` in any process, in the order they were added."""
        async with self.site.db.transaction() as connection:
            ids = await repo.friend_ids(connection, user.id)
        return self._friend_entries(ids, await self.site.lobby_service.who_many(ids))

    def _friend_entries(self, ids: list[int], facts: dict[int, WhoFacts]) -> list[dict[str, Any]]:
        return [
            {
                "name": facts[i].name,
                "kind": facts[i].kind,
                "rating": None if facts[i].kind == "guest" else round(facts[i].rating),
                "online": self.site.lobby_service._connected(i),
            }
            for i in ids
            if i in facts
        ]

    async def add_friend(self, user: User, name: str) -> list[dict[str, Any]]:
        """Put the user called ``name`` on ``user``'s friends list (at most
        :data:`MAX_FRIENDS`); returns the list. Adding a friend twice changes nothing.

        Raises:
            ServiceError: ``not_found``; ``bad_request`` for oneself or a bot;
                ``conflict`` when the list is full; ``forbidden`` for a banned user.
        """
        await self.site.moderation_service._check_active(user)
        friend = await self.site.account_service.user_named(name)
        if friend.id == user.id:
            raise ServiceError("bad_request", "friend: you cannot befriend yourself")
        if friend.kind == "bot":
            raise ServiceError("bad_request", f"friend: {friend.name} is a bot")
        try:
            async with self.site.db.transaction() as connection:
                ids = await repo.friend_ids(connection, user.id)
                if friend.id not in ids:
                    if len(ids) >= MAX_FRIENDS:
                        raise ServiceError(
                            "conflict", f"friend: your list is full ({MAX_FRIENDS} friends)", 409
                        )
                    await repo.add_friend(connection, user.id, friend.id, self.site.clock.now())
        except IntegrityError:
            pass  # the same friend added by a concurrent request: on the list once
        return await self.friends(user)

    async def remove_friend(self, user: User, name: str) -> list[dict[str, Any]]:
        """Take the user called ``name`` off ``user``'s friends list; returns the list.

        Raises:
            ServiceError: ``not_found`` for no such user or one not on the list.
        """
        friend = await self.site.account_service.user_named(name)
        async with self.site.db.transaction() as connection:
            removed = await repo.remove_friend(connection, user.id, friend.id)
        if not removed:
            raise ServiceError("not_found", f"friend: {friend.name} is not on your list", 404)
        return await self.friends(user)

    async def _take_chat_line(self, user: User) -> None:
        """Count one line ``user`` says (chat in any room, a tell) against their
        ``chat_lines_per_second``, whichever connection it came from: this process's
        own bucket first (a flood is refused here, for nothing), then, with several
        processes on PostgreSQL, the bucket they share in the database (issue 53: a
        user on two processes would otherwise say twice as much).

        Raises:
            ServiceError: ``throttled`` past it.
        """
        settings = self.site.settings
        allowed = self.site._chat_rate.allow(user.id)
        if allowed and not self.site.db.is_sqlite:
            async with self.site.db.transaction() as connection:
                allowed = await repo.take_chat_token(
                    connection,
                    user.id,
                    self.site.clock.now(),
                    settings.chat_lines_per_second,
                    settings.chat_burst,
                )
        if not allowed:
            per_second = settings.chat_lines_per_second
            raise _throttled(
                f"you are saying too much (at most {per_second:g} line(s) a second, "
                f"{settings.chat_burst} at once)",
                1.0 / per_second,
            )
