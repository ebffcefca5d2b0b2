"""The game service: the one authority over accounts, matches, dice and clocks.

Front ends (the WebSocket API, the FIBS listener) are adapters over a
:class:`GameService`: they authenticate a user, pass the user's requests here, and
relay what the service publishes through the :class:`~backgammon.server.lobby.hub.Hub`.
Every accepted action is committed to the database before anyone hears of it; if the
commit fails, the in-memory match is dropped and rebuilt from the log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import Any, Protocol, TypeVar

from sqlalchemy.exc import IntegrityError

from backgammon import __version__
from backgammon.formats import MatchRecord, write_match_text
from backgammon.formats.ogxm import write_ogxm
from backgammon.server.accounts import throttle
from backgammon.server.accounts.passwords import (
    PasswordWorkers,
    PasswordWorkersBusyError,
    check_name,
    check_password,
    hash_password,
    hash_token,
    needs_rehash,
    new_token,
    verify_password,
)
from backgammon.server.bots.pool import BotPool
from backgammon.server.bots.queue import BotQueue
from backgammon.server.db import repository as repo
from backgammon.server.db.database import Database
from backgammon.server.db.events import EventBus, LocalBus, PostgresBus
from backgammon.server.db.group_commit import GroupCommitter
from backgammon.server.db.repository import MatchRow, User
from backgammon.server.lobby.hub import ANONYMOUS, Connection, Hub
from backgammon.server.lobby.presence import NameCache, WhoCache, WhoFacts
from backgammon.server.lobby.rate_limit import TokenBuckets
from backgammon.server.matches import history
from backgammon.server.matches.fair_dice import commitment, new_seed
from backgammon.server.matches.live import ActionRefusedError, Entry, LiveMatch
from backgammon.server.matches.turn_plays import PlayTexts
from backgammon.server.metrics import Metrics
from backgammon.server.moderation.flags import CLOSING, MODERATIONS, Standings
from backgammon.server.protocol import (
    PROTOCOL_VERSION,
    ActionBody,
    CreateMatch,
    MatchSettings,
    Rematch,
)
from backgammon.server.settings import Settings
from backgammon.server.social.ratings import Rating, rate_match
from backgammon.server.social.user_text import UserTextError, check_text

__all__ = [
    "MAX_FRIENDS",
    "MAX_OPEN_MATCHES",
    "MAX_STORED_MESSAGES",
    "Clock",
    "GameService",
    "ServiceError",
    "SystemClock",
]

log = logging.getLogger("backgammon.server")

_T = TypeVar("_T")


class Clock(Protocol):
    """Where the service reads the time (injectable, so tests need not sleep)."""

    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        """Seconds since the epoch."""
        return time.time()


class ServiceError(Exception):
    """A request the service refuses; nothing changed.

    Attributes:
        code: machine-readable (``bad_request``, ``unauthorized``, ``forbidden``,
            ``not_found``, ``conflict``, ``throttled``, ``busy``, and the
            :class:`~backgammon.server.matches.live.ActionRefusedError` codes).
        message: what is wrong, for people.
        status: the HTTP status that fits.
        retry_after: for ``throttled`` and ``busy``, the seconds to wait.
    """

    def __init__(
        self, code: str, message: str, status: int = 400, *, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after


@dataclass
class _Seats:
    """Who sits where in a live match, and whose its bots' work counts as (the
    person who started it, or the tournament's organiser)."""

    users: tuple[User | None, User | None]
    rated: bool
    public: bool
    owner: int

    def seat_of(self, user: User) -> int | None:
        for seat, seated in enumerate(self.users):
            if seated is not None and seated.id == user.id:
                return seat
        return None


def _findable(public: bool, player_ids: Iterable[int | None], viewer: User) -> bool:
    """Whether ``viewer`` may find a match by a player's name or in a list (the
    lobby's matches in play; FIBS's ``watch``, ``look``, ``who``): a public match, or
    one of the viewer's own. An unlisted match's id is its invitation link: only those
    it was handed to may open it (issue 50)."""
    return public or viewer.id in player_ids


class _ConflictError(Exception):
    """Another process appended to the match's log first."""


PENDING_COMMITMENTS = 10
"""How many dice commitments handed out for matches not yet created a user keeps
(the oldest is forgotten)."""


READY_SECONDS = 10.0
"""How long a seated match (a tournament's) waits, from when it is stored, for each
person in it to give a dice nonce (:meth:`GameService.give_nonce`) after its
commitment is published; then it starts with the nonces given so far (issue 50)."""


MAX_STORED_MESSAGES = 50
"""Messages that may wait for one user's next login (FIBS's ``message``)."""

MAX_STORED_FROM_ONE = 5
"""Messages one user may keep waiting for one other user (so that one sender cannot
fill another's mailbox)."""

MAX_STORED_SENT = 20
"""Messages one user may keep waiting for others in all."""

STORED_MESSAGE_DAYS = 30
"""Days a stored message waits at most: older ones are dropped (the mailbox of a
user who never logs in over FIBS empties)."""

MAX_GAGS = 200
"""Users one user may gag (FIBS's ``gag``, kept across logins)."""


MAX_OPEN_MATCHES = 20
"""Unfinished matches one user may be in at once when creating another: open ones
and invitations waiting, and matches in play, against bots too (each bot match keeps a
bot thinking, so one account could otherwise keep the bots busy: issue 50)."""


VIEWER_ROOMS = 2
"""Matches one anonymous viewer's connection may watch at once."""

FINISHED_KEPT = 64
"""How many finished matches one process keeps rebuilt for readers (their state and
records), the most recently read; others are rebuilt from the log when read."""


def _login_required(what: str) -> ServiceError:
    """The refusal of anything but watching to an anonymous viewer."""
    return ServiceError(
        "login_required", f"log in to {what}: watching without an account is read-only", 401
    )


MAX_FRIENDS = 100
"""The most users one friends list holds."""

MAX_TOKENS_PER_USER = 50
"""The most live session tokens one user holds; a login past it revokes the oldest."""


LOBBY_CACHE_SECONDS = 5.0
"""The longest the lobby's shared part (its open matches and matches in play) is
served from memory; any lobby event about a match forgets it sooner."""

ROSTER_CHUNK = 40
"""Users per ``roster`` event (a process's connected users, told to one that has
just started), so that each stays under the bus's payload limit."""


def _new_match_id() -> str:
    return secrets.token_urlsafe(9)


FORGET_THROTTLES_AFTER = 86_400.0
"""Throttle rows untouched this long are deleted (every policy has leaked away by
then)."""


def _throttled(message: str, wait: float) -> ServiceError:
    seconds = max(1, math.ceil(wait))
    return ServiceError(
        "throttled", f"{message}: try again in {seconds} s", 429, retry_after=seconds
    )


def _busy() -> ServiceError:
    return ServiceError(
        "busy",
        "the server is busy checking passwords: try again in a few seconds",
        503,
        retry_after=5,
    )


