"""Tournaments on the server: registration, start, pairings, matches and standings.

The formats' rules are the library's (:mod:`backgammon.tournaments`); this service
stores an event (its settings, registrations and the library's JSON record of the
rounds recorded), starts each pairing's match as an ordinary match between the two
players (a bot's seat is played by the server's bots; a player who never moves loses
on the clock), records a round once its last match is over, and pairs the next.

Crash safety: a pairing's match and its link are committed in one transaction before
the match starts; a round's results are read from its matches' rows, so a restart
(:meth:`TournamentService.resume`) continues the round in play, starts any match that
was stored but not begun, and records a round whose last result came in just before
the crash. Every change is committed before it is published to ``tournament:ID``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy.exc import IntegrityError

from backgammon.server.bots.limits import check_bot_entry
from backgammon.server.db import repository as repo
from backgammon.server.db.locks import held
from backgammon.server.db.repository import User
from backgammon.server.protocol import ActionBody, ClockSettings, MatchSettings
from backgammon.server.service import READY_SECONDS, GameService, ServiceError
from backgammon.server.tournaments import store
from backgammon.server.tournaments.arena import ArenaState, advance_arena, new_arena_state
from backgammon.server.tournaments.model import (
    MAX_PLAYERS,
    SIDE_EVENTS,
    CreateTournament,
    EnterBot,
    _event_settings,
    _load_event,
    _stored_settings,
)
from backgammon.server.tournaments.settings_checks import check_format_settings
from backgammon.server.tournaments.views import (
    Links,
    _arena_key,
    _progress,
    _rounds_progress,
    _with_scores,
)
from backgammon.tournaments import (
    DoubleElimination,
    Entrant,
    Knockout,
    Pairing,
    Round,
    RoundRobin,
    RoundSettings,
    Swiss,
)
from backgammon.tournaments.tournament import RoundHistory

__all__ = [
    "MAX_LIVE_PER_ORGANISER",
    "MAX_PLAYERS",
    "CreateTournament",
    "EnterBot",
    "TournamentService",
]

log = logging.getLogger("backgammon.server")

MAX_LIVE_PER_ORGANISER = 5
"""The most open or running tournaments one organiser may have."""

MAX_START_AHEAD_SECONDS = 366 * 86_400
"""How far ahead a tournament's ``starts_at`` may be: about a year."""

KEPT_VIEWS = 128
"""How many ended (finished or cancelled) tournaments' rounds and standings a
process keeps computed (the least recently viewed forgotten first)."""

ENDED = ("finished", "cancelled")
"""The statuses after which a tournament's record never changes."""

SEEN_SECONDS = 60.0
"""A person who looked at a tournament's page (it polls every few seconds) this
recently counts as present at its start, as one connected over a WebSocket does."""
MAX_SEEN = 20_000
"""The most (tournament, person) sightings one process remembers."""


def _new_id() -> str:
    return secrets.token_hex(8)


