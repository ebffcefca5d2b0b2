"""Chouette tables on the server: seats, the session, its bots and its spectators.

The rules of the chouette are the library's (:class:`~backgammon.rules.chouette.Chouette`);
this service holds the site's rules around them: who may open a table (at most
:data:`MAX_LIVE_PER_OWNER` each), sit down (3 to 8 seats, at most
:data:`MAX_SEATED_PER_USER` live tables each) and leave, when the session starts (the
owner starts it with 3 seats filled or more; a full table starts by itself), and who
acts for a seat (its person; a bot's seat, or the seat of a person who left a session
in play, is played by the server's bots).

Crash safety: every accepted action is appended to the table's log
(``chouette_actions``) and committed before anyone is told of it; the live session is
the replay of the log, so a restarted server (:meth:`ChouetteService.resume`)
continues every table where it was. Each change is published to ``chouette:ID``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator
from sqlalchemy.exc import IntegrityError

from backgammon.errors import BackgammonError
from backgammon.formats.chouette import write_chouette
from backgammon.rules.chouette import (
    TEAM,
    BoardAction,
    Chouette,
    ChouetteAction,
    ChouetteRules,
    CubeDouble,
    CubeDrop,
    CubeTake,
)
from backgammon.rules.chouette.lineup import RESERVED_NAMES
from backgammon.rules.dice import DiceSource
from backgammon.rules.game import OpeningRoll
from backgammon.rules.play import parse_play
from backgammon.server.chouettes import store
from backgammon.server.chouettes.bots import ChouetteQuestion, answer, bot_levels, next_bot_action
from backgammon.server.chouettes.codec import action_from_json, action_to_json, session_view
from backgammon.server.chouettes.dice import dice_record, dice_source, dice_view
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import User
from backgammon.server.lobby.hub import Connection
from backgammon.server.matches.fair_dice import new_seed
from backgammon.server.moderation.flags import CLOSING
from backgammon.server.protocol import ChouetteActionBody
from backgammon.server.service import GameService, ServiceError

__all__ = [
    "CUBE_LIMITS",
    "DEFAULT_MAX_CUBE",
    "MAX_LIVE_PER_OWNER",
    "MAX_SEATED_PER_USER",
    "AddBot",
    "ChouetteNonce",
    "ChouetteService",
    "CreateChouette",
]

log = logging.getLogger("backgammon.server")

MIN_SEATS, MAX_SEATS = 3, 8
"""The fewest and the most seats a table has."""

MAX_LIVE_PER_OWNER = 3
"""The most open or playing tables one user may own."""

MAX_SEATED_PER_USER = 5
"""The most open or playing tables one person may sit at."""


CUBE_LIMITS = tuple(1 << n for n in range(1, 11))
"""The cube limits a table may have (2 to 1024)."""

DEFAULT_MAX_CUBE = 64
"""A new table's cube limit unless its owner chooses another."""

LIST_ROOM = "chouettes"
"""The room that hears every table opened, changed, started or closed."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CreateChouette(_Strict):
    """``POST /api/chouettes``: a new table, its owner in the first seat (the box of
    the first game)."""

    name: str = Field(min_length=1, max_length=80)
    seats: int = Field(default=4, ge=MIN_SEATS, le=MAX_SEATS)
    team_cube: bool = False
    jacoby: bool = False
    stake: str = Field(default="1", pattern=r"^\d{1,6}(\.\d{1,2})?$", description="per point")
    max_cube: int = Field(
        default=DEFAULT_MAX_CUBE, description="the highest cube: a power of two, 2 to 1024"
    )

    @field_validator("max_cube")
    @classmethod
    def _power_of_two(cls, limit: int) -> int:
        if limit not in CUBE_LIMITS:
            raise ValueError(f"the cube limit is a power of two from 2 to 1024, got {limit}")
        return limit


class AddBot(_Strict):
    """``POST /api/chouettes/ID/bots``: the owner seats one of the server's bots."""

    level: str = Field(min_length=1, max_length=16)