class GameService:
    """Accounts, lobby, matches, bots and clocks over one database.

    Args:
        settings: the server's settings.
        database: the opened database (migrated by :meth:`start`).
        hub: this process's connections.
        clock: the time source (the real time by default).
        bots: where bots think (a process pool by default).
        dice_seeds: where each new match's secret dice seed comes from
            (:func:`~backgammon.server.matches.fair_dice.new_seed`, the operating system's
            randomness, by default); tests pass a seeded source to replay a match.
    """

    def __init__(
        self,
        settings: Settings,
        database: Database,
        hub: Hub | None = None,
        clock: Clock | None = None,
        bots: BotPool | None = None,
        dice_seeds: Callable[[], bytes] = new_seed,
    ) -> None:
        self.settings = settings
        self._dice_seeds = dice_seeds
        self.db = database
        self.hub = Hub() if hub is None else hub
        self.clock: Clock = SystemClock() if clock is None else clock
        self._bot_pool = bots
        # Every bot decision waits here for a worker, by deadline and owner (issue 50).
        self._bot_queue = BotQueue(max(1, settings.bot_processes), self.clock.now)
        self.metrics = Metrics()
        self._live: dict[str, LiveMatch] = {}
        self._seats: dict[str, _Seats] = {}
        # Finished matches read by anyone (their state, their records): the newest few,
        # never in _live, so downloads of old matches cannot fill the memory.
        self._finished: OrderedDict[str, tuple[LiveMatch, _Seats]] = OrderedDict()
        # One lock per match (or room) while anyone holds or waits for it: weak values,
        # so requests naming matches that do not exist leave nothing behind.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._bot_tasks: set[asyncio.Task[None]] = set()
        # Seated matches waiting for their people's nonces until READY_SECONDS pass.
        self._ready_waits: dict[str, asyncio.Task[None]] = {}
        self._bot_users: dict[str, User] = {}
        self._ticker: asyncio.Task[None] | None = None
        self.bus: EventBus = LocalBus()
        self.passwords = PasswordWorkers(settings.password_threads, settings.password_queue)
        self._login_policy = throttle.Policy(
            settings.login_free_failures, settings.login_forgive_seconds, settings.login_max_delay
        )
        per_signup = 3600.0 / settings.signups_per_hour
        self._signup_policy = throttle.Policy(settings.signups_per_hour, per_signup, per_signup)
        self._committer: GroupCommitter | None = None
        # The lobby's open matches and matches in play, summarised once for everyone
        # (see _lobby_matches) and the number of lobby events that changed them.
        self._lobby_cache: tuple[float, dict[str, Any]] | None = None
        self._lobby_changes = 0
        self._lobby_building = asyncio.Lock()
        # What each user says, from all their connections and rooms together.
        self._chat_rate = TokenBuckets(settings.chat_lines_per_second, settings.chat_burst)
        self._play_texts = PlayTexts()
        self._elsewhere: dict[int, tuple[dict[str, Any], int]] = {}
        # Who is connected, as this process knows it: the users seen connected (here or
        # elsewhere) and since when those seen leaving have been away; a user never
        # seen is away since this process started (see _away_since).
        self._present: set[int] = set()
        self._left_at: dict[int, float] = {}
        self._started_at = self.clock.now()
        # The live matches each user sits in (checked against _seats when used).
        self._matches_of: dict[int, set[str]] = {}
        self._who = WhoCache(self._read_who, self.clock.now)
        self._names = NameCache()
        self._standings = Standings()
        # Called with a match's id once its result is committed (tournaments).
        self.match_finished_hooks: list[Callable[[str], None]] = []
        # Snapshot makers of the rooms other services own, by prefix ("tournament:").
        self.room_snapshots: dict[str, Callable[[str], Awaitable[dict[str, Any]]]] = {}
        # Awaited with a user's id and the moderation once it is committed (in the
        # administrator's process only), e.g. to hand a banned user's seats to bots.
        self.moderation_hooks: list[Callable[[int, str], Awaitable[None]]] = []
        self.ready = False

    # -- lifecycle -----------------------------------------------------------------

    async def start(self, progress: Callable[[str], None] | None = None) -> None:
        """Migrate the database, create the bot accounts, resume unfinished matches
        and start the clock ticker."""
        say = progress or (lambda message: log.info(message))
        say("migrating the database")
        await self.db.migrate()
        if not self.db.is_sqlite:
            url = self.db.url.replace("postgresql+asyncpg://", "postgresql://", 1)
            self.bus = PostgresBus(url)
            await self.bus.start(self._on_event)
            # Who is already connected to the other processes: each answers a roster.
            self.bus.send({"k": "roster_request"})
            say("listening for the other server processes (PostgreSQL NOTIFY)")
        now = self.clock.now()
        async with self.db.transaction() as connection:
            for level in self.settings.bots:
                name = f"bot_{level}"
                found = await repo.user_by_name(connection, name)
                user = (
                    found[0]
                    if found is not None
                    else await repo.create_user(connection, name, None, "bot", now, bot_level=level)
                )
                self._bot_users[level] = user
            for name in self.settings.admins:
                found = await repo.user_by_name(connection, name)
                if found is None:
                    say(f"no account {name!r} to make an administrator (register it first)")
                else:
                    await repo.set_user_flags(connection, found[0].id, is_admin=True)
            playing = await repo.list_matches(connection, status="playing", limit=100_000)
        if self._bot_pool is None and self.settings.bots:
            say(f"starting {self.settings.bot_processes} bot process(es)")
            self._bot_pool = BotPool(self.settings.bot_processes, self.settings.tool_processes)
            self._bot_pool.start()
        for row in playing:
            live = await self._load(row.id)
            if live.seq == 0:
                # Marked playing, but killed before its opening throw was committed
                # (_begin's two steps): start it now.
                await self._commit(live, live.start(now))
            else:
                live.resume_clock(now)
            self._wake_bot(row.id)
        if playing:
            say(f"resumed {len(playing)} match(es)")
        self._committer = GroupCommitter(self.db, self.bus)
        self._committer.start()
        self._ticker = asyncio.create_task(self._tick_forever())
        self.ready = True

    @property
    def pool(self) -> BotPool:
        """Where searches run (the bots' pool; started on first use when the server
        has no bots)."""
        if self._bot_pool is None:
            self._bot_pool = BotPool(self.settings.bot_processes, self.settings.tool_processes)
        return self._bot_pool

    async def stop(self) -> None:
        """Stop the ticker and the bots, close the connections and the database."""
        self.ready = False
        if self._ticker is not None:
            self._ticker.cancel()
        for task in [*self._bot_tasks, *self._ready_waits.values()]:
            task.cancel()
        self._bot_queue.close()
        self.hub.close_all()
        if self._bot_pool is not None:
            self._bot_pool.close()
        if self._committer is not None:
            await self._committer.stop()
        await self.bus.close()
        self.passwords.close()
        await self.db.close()

    @property
    def live_count(self) -> int:
        """Matches held in memory by this process."""
        return len(self._live)

    def _lock(self, match_id: str) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    # -- accounts ------------------------------------------------------------------

    async def _issue_token(self, user: User) -> str:
        token = new_token()
        now = self.clock.now()
        async with self.db.transaction() as connection:
            # The new token is always kept; the oldest go beyond the limit.
            await repo.revoke_old_tokens(connection, user.id, MAX_TOKENS_PER_USER - 1, now)
            await repo.store_token(
                connection,
                hash_token(token),
                user.id,
                now,
                now + self.settings.session_days * 86400,
            )
        return token

    async def _take_signup(self, address: str | None) -> None:
        """Count one account made from ``address`` (None: an in-process caller).

        Raises:
            ServiceError: ``throttled`` when the address has made too many.
        """
        if address is None:
            return
        key = f"signup:{throttle.client_address(address)}"
        async with self.db.transaction() as connection:
            wait = await throttle.take(connection, key, self.clock.now(), self._signup_policy)
        if wait:
            log.warning("sign-up throttled address=%s", address)
            raise _throttled("too many new accounts from your address", wait)

    async def register(
        self, name: str, password: str, *, address: str | None = None
    ) -> tuple[User, str]:
        """Create an account and log it in; returns the user and a session token.

        Args:
            name: the new name (unique whatever its case).
            password: its password.
            address: the client's address: accounts made from one address are
                limited (``signups_per_hour``); None for in-process callers (tools,
                tests), which are not.

        Raises:
            ServiceError: ``bad_request`` for a bad name or password, ``conflict`` for
                a name taken (in any case), ``throttled`` for too many accounts from
                the address, ``busy`` when too many passwords wait to be hashed.
        """
        try:
            check_name(name)
            check_password(password)
        except ValueError as error:
            raise ServiceError("bad_request", str(error)) from None
        taken = ServiceError("conflict", f"the name {name!r} is taken", 409)
        async with self.db.transaction() as connection:
            if await repo.user_by_name(connection, name) is not None:
                raise taken
        try:
            with self.passwords.admit():
                await self._take_signup(address)
                hashed = await self.passwords.run(hash_password, password)
        except PasswordWorkersBusyError:
            raise _busy() from None
        now = self.clock.now()
        try:
            async with self.db.transaction() as connection:
                user = await repo.create_user(connection, name, hashed, "human", now)
                if address is not None:
                    client = throttle.client_address(address)
                    await throttle.remember_address(connection, user.id, client, now)
        except IntegrityError:  # the unique index on lower(name): a racing registration
            raise taken from None
        log.info("registered user=%s", user.name)
        return user, await self._issue_token(user)

    async def _take_login_try(
        self, name: str, client: str, now: float
    ) -> tuple[tuple[User, str | None] | None, list[str]]:
        """Count a login try before its password is checked: against the client's
        address, and against the account unless the client's address has logged in
        to it before. Returns the account found and the keys counted.

        Raises:
            ServiceError: ``throttled`` (nothing counted) when either must wait.
        """
        policy = self._login_policy
        async with self.db.transaction() as connection:
            found = await repo.user_by_name(connection, name)
            known = found is not None and await throttle.is_known_address(
                connection, found[0].id, client
            )
            keys = [f"login-address:{client}"]
            wait = await throttle.take(connection, keys[0], now, policy)
            if wait:
                raise _throttled("too many failed logins from your address", wait)
            if not known:
                keys.append(f"login-account:{name.lower()[:64]}")
                wait = await throttle.take(connection, keys[1], now, policy)
                if wait:  # leaving the transaction undoes the address's count
                    raise _throttled(
                        "too many failed logins to this account from new addresses "
                        "(an address that logged in to it before may try at once)",
                        wait,
                    )
        return found, keys

    async def login(self, name: str, password: str, address: str) -> tuple[User, str]:
        """Check a password (:meth:`check_login`) and open a session: the user and a new
        session token.

        Raises:
            ServiceError: as :meth:`check_login`.
        """
        user = await self.check_login(name, password, address)
        return user, await self._issue_token(user)

    async def check_login(self, name: str, password: str, address: str) -> User:
        """Check a password, without a session token (a FIBS connection is its own
        session); the account it opens.

        Every try is counted before its password is checked (and given back when it
        was right): per client address, and per account from addresses that never
        logged in to it, so strangers cannot lock the owner out (docs/security.md).

        Raises:
            ServiceError: ``throttled`` (429) when this address, or this account
                from a new address, must wait (even with the right password);
                ``busy`` (503) when too many passwords wait to be checked;
                ``unauthorized`` for a wrong name or password, ``forbidden`` for a
                banned account.
        """
        client = throttle.client_address(address)
        now = self.clock.now()
        try:
            with self.passwords.admit():
                found, keys = await self._take_login_try(name, client, now)
                hashed = found[1] if found is not None else None
                good = hashed is not None and await self.passwords.run(
                    verify_password, hashed, password
                )
                rehashed = None
                if good and hashed is not None and needs_rehash(hashed):
                    rehashed = await self.passwords.run(hash_password, password)
        except PasswordWorkersBusyError:
            raise _busy() from None
        except ServiceError:
            log.warning("login throttled name=%r address=%s", name[:40], address)
            raise
        if not good or found is None:
            log.info("login failed name=%r address=%s", name[:40], address)
            raise ServiceError("unauthorized", "wrong name or password", 401)
        user = found[0]
        async with self.db.transaction() as connection:
            for key in keys:
                await throttle.give_back(connection, key)
            await throttle.remember_address(connection, user.id, client, now)
            if rehashed is not None:
                await repo.replace_password_hash(connection, user.id, hashed, rehashed)
            await throttle.forget_stale(connection, now - FORGET_THROTTLES_AFTER)
        if user.banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)
        return user

    async def guest(self, *, address: str | None = None) -> tuple[User, str]:
        """A new guest account (unrated play) and its session token.

        Raises:
            ServiceError: ``throttled`` for too many accounts from ``address``
                (None for in-process callers, which are not limited).
        """
        await self._take_signup(address)
        async with self.db.transaction() as connection:
            for _ in range(5):
                name = f"guest{secrets.randbelow(10**8):08d}"
                if await repo.user_by_name(connection, name) is None:
                    user = await repo.create_user(connection, name, None, "guest", self.clock.now())
                    break
            else:  # pragma: no cover - 10**8 names
                raise ServiceError("conflict", "no guest name free; try again", 503)
        return user, await self._issue_token(user)

    async def logout(self, token: str) -> None:
        """End a session."""
        async with self.db.transaction() as connection:
            await repo.delete_token(connection, hash_token(token))

    async def authenticate(self, token: str | None) -> User | None:
        """The user a session token belongs to (None for none, expired or banned)."""
        if not token or len(token) > 200:
            return None
        async with self.db.transaction() as connection:
            user = await repo.user_for_token(connection, hash_token(token), self.clock.now())
        return None if user is None or user.banned else user

    async def user_named(self, name: str) -> User:
        """The account called ``name``.

        Raises:
            ServiceError: ``not_found``.
        """
        async with self.db.transaction() as connection:
            found = await repo.user_by_name(connection, name)
        if found is None:
            raise ServiceError("not_found", f"no user called {name[:40]!r}", 404)
        return found[0]

    async def profile(self, name: str) -> dict[str, Any]:
        """A user's public page: ratings per variant with history, recent matches."""
        user = await self.user_named(name)
        async with self.db.transaction() as connection:
            ratings = await repo.ratings_of(connection, user.id)
            history = await repo.rating_history_of(connection, user.id)
            rows = await repo.list_matches(connection, user_id=user.id, limit=50)
        return {
            **user.public(),
            "ratings": {
                variant: {"rating": round(rating, 2), "experience": experience}
                for variant, (rating, experience) in ratings.items()
            },
            "rating_history": history,
            # an unlisted open match's id is its invitation link, and an invitation
            # is its invitee's business: neither is shown
            "matches": [
                await self._summary(row)
                for row in rows
                if row.status != "open" or (row.public and row.invitee is None)
            ],
        }

    async def match_history(
        self, name: str, wanted: history.HistoryFilter, opponent: str | None = None
    ) -> dict[str, Any]:
        """One page of a user's matches that pass ``wanted`` (and, by name, against
        ``opponent``), newest first, with the total that pass: the player page's
        history. An opponent with no account has played no match: an empty page.

        Raises:
            ServiceError: ``not_found`` for no user called ``name``.
        """
        user = await self.user_named(name)
        rows: list[MatchRow] = []
        total = 0
        async with self.db.transaction() as connection:
            found = None if opponent is None else await repo.user_by_name(connection, opponent)
            if opponent is None or found is not None:
                if found is not None:
                    wanted = wanted.against(found[0].id)
                rows, total = await history.history_page(connection, user.id, wanted)
        return {
            "matches": [await self._summary(row) for row in rows],
            "total": total,
            "page": wanted.page,
            "per_page": wanted.per_page,
        }

    # -- matches -------------------------------------------------------------------

    def bots(self) -> list[User]:
        """The bot accounts this server offers."""
        return list(self._bot_users.values())

    def bot_user(self, level: str) -> User:
        """The bot account at ``level``.

        Raises:
            ServiceError: for a level this server does not offer.
        """
        try:
            return self._bot_users[level]
        except KeyError:
            offered = ", ".join(self._bot_users) or "none"
            raise ServiceError(
                "bad_request", f"no bot at level {level!r}; offered: {offered}"
            ) from None

    async def create_match(
        self, user: User, request: CreateMatch, *, address: str | None = None
    ) -> dict[str, Any]:
        """Create a match: open (public), by invitation, or against a bot (it starts
        at once). The creator sits in seat 0. An invitation is told to its invitee
        only; an open public match to the whole lobby.

        With a ``request_id``, the request is idempotent: the same id from the same
        user (again, or at the same time, in any process) gets the match the first
        request created, and creates nothing.

        ``address``: the client's address (None: an in-process caller); at most
        ``open_matches_per_address`` open matches are made from one (an IPv6
        client's /64), whatever the accounts.

        Raises:
            ServiceError: ``bad_request`` for an unknown opponent; ``conflict``
                for a user in :data:`MAX_OPEN_MATCHES` unfinished matches already;
                ``throttled`` for an address with its open matches; ``forbidden``
                for a banned user.
        """
        await self._check_active(user)
        request_id = request.request_id
        if request_id is not None:
            earlier = await self._created_by_request(user, request_id)
            if earlier is not None:
                return earlier
        try:
            network = None if address is None else throttle.client_address(address)
            return await self._create_match(user, request, network)
        except (ServiceError, IntegrityError):
            # A concurrent request with the same id got there first (its insert, or
            # its use of the same dice commitment, won): answer with its match.
            earlier = None
            if request_id is not None:
                earlier = await self._created_by_request(user, request_id)
            if earlier is None:
                raise
            return earlier

    async def _created_by_request(self, user: User, request_id: str) -> dict[str, Any] | None:
        """The summary of the match ``user`` created with ``request_id``, if any."""
        async with self.db.transaction() as connection:
            row = await repo.match_by_request(connection, user.id, request_id)
        return None if row is None else await self._summary(row)

    async def _create_match(
        self, user: User, request: CreateMatch, network: str | None
    ) -> dict[str, Any]:
        opponent: User | None = None
        invitee: User | None = None
        rated = request.rated and user.kind != "guest"
        if request.opponent:
            if request.opponent.startswith("bot:"):
                opponent = self.bot_user(request.opponent.removeprefix("bot:"))
            else:
                invitee = await self.user_named(request.opponent)
                if invitee.id == user.id:
                    raise ServiceError("bad_request", "you cannot invite yourself")
                if invitee.kind == "bot":
                    raise ServiceError(
                        "bad_request", f"{invitee.name} is a bot: play it with bot:LEVEL"
                    )
                if invitee.kind == "guest":
                    rated = False
        if not request.settings.length:
            rated = False
        match_id = _new_match_id()
        now = self.clock.now()
        async with self.db.transaction() as connection:
            await self._check_open_matches(connection, user, network)
            seed = await self._committed_seed(connection, user, request)
            await repo.create_match(
                connection,
                id=match_id,
                created_at=now,
                created_by=user.id,
                config=request.settings.model_dump(),
                status="open",
                player0=user.id,
                player1=None if opponent is None else opponent.id,
                invitee=None if invitee is None else invitee.id,
                rated=rated,
                public=request.public,
                seed=seed.hex(),
                commitment=commitment(seed),
                nonce0=request.nonce,
                nonce1="",
                request_id=request.request_id,
                created_from=network,
            )
        if opponent is not None:
            await self._begin(match_id)
        elif invitee is not None:  # told to the invitee alone, not to the lobby
            self._to_user(
                invitee.id,
                {
                    "type": "invitation",
                    "match": match_id,
                    "from": user.name,
                    "settings": request.settings.model_dump(),
                },
            )
        elif request.public:  # an unlisted match's id is its invitation link: not told
            self._lobby_event({"event": "match_open", "match": match_id})
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        assert row is not None
        return await self._summary(row)

    async def _check_open_matches(self, connection: Any, user: User, network: str | None) -> None:
        """Refuse a new match to a user in :data:`MAX_OPEN_MATCHES` unfinished ones,
        or from a client address (``network``) with ``open_matches_per_address``
        open ones (the user's row and the address are held, so concurrent requests
        count one after another)."""
        if network is not None:
            most = self.settings.open_matches_per_address
            if await repo.count_open_matches_from(connection, network) >= most:
                raise ServiceError(
                    "throttled",
                    f"{most} matches made from your address wait for an opponent: "
                    "cancel one, or wait until one starts",
                    429,
                    retry_after=60,
                )
        await repo.lock_user(connection, user.id)
        unfinished = await repo.count_unfinished_matches(connection, user.id)
        if unfinished >= MAX_OPEN_MATCHES:
            raise ServiceError(
                "conflict",
                f"you are in {unfinished} unfinished matches (open ones, invitations, "
                "matches in play, against bots too): finish or cancel one first",
                409,
            )

    async def decline(self, user: User, match_id: str) -> dict[str, Any]:
        """The invitee of an open invitation declines it: the match is deleted, and
        the inviter and the invitee (and whoever watches the match's page) are told.

        Raises:
            ServiceError: ``not_found``; ``forbidden`` unless ``user`` is its
                invitee; ``conflict`` once it has started.
        """
        return await self._close_open_match(user, match_id, by_invitee=True)

    async def cancel(self, user: User, match_id: str) -> dict[str, Any]:
        """The creator of an open match withdraws it (an invitation is cancelled):
        the match is deleted and everyone who could see it is told.

        Raises:
            ServiceError: ``not_found``; ``forbidden`` unless ``user`` created it;
                ``conflict`` once it has started.
        """
        return await self._close_open_match(user, match_id, by_invitee=False)

    async def _close_open_match(
        self, user: User, match_id: str, *, by_invitee: bool
    ) -> dict[str, Any]:
        await self._check_active(user)
        async with self._lock(match_id), self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            if by_invitee and row.invitee != user.id:
                raise ServiceError(
                    "forbidden", f"match {match_id}: only its invitee may decline it", 403
                )
            if not by_invitee and row.created_by != user.id:
                raise ServiceError(
                    "forbidden", f"match {match_id}: only its creator may cancel it", 403
                )
            if not await repo.delete_open_match(connection, match_id):
                raise ServiceError("conflict", f"match {match_id} has started", 409)
        reason = "withdrawn" if row.invitee is None else "cancelled"
        if by_invitee:
            reason = "declined"
        message = {
            "type": "match_closed",
            "match": match_id,
            "reason": reason,
            "by": user.name,
            "host": await self._name_of(row.player0),
            "invitee": await self._name_of(row.invitee),
        }
        for user_id in (row.player0, row.invitee):
            if user_id is not None:
                self._to_user(user_id, message)
        self._to_room(match_id, message)
        if row.public and row.invitee is None:
            self._lobby_event({"event": "match_closed", "match": match_id})
        log.info("match %s %s by %s", match_id, reason, user.name)
        return message

    async def dice_commitment(self, user: User) -> dict[str, str]:
        """Draw the seed of ``user``'s next match and publish its commitment now,
        before the user chooses a dice nonce (docs/fair-dice.md); the match created
        with this commitment uses that seed. The newest
        :data:`PENDING_COMMITMENTS` per user are kept."""
        seed = self._dice_seeds()
        published = commitment(seed)
        async with self.db.transaction() as connection:
            await repo.add_dice_commitment(
                connection, published, user.id, seed.hex(), self.clock.now(), PENDING_COMMITMENTS
            )
        return {"commitment": published}

    async def _committed_seed(self, connection: Any, user: User, request: CreateMatch) -> bytes:
        """The new match's seed: the one behind the creator's commitment (used up), or
        a fresh one when the creator gives neither commitment nor nonce.

        Raises:
            ServiceError: ``bad_request`` for a nonce without a commitment, or a
                commitment not handed out to this user (or already used).
        """
        if request.commitment is None:
            if request.nonce:
                raise ServiceError(
                    "bad_request",
                    "nonce: give it with a commitment the server published first "
                    "(POST /api/matches/commitment), so that the dice seed is fixed "
                    "before your nonce is seen",
                )
            return self._dice_seeds()
        seed_hex = await repo.take_dice_commitment(connection, request.commitment, user.id)
        if seed_hex is None:
            raise ServiceError(
                "bad_request",
                f"commitment: {request.commitment[:16]}... is not one the server gave you, "
                "or it was used already: ask for a new one (POST /api/matches/commitment)",
            )
        return bytes.fromhex(seed_hex)

    async def join_match(self, user: User, match_id: str, nonce: str = "") -> dict[str, Any]:
        """Take the open seat of a match (seat 1) and start it.

        Raises:
            ServiceError: ``not_found``, or ``conflict`` if it is not open, is your
                own, or is by invitation for someone else; ``forbidden`` for a
                banned user.
        """
        await self._check_active(user)
        async with self._lock(match_id), self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            if row.status != "open":
                raise ServiceError("conflict", f"match {match_id} is not open", 409)
            if row.player0 == user.id:
                raise ServiceError("conflict", "you created this match; wait for an opponent", 409)
            if row.invitee is not None and row.invitee != user.id:
                raise ServiceError("forbidden", f"match {match_id} is by invitation", 403)
            rated = row.rated and user.kind != "guest"
            claimed = await repo.claim_seat(connection, match_id, user.id, nonce, rated)
            if not claimed:
                raise ServiceError("conflict", f"match {match_id} is not open", 409)
        await self._begin(match_id)
        async with self.db.transaction() as connection:
            joined = await repo.match_row(connection, match_id)
        assert joined is not None
        return await self._summary(joined)

    async def rematch(
        self, user: User, match_id: str, dice: Rematch | None = None
    ) -> dict[str, Any]:
        """A new match with the same settings and opponent, seats swapped (a bot
        opponent starts it at once, a person is invited); ``dice`` carries the
        asker's commitment and nonce as for :meth:`create_match`."""
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is None:
            raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
        seats = (row.player0, row.player1)
        if user.id not in seats:
            raise ServiceError("forbidden", "only the players may ask for a rematch", 403)
        if row.status != "finished":
            raise ServiceError("conflict", "the match is not over", 409)
        other_id = seats[1] if seats[0] == user.id else seats[0]
        async with self.db.transaction() as connection:
            other = await repo.user_by_id(connection, other_id) if other_id else None
        if other is None:
            raise ServiceError("conflict", "the opponent no longer exists", 409)
        opponent = f"bot:{other.bot_level}" if other.kind == "bot" else other.name
        request = CreateMatch(
            settings=MatchSettings(**row.config),
            rated=row.rated,
            public=row.public,
            opponent=opponent,
            commitment=None if dice is None else dice.commitment,
            nonce="" if dice is None else dice.nonce,
            request_id=None if dice is None else dice.request_id,
        )
        created = await self.create_match(user, request)
        async with self.db.transaction() as connection:
            await repo.update_match(connection, created["id"], rematch_of=match_id)
        created["rematch_of"] = match_id
        return created

    async def seat_match(
        self,
        connection: Any,
        players: tuple[User, User],
        settings: MatchSettings,
        *,
        rated: bool,
        owner: int | None = None,
    ) -> str:
        """Store a match between ``players`` with both seats taken, inside the
        caller's transaction (a tournament stores its link in the same one); it
        starts with :meth:`begin_match` once committed. Returns its id. ``owner``
        (the first player by default) is the user it is created by, whose work its
        bots' decisions count as (a tournament's organiser)."""
        match_id = _new_match_id()
        seed = self._dice_seeds()
        await repo.create_match(
            connection,
            id=match_id,
            created_at=self.clock.now(),
            created_by=players[0].id if owner is None else owner,
            config=settings.model_dump(),
            status="open",
            player0=players[0].id,
            player1=players[1].id,
            invitee=None,
            rated=rated and "guest" not in (players[0].kind, players[1].kind),
            public=True,
            seed=seed.hex(),
            commitment=commitment(seed),
            nonce0="",
            nonce1="",
            request_id=None,
        )
        return match_id

    async def begin_match(self, match_id: str) -> None:
        """Start a match stored by :meth:`seat_match` now (nothing if it has started)."""
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is not None and row.status == "open":
            await self._begin(match_id, seated=True)

    async def begin_when_ready(self, match_id: str) -> float | None:
        """Start a match stored by :meth:`seat_match` once each person in it has
        given a dice nonce, or :data:`READY_SECONDS` after it was stored, whichever
        comes first (docs/fair-dice.md). Returns when it starts at the latest (None
        if it has started already)."""
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None or row.status != "open":
                return None
            ready = await self._seats_ready(connection, row)
        if ready:
            await self.begin_match(match_id)
            return None
        deadline = row.created_at + READY_SECONDS
        if match_id not in self._ready_waits:
            task = asyncio.create_task(self._begin_at(match_id, deadline))
            self._ready_waits[match_id] = task
            task.add_done_callback(lambda _: self._ready_waits.pop(match_id, None))
        return deadline

    async def _begin_at(self, match_id: str, deadline: float) -> None:
        """Start a seated match at ``deadline`` (if nobody started it before)."""
        await asyncio.sleep(max(0.0, deadline - self.clock.now()))
        try:
            await self.begin_match(match_id)
        except Exception:  # pragma: no cover - logged; a restart begins it again
            log.exception("match %s could not start", match_id)

    async def give_nonce(self, user: User, match_id: str, nonce: str) -> dict[str, Any]:
        """``user``'s dice nonce for their seat of a seated match that has not started
        (a tournament's), sent after its commitment was published; the match starts
        once every person in it has given one. Returns its summary.

        Raises:
            ServiceError: ``not_found``; ``forbidden`` for anyone not seated in it;
                ``conflict`` once it has started or for a second nonce.
        """
        await self._check_active(user)
        async with self._lock(match_id), self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            seats = (row.player0, row.player1)
            if user.id not in seats:
                raise ServiceError("forbidden", "only the match's players give nonces", 403)
            if row.status != "open" or row.player1 is None:
                raise ServiceError(
                    "conflict", f"match {match_id}: nonces are taken before the first throw", 409
                )
            seat = seats.index(user.id)
            if (row.nonce0, row.nonce1)[seat]:
                raise ServiceError("conflict", "you gave your nonce for this match already", 409)
            await repo.update_match(connection, match_id, **{f"nonce{seat}": nonce})
            row = await repo.match_row(connection, match_id)
            assert row is not None
            ready = await self._seats_ready(connection, row)
        if ready:
            await self.begin_match(match_id)
        return await self._summary(row)

    @staticmethod
    async def _seats_ready(connection: Any, row: MatchRow) -> bool:
        """Whether every person seated in ``row`` has given a nonce (a bot's is empty)."""
        for user_id, nonce in ((row.player0, row.nonce0), (row.player1, row.nonce1)):
            user = None if user_id is None else await repo.user_by_id(connection, user_id)
            if user is None or (user.kind != "bot" and not nonce):
                return False
        return True

    def publish(self, room: str, message: dict[str, Any]) -> None:
        """Send ``message`` to everyone in ``room``, in every process."""
        self._to_room(room, message)

    def tell_user(self, user_id: int, message: dict[str, Any]) -> None:
        """Send ``message`` to every connection of a user, in every process."""
        self._to_user(user_id, message)

    async def _begin(self, match_id: str, seated: bool = False) -> None:
        """Start a match whose seats are filled: the first game's opening throw. A
        ``seated`` match (:meth:`seat_match`) starts once only, in any process."""
        async with self._lock(match_id):
            async with self.db.transaction() as connection:
                if seated:
                    if not await repo.start_seated(connection, match_id):
                        return
                else:
                    await repo.update_match(connection, match_id, status="playing")
            # A copy loaded while it was open (a chat, an early action) has the nonces
            # of then: nothing is played yet, so read it again with the nonces given.
            self._live.pop(match_id, None)
            live = await self._load(match_id)
            entries = live.start(self.clock.now())
            await self._commit(live, entries)
        self.metrics.matches_started += 1
        seats = self._seats.get(match_id)
        if seats is None or seats.public:  # an unlisted match's id is its link: not told
            self._lobby_event({"event": "match_started", "match": match_id})
        if seats is not None:
            self._who.forget(*(user.id for user in seats.users if user is not None))
            names = [None if user is None else user.name for user in seats.users]
            for user in seats.users:
                if user is not None and user.kind != "bot":
                    self._to_user(
                        user.id, {"type": "match_started", "match": match_id, "players": names}
                    )
        self._wake_bot(match_id)

    async def _load(self, match_id: str) -> LiveMatch:
        """The live match (rebuilt from the database if this process has none).

        Callers that do not hold the match's lock (a state, a chat) may load it while
        another task does: the first copy stored is the one kept, so the match is
        never acted on in one copy and shown from another.
        """
        live = self._live.get(match_id)
        if live is not None:
            return live
        live, row, users = await self._rebuild(match_id)
        self._finished.pop(match_id, None)
        stored = self._live.get(match_id)
        if stored is not None:
            return stored  # another task loaded it while this one read the log
        self._live[match_id] = live
        self._seats[match_id] = _Seats((users[0], users[1]), row.rated, row.public, row.created_by)
        for user in users:
            if user is not None:
                self._matches_of.setdefault(user.id, set()).add(match_id)
        return live

    async def _rebuild(self, match_id: str) -> tuple[LiveMatch, MatchRow, list[User | None]]:
        """A match rebuilt from the database (stored nowhere), its row and players.

        Raises:
            ServiceError: ``not_found``.
        """
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            entries = await repo.match_entries(connection, match_id)
            users = []
            for user_id in (row.player0, row.player1):
                users.append(
                    None if user_id is None else await repo.user_by_id(connection, user_id)
                )
        names = tuple(user.name if user else "(open)" for user in users)
        live = LiveMatch(
            match_id,
            MatchSettings(**row.config),
            (names[0], names[1]),
            bytes.fromhex(row.seed),
            (row.nonce0, row.nonce1),
            self._play_texts,
        )
        live.replay(entries)
        return live, row, users

    async def _view(self, match_id: str, row: MatchRow | None = None) -> LiveMatch:
        """A started match to read (its state, its records, its chat): this process's
        live copy, else a finished match from the bounded cache of
        :data:`FINISHED_KEPT`, else the match loaded to be played.

        Raises:
            ServiceError: ``not_found``.
        """
        live = self._live.get(match_id)
        if live is not None:
            return live
        if match_id in self._finished:
            return self._finished[match_id][0]
        if row is not None and row.status != "finished":
            return await self._load(match_id)
        live, row, users = await self._rebuild(match_id)
        if live.result is None:  # not over: the match is played from _live
            return await self._load(match_id)
        seats = _Seats((users[0], users[1]), row.rated, row.public, row.created_by)
        self._finished[match_id] = (live, seats)
        while len(self._finished) > FINISHED_KEPT:
            self._finished.popitem(last=False)
        return live

    def _seating(self, match_id: str) -> _Seats | None:
        """Who sits where in a match this process holds, live or finished."""
        seats = self._seats.get(match_id)
        if seats is None and match_id in self._finished:
            return self._finished[match_id][1]
        return seats

    async def _commit(self, live: LiveMatch, entries: list[Entry]) -> None:
        """Commit ``entries`` (already applied to ``live``) before anyone hears of
        them, then publish the new state. On failure, forget the in-memory match."""
        first = live.seq - len(entries)
        started = time.perf_counter()
        try:
            if live.result is None and self._committer is not None:
                await self._committer.append(live.id, first, entries)
            else:
                async with self.db.transaction() as connection:
                    await repo.append_entries(connection, live.id, first, entries)
                    if live.result is not None:
                        await self._finish(connection, live)
                    event = {"k": "match", "id": live.id, "seq": live.seq}
                    await self.bus.send_in(connection, event)
        except IntegrityError:
            self._live.pop(live.id, None)
            self._seats.pop(live.id, None)
            raise _ConflictError(live.id) from None
        except Exception:
            self._live.pop(live.id, None)
            self._seats.pop(live.id, None)
            log.exception("commit failed match=%s; reloading from the log", live.id)
            raise ServiceError(
                "unavailable", "the action could not be saved; try again", 503
            ) from None
        self.metrics.commit.observe(time.perf_counter() - started)
        self.metrics.actions += len(entries)
        self._publish_state(live, entries)
        if live.result is not None:
            self.metrics.matches_finished += 1
            self._lobby_event({"event": "match_finished", "match": live.id})
            seats = self._seats.get(live.id)
            if seats is not None:
                self._who.forget(*(user.id for user in seats.users if user is not None))
            # A finished match leaves memory; it is reloaded from the log if asked for.
            self._live.pop(live.id, None)
            self._seats.pop(live.id, None)
            for hook in self.match_finished_hooks:
                hook(live.id)

    async def _finish(self, connection: Any, live: LiveMatch) -> None:
        """Store the result and, for a rated match, the new ratings (same transaction)."""
        result = live.result
        assert result is not None
        now = self.clock.now()
        await repo.update_match(
            connection,
            live.id,
            status="finished",
            winner=result.winner,
            result=result.as_json(),
            finished_at=now,
        )
        seats = self._seats[live.id]
        users = seats.users
        if not seats.rated or result.winner is None or None in users or not live.settings.length:
            return
        winner, loser = users[result.winner], users[1 - result.winner]
        assert winner is not None and loser is not None
        winner, loser = self._rated_as(winner), self._rated_as(loser)
        if winner.id == loser.id:
            return  # two bots of one level
        variant = live.settings.variant
        before = []
        for user in (winner, loser):
            stored = await repo.get_rating(connection, user.id, variant)
            before.append(Rating() if stored is None else Rating(*stored))
        after = rate_match(before[0], before[1], live.settings.length)
        for user, rating in zip((winner, loser), after, strict=True):
            await repo.set_rating(connection, user.id, variant, rating.rating, rating.experience)
            await repo.insert_rating_history(
                connection,
                user_id=user.id,
                variant=variant,
                match_id=live.id,
                rating=rating.rating,
                experience=rating.experience,
                at=now,
            )

    def _rated_as(self, user: User) -> User:
        """The account whose rating ``user``'s rated matches move: a numbered bot
        (``bot_LEVEL_N``, entered in a tournament) plays on its level's bot account's
        rating, so that beating one is worth what beating that bot is, not what
        beating a fresh 1500 account would be."""
        level = user.bot_level if user.kind == "bot" else None
        return self._bot_users.get(level, user) if level is not None else user

    def _publish_state(self, live: LiveMatch, entries: list[Entry]) -> None:
        message = {
            "type": "state",
            "match": live.id,
            "entries": entries,
            "state": live.state(self.clock.now(), self.hub.any_reads_legal_plays(live.id)),
        }
        self.hub.publish(live.id, message)

    async def act(
        self, user: User, match_id: str, action: ActionBody, expect: int | None = None
    ) -> int:
        """Apply ``user``'s action in a match; returns the new state's ``seq``.

        Raises:
            ServiceError: ``not_found``; ``not_a_player`` for a spectator or an
                outsider; ``forbidden`` for a banned user; or the rules' refusal
                (``not_your_turn``, ``illegal``, ...).
        """
        await self._check_active(user)
        received = time.perf_counter()
        for attempt in range(3):
            try:
                seq = await self._act_once(user, match_id, action, expect)
            except _ConflictError:
                # Another process acted in this match first: the match is reloaded
                # from the log and the action tried again on the new state.
                if attempt == 2:
                    raise ServiceError("conflict", "the match is busy; try again", 409) from None
                continue
            # Committed and published to the match's subscribers (in _commit).
            self.metrics.action.observe(time.perf_counter() - received)
            self._wake_bot(match_id)
            return seq
        raise AssertionError("unreachable")  # pragma: no cover

    async def _act_once(
        self, user: User, match_id: str, action: ActionBody, expect: int | None
    ) -> int:
        async with self._lock(match_id):
            live = await self._load(match_id)
            seats = self._seats[match_id]
            seat = seats.seat_of(user)
            if seat is None:
                self.metrics.refused += 1
                raise ServiceError("not_a_player", "you are not a player in this match", 403)
            now = self.clock.now()
            if action.kind == "claim":
                await self._commit(live, self._claimed(live, seats, seat, now, expect))
                return live.seq
            try:
                entries = live.act(seat, action, now, expect)
            except ActionRefusedError as refusal:
                self.metrics.refused += 1
                if refusal.code == "time_up":
                    await self._commit(live, live.timeout(now))
                raise ServiceError(refusal.code, refusal.message, 409) from None
            await self._commit(live, entries)
            return live.seq

    def _claimed(
        self, live: LiveMatch, seats: _Seats, seat: int, now: float, expect: int | None
    ) -> list[Entry]:
        """The entry ending ``live`` as abandoned by ``seat``'s opponent, if the server's
        own record allows ``seat`` to claim the win now (see :meth:`claim_refusal`).

        Raises:
            ServiceError: naming why the claim is refused; nothing changes.
        """
        refusal = self.claim_refusal(live, seats, seat, now, expect)
        if refusal is not None:
            self.metrics.refused += 1
            raise ServiceError(refusal[0], refusal[1], 409)
        log.info("claim match=%s seat=%d: the opponent stayed away", live.id, seat)
        return live.abandon(1 - seat, now)

    def claim_refusal(
        self, live: LiveMatch, seats: _Seats, seat: int, now: float, expect: int | None = None
    ) -> tuple[str, str] | None:
        """Why ``seat`` may not claim the win now (code, message), or None if they may:
        the match has no clock, waits on the opponent, and the opponent (not a bot) has
        been disconnected, by this server's record, for ``claim_after`` seconds of that
        wait (counted from the later of their leaving and the wait's start)."""
        other = seats.users[1 - seat]
        name = "your opponent" if other is None else other.name
        if live.finished:
            return "over", "the match is over"
        if expect is not None and expect != live.seq:
            return "stale", f"the match has moved on: state {live.seq}, not {expect}"
        if live.settings.clock is not None:
            return "timed", "this match has a clock: a player who stays away runs out of time"
        if other is None or live.waiting_for != 1 - seat:
            return "not_waiting", f"the match is not waiting on {name}: only then may you claim"
        away = self._away_since(other)
        if away is None:
            return "opponent_connected", f"{name} is connected: you may not claim the win"
        waited = now - max(away, live.turn_started)
        wait = self.settings.claim_after
        if waited < wait:
            return "too_early", (
                f"{name} has been away {int(waited)} s of the {int(wait)} s after which "
                f"you may claim the win: try again in {math.ceil(wait - waited)} s"
            )
        return None

    def _away_since(self, user: User) -> float | None:
        """Since when ``user`` has had no connection in any process, as this process
        knows it (None: connected; bots always are)."""
        if user.kind == "bot" or self._connected(user.id):
            return None
        return self._left_at.get(user.id, self._started_at)

    def _connected(self, user_id: int) -> bool:
        return bool(self.hub.connections_of(user_id)) or user_id in self._elsewhere

    def _presence_changed(self, user_id: int) -> None:
        """After a connection of ``user_id`` came or went (here or elsewhere): if the
        user went from connected to away or back, note when, and tell every match
        room here where they sit."""
        connected = self._connected(user_id)
        if connected == (user_id in self._present):
            return
        if connected:
            self._present.add(user_id)
            self._left_at.pop(user_id, None)
        else:
            self._present.discard(user_id)
            self._left_at[user_id] = self.clock.now()
        matches = self._matches_of.get(user_id, set())
        for match_id in list(matches):
            seats = self._seats.get(match_id)
            if seats is None or not any(u is not None and u.id == user_id for u in seats.users):
                matches.discard(match_id)
            elif self.hub.has_room(match_id):
                self.hub.publish(match_id, self.presence(match_id))
        if not matches:
            self._matches_of.pop(user_id, None)

    def presence(self, match_id: str) -> dict[str, Any]:
        """A live match's ``presence`` message: for each seat whether its player is
        connected and since when they have been away (server time), the wait before a
        claim (None in a match with a clock) and the server's time now."""
        seats = self._seating(match_id)
        live = self._live.get(match_id)
        players: list[dict[str, Any] | None] = []
        for user in () if seats is None else seats.users:
            away = None if user is None else self._away_since(user)
            players.append(
                None if user is None else {"connected": away is None, "away_since": away}
            )
        untimed = live is not None and live.settings.clock is None
        return {
            "type": "presence",
            "match": match_id,
            "players": players,
            "claim_after": self.settings.claim_after if untimed else None,
            "now": self.clock.now(),
        }

    async def state(self, match_id: str, *, anonymous: bool = False) -> dict[str, Any]:
        """A match's whole current state (open matches: their summary only, and not
        to an ``anonymous`` viewer).

        Raises:
            ServiceError: ``not_found``; ``login_required`` for an open match (an
                invitation or a match waiting for its opponent) and an anonymous viewer.
        """
        live = self._live.get(match_id)
        if live is not None:  # started: no trip to the database, which would keep a
            return live.state(self.clock.now())  # subscriber holding the match's lock
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is None:
            raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
        if row.status == "open":
            if anonymous:
                raise _login_required("see a match that has not started")
            return {"match": match_id, "open": await self._summary(row)}
        live = await self._view(match_id, row)
        return live.state(self.clock.now())

    async def download(self, match_id: str, kind: str) -> str | bytes:
        """A finished match's record: ``mat``, ``sgf``, ``ogxm`` (OGXM's bytes), or
        ``dice`` (JSON for ``backgammon verify-dice``).

        Raises:
            ServiceError: ``not_found`` before the match has started; ``conflict``
                for a match the format cannot hold (a variant other than those it
                names). The dice record of a match going on has no seed yet.
        """
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is None or row.status == "open":
            raise ServiceError("not_found", f"no started match {match_id[:16]!r}", 404)
        live = await self._view(match_id, row)
        if kind == "dice":
            return json.dumps(live.dice_record(), indent=1)
        writers: dict[str, Callable[[MatchRecord], str | bytes]] = {
            "mat": lambda record: write_match_text(record, "mat"),
            "sgf": lambda record: write_match_text(record, "sgf"),
            "ogxm": write_ogxm,
        }
        if kind in writers:
            try:
                return writers[kind](live.record())
            except ValueError as error:  # a variant or an action the format cannot hold
                raise ServiceError("conflict", f"{kind}: {error}", 409) from None
        raise ServiceError("bad_request", f"unknown download {kind!r}: mat, sgf, ogxm or dice")

    async def finished_record(self, match_id: str) -> str:
        """A finished match's .mat text (what the review analyses).

        Raises:
            ServiceError: ``not_found``; ``conflict`` while the match is open or going on.
        """
        async with self.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is None:
            raise ServiceError("not_found", f"match: no match {match_id[:16]!r}", 404)
        if row.status != "finished":
            raise ServiceError(
                "conflict", f"match: {match_id[:16]!r} is not over: only finished matches", 409
            )
        try:
            return write_match_text((await self._view(match_id, row)).record(), "mat")
        except ValueError as error:  # a variant a .mat file cannot hold
            raise ServiceError("conflict", f"match: {error}", 409) from None

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
        name = self._names.get(user_id)
        if name is None:
            async with self.db.transaction() as connection:
                user = await repo.user_by_id(connection, user_id)
            if user is None:
                return None
            name = user.name
            self._names.put(user_id, name)
        return name

    async def _read_who(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        async with self.db.transaction() as connection:
            rows = await repo.who_facts(connection, user_ids)
        return {user_id: WhoFacts(*row) for user_id, row in rows.items()}

    async def who(self, user_id: int) -> WhoFacts:
        """What the who list shows of a user: rating, experience, current opponent
        (kept in memory briefly: see :mod:`backgammon.server.lobby.presence`).

        Raises:
            ServiceError: ``not_found`` for no such user.
        """
        facts = await self._who.get(user_id)
        if facts is None:
            raise ServiceError("not_found", f"no user {user_id}", 404)
        return facts

    async def who_many(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        """:meth:`who` of several users at once (those that exist), read together."""
        return await self._who.get_many(user_ids)

    def who_kept(self, user_id: int) -> WhoFacts | None:
        """:meth:`who` of a user if the facts are kept in memory and fresh (no wait)."""
        return self._who.peek(user_id)

    def online_names(self) -> list[tuple[int, str]]:
        """Everyone online in any process (user id, name), by name: :meth:`online`
        without the public facts, for the lists that need only names."""
        here = {user.id: user.name for user in self.hub.online()}
        for key, (public, _count) in self._elsewhere.items():
            here.setdefault(key, str(public["name"]))
        return sorted(here.items(), key=itemgetter(1))

    def online(self) -> list[tuple[int, dict[str, Any]]]:
        """Everyone online in any process (user id, public facts), by name, with no
        database query."""
        here = {user.id: user.public() for user in self.hub.online()}
        for key, (public, _count) in self._elsewhere.items():
            here.setdefault(key, public)
        return sorted(here.items(), key=lambda item: str(item[1]["name"]))

    async def lobby(self, user: User) -> dict[str, Any]:
        """The lobby as ``user`` sees it: who is online, the bots, the open public
        matches that invite no one in particular, the invitations to ``user``
        (``invitations``), ``user``'s own invitations and unlisted matches still
        open (``sent``), and the public matches in play. The open matches and those
        in play are summarised once for everyone (:meth:`_lobby_matches`)."""
        shared = await self._lobby_matches()
        async with self.db.transaction() as connection:
            own = await repo.list_matches(connection, status="open", user_id=user.id)
            friend_ids = await repo.friend_ids(connection, user.id)
        listed: set[str] = shared["listed"]
        online = self.online()
        shown = [user_id for user_id, _public in online] + friend_ids + shared["players"]
        shown += [bot.id for bot in self._bot_users.values()]
        for row in own:
            shown += [i for i in (row.player0, row.player1, row.invitee) if i is not None]
        facts = await self.who_many(list(dict.fromkeys(shown)))
        return {
            "type": "lobby",
            "protocol": PROTOCOL_VERSION,
            "ratings": {f.name: round(f.rating) for f in facts.values() if f.kind != "guest"},
            "friends": self._friend_entries(friend_ids, facts),
            "online": [public for _user_id, public in online],
            "bots": [bot.public() for bot in self._bot_users.values()],
            "open": shared["open"],
            "invitations": [await self._summary(row) for row in own if row.invitee == user.id],
            "sent": [
                await self._summary(row)
                for row in own
                if row.player0 == user.id and row.player1 is None and row.id not in listed
            ],
            "playing": shared["playing"],
        }

    async def _lobby_matches(self) -> dict[str, Any]:
        """The lobby's part that is the same for everyone: the open public matches
        that invite no one (``open``, their ids ``listed``), the public matches in
        play (``playing``) and the ids of their ``players``. Built once and shared
        until a lobby event about a match (here or in another process) or
        :data:`LOBBY_CACHE_SECONDS`; one build at a time."""
        async with self._lobby_building:
            cached = self._lobby_cache
            if cached is not None and time.monotonic() - cached[0] < LOBBY_CACHE_SECONDS:
                return cached[1]
            changes = self._lobby_changes
            async with self.db.transaction() as connection:
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
            if changes == self._lobby_changes:  # (else built while it changed: not kept)
                self._lobby_cache = (time.monotonic(), shared)
            return shared

    def _lobby_changed(self, event: dict[str, Any]) -> None:
        """Forget the lobby's shared part if ``event`` changes its matches."""
        if event.get("event") not in ("online", "offline"):
            self._lobby_changes += 1
            self._lobby_cache = None

    def _lobby_event(self, event: dict[str, Any]) -> None:
        self._lobby_changed(event)
        self._to_room("lobby", {"type": "lobby_event", **event})

    def _to_room(self, room: str, message: dict[str, Any]) -> None:
        """Send to everyone in a room (the lobby, a match's page), in every process."""
        self.hub.publish(room, message)
        self.bus.send({"k": "room", "room": room, "message": message})

    def _to_user(self, user_id: int, message: dict[str, Any], close: bool = False) -> None:
        """Send to every connection of a user, in every process."""
        self._deliver_to_user(user_id, message, close)
        self.bus.send({"k": "user", "user": user_id, "message": message, "close": close})

    def _deliver_to_user(self, user_id: int, message: dict[str, Any], close: bool) -> None:
        for connection in self.hub.connections_of(user_id):
            connection.send(message)
            if close:
                connection.close()

    async def _on_event(self, event: dict[str, Any]) -> None:
        """Another process's event: catch a match up from the log, or relay a
        message to this process's clients."""
        kind = event.get("k")
        if kind == "match":
            await self._catch_up(str(event["id"]), int(event["seq"]))
        elif kind == "room":
            message = event["message"]
            if message.get("event") in ("online", "offline"):
                self._note_elsewhere(message)
                self._presence_changed(int(message["user_id"]))
            if event["room"] == "lobby" and message.get("type") == "lobby_event":
                self._lobby_changed(message)
            spectators = event.get("spectators_only")
            only = None
            if spectators:
                players = set(event.get("players", ()))

                def only(connection: Connection) -> bool:
                    return connection.user.id not in players

            self.hub.publish(str(event["room"]), message, only)
        elif kind == "user":
            self._deliver_to_user(int(event["user"]), event["message"], bool(event["close"]))
        elif kind == "moderation":
            self._apply_moderation(int(event["user"]), str(event["what"]))
        elif kind == "roster_request":
            self._send_roster(str(event.get("origin", "")))
        elif kind == "roster" and event.get("to") == self.bus.origin:
            for user_id, public in event["users"]:
                self._note_elsewhere({"event": "online", "user": public, "user_id": user_id})
                self._presence_changed(int(user_id))

    def _send_roster(self, origin: str) -> None:
        """Tell a process that has just started who is connected here (as if each had
        come online), in events small enough for the bus."""
        users = self.hub.online()
        for start in range(0, len(users), ROSTER_CHUNK):
            chunk = [[user.id, user.public()] for user in users[start : start + ROSTER_CHUNK]]
            self.bus.send({"k": "roster", "to": origin, "users": chunk})

    def _note_elsewhere(self, message: dict[str, Any]) -> None:
        user = message["user"]
        key = int(message["user_id"])
        _public, count = self._elsewhere.get(key, (user, 0))
        count += 1 if message["event"] == "online" else -1
        if count > 0:
            self._elsewhere[key] = (user, count)
        else:
            self._elsewhere.pop(key, None)

    async def _catch_up(self, match_id: str, seq: int) -> None:
        """Bring this process's copy of a match up to ``seq`` from the log and tell
        its clients."""
        if match_id not in self._live and not self.hub.has_room(match_id):
            return
        async with self._lock(match_id):
            live = self._live.get(match_id)
            if live is None:
                self._publish_state(await self._load(match_id), [])
                return
            if live.seq >= seq:
                return
            async with self.db.transaction() as connection:
                entries = await repo.match_entries(connection, match_id, after=live.seq - 1)
            try:
                live.replay(entries)
            except ValueError:
                log.exception("match %s: the log does not follow on; reloading", match_id)
                self._live.pop(match_id, None)
                live = await self._load(match_id)
                entries = []
            self._publish_state(live, entries)

    # -- connections ---------------------------------------------------------------

    @property
    def moderation_epoch(self) -> int:
        """A mark to take before authenticating a connection, for :meth:`connect`."""
        return self._standings.epoch

    def connect(self, connection: Connection, since: int | None = None) -> None:
        """Register a client; the lobby hears that its user came online.

        ``since``: the :attr:`moderation_epoch` taken before the client was
        authenticated; if the user was kicked or banned after it, the connection is
        closed at once (the kick was heard before the connection was registered).
        """
        if self.hub.add(connection):
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
        if since is not None and self._standings.closed_since(connection.user.id, since):
            connection.send({"type": "kicked", "message": "kick by an administrator"})
            connection.close()

    def connect_capped(self, connection: Connection, since: int | None = None) -> None:
        """:meth:`connect` a client that opens as many connections as it likes (a
        WebSocket), within ``websockets_per_user`` connections of its user and
        ``websockets_per_address`` of its client address (an IPv6 client's /64).

        Raises:
            ServiceError: ``throttled`` when either is reached (nothing registered).
        """
        per_user = self.settings.websockets_per_user
        if len(tuple(self.hub.connections_of(connection.user.id))) >= per_user:
            raise ServiceError(
                "throttled",
                f"too many connections of yours (at most {per_user}): close another tab",
                429,
                retry_after=10,
            )
        per_address = self.settings.websockets_per_address
        if connection.network and self.hub.connections_from(connection.network) >= per_address:
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
        per_address = self.settings.viewers_per_address
        if self.hub.viewers_from(connection.address) >= per_address:
            raise ServiceError(
                "throttled",
                f"too many anonymous viewers from your address (at most {per_address}): "
                "close another tab or log in",
                429,
                retry_after=10,
            )
        if self.hub.viewer_count >= self.settings.viewers:
            raise ServiceError(
                "busy", "too many anonymous viewers: log in to watch", 503, retry_after=10
            )
        self.hub.add_viewer(connection)
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
            self.hub.remove_viewer(connection)
            return
        if self.hub.remove(connection):
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
            self.hub.join(connection, room)
            if snapshot:
                connection.send(await self.lobby(connection.user))
                async with self.db.transaction() as connection_db:
                    shouts = await repo.recent_chat(connection_db, "lobby")
                connection.send({"type": "chat_history", "room": "lobby", "lines": shouts})
            return
        prefix = room.partition(":")[0] + ":"
        if prefix in self.room_snapshots:
            message = await self.room_snapshots[prefix](room)  # refuses an unknown room
            self.hub.join(connection, room)
            connection.send(message)
            return
        # Every change to a match is published under its lock, so under the lock the
        # snapshot and the joining are one step: each later change is heard after the
        # snapshot (an invitation accepted meanwhile reaches a spectator who
        # subscribed while it was open), and none is lost in between.
        async with self._lock(room):
            state = await self.state(room, anonymous=connection.anonymous)
            self.hub.join(connection, room)
            connection.send({"type": "state", "match": room, "entries": [], "state": state})
            if "open" not in state:
                connection.send(self.presence(room))
        seated = self._seating(room)
        if seated is not None:
            ids = [u.id for u in seated.users if u is not None]
            connection.send({"type": "ratings", "ratings": await self.ratings_of(ids)})
        if connection.anonymous:
            return  # no chat for anonymous viewers
        async with self.db.transaction() as connection_db:
            chat = await repo.recent_chat(connection_db, room)
        seats = self._seating(room)
        is_player = seats is not None and seats.seat_of(connection.user) is not None
        visible = [line for line in chat if line["audience"] == "all" or not is_player]
        if visible:
            connection.send({"type": "chat_history", "room": room, "lines": visible})

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
        await self._check_speaker(user, text)
        self._take_chat_line(user)
        only: Callable[[Connection], bool] | None = None
        if room == "lobby":
            audience = "all"
        else:
            await self._view(room)
            seats = self._seating(room)
            assert seats is not None  # the match is held, live or finished
            if seats.seat_of(user) is None or audience == "spectators":
                # Spectators' words (and a player's whisper) reach spectators only.
                audience = "spectators"

                def only(connection: Connection, seats: _Seats = seats) -> bool:
                    return seats.seat_of(connection.user) is None

            else:
                audience = "all"
        now = self.clock.now()
        async with self.db.transaction() as connection:
            await repo.add_chat(connection, room, audience, user.id, text, now)
        message = {
            "type": "chat",
            "room": room,
            "from": user.name,
            "text": text,
            "audience": audience,
            "at": now,
        }
        self.hub.publish(room, message, only)
        seating = self._seating(room)
        players = [] if seating is None else [u.id for u in seating.users if u]
        self.bus.send(
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
        await self._check_speaker(user, text)
        self._take_chat_line(user)
        target = await self.user_named(name)
        if target.id == user.id:
            raise ServiceError("bad_request", "to: you cannot tell yourself")
        if target.kind == "bot" and kind == "tell":  # (a word to a bot opponent is harmless)
            raise ServiceError("bad_request", f"to: {target.name} is a bot and reads no messages")
        now = self.clock.now()
        self._to_user(target.id, {"type": kind, "from": user.name, "text": text, "at": now})
        if kind == "tell":
            # The sender's pages show the thread (every tab, in every process).
            self._to_user(user.id, {"type": "told", "to": target.name, "text": text, "at": now})
        return target

    async def tell_waited_for(self, user: User, name: str) -> None:
        """Tell the user called ``name`` (who just logged in) that ``user`` waited
        for them (FIBS's ``waitfor``); nothing if there is no such user."""
        try:
            target = await self.user_named(name)
        except ServiceError:
            return
        self._to_user(target.id, {"type": "waited_for", "from": user.name})

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
        await self._check_speaker(user, text)
        target = await self.user_named(name)
        if target.kind == "bot":
            raise ServiceError("bad_request", f"{target.name} is a bot and reads no messages")
        now = self.clock.now()
        if any(user_id == target.id for user_id, _public in self.online()):
            self._to_user(
                target.id, {"type": "message", "from": user.name, "text": text, "at": now}
            )
            return target, True
        async with self.db.transaction() as connection:
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
        since = self.clock.now() - STORED_MESSAGE_DAYS * 86400
        async with self.db.transaction() as connection:
            return await repo.take_stored_messages(connection, user.id, since)

    async def gags(self, user: User) -> set[str]:
        """The names of the users ``user`` gags (FIBS's ``gag``: whose words ``user``
        does not hear; kept across logins)."""
        async with self.db.transaction() as connection:
            return await repo.gagged_names(connection, user.id)

    async def set_gag(self, user: User, target: User, gagged: bool) -> None:
        """Gag ``target`` for ``user`` (or stop gagging them when not ``gagged``).

        Raises:
            ServiceError: ``conflict`` past :data:`MAX_GAGS` (nothing changed).
        """
        async with self.db.transaction() as connection:
            count = await repo.set_gag(connection, user.id, target.id, gagged, self.clock.now())
            if count > MAX_GAGS:
                raise ServiceError("conflict", f"you can gag at most {MAX_GAGS} users", 409)

    async def invitation_from(self, user: User, inviter: str) -> str:
        """The open match ``inviter`` created for ``user`` (or for anyone), newest
        first.

        Raises:
            ServiceError: ``not_found`` if there is none.
        """
        host = await self.user_named(inviter)
        async with self.db.transaction() as connection:
            rows = await repo.list_matches(connection, status="open", user_id=host.id)
        for row in rows:
            if row.player0 == host.id and row.invitee in (None, user.id):
                return row.id
        raise ServiceError("not_found", f"{host.name} did not invite you", 404)

    async def matches_of(
        self, user: User, status: str = "playing", *, viewer: User | None = None
    ) -> list[dict[str, Any]]:
        """Summaries of a user's matches in ``status``, newest first; with a
        ``viewer``, only those the viewer may find by the user's name (public ones
        and the viewer's own: not another's unlisted match)."""
        async with self.db.transaction() as connection:
            rows = await repo.list_matches(connection, status=status, user_id=user.id)
        return [
            await self._summary(row)
            for row in rows
            if viewer is None or _findable(row.public, (row.player0, row.player1), viewer)
        ]

    def findable(self, match_id: str, viewer: User) -> bool:
        """Whether ``viewer`` may find the loaded match ``match_id`` by a player's
        name (as :meth:`matches_of` with a viewer); False for a match not loaded."""
        seats = self._seats.get(match_id)
        if seats is None:
            return False
        return _findable(seats.public, [u.id for u in seats.users if u is not None], viewer)

    async def rating_of(self, user: User, variant: str = "standard") -> tuple[float, int]:
        """A user's (rating, experience) in a variant (1500 and 0 if never rated)."""
        async with self.db.transaction() as connection:
            stored = await repo.get_rating(connection, user.id, variant)
        return (1500.0, 0) if stored is None else stored

    async def log_entries(self, match_id: str, start: int, stop: int) -> list[Entry]:
        """Entries ``start`` to ``stop`` of a match's log (a client catching up)."""
        live = await self._load(match_id)
        return list(live.entries[max(0, start) : max(0, stop)])

    def seat_in(self, match_id: str, user: User) -> int | None:
        """``user``'s seat in a live match (None: not a player, or not loaded)."""
        seats = self._seats.get(match_id)
        return None if seats is None else seats.seat_of(user)

    # -- friends and ratings ----------------------------------------------------------

    async def ratings_of(self, user_ids: list[int]) -> dict[str, int]:
        """The standard rating, rounded, of each rated user among ``user_ids`` (bots
        and accounts; guests play unrated), by name, from the who cache."""
        facts = await self.who_many(list(dict.fromkeys(user_ids)))
        return {f.name: round(f.rating) for f in facts.values() if f.kind != "guest"}

    async def friends(self, user: User) -> list[dict[str, Any]]:
        """``user``'s friends list (their own, nobody else's): each friend's
        ``name``, ``kind``, ``rating`` (None for a guest) and whether they are
        ``online`` in any process, in the order they were added."""
        async with self.db.transaction() as connection:
            ids = await repo.friend_ids(connection, user.id)
        return self._friend_entries(ids, await self.who_many(ids))

    def _friend_entries(self, ids: list[int], facts: dict[int, WhoFacts]) -> list[dict[str, Any]]:
        return [
            {
                "name": facts[i].name,
                "kind": facts[i].kind,
                "rating": None if facts[i].kind == "guest" else round(facts[i].rating),
                "online": self._connected(i),
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
        await self._check_active(user)
        friend = await self.user_named(name)
        if friend.id == user.id:
            raise ServiceError("bad_request", "friend: you cannot befriend yourself")
        if friend.kind == "bot":
            raise ServiceError("bad_request", f"friend: {friend.name} is a bot")
        try:
            async with self.db.transaction() as connection:
                ids = await repo.friend_ids(connection, user.id)
                if friend.id not in ids:
                    if len(ids) >= MAX_FRIENDS:
                        raise ServiceError(
                            "conflict", f"friend: your list is full ({MAX_FRIENDS} friends)", 409
                        )
                    await repo.add_friend(connection, user.id, friend.id, self.clock.now())
        except IntegrityError:
            pass  # the same friend added by a concurrent request: on the list once
        return await self.friends(user)

    async def remove_friend(self, user: User, name: str) -> list[dict[str, Any]]:
        """Take the user called ``name`` off ``user``'s friends list; returns the list.

        Raises:
            ServiceError: ``not_found`` for no such user or one not on the list.
        """
        friend = await self.user_named(name)
        async with self.db.transaction() as connection:
            removed = await repo.remove_friend(connection, user.id, friend.id)
        if not removed:
            raise ServiceError("not_found", f"friend: {friend.name} is not on your list", 404)
        return await self.friends(user)

    # -- administration --------------------------------------------------------------

    async def moderate(self, admin: User, name: str, what: str) -> None:
        """An administrator mutes, unmutes, kicks, bans or unbans a user (see
        :mod:`backgammon.server.moderation.flags`): committed, then applied at once to
        every open connection of the user in every process.

        Raises:
            ServiceError: ``forbidden`` unless ``admin`` is an administrator,
                ``bad_request`` for an unknown moderation, ``not_found``.
        """
        if not admin.is_admin:
            raise ServiceError("forbidden", "administrators only", 403)
        if what not in MODERATIONS:
            known = ", ".join(MODERATIONS)
            raise ServiceError("bad_request", f"unknown moderation {what[:20]!r}: {known}")
        target = await self.user_named(name)
        event = {"k": "moderation", "user": target.id, "what": what}
        async with self.db.transaction() as connection:
            if what in ("mute", "unmute"):
                await repo.set_user_flags(connection, target.id, muted=what == "mute")
            elif what in ("ban", "unban"):
                await repo.set_user_flags(connection, target.id, banned=what == "ban")
            if what in CLOSING:
                await repo.delete_tokens_of(connection, target.id)
            await self.bus.send_in(connection, event)
        log.info("moderation admin=%s target=%s action=%s", admin.name, target.name, what)
        self._apply_moderation(target.id, what)
        for hook in self.moderation_hooks:
            try:
                await hook(target.id, what)
            except Exception:
                log.exception("moderation of %s: a hook failed", target.name)

    def _apply_moderation(self, user_id: int, what: str) -> None:
        """A user's moderation was committed (here or in another process): forget
        their cached standing and tell (or close) their connections here."""
        self._standings.forget(user_id, closing=what in CLOSING)
        if what in CLOSING:
            message = {"type": "kicked", "message": f"{what} by an administrator"}
        else:
            words = "muted" if what == "mute" else "no longer muted"
            message = {"type": "moderation", "action": what, "message": f"you are {words}"}
        self._deliver_to_user(user_id, message, what in CLOSING)

    async def standing(self, user: User) -> User:
        """``user`` with their current ``muted`` and ``banned`` flags (cached per
        process, forgotten on every moderation event; the database on a miss).

        Raises:
            ServiceError: ``login_required`` for an anonymous viewer, ``forbidden``
                for an account that no longer exists.
        """
        if user.id == ANONYMOUS.id:
            raise _login_required("play or chat")
        cached = self._standings.get(user.id)
        if cached is not None:
            return cached
        epoch = self._standings.epoch
        fresh = await self._fresh_user(user.id)
        if fresh is None:
            raise ServiceError("forbidden", "no such account", 403)
        self._standings.store(fresh, epoch)
        return fresh

    async def _check_active(self, user: User) -> None:
        """Refuse anything from a banned user (a ban closes their connections; this
        refuses what was already on its way)."""
        if (await self.standing(user)).banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)

    async def _check_speaker(self, user: User, text: str, what: str = "text") -> None:
        """Refuse a text that others may not receive, or any text from a muted or
        banned user (chat, and every name a user gives what others see: a chouette
        table's, a tournament's; ``what``: the field, for the error)."""
        try:
            check_text(text, what)
        except UserTextError as error:
            raise ServiceError("bad_request", str(error)) from None
        current = await self.standing(user)
        if current.banned:
            raise ServiceError("forbidden", f"{user.name} is banned", 403)
        if current.muted:
            raise ServiceError("forbidden", "you are muted", 403)

    def _take_chat_line(self, user: User) -> None:
        """Count one line ``user`` says (chat in any room, a tell) against their
        ``chat_lines_per_second``, whichever connection it came from.

        Raises:
            ServiceError: ``throttled`` past it.
        """
        if not self._chat_rate.allow(user.id):
            per_second = self.settings.chat_lines_per_second
            raise _throttled(
                f"you are saying too much (at most {per_second:g} line(s) a second, "
                f"{self.settings.chat_burst} at once)",
                1.0 / per_second,
            )

    async def _fresh_user(self, user_id: int) -> User | None:
        async with self.db.transaction() as connection:
            return await repo.user_by_id(connection, user_id)

    # -- bots and clocks -------------------------------------------------------------

    def _wake_bot(self, match_id: str) -> None:
        """If a bot must act in the match, let it think (in the pool)."""
        live, seats = self._live.get(match_id), self._seats.get(match_id)
        if live is None or seats is None or self._bot_pool is None:
            return
        seat = live.waiting_for
        if seat is None:
            return
        user = seats.users[seat]
        if user is None or user.kind != "bot":
            return
        task = asyncio.create_task(self._bot_turn(match_id, user, live.seq, seats.owner))
        self._bot_tasks.add(task)
        task.add_done_callback(self._bot_tasks.discard)

    async def bot_think(
        self, owner: int, deadline: float | None, fn: Callable[..., _T], *args: Any
    ) -> _T:
        """``fn(*args)`` in the bots' workers (as
        :meth:`~backgammon.server.bots.pool.BotPool.think`), once the bots' scheduler
        (:mod:`~backgammon.server.bots.queue`) gives it its turn: work of the user
        ``owner`` needed by ``deadline`` (None: no clock runs)."""
        return await self._bot_queue.submit(owner, deadline, partial(self.pool.think, fn, *args))

    async def _bot_turn(self, match_id: str, bot: User, seq: int, owner: int) -> None:
        """Let ``bot`` decide at ``seq`` (through the bots' scheduler: the match's
        ``owner``'s work, needed before the bot's time runs out) and act."""
        live = self._live.get(match_id)
        if live is None or live.seq != seq or self._bot_pool is None:
            return
        game = live.game
        if game is None:
            return
        pool = self._bot_pool
        level = bot.bot_level or "expert"
        request = (
            level,
            live.variant.name,
            game.rules,
            game.context,
            list(game.history),
            hash((match_id, seq)) & 0xFFFFFFFF,
        )

        async def decide() -> dict[str, Any] | None:
            # Nothing to decide once the match has moved on while this waited.
            if self._live.get(match_id) is not live or live.seq != seq:
                return None
            return await pool.decide(request)

        try:
            decided = await self._bot_queue.submit(owner, live.deadline(), decide)
            if decided is not None:
                await self.act(bot, match_id, ActionBody(**decided), expect=seq)
        except ServiceError as error:
            if error.code != "stale":
                log.warning("bot %s in %s: %s", bot.name, match_id, error.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed in match %s", bot.name, match_id)

    async def check_clocks(self) -> int:
        """End every match whose waiting player's time is up, and adjudicate
        matches abandoned longer than the setting; returns how many ended."""
        now = self.clock.now()
        ended = 0
        stale = now - self.settings.abandon_after
        for match_id in list(self._live):
            live = self._live.get(match_id)
            # Most matches are untimed and their turn recent: two attribute reads
            # (this runs over every live match twice a second).
            if live is None or live.finished:
                continue
            if live.settings.clock is None and live.turn_started >= stale:
                continue
            deadline = live.deadline()
            abandoned = live.turn_started < stale and live.waiting_for is not None
            if (deadline is None or now <= deadline) and not abandoned:
                continue
            async with self._lock(match_id):
                entries = live.timeout(now)
                if not entries and abandoned and live.waiting_for is not None:
                    entries = live.adjudicate(1 - live.waiting_for, now)
                if entries:
                    await self._commit(live, entries)
                    ended += 1
        return ended

    async def _tick_forever(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            try:
                await self.check_clocks()
            except ServiceError:
                pass
            except Exception:  # pragma: no cover - logged, the ticker goes on
                log.exception("clock check failed")