class TournamentService:
    """Tournaments over a :class:`GameService`: it starts their matches, hears their
    ends (``match_finished_hooks``) and serves the ``tournament:ID`` rooms."""

    def __init__(self, games: GameService, tick_seconds: float = 1.0) -> None:
        self.games = games
        self.tick_seconds = tick_seconds
        # One lock per tournament while anyone holds or waits for it (weak values:
        # requests naming tournaments that do not exist leave nothing behind).
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[None]] = set()
        self._ticker: asyncio.Task[None] | None = None
        # Each running round-by-round event as last read, with its next round, by id
        # (see _event_of).
        self._events: dict[str, tuple[int, RoundHistory, Round | None]] = {}
        # The views' rounds and standings as computed: an ended tournament's (they
        # never change) and a running arena's (by _arena_key), at most KEPT_VIEWS.
        self._views: OrderedDict[str, tuple[Any, dict[str, Any]]] = OrderedDict()
        self._computing = asyncio.Lock()  # one such computation at a time
        # When each running arena ends, as read once (the ticker reads only ids).
        self._arena_ends: dict[str, float] = {}
        # The matches whose people this process told of their pairing (until they end).
        self._told: set[str] = set()
        # When each person last looked at each tournament (see SEEN_SECONDS).
        self._seen: OrderedDict[tuple[str, int], float] = OrderedDict()
        games.match_finished_hooks.append(self._match_finished)
        games.room_snapshots["tournament:"] = self._room_snapshot
        games.takeover_hooks.append(self.advance_running)

    # -- lifecycle -------------------------------------------------------------------

    async def resume(self) -> None:
        """Continue every running tournament (the round in play, or the next one) and
        start the ticker that starts scheduled tournaments."""
        await self.advance_running()
        self._ticker = asyncio.create_task(self._tick_forever())

    async def advance_running(self) -> None:
        """Bring every running tournament up to date (after a restart, or in a
        process taking over from one gone): its stored matches begun, a round whose
        last result came in recorded and the next paired."""
        async with self.games.db.transaction() as connection:
            running = await store.list_tournaments(connection, "running", limit=100_000)
        for row in running:
            await self._advance_logged(row.id)

    async def close(self) -> None:
        """Stop the ticker and pending work (what is committed stays)."""
        if self._ticker is not None:
            self._ticker.cancel()
        for task in list(self._tasks):
            task.cancel()

    @asynccontextmanager
    async def _lock(self, tournament_id: str) -> AsyncIterator[None]:
        """Hold the tournament: one change of it at a time in this process (an
        asyncio lock, so this process's waiters hold no database connection), then
        across every process on the database (:func:`held`: PostgreSQL's advisory
        lock, released by the database if this process dies holding it)."""
        lock = self._locks.get(tournament_id)
        if lock is None:
            lock = self._locks[tournament_id] = asyncio.Lock()
        async with lock, held(self.games.db, f"tournament:{tournament_id}"):
            yield

    def _spawn(self, tournament_id: str) -> None:
        task = asyncio.create_task(self._advance_logged(tournament_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _match_finished(self, match_id: str) -> None:
        self._told.discard(match_id)
        task = asyncio.create_task(self._after_match(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after_match(self, match_id: str) -> None:
        async with self.games.db.transaction() as connection:
            tournament_id = await store.tournament_of_match(connection, match_id)
        if tournament_id is not None:
            await self._advance_logged(tournament_id)

    async def _advance_logged(self, tournament_id: str) -> None:
        try:
            await self._advance(tournament_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament %s could not advance", tournament_id)

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.start_due()
                await self.end_due_arenas()
            except Exception:  # pragma: no cover - logged, the ticker goes on
                log.exception("tournament start check failed")

    async def start_due(self) -> None:
        """Start every open tournament whose start time has come (cancel it if it
        has fewer than 2 players)."""
        now = self.games.clock.now()
        async with self.games.db.transaction() as connection:
            due = [
                row
                for row in await store.list_tournaments(connection, "open", limit=100_000)
                if row.starts_at is not None and row.starts_at <= now
            ]
        for row in due:
            await self._start(row.id, when_due=True)

    async def end_due_arenas(self) -> None:
        """Bring every running arena whose time is up to date (it ends once its last
        match is over). Each arena's end is read once and kept: this runs every
        second, and a long arena's state is megabytes."""
        now = self.games.clock.now()
        async with self.games.db.transaction() as connection:
            running = await store.tournament_ids(connection, "running", "arena")
        for gone in set(self._arena_ends) - set(running):
            del self._arena_ends[gone]
        for tournament_id in running:
            ends_at = self._arena_ends.get(tournament_id)
            if ends_at is None:
                row = await self._row(tournament_id)
                if row.state is None:
                    continue
                ends_at = self._arena_ends[tournament_id] = ArenaState.ends_at_of(row.state)
            if ends_at <= now:
                await self._advance_logged(tournament_id)

    # -- actions ---------------------------------------------------------------------

    async def create(self, user: User, body: CreateTournament) -> dict[str, Any]:
        """A new tournament organised by ``user``, open for registration.

        Raises:
            ServiceError: ``bad_request`` for a name others may not see, a start in
                the past or more than a year ahead, or rounds the format cannot have;
                ``forbidden`` for a guest, or a muted or banned user; ``conflict`` past
                :data:`MAX_LIVE_PER_ORGANISER`.
        """
        if user.kind != "human":
            raise ServiceError("forbidden", "only registered users organise tournaments", 403)
        await self.games._check_speaker(user, body.name, "name")  # the lobby shows it
        name = body.name
        if body.starts_at is not None and body.starts_at < self.games.clock.now():
            raise ServiceError("bad_request", "starts_at: the start time is in the past", 422)
        if body.starts_at is not None and (
            body.starts_at > self.games.clock.now() + MAX_START_AHEAD_SECONDS
        ):
            raise ServiceError(
                "bad_request", "starts_at: the start time is more than a year from now", 422
            )
        check_format_settings(body)
        tournament_id = _new_id()
        async with self.games.db.transaction() as connection:
            live = await store.count_live_by_organiser(connection, user.id)
            if live >= MAX_LIVE_PER_ORGANISER:
                raise ServiceError(
                    "conflict",
                    f"you organise {live} open or running tournaments: at most "
                    f"{MAX_LIVE_PER_ORGANISER}",
                    409,
                )
            await store.create_tournament(
                connection,
                id=tournament_id,
                name=name,
                format=body.format,
                organiser=user.id,
                created_at=self.games.clock.now(),
                starts_at=body.starts_at,
                status="open",
                settings=_stored_settings(body),
                state=None,
            )
        log.info("tournament %s created by %s", tournament_id, user.name)
        return await self.view(tournament_id)

    async def register(self, user: User, tournament_id: str) -> dict[str, Any]:
        """``user`` enters an open tournament.

        Raises:
            ServiceError: ``not_found``; ``conflict`` once started, when full, or
                registered already; ``forbidden`` for a guest (a place is an
                account's: guests are free and would fill an event) or a banned
                user.
        """
        if user.kind != "human":
            raise ServiceError("forbidden", "register an account to enter tournaments", 403)
        if (await self.games.standing(user)).banned:
            raise ServiceError("forbidden", "your account is banned", 403)
        await self._add(tournament_id, user)
        return await self.view(tournament_id)

    async def enter_bot(self, user: User, tournament_id: str, level: str) -> dict[str, Any]:
        """The organiser enters a bot of ``level`` (its own account, ``bot_LEVEL_N``,
        so that several bots of one level can play).

        Raises:
            ServiceError: ``forbidden`` unless the organiser; ``bad_request`` for an
                unknown level; ``conflict`` past the bounds on bots
                (:mod:`~backgammon.server.bots.limits`); as :meth:`register`.
        """
        row = await self._row(tournament_id)
        if row.organiser != user.id:
            raise ServiceError("forbidden", "only the organiser enters bots", 403)
        if level not in self.games.settings.bots:
            known = ", ".join(self.games.settings.bots) or "none"
            raise ServiceError("bad_request", f"level: no bot {level!r} (bots: {known})", 422)
        async with self.games.db.transaction() as connection:
            entered = {name for _, name, _ in await store.players_of(connection, tournament_id)}
            bot = await repo.numbered_bot(connection, level, entered, self.games.clock.now())
        await self._add(tournament_id, bot)
        return await self.view(tournament_id)

    async def _add(self, tournament_id: str, user: User) -> None:
        async with self._lock(tournament_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, tournament_id)
            if row.status != "open":
                raise ServiceError(
                    "conflict",
                    f"tournament {tournament_id} has started: registration is closed",
                    409,
                )
            players = await store.players_of(connection, tournament_id)
            if any(user_id == user.id for user_id, _, _ in players):
                raise ServiceError("conflict", f"{user.name} is registered already", 409)
            if len(players) >= int(row.settings["max_players"]):
                raise ServiceError("conflict", f"tournament {tournament_id} is full", 409)
            if user.kind == "bot":
                await check_bot_entry(connection, players, user, f"tournament {tournament_id}")
            try:
                await store.add_player(connection, tournament_id, user.id, self.games.clock.now())
            except IntegrityError:
                raise ServiceError("conflict", f"{user.name} is registered already", 409) from None
            full = len(players) + 1 >= int(row.settings["max_players"])
        await self._publish(tournament_id)
        if full and row.settings.get("start_when_full"):
            await self._start_when_full(tournament_id)

    async def _start_when_full(self, tournament_id: str) -> None:
        """Start a tournament that has just filled and starts when full (another
        request may have started or cancelled it since: nothing then)."""
        try:
            await self._start(tournament_id)
        except ServiceError as error:
            log.info("tournament %s full, not started: %s", tournament_id, error.message)

    async def withdraw(
        self, user: User, tournament_id: str, name: str | None = None
    ) -> dict[str, Any]:
        """``user`` leaves a tournament (the organiser may withdraw anyone by ``name``,
        who is told). From an open one, the entry is gone; from a running one, the
        player concedes the match in play and every later pairing is a forfeit (the
        opponent wins it at once): the rounds and standings stay whole.

        Raises:
            ServiceError: ``forbidden`` for someone else's entry; ``conflict`` once
                ended, or withdrawn already; ``not_found`` if not registered.
        """
        async with self._lock(tournament_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, tournament_id)
            target = user
            if name is not None and name != user.name:
                found = await repo.user_by_name(connection, name)
                if found is None or row.organiser != user.id:
                    raise ServiceError("forbidden", "you may withdraw only yourself", 403)
                target = found[0]
            if row.status == "running":
                await self._mark_withdrawn(connection, row, target)
            elif row.status != "open":
                raise ServiceError("conflict", f"tournament {tournament_id} is {row.status}", 409)
            elif not await store.remove_player(connection, tournament_id, target.id):
                raise ServiceError("not_found", f"{target.name} is not registered", 404)
        if target.id != user.id and target.kind != "bot":
            self._tell_withdrawn(row, target.id, "the organiser withdrew you")
        if row.status == "running":
            await self._concede_matches(tournament_id, target.id)
        await self._publish(tournament_id)
        return await self.view(tournament_id)

    @staticmethod
    async def _mark_withdrawn(connection: Any, row: store.TournamentRow, target: User) -> None:
        """Note in a running tournament's settings that ``target`` has withdrawn."""
        entered = {name for _, name, _ in await store.players_of(connection, row.id)}
        if target.name not in entered:
            raise ServiceError("not_found", f"{target.name} is not registered", 404)
        withdrawn = list(row.settings.get("withdrawn", []))
        if target.name in withdrawn:
            raise ServiceError("conflict", f"{target.name} has withdrawn already", 409)
        settings = {**row.settings, "withdrawn": [*withdrawn, target.name]}
        await store.update_tournament(connection, row.id, settings=settings)

    async def _concede_matches(self, tournament_id: str, user_id: int) -> None:
        """``user_id`` concedes each of their tournament matches not over (one that
        waits for its nonces starts first)."""
        async with self.games.db.transaction() as connection:
            links = await store.match_links(connection, tournament_id)
        for match_id, status, _winner in links.values():
            if status != "finished":
                await self._concede(match_id, user_id)

    async def _concede(self, match_id: str, user_id: int) -> None:
        """A withdrawn player concedes a match of theirs (nothing if they do not play
        in it or it is over): started at once if it waits, then left."""
        async with self.games.db.transaction() as connection:
            match = await repo.match_row(connection, match_id)
            user = await repo.user_by_id(connection, user_id)
        if match is None or user is None or user_id not in (match.player0, match.player1):
            return
        if match.status == "open":
            await self.games.begin_match(match_id)
        elif match.status != "playing":
            return
        try:
            await self.games.act(user, match_id, ActionBody(kind="leave"))
        except ServiceError as error:  # over meanwhile
            log.info("match %s: %s not conceded: %s", match_id, user.name, error.message)

    def _tell_withdrawn(self, row: store.TournamentRow, user_id: int, why: str) -> None:
        self.games.tell_user(
            user_id,
            {
                "type": "moderation",
                "action": "withdrawn",
                "tournament": row.id,
                "message": f"tournament {row.name}: {why}",
            },
        )

    async def start(self, user: User, tournament_id: str) -> dict[str, Any]:
        """The organiser starts an open tournament now: round 1 is paired and its
        matches begin.

        Raises:
            ServiceError: ``forbidden`` unless the organiser; ``conflict`` if it is
                not open or has fewer than 2 players.
        """
        row = await self._row(tournament_id)
        if row.organiser != user.id:
            raise ServiceError("forbidden", "only the organiser starts the tournament", 403)
        await self._start(tournament_id)
        return await self.view(tournament_id)

    async def _start(self, tournament_id: str, *, when_due: bool = False) -> None:
        """Start an open tournament: pair round 1 and begin its matches.

        ``when_due`` is the ticker's start at the tournament's time, in whichever
        process ticks first: one no longer open (another process started it, or its
        organiser cancelled it) is left as it is, and one with fewer than 2 players
        is cancelled; otherwise both are refused.

        Raises:
            ServiceError: ``conflict`` if it is not open or has fewer than 2 players.
        """
        async with self._lock(tournament_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, tournament_id)
            if row.status != "open":
                if when_due:
                    return
                raise ServiceError("conflict", f"tournament {tournament_id} is not open", 409)
            players = await self._present(connection, row)
            if len(players) < 2 and when_due:
                await store.update_tournament(connection, tournament_id, status="cancelled")
                log.info("tournament %s not started: fewer than 2 players", tournament_id)
            elif len(players) < 2:
                raise ServiceError("conflict", "a tournament needs at least 2 players", 409)
            else:
                entrants = [
                    await self._entrant(connection, user_id, name) for user_id, name, _ in players
                ]
                state = self._new_state(row, entrants)
                await store.update_tournament(
                    connection, tournament_id, status="running", state=state
                )
                log.info("tournament %s started with %d players", tournament_id, len(entrants))
        if len(players) >= 2:
            await self._advance(tournament_id)
        else:
            await self._publish(tournament_id)

    @staticmethod
    async def _entrant(connection: Any, user_id: int, name: str) -> Entrant:
        """A player as the pairings see them: name and standard rating (1500 unrated)."""
        rating = await repo.get_rating(connection, user_id, "standard")
        return Entrant(name, 1500.0 if rating is None else rating[0])

    async def _present(self, connection: Any, row: store.TournamentRow) -> list[Any]:
        """The players who start a tournament: in a rated one, a person neither
        connected nor on its page (:data:`SEEN_SECONDS`) is withdrawn (and told), so
        no absent player loses rated matches on the clock."""
        players = await store.players_of(connection, row.id)
        if not row.settings["rated"]:
            return players
        present = []
        for user_id, name, kind in players:
            if kind == "bot" or self._here(row.id, user_id):
                present.append((user_id, name, kind))
            else:
                await store.remove_player(connection, row.id, user_id)
                self._tell_withdrawn(row, user_id, "you were not connected at the start")
                log.info("tournament %s: %s withdrawn, absent at the start", row.id, name)
        return present

    def note_seen(self, tournament_id: str, user: User) -> None:
        """Remember that ``user`` looked at the tournament now (its page polls it)."""
        key = (tournament_id, user.id)
        self._seen.pop(key, None)
        self._seen[key] = self.games.clock.now()
        while len(self._seen) > MAX_SEEN:
            self._seen.popitem(last=False)

    def _here(self, tournament_id: str, user_id: int) -> bool:
        """Whether a person is present: connected, or on the tournament's page."""
        seen = self._seen.get((tournament_id, user_id))
        recent = seen is not None and self.games.clock.now() - seen <= SEEN_SECONDS
        return recent or self.games._connected(user_id)

    async def pause(self, user: User, tournament_id: str, paused: bool) -> dict[str, Any]:
        """The organiser pauses a running round-by-round tournament (the round in play
        plays on; the next is paired only once resumed) or resumes it.

        Raises:
            ServiceError: ``forbidden`` unless the organiser; ``conflict`` unless it
                runs, for an arena (its clock runs on), or if it already is so.
        """
        async with self._lock(tournament_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, tournament_id)
            if user.id != row.organiser:
                raise ServiceError("forbidden", "only the organiser pauses the tournament", 403)
            if row.status != "running" or row.format == "arena":
                what = "an arena runs by its clock" if row.format == "arena" else row.status
                raise ServiceError("conflict", f"tournament {row.id}: {what}", 409)
            if bool(row.settings.get("paused")) == paused:
                state = "paused" if paused else "not paused"
                raise ServiceError("conflict", f"tournament {row.id} is {state} already", 409)
            settings = {**row.settings, "paused": paused}
            await store.update_tournament(connection, row.id, settings=settings)
        log.info("tournament %s %s by its organiser", row.id, "paused" if paused else "resumed")
        await self._advance(tournament_id)
        return await self.view(tournament_id)

    async def cancel(
        self, user: User, tournament_id: str, *, as_admin: bool = False
    ) -> dict[str, Any]:
        """Its organiser (or, ``as_admin``, an administrator) cancels an open or running
        tournament: no more rounds are paired (matches in play finish as ordinary
        matches); its players and organiser are told.

        Raises:
            ServiceError: ``forbidden`` unless the organiser (an administrator
                ``as_admin``); ``not_found``; ``conflict`` once it has ended.
        """
        if as_admin and not user.is_admin:
            raise ServiceError("forbidden", "administrators only", 403)
        async with self._lock(tournament_id), self.games.db.transaction() as connection:
            row = await self._row_in(connection, tournament_id)
            if not as_admin and user.id != row.organiser:
                raise ServiceError("forbidden", "only the organiser cancels the tournament", 403)
            if row.status in ENDED:
                raise ServiceError("conflict", f"tournament {row.id} is {row.status}", 409)
            await store.update_tournament(connection, row.id, status="cancelled")
            players = await store.players_of(connection, row.id)
        self._events.pop(row.id, None)
        by = "an administrator" if as_admin else "its organiser"
        log.info("tournament %s cancelled by %s %s", row.id, by, user.name)
        people = {row.organiser} | {user_id for user_id, _, kind in players if kind != "bot"}
        for person in people:
            self.games.tell_user(
                person,
                {
                    "type": "moderation",
                    "action": "cancel_tournament",
                    "tournament": row.id,
                    "message": f"{by} cancelled the tournament {row.name}",
                },
            )
        await self._publish(row.id)
        return await self.view(row.id)

    def _new_state(self, row: store.TournamentRow, entrants: list[Entrant]) -> dict[str, Any]:
        """The stored state of a tournament starting now with ``entrants``."""
        seed = secrets.randbits(31)
        rounds = row.settings.get("rounds")
        event: RoundHistory
        try:
            if row.format == "arena":
                seconds = int(row.settings["duration_seconds"])
                now = self.games.clock.now()
                return new_arena_state(entrants, seconds, seed, now).to_json()
            if row.format == "knockout":
                event = Knockout(entrants, seed)
            elif row.format == "double-elim":
                event = DoubleElimination(entrants, seed)
            elif row.format == "swiss":
                event = Swiss(entrants, rounds=rounds, seed=seed)
            else:
                event = RoundRobin(entrants, rounds=rounds, seed=seed)
        except ValueError as error:
            raise ServiceError("conflict", f"rounds: {error}", 409) from None
        return event.to_json()

    # -- the rounds ------------------------------------------------------------------

    async def _advance(self, tournament_id: str) -> None:
        """Bring a running tournament up to date: start the round's missing matches,
        record a complete round and pair the next, finish after the last."""
        async with self._lock(tournament_id):
            while await self._step(tournament_id):
                pass
        await self._publish(tournament_id)

    async def _step(self, tournament_id: str) -> bool:
        """One step of :meth:`_advance` (under the tournament's lock); True if a round
        was recorded (go on)."""
        row = await self._row(tournament_id)
        if row.status != "running" or row.state is None:
            return False
        if row.format == "arena":
            await self._step_arena(row)
            return False
        return await self._step_rounds(row)

    async def _step_rounds(self, row: store.TournamentRow) -> bool:
        """Store and start the round's missing matches; record the round once all are
        over (opening a side event after a knock-out's first round). A paused event
        pairs no new round: the round in play plays on."""
        event, pending = self._event_of(row)
        async with self.games.db.transaction() as connection:
            if pending is None:
                await store.update_tournament(connection, row.id, status="finished")
                self._events.pop(row.id, None)
                log.info("tournament %s finished", row.id)
                return False
            links = await store.match_links(connection, row.id)
            started = any(number == pending.number for number, _ in links)
            if row.settings.get("paused") and not started:
                return False
            users = await self._users(connection, row.id)
            settings = self._match_settings(row, event, pending)
            for index, pairing in enumerate(pending.pairings):
                if pairing.is_bye or (pending.number, index) in links:
                    continue
                first, second = [await self._account(connection, users, p) for p in pairing.players]
                match_id = await self.games.seat_match(
                    connection,
                    (first, second),
                    settings,
                    rated=bool(row.settings["rated"]),
                    owner=row.organiser,  # its bots' work counts as the organiser's
                )
                await store.link_match(connection, row.id, pending.number, index, match_id)
                links[(pending.number, index)] = (match_id, "open", None)
        for index, pairing in enumerate(pending.pairings):
            link = links.get((pending.number, index))
            if link is not None and link[1] == "open":
                await self._begin(row, pending.number, pairing, link[0], users)
        played = self._results(pending, links)
        if played is None:
            return False
        self._events.pop(row.id, None)  # the event changes: read it again if this fails
        event.record(played)
        async with self.games.db.transaction() as connection:
            await store.update_tournament(connection, row.id, state=event.to_json())
            side_event = await self._open_side_event(connection, row, event)
        self._events[row.id] = (len(event.rounds), event, event.next_round())
        log.info("tournament %s: round %d recorded", row.id, played.number)
        if side_event is not None:
            self._spawn(side_event)
        return True

    async def _step_arena(self, row: store.TournamentRow) -> None:
        """Record the arena's finished matches, pair the players back in the lobby,
        start their matches; finish it once its time is up and its matches over."""
        settings = self._match_settings(row, None, None)
        async with self.games.db.transaction() as connection:
            users = await self._users(connection, row.id)
            ids = {name: user_id for name, (user_id, _) in users.items()}
            state, in_play = await advance_arena(self.games, connection, row, settings, ids)
            finished = state.is_finished(self.games.clock.now())
            status = {"status": "finished"} if finished else {}
            await store.update_tournament(connection, row.id, state=state.to_json(), **status)
            links = await store.match_links(connection, row.id)
        if finished:
            log.info("arena %s finished", row.id)
        for number, pairing in in_play:
            link = links.get((number, 0))
            if link is not None and link[1] == "open":
                await self._begin(row, number, pairing, link[0], users)

    async def _begin(
        self,
        row: store.TournamentRow,
        number: int,
        pairing: Pairing,
        match_id: str,
        users: dict[str, tuple[int, str]],
    ) -> None:
        """Tell a stored pairing's people of their match and its dice commitment
        (once), and start it when they have given their nonces (docs/fair-dice.md)."""
        if match_id not in self._told:
            async with self.games.db.transaction() as connection:
                match = await repo.match_row(connection, match_id)
            if match is None or match.status != "open":
                return
            self._told.add(match_id)
            self._tell_pairing(row, (number, pairing), match, users)
        withdrawn = set(row.settings.get("withdrawn", ())) & set(pairing.players)
        for name in sorted(str(name) for name in withdrawn):  # a forfeit: conceded at once
            await self._concede(match_id, users[name][0])
        await self.games.begin_when_ready(match_id)

    def _event_of(self, row: store.TournamentRow) -> tuple[RoundHistory, Round | None]:
        """A round-by-round event and its next round. Reading a record replays and
        checks every round (0.4 s for a 256-player Swiss late on), so the event is
        kept while running, keyed by how many rounds its record holds: a record with
        as many rounds is the same event (the rounds are only ever appended)."""
        assert row.state is not None
        recorded = len(row.state["rounds"])
        cached = self._events.get(row.id)
        if cached is not None and cached[0] == recorded:
            return cached[1], cached[2]
        event = _load_event(row)
        pending = event.next_round()
        if row.status == "running":
            self._events[row.id] = (recorded, event, pending)
        return event, pending

    @staticmethod
    async def _users(connection: Any, tournament_id: str) -> dict[str, tuple[int, str]]:
        """The registered players' ids and kinds (human, guest, bot), by name."""
        players = await store.players_of(connection, tournament_id)
        return {name: (user_id, kind) for user_id, name, kind in players}

    @staticmethod
    async def _account(
        connection: Any, users: dict[str, tuple[int, str]], name: str | None
    ) -> User:
        """A registered player's account."""
        user = await repo.user_by_id(connection, users[str(name)][0])
        assert user is not None
        return user

    async def _open_side_event(
        self, connection: Any, row: store.TournamentRow, event: RoundHistory
    ) -> str | None:
        """After a knock-out's first round, open the next side event it asked for (a
        running knock-out of its first-round losers, its own tournament record linked
        from this one's settings); returns its id, or None."""
        kinds = list(row.settings.get("side_events", []))
        if not isinstance(event, Knockout) or len(event.rounds) != 1 or not kinds:
            return None
        kind = kinds[0]
        try:
            side = SIDE_EVENTS[kind](event, secrets.randbits(31))
        except ValueError as error:
            log.info("tournament %s has no %s: %s", row.id, kind, error)
            return None
        side_id = _new_id()
        now = self.games.clock.now()
        main_name = str(row.settings.get("main_name", row.name))
        await store.create_tournament(
            connection,
            id=side_id,
            name=f"{main_name[:60]}: {kind.replace('-', ' ')}",
            format="knockout",
            organiser=row.organiser,
            created_at=now,
            starts_at=None,
            status="running",
            settings={
                **row.settings,
                "side_events": kinds[1:],
                "consolation": False,
                "last_chance": "last-chance" in kinds[1:],
                "side_event": kind,
                "parent": row.id,
                "main_name": main_name,
            },
            state=side.to_json(),
        )
        ids = {name: user_id for user_id, name, _ in await store.players_of(connection, row.id)}
        for entrant in side.entrants:
            await store.add_player(connection, side_id, ids[entrant.name], now)
        children = [*row.settings.get("side_event_ids", []), side_id]
        await store.update_tournament(
            connection, row.id, settings={**row.settings, "side_event_ids": children}
        )
        log.info("tournament %s: %s %s opened", row.id, kind, side_id)
        return side_id

    def _match_settings(
        self, row: store.TournamentRow, event: RoundHistory | None, pending: Round | None
    ) -> MatchSettings:
        """The settings of a round's matches: a knock-out lengthens its semi-finals
        and final, a double elimination its final; other rounds (and an arena's
        matches) are played to the early length."""
        schedule = _event_settings(row.settings)
        round_settings = RoundSettings(schedule.early_length, schedule.clock)
        if isinstance(event, Knockout) and pending is not None:
            round_settings = schedule.for_round(pending.number, event.total_rounds)
        elif isinstance(event, DoubleElimination) and pending and len(pending.pairings) == 1:
            round_settings = RoundSettings(schedule.final_length, schedule.clock)
        clock = round_settings.clock
        return MatchSettings(
            length=round_settings.match_length,
            crawford=True,
            jacoby=False,
            beavers=False,
            clock=ClockSettings(
                delay=clock.delay_seconds, reserve_per_point=clock.reserve_per_point_seconds
            ),
        )

    @staticmethod
    def _results(
        pending: Round, links: dict[tuple[int, int], tuple[str, str, int | None]]
    ) -> Round | None:
        """The round with every winner, or None while a match is unfinished."""
        results = []
        for index, pairing in enumerate(pending.pairings):
            if pairing.is_bye:
                results.append(pairing)
                continue
            link = links.get((pending.number, index))
            if link is None or link[1] != "finished":
                return None
            seat = link[2] if link[2] is not None else 0  # no winner: the higher seed goes on
            results.append(pairing.won_by(str(pairing.players[seat])))
        return Round(pending.number, tuple(results))

    def _tell_pairing(
        self,
        row: store.TournamentRow,
        paired: tuple[int, Pairing],
        match: repo.MatchRow,
        users: dict[str, tuple[int, str]],
    ) -> None:
        """Tell each person of pairing ``paired`` (its round or number, the pairing)
        their match, its dice commitment and when it starts without their nonce."""
        number, pairing = paired
        for name in pairing.players:
            user, opponent = users.get(str(name)), pairing.opponent_of(str(name))
            if user is None or user[1] == "bot" or opponent is None:
                continue  # (a bot is told nothing; a bye has no match)
            told = store.WaitingPairing(
                row.id,
                row.name,
                number,
                match.id,
                users.get(opponent, (0, ""))[0],
                match.commitment,
                match.created_at,
            )
            self.games.tell_user(user[0], _pairing_message(told, opponent))

    async def pairings_waiting(self, user_id: int) -> list[dict[str, Any]]:
        """The ``tournament_pairing`` messages of ``user_id``'s matches that still wait
        for their nonce: told again to a connection that opens meanwhile (a page that
        was loading when the pairing was told would otherwise miss it until the match
        starts without its player's nonce, their clock running)."""
        async with self.games.db.transaction() as connection:
            waiting = await store.pairings_waiting_for(connection, user_id)
            opponents = [await repo.user_by_id(connection, w.opponent_id) for w in waiting]
        return [
            _pairing_message(pairing, opponent.name)
            for pairing, opponent in zip(waiting, opponents, strict=True)
            if opponent is not None
        ]

    # -- views -----------------------------------------------------------------------

    async def _row(self, tournament_id: str) -> store.TournamentRow:
        async with self.games.db.transaction() as connection:
            return await self._row_in(connection, tournament_id)

    @staticmethod
    async def _row_in(connection: Any, tournament_id: str) -> store.TournamentRow:
        row = await store.tournament_row(connection, tournament_id[:32])
        if row is None:
            raise ServiceError("not_found", f"no tournament {tournament_id[:32]!r}", 404)
        return row

    async def listing(self, status: str | None = None) -> list[dict[str, Any]]:
        """The newest tournaments (of one status: open, running, finished)."""
        async with self.games.db.transaction() as connection:
            rows = await store.list_tournaments(connection, status)
            return [
                {
                    "id": row.id,
                    "name": row.name,
                    "format": row.format,
                    "status": row.status,
                    "starts_at": row.starts_at,
                    "players": len(await store.players_of(connection, row.id)),
                }
                for row in rows
            ]

    async def view(self, tournament_id: str) -> dict[str, Any]:
        """One tournament: settings, players, rounds (each pairing with its match and
        winner) or an arena's games, standings, the round in play, its side events."""
        async with self.games.db.transaction() as connection:
            row = await self._row_in(connection, tournament_id)
            players = await store.players_of(connection, tournament_id)
            links = await store.match_links(connection, tournament_id)
            scores = await store.match_scores(connection, tournament_id)
            organiser = await repo.user_by_id(connection, row.organiser)
            side_events = await self._side_events(connection, row)
        progress = _with_scores(await self._progress_of(row, links), scores)
        rounds = progress["rounds"]
        return {
            "id": row.id,
            "name": row.name,
            "format": row.format,
            "status": row.status,
            "organiser": None if organiser is None else organiser.name,
            "starts_at": row.starts_at,
            "settings": row.settings,
            "players": [{"name": name, "bot": kind == "bot"} for _, name, kind in players],
            **progress,
            "round_in_play": rounds[-1]["number"] if row.status == "running" and rounds else None,
            "parent": row.settings.get("parent"),
            "side_events": side_events,
        }

    async def _progress_of(self, row: store.TournamentRow, links: Links) -> dict[str, Any]:
        """A view's rounds (or games) and standings: a running round-by-round event's
        from the event kept while it runs; an ended tournament's and a running
        arena's computed once (in a thread, one at a time) and kept."""
        if row.state is None:
            return {"rounds": [], "standings": []}
        if row.status not in ENDED and row.format != "arena":
            return _rounds_progress(row, *self._event_of(row), links)
        key = row.status if row.status in ENDED else _arena_key(row)
        kept = self._views.get(row.id)
        if kept is None or kept[0] != key:
            async with self._computing:
                kept = self._views.get(row.id)
                if kept is None or kept[0] != key:
                    kept = (key, await asyncio.to_thread(_progress, row, links))
                    self._views[row.id] = kept
                    while len(self._views) > KEPT_VIEWS:
                        self._views.popitem(last=False)
        self._views.move_to_end(row.id)
        return kept[1]

    @staticmethod
    async def _side_events(connection: Any, row: store.TournamentRow) -> list[dict[str, Any]]:
        """The side events opened from this tournament and from them, in order."""
        found = []
        waiting = list(row.settings.get("side_event_ids", []))
        while waiting:
            side = await store.tournament_row(connection, waiting.pop(0))
            if side is None:
                continue
            found.append(
                {
                    "id": side.id,
                    "name": side.name,
                    "kind": side.settings.get("side_event"),
                    "status": side.status,
                }
            )
            waiting.extend(side.settings.get("side_event_ids", []))
        return found

    async def _room_snapshot(self, room: str) -> dict[str, Any]:
        return {
            "type": "tournament",
            "tournament": await self.view(room.removeprefix("tournament:")),
        }

    async def _publish(self, tournament_id: str) -> None:
        """Tell the tournament's room its state (after the commit)."""
        view = await self.view(tournament_id)
        self.games.publish(
            f"tournament:{tournament_id}", {"type": "tournament", "tournament": view}
        )


def _pairing_message(waiting: store.WaitingPairing, opponent: str) -> dict[str, Any]:
    """The ``tournament_pairing`` message of a stored match: the event, the round (an
    arena's game number), the match, the opponent, the dice commitment and when the
    match starts without its people's nonces (docs/fair-dice.md)."""
    return {
        "type": "tournament_pairing",
        "tournament": waiting.tournament_id,
        "name": waiting.tournament_name,
        "round": waiting.round,
        "match": waiting.match_id,
        "opponent": opponent,
        "commitment": waiting.commitment,
        "ready_by": waiting.created_at + READY_SECONDS,
    }