class ChouetteNonce(_Strict):
    """``POST /api/chouettes/ID/nonce`` (or ``/sit``): a person's dice nonce for the
    session, chosen after seeing the table's commitment (docs/fair-dice.md)."""

    nonce: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]*$")


def _new_id() -> str:
    return secrets.token_hex(8)


def _rules(settings: dict[str, Any]) -> ChouetteRules:
    return ChouetteRules(
        team_cube=bool(settings["team_cube"]),
        jacoby=bool(settings["jacoby"]),
        stake=Decimal(str(settings["stake"])),
        max_cube=settings.get("max_cube"),  # tables opened before the limit have none
    )


class ChouetteService:
    """Chouette tables over a :class:`GameService` (its database, its bots' pool and
    its rooms): serves the ``chouette:ID`` rooms and the HTTP routes."""

    def __init__(self, games: GameService, bot_pause: float = 1.0) -> None:
        """``bot_pause``: seconds a bot waits before it throws the dice, so that the
        people at the table may double first."""
        self.games = games
        self.bot_pause = bot_pause
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # Each playing table's session as this process last replayed it.
        self._sessions: dict[str, Chouette] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        games.room_snapshots["chouette:"] = self._room_snapshot
        games.room_snapshots[f"{LIST_ROOM}:"] = self._list_snapshot
        games.moderation_hooks.append(self._on_moderation)
        games.takeover_hooks.append(self.resume)

    # -- lifecycle -------------------------------------------------------------------

    async def resume(self) -> None:
        """Let the bots of every playing table act where it stopped (after a restart,
        or in a process taking over from one gone)."""
        async with self.games.db.transaction() as connection:
            playing = await store.list_tables(connection, ("playing",), limit=100_000)
        for row in playing:
            self._wake_bots(row.id)

    async def close(self) -> None:
        """Stop the bots' pending work (what is committed stays)."""
        for task in list(self._tasks):
            task.cancel()

    def _lock(self, table_id: str) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    # -- seats -----------------------------------------------------------------------

    async def create(self, user: User, body: CreateChouette) -> dict[str, Any]:
        """A new table owned by ``user``, who sits in its first seat.

        Raises:
            ServiceError: ``bad_request`` for a name others may not see;
                ``forbidden`` for a bot, or a muted or banned user; ``conflict`` past
                :data:`MAX_LIVE_PER_OWNER` or :data:`MAX_SEATED_PER_USER`.
        """
        await self._check_person(user)
        await self.games._check_speaker(user, body.name, "name")  # the list shows it
        name = body.name
        table_id = _new_id()
        async with self.games.db.transaction() as connection:
            owned = await store.count_live_owned(connection, user.id)
            if owned >= MAX_LIVE_PER_OWNER:
                raise ServiceError(
                    "conflict",
                    f"you own {owned} open or playing chouette tables: at most "
                    f"{MAX_LIVE_PER_OWNER}",
                    409,
                )
            await self._check_seated_limit(connection, user)
            await store.create_table(
                connection,
                id=table_id,
                name=name,
                owner=user.id,
                created_at=self.games.clock.now(),
                status="open",
                settings=body.model_dump(exclude={"name"}),
                seats=[_seat(user)],
                dice_seed=new_seed().hex(),  # its commitment is in the view from now on
            )
        log.info("chouette %s opened by %s", table_id, user.name)
        await self._publish(table_id)
        return await self.view(table_id)

    async def sit(self, user: User, table_id: str, nonce: str = "") -> dict[str, Any]:
        """``user`` takes the next free seat of an open table (a full table starts),
        with a dice ``nonce`` chosen after seeing the table's commitment.

        Raises:
            ServiceError: ``not_found``; ``conflict`` once started, when full, when
                seated already or past :data:`MAX_SEATED_PER_USER`; ``forbidden``
                for a bot or a banned user.
        """
        await self._check_person(user)
        await self._seat_at(table_id, user, nonce)
        return await self.view(table_id)

    async def give_nonce(self, user: User, table_id: str, nonce: str) -> dict[str, Any]:
        """``user``'s dice nonce for their seat, once, before the session starts
        (the owner's way to give one: the table's commitment exists only once it
        is open). Returns the table's view.

        Raises:
            ServiceError: ``not_found`` if not seated; ``conflict`` once started or
                for a second nonce.
        """
        await self._check_active(user)
        async with self._lock(table_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, table_id)
            index = next((i for i, s in enumerate(row.seats) if s["user_id"] == user.id), None)
            if index is None or user.kind == "bot":
                raise ServiceError("not_found", f"{user.name} does not sit at this table", 404)
            if row.status != "open":
                raise ServiceError("conflict", "nonces are given before the session starts", 409)
            if row.seats[index].get("nonce"):
                raise ServiceError("conflict", "you gave your nonce for this table already", 409)
            seats = list(row.seats)
            seats[index] = {**seats[index], "nonce": nonce}
            await store.update_table(connection, row.id, seats=seats)
        await self._publish(row.id)
        return await self.view(row.id)

    async def add_bot(self, user: User, table_id: str, level: str) -> dict[str, Any]:
        """The owner seats a bot of ``level`` (its own account, ``bot_LEVEL_N``, so
        that several bots of one level can sit at one table).

        Raises:
            ServiceError: ``forbidden`` unless the owner; ``bad_request`` for an
                unknown level; as :meth:`sit`.
        """
        await self._check_active(user)
        row = await self._row(table_id)
        if row.owner != user.id:
            raise ServiceError("forbidden", "only the table's owner seats bots", 403)
        if level not in self.games.settings.bots:
            known = ", ".join(self.games.settings.bots) or "none"
            raise ServiceError("bad_request", f"level: no bot {level!r} (bots: {known})", 422)
        seated = {seat["name"] for seat in row.seats}
        async with self.games.db.transaction() as connection:
            bot = await repo.numbered_bot(connection, level, seated, self.games.clock.now())
        await self._seat_at(table_id, bot)
        return await self.view(table_id)

    async def _seat_at(self, table_id: str, user: User, nonce: str = "") -> None:
        async with self._lock(table_id):
            async with self.games.db.transaction() as connection:
                row = await self._row_in(connection, table_id)
                if row.status != "open":
                    raise ServiceError(
                        "conflict", f"table {table_id}'s session has started: no free seat", 409
                    )
                if any(seat["user_id"] == user.id for seat in row.seats):
                    raise ServiceError("conflict", f"{user.name} sits at this table already", 409)
                if len(row.seats) >= int(row.settings["seats"]):
                    raise ServiceError("conflict", f"table {table_id} is full", 409)
                if user.kind != "bot":
                    await self._check_seated_limit(connection, user)
                seats = [*row.seats, {**_seat(user), "nonce": nonce}]
                full = len(seats) == int(row.settings["seats"])
                await store.update_table(
                    connection, table_id, seats=seats, status="playing" if full else "open"
                )
            if full:
                log.info("chouette %s is full: the session starts", table_id)
        await self._publish(table_id)
        if full:
            self._wake_bots(table_id)

    async def leave(self, user: User, table_id: str, name: str | None = None) -> dict[str, Any]:
        """``user`` leaves (the owner may unseat a bot by ``name`` before the start).
        Before the start the seat is freed (the owner leaving closes the table); in
        a session a bot plays the seat from then on, and the table closes once no
        person is left at it.

        Raises:
            ServiceError: ``forbidden`` for someone else's seat; ``not_found`` if
                not seated; ``conflict`` for a closed table.
        """
        await self._vacate(table_id, lambda row: self._leaver(row, user, name))
        return await self.view(table_id)

    async def _vacate(self, table_id: str, target_of: Callable[[store.TableRow], int]) -> None:
        """Empty the seat of the user ``target_of`` picks (it raises to refuse):
        before the start the seat is freed (the owner's frees the table); in a
        session a bot plays it from then on, or the table closes."""
        async with self._lock(table_id):
            async with self.games.db.transaction() as connection:
                row = await self._row_in(connection, table_id)
                target = target_of(row)
                if row.status == "closed":
                    raise ServiceError("conflict", f"table {table_id} is closed", 409)
                status, seats = row.status, list(row.seats)
                index = next(i for i, seat in enumerate(seats) if seat["user_id"] == target)
                if status == "open":
                    del seats[index]
                    if target == row.owner:
                        status = "closed"
                else:
                    seats[index] = {**seats[index], "left": True}
                    if not self.games.settings.bots or not _people_in(seats):
                        status = "closed"
                await store.update_table(connection, table_id, seats=seats, status=status)
            if status == "closed":
                self._sessions.pop(table_id, None)
        await self._publish(table_id)
        self._wake_bots(table_id)

    async def _on_moderation(self, user_id: int, what: str) -> None:
        """A kick or ban (committed) takes the user from every live table, as if
        they had left: the others play on with a bot in the seat."""
        if what not in CLOSING:
            return
        async with self.games.db.transaction() as connection:
            live = await store.list_tables(connection, ("open", "playing"), limit=100_000)
        for row in live:
            if _seated(row, user_id):
                try:
                    await self._vacate(row.id, lambda now: _seat_of(now, user_id))
                except ServiceError:
                    continue  # left or closed meanwhile
                log.info("chouette %s: user %d's seat emptied (%s)", row.id, user_id, what)

    @staticmethod
    def _leaver(row: store.TableRow, user: User, name: str | None) -> int:
        """The user id of the seat ``user`` empties."""
        if name is not None and name != user.name:
            bot = next((s for s in row.seats if s["name"] == name and s["bot"]), None)
            if bot is None or row.owner != user.id or row.status != "open":
                raise ServiceError("forbidden", "you may leave only your own seat", 403)
            return int(bot["user_id"])
        if not _seated(row, user.id):
            raise ServiceError("not_found", f"{user.name} does not sit at this table", 404)
        return user.id

    async def start(self, user: User, table_id: str) -> dict[str, Any]:
        """The owner starts the session with the seats filled so far (3 or more).

        Raises:
            ServiceError: ``forbidden`` unless the owner; ``conflict`` if it is not
                open or has fewer than 3 players.
        """
        await self._check_active(user)
        async with self._lock(table_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, table_id)
            if row.owner != user.id:
                raise ServiceError("forbidden", "only the table's owner starts it", 403)
            if row.status != "open":
                raise ServiceError("conflict", f"table {table_id} is not open", 409)
            if len(row.seats) < MIN_SEATS:
                raise ServiceError(
                    "conflict",
                    f"a chouette needs at least {MIN_SEATS} players, {len(row.seats)} are seated",
                    409,
                )
            await store.update_table(connection, table_id, status="playing")
        await self._publish(table_id)
        self._wake_bots(table_id)
        return await self.view(table_id)

    async def close_table(
        self, user: User, table_id: str, *, as_admin: bool = False
    ) -> dict[str, Any]:
        """The owner (or, ``as_admin``, an administrator) ends the table (the
        session's scores stay as they are); an administrator's closing is told to
        every person seated and to the owner.

        Raises:
            ServiceError: ``forbidden`` unless the owner (an administrator
                ``as_admin``); ``conflict`` if closed.
        """
        if as_admin and not user.is_admin:
            raise ServiceError("forbidden", "administrators only", 403)
        async with self._lock(table_id):
            async with self.games.db.transaction() as connection:
                row = await self._row_in(connection, table_id)
                if row.owner != user.id and not as_admin:
                    raise ServiceError("forbidden", "only the table's owner closes it", 403)
                if row.status == "closed":
                    raise ServiceError("conflict", f"table {table_id} is closed already", 409)
                await store.update_table(connection, table_id, status="closed")
            self._sessions.pop(table_id, None)
        if as_admin:
            log.info("chouette %s closed by the administrator %s", table_id, user.name)
            people = {row.owner} | {int(s["user_id"]) for s in row.seats if not s["bot"]}
            for person in people:
                self.games.tell_user(
                    person,
                    {
                        "type": "moderation",
                        "action": "close_table",
                        "table": table_id,
                        "message": f"an administrator closed the chouette table {row.name}",
                    },
                )
        await self._publish(table_id)
        return await self.view(table_id)

    async def _check_person(self, user: User) -> None:
        if user.kind not in ("human", "guest"):
            raise ServiceError("forbidden", "only people sit down at chouette tables", 403)
        await self._check_active(user)
        if user.name in RESERVED_NAMES:
            raise ServiceError(
                "forbidden", f"the chouette's record reserves the name {user.name!r}", 403
            )

    async def _check_active(self, user: User) -> None:
        """Refuse anything from a banned user (as the matches do: the ban closes
        their connections, this refuses what was already on its way)."""
        if (await self.games.standing(user)).banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)

    @staticmethod
    async def _check_seated_limit(connection: Any, user: User) -> None:
        live = await store.list_tables(connection, ("open", "playing"), limit=100_000)
        seated = sum(
            1
            for row in live
            if any(seat["user_id"] == user.id and not seat["left"] for seat in row.seats)
        )
        if seated >= MAX_SEATED_PER_USER:
            raise ServiceError(
                "conflict",
                f"you sit at {seated} open or playing chouette tables: at most "
                f"{MAX_SEATED_PER_USER}",
                409,
            )

    # -- the session -----------------------------------------------------------------

    async def act(
        self, user: User, table_id: str, body: ChouetteActionBody, expect: int | None = None
    ) -> int:
        """``user`` acts for their seat; returns the action's ``seq``. The action is
        committed, then published to the table's room.

        Raises:
            ServiceError: ``login_required`` for an anonymous viewer; ``not_found``;
                ``not_a_player`` for anyone not seated (a spectator); ``over`` for
                a table not playing; ``stale`` if the session moved past
                ``expect``; ``not_your_turn`` for a seat with nothing to decide
                now; ``illegal`` for an action the rules refuse now;
                ``bad_action`` for a play without its move.
        """
        if user.kind == "anonymous":
            raise ServiceError(
                "login_required", "log in to act: watching without an account is read-only", 401
            )
        await self._check_active(user)
        table_id = table_id[:32]
        row = await self._row(table_id)
        seat = next(
            (s for s in row.seats if s["user_id"] == user.id and not s["bot"] and not s["left"]),
            None,
        )
        if seat is None:
            raise ServiceError("not_a_player", "only the people seated at a table act there", 403)
        return await self._apply(table_id, str(seat["name"]), body, expect)

    async def _apply(
        self, table_id: str, player: str, body: ChouetteActionBody, expect: int | None
    ) -> int:
        async with self._lock(table_id):
            try:
                async with self.games.db.transaction() as connection:
                    seq = await self._push(connection, table_id, player, body, expect)
            except ServiceError:
                raise
            except IntegrityError:
                self._sessions.pop(table_id, None)  # another process came first: replay
                raise ServiceError("stale", "another action came first", 409) from None
            except BaseException:
                self._sessions.pop(table_id, None)  # pushed but not committed: replay
                raise
        await self._publish(table_id)
        self._wake_bots(table_id)
        return seq

    async def _push(
        self,
        connection: Any,
        table_id: str,
        player: str,
        body: ChouetteActionBody,
        expect: int | None,
    ) -> int:
        """Check and push ``player``'s action and append it to the log (the caller
        commits); returns its ``seq``. A refusal changes nothing."""
        row = await self._row_in(connection, table_id)
        if row.status != "playing":
            raise ServiceError("over", f"table {table_id} is {row.status}", 409)
        chouette = await self._session(connection, row)
        seq = len(chouette.history)
        if expect is not None and expect != seq:
            raise ServiceError(
                "stale", f"the session is at {seq}, the action was meant for {expect}", 409
            )
        action = _action(chouette, player, body, dice_source(row.dice_seed, row.seats, chouette))
        refusal = chouette.refusal(action)
        if refusal is not None:
            code = "illegal" if player in chouette.deciders() else "not_your_turn"
            raise ServiceError(code, refusal, 409)
        try:
            chouette.push(action)
        except (BackgammonError, ValueError) as error:
            raise ServiceError("illegal", str(error), 409) from None
        await store.append_action(connection, table_id, seq, action_to_json(action))
        return seq

    async def _session(self, connection: Any, row: store.TableRow) -> Chouette:
        """The table's session, replayed from its log unless this process holds it
        up to date (it holds the sessions of playing tables only)."""
        cached = self._sessions.get(row.id)
        if cached is not None and len(cached.history) == await store.count_actions(
            connection, row.id
        ):
            return cached
        logged = await store.actions_of(connection, row.id)
        chouette = Chouette([seat["name"] for seat in row.seats], _rules(row.settings))
        for data in logged:
            chouette.push(action_from_json(chouette, data))
        if row.status == "playing":
            self._sessions[row.id] = chouette
        return chouette

    # -- chat ------------------------------------------------------------------------

    async def chat(self, user: User, room: str, text: str) -> None:
        """Say ``text`` at the table of room ``chouette:ID``, as in a match: the
        seated people's words reach everyone there, spectators' only the other
        spectators. Kept (under ``ch:ID``: the chat's room column is 24 characters
        wide), then told.

        Raises:
            ServiceError: as :meth:`GameService.chat` (``bad_request`` for a text
                others may not receive, ``forbidden`` for a muted or banned user,
                ``login_required`` for an anonymous viewer); ``not_found``.
        """
        await self.games._check_speaker(user, text)
        await self.games._take_chat_line(user)
        table_id = room.removeprefix("chouette:")[:32]
        row = await self._row(table_id)
        players = [int(s["user_id"]) for s in row.seats if not s["bot"] and not s["left"]]
        audience = "all" if user.id in players else "spectators"
        only: Callable[[Connection], bool] | None = None
        if audience == "spectators":

            def only(connection: Connection) -> bool:
                return connection.user.id not in players

        now = self.games.clock.now()
        async with self.games.db.transaction() as connection:
            await repo.add_chat(connection, f"ch:{table_id}", audience, user.id, text, now)
        room = f"chouette:{table_id}"
        message = {
            "type": "chat",
            "room": room,
            "from": user.name,
            "text": text,
            "audience": audience,
            "at": now,
        }
        self.games.hub.publish(room, message, only)
        self.games.bus.send(
            {
                "k": "room",
                "room": room,
                "message": message,
                "spectators_only": audience == "spectators",
                "players": players,
            }
        )

    async def chat_history(self, user: User, table_id: str) -> list[dict[str, Any]]:
        """The table's last chat lines that ``user`` may read, oldest first
        (``name``, ``text``, ``audience``, ``at``): a seated person's, the lines
        to everyone; a spectator's, the spectators' lines too.

        Raises:
            ServiceError: ``not_found``.
        """
        row = await self._row(table_id)
        async with self.games.db.transaction() as connection:
            lines = await repo.recent_chat(connection, f"ch:{row.id}")
        seated = _seated(row, user.id)
        return [line for line in lines if line["audience"] == "all" or not seated]

    # -- bots ------------------------------------------------------------------------

    def _wake_bots(self, table_id: str) -> None:
        task = asyncio.create_task(self._bot_turn(table_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _bot_turn(self, table_id: str) -> None:
        """If a bot has something to decide, let it think and act (once: its action
        wakes the bots again)."""
        try:
            async with self.games.db.transaction() as connection:
                row = await self._row_in(connection, table_id)
                if row.status != "playing":
                    return
                chouette = await self._session(connection, row)
            bots = bot_levels(row.seats, self.games.settings.bots)
            if not bots:
                return
            seq = len(chouette.history)
            decision = await next_bot_action(chouette, bots, partial(self._think, row.owner))
            if decision is None:
                return
            player, body, pause = decision
            if pause:
                await asyncio.sleep(self.bot_pause)
            await self._apply(table_id, player, body, expect=seq)
        except ServiceError as error:
            if error.code != "stale":
                log.warning("chouette %s bot: %s", table_id, error.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("chouette %s: a bot failed", table_id)

    async def _think(self, owner: int, question: ChouetteQuestion) -> str:
        """A bot's answer, computed when the bots' scheduler gives the table's
        ``owner`` a turn (a chouette has no clock)."""
        return await self.games.bot_think(owner, None, answer, question)

    # -- views -----------------------------------------------------------------------

    async def _row(self, table_id: str) -> store.TableRow:
        async with self.games.db.transaction() as connection:
            return await self._row_in(connection, table_id)

    @staticmethod
    async def _row_in(connection: Any, table_id: str) -> store.TableRow:
        row = await store.table_row(connection, table_id[:32])
        if row is None:
            raise ServiceError("not_found", f"no chouette table {table_id[:32]!r}", 404)
        return row

    async def listing(self) -> list[dict[str, Any]]:
        """The open and playing tables, newest first."""
        async with self.games.db.transaction() as connection:
            rows = await store.list_tables(connection, ("open", "playing"))
        return [_summary(row.id, row.name, row.status, row.settings, row.seats) for row in rows]

    async def view(self, table_id: str) -> dict[str, Any]:
        """One table: its settings, seats, status and, once started, its session."""
        async with self.games.db.transaction() as connection:
            row = await self._row_in(connection, table_id)
            owner = await repo.user_by_id(connection, row.owner)
            session = None
            if await _started(connection, row):
                session = await self._session(connection, row)
        return {
            "id": row.id,
            "name": row.name,
            "status": row.status,
            "owner": None if owner is None else owner.name,
            "settings": row.settings,
            "seats": [
                {"name": seat["name"], "bot": seat["bot"], "left": seat["left"]}
                for seat in row.seats
            ],
            "seq": None if session is None else len(session.history),
            "session": None if session is None else session_view(session),
            "dice": dice_view(row.dice_seed, row.seats, row.status == "closed"),
        }

    async def dice_record(self, table_id: str) -> dict[str, Any]:
        """The session's dice record (:func:`~backgammon.server.chouettes.dice.dice_record`):
        its seed once the table is closed, for ``backgammon verify-dice``.

        Raises:
            ServiceError: ``not_found``, also for a table opened before the seeds.
        """
        async with self.games.db.transaction() as connection:
            row = await self._row_in(connection, table_id)
            session = (
                await self._session(connection, row) if await _started(connection, row) else None
            )
        try:
            return dice_record(row.dice_seed, row.seats, session, row.status == "closed")
        except ValueError as error:
            raise ServiceError("not_found", str(error), 404) from None

    async def record(self, table_id: str) -> str:
        """The session's record (:func:`~backgammon.formats.chouette.write_chouette`).

        Raises:
            ServiceError: ``not_found``; ``conflict`` before the session starts.
        """
        async with self.games.db.transaction() as connection:
            row = await self._row_in(connection, table_id)
            if not await _started(connection, row):
                raise ServiceError("conflict", f"table {table_id}'s session has not started", 409)
            return write_chouette(await self._session(connection, row))

    async def _room_snapshot(self, room: str) -> dict[str, Any]:
        return {"type": "chouette", "table": await self.view(room.removeprefix("chouette:"))}

    async def _list_snapshot(self, _room: str) -> dict[str, Any]:
        return {"type": "chouette_tables", "tables": await self.listing()}

    async def _publish(self, table_id: str) -> None:
        """Tell the table's room its state, and the list's room the table's line
        (after the commit)."""
        view = await self.view(table_id)
        self.games.publish(f"chouette:{table_id}", {"type": "chouette", "table": view})
        line = _summary(view["id"], view["name"], view["status"], view["settings"], view["seats"])
        self.games.publish(LIST_ROOM, {"type": "chouette_table", "table": line})


def _summary(
    table_id: str, name: str, status: str, settings: dict[str, Any], seats: list[dict[str, Any]]
) -> dict[str, Any]:
    """A table's line in the list (``status`` ``closed``: it leaves the list)."""
    return {
        "id": table_id,
        "name": name,
        "status": status,
        "seats": int(settings["seats"]),
        "players": [seat["name"] for seat in seats],
    }


def _seat(user: User) -> dict[str, Any]:
    bot = user.kind == "bot"
    return {
        "user_id": user.id,
        "name": user.name,
        "bot": bot,
        "level": user.bot_level if bot else None,
        "left": False,
    }


def _seated(row: store.TableRow, user_id: int) -> bool:
    """Whether the user sits at the table (and has not left)."""
    return any(seat["user_id"] == user_id and not seat["left"] for seat in row.seats)


def _seat_of(row: store.TableRow, user_id: int) -> int:
    """``user_id`` if the user sits at the table; otherwise ``not_found``."""
    if not _seated(row, user_id):
        raise ServiceError("not_found", "the user does not sit at this table", 404)
    return user_id


async def _started(connection: Any, row: store.TableRow) -> bool:
    """Whether the table has a session to show: playing, or closed after an action
    (a table closed before its start, perhaps with 2 seats, has none)."""
    if row.status == "closed":
        return await store.count_actions(connection, row.id) > 0
    return row.status == "playing"


def _people_in(seats: list[dict[str, Any]]) -> bool:
    return any(not seat["bot"] and not seat["left"] for seat in seats)


def _action(
    chouette: Chouette, player: str, body: ChouetteActionBody, source: DiceSource
) -> ChouetteAction:
    """The library action ``player`` means by ``body`` (dice thrown from ``source``
    for a roll).

    Raises:
        ServiceError: ``illegal`` for dice already rolled or a move that is not a
            play of them; ``bad_action`` for a play without its move, or a box that
            does not name the member's cube it acts on.
    """
    if body.kind == "roll":
        if chouette.dice is not None:
            raise ServiceError("illegal", f"the dice ({chouette.dice}) are already rolled", 409)
        thrown = source.roll()
        opening = chouette.on_roll is None
        return BoardAction(player, OpeningRoll(thrown.first, thrown.second) if opening else thrown)
    if body.kind == "play":
        if body.move is None:
            raise ServiceError("bad_action", "a play needs its move, e.g. '13/7 8/7'", 422)
        dice = chouette.dice
        if dice is None:
            raise ServiceError("illegal", "roll the dice before playing", 409)
        try:
            return BoardAction(player, parse_play(body.move, chouette.position, dice))
        except (BackgammonError, ValueError) as error:
            raise ServiceError("illegal", str(error), 409) from None
    member: str | None = body.member
    if member is None:
        if chouette.rules.team_cube:
            # The box's double of the team's cube waits for each member's own answer.
            answers_own = body.kind != "double" and any(
                offer.member == player for offer in chouette.pending
            )
            member = player if answers_own else TEAM
        elif player == chouette.box:
            raise ServiceError("bad_action", "the box names the member whose cube it is", 422)
        else:
            member = player
    kinds: dict[str, type[CubeDouble | CubeTake | CubeDrop]] = {
        "double": CubeDouble,
        "take": CubeTake,
        "drop": CubeDrop,
    }
    return kinds[body.kind](player, member)
