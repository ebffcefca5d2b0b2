"""The game service: the one authority over accounts, matches, dice and clocks.

Front ends (the WebSocket API, the FIBS listener) are adapters over a
:class:`GameService`: they authenticate a user, pass the user's requests here, and
relay what the service publishes through the :class:`~backgammon.server.lobby.hub.Hub`.
Every accepted action is committed to the database before anyone hears of it; if the
commit fails, the in-memory match is dropped and rebuilt from the log.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from backgammon.server.accounts import throttle
from backgammon.server.accounts.passwords import (
    PasswordWorkers,
)
from backgammon.server.accounts.service import AccountService
from backgammon.server.bots.pool import BotPool
from backgammon.server.bots.queue import BotQueue
from backgammon.server.bots.service import BotService
from backgammon.server.common import (
    MAX_FRIENDS,
    MAX_OPEN_MATCHES,
    MAX_STORED_FROM_ONE,
    MAX_STORED_MESSAGES,
    READY_SECONDS,
    ROSTER_CHUNK,
    Clock,
    ServiceError,
    SystemClock,
    _Seats,
    log,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.database import Database
from backgammon.server.db.events import EventBus, LocalBus, PostgresBus
from backgammon.server.db.group_commit import GroupCommitter
from backgammon.server.db.locks import held
from backgammon.server.db.repository import User
from backgammon.server.lobby.hub import Connection, Hub
from backgammon.server.lobby.matchmaking import MatchMaking
from backgammon.server.lobby.peers import BEAT_SECONDS, Peers
from backgammon.server.lobby.presence import NameCache, WhoCache
from backgammon.server.lobby.rate_limit import TokenBuckets
from backgammon.server.lobby.service import LobbyService
from backgammon.server.matches.fair_dice import new_seed
from backgammon.server.matches.live import LiveMatch
from backgammon.server.matches.service import MatchService
from backgammon.server.matches.turn_plays import PlayTexts
from backgammon.server.metrics import Metrics
from backgammon.server.moderation.flags import Standings
from backgammon.server.moderation.service import ModerationService
from backgammon.server.settings import Settings
from backgammon.server.social.service import SocialService

__all__ = [
    "MAX_FRIENDS",
    "MAX_OPEN_MATCHES",
    "MAX_STORED_FROM_ONE",
    "MAX_STORED_MESSAGES",
    "READY_SECONDS",
    "Clock",
    "GameService",
    "ServiceError",
    "SystemClock",
]


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
        self.account_service = AccountService(self)
        self.matchmaking = MatchMaking(self)
        self.match_service = MatchService(self)
        self.lobby_service = LobbyService(self)
        self.social_service = SocialService(self)
        self.moderation_service = ModerationService(self)
        self.bot_service = BotService(self)
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
        # Who is connected to each other process, and when each was last heard.
        self._elsewhere = Peers()
        self._beater: asyncio.Task[None] | None = None
        # Who is connected, as this process knows it: the users seen connected (here or
        # elsewhere) and since when those seen leaving have been away; a user never
        # seen is away since this process started (see _away_since).
        self._present: set[int] = set()
        self._left_at: dict[int, float] = {}
        self._started_at = self.clock.now()
        # The live matches each user sits in (checked against _seats when used).
        self._matches_of: dict[int, set[str]] = {}
        self._who = WhoCache(self.lobby_service._read_who, self.clock.now)
        self._names = NameCache()
        self._standings = Standings()
        # Called with a match's id once its result is committed (tournaments).
        self.match_finished_hooks: list[Callable[[str], None]] = []
        # Snapshot makers of the rooms other services own, by prefix ("tournament:").
        self.room_snapshots: dict[str, Callable[[str], Awaitable[dict[str, Any]]]] = {}
        # Awaited with a user's id and the moderation once it is committed (in the
        # administrator's process only), e.g. to hand a banned user's seats to bots.
        self.moderation_hooks: list[Callable[[int, str], Awaitable[None]]] = []
        # Awaited when another process on the database has gone (said goodbye or fell
        # silent), in one surviving process: carry on its chouette tables and events.
        self.takeover_hooks: list[Callable[[], Awaitable[None]]] = []
        self._takeovers: set[asyncio.Task[None]] = set()
        self.ready = False
        # The facade: each service's public operations, as the front ends call them.
        self._check_speaker = self.moderation_service._check_speaker
        self._connected = self.lobby_service._connected
        self._take_chat_line = self.social_service._take_chat_line
        self.act = self.match_service.act
        self.add_friend = self.social_service.add_friend
        self.authenticate = self.account_service.authenticate
        self.begin_match = self.matchmaking.begin_match
        self.begin_when_ready = self.matchmaking.begin_when_ready
        self.bot_think = self.bot_service.bot_think
        self.bot_user = self.bot_service.bot_user
        self.bots = self.bot_service.bots
        self.cancel = self.matchmaking.cancel
        self.chat = self.social_service.chat
        self.check_clocks = self.bot_service.check_clocks
        self.check_login = self.account_service.check_login
        self.claim_refusal = self.match_service.claim_refusal
        self.connect = self.lobby_service.connect
        self.connect_capped = self.lobby_service.connect_capped
        self.connect_viewer = self.lobby_service.connect_viewer
        self.create_match = self.matchmaking.create_match
        self.decline = self.matchmaking.decline
        self.dice_commitment = self.matchmaking.dice_commitment
        self.disconnect = self.lobby_service.disconnect
        self.download = self.match_service.download
        self.findable = self.match_service.findable
        self.finished_record = self.match_service.finished_record
        self.fibs_settings = self.social_service.fibs_settings
        self.friends = self.social_service.friends
        self.gags = self.social_service.gags
        self.give_nonce = self.matchmaking.give_nonce
        self.guest = self.account_service.guest
        self.invitation_from = self.matchmaking.invitation_from
        self.join_match = self.matchmaking.join_match
        self.leave_message = self.social_service.leave_message
        self.lobby = self.lobby_service.lobby
        self.log_entries = self.match_service.log_entries
        self.login = self.account_service.login
        self.logout = self.account_service.logout
        self.match_history = self.account_service.match_history
        self.matches_of = self.match_service.matches_of
        self.moderate = self.moderation_service.moderate
        self.online = self.lobby_service.online
        self.online_names = self.lobby_service.online_names
        self.presence = self.lobby_service.presence
        self.profile = self.account_service.profile
        self.rating_of = self.social_service.rating_of
        self.ratings_of = self.social_service.ratings_of
        self.register = self.account_service.register
        self.rematch = self.matchmaking.rematch
        self.remove_friend = self.social_service.remove_friend
        self.seat_in = self.match_service.seat_in
        self.seat_match = self.matchmaking.seat_match
        self.set_fibs_settings = self.social_service.set_fibs_settings
        self.set_gag = self.social_service.set_gag
        self.standing = self.moderation_service.standing
        self.state = self.match_service.state
        self.subscribe = self.lobby_service.subscribe
        self.unsubscribe = self.lobby_service.unsubscribe
        self.take_messages = self.social_service.take_messages
        self.tell = self.social_service.tell
        self.tell_waited_for = self.social_service.tell_waited_for
        self.user_named = self.account_service.user_named
        self.who = self.lobby_service.who
        self.who_kept = self.lobby_service.who_kept
        self.who_many = self.lobby_service.who_many

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
            self._beater = asyncio.create_task(self._beat_forever())
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
            live = await self.match_service._load(row.id)
            if live.seq == 0:
                await self.match_service.throw_missing_opening(row.id)
            else:
                live.resume_clock(now)
            self.bot_service._wake_bot(row.id)
        if playing:
            say(f"resumed {len(playing)} match(es)")
        self._committer = GroupCommitter(self.db, self.bus)
        self._committer.start()
        self._ticker = asyncio.create_task(self.bot_service._tick_forever())
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
        for task in (self._ticker, self._beater):
            if task is not None:
                task.cancel()
        for task in [*self._bot_tasks, *self._ready_waits.values(), *self._takeovers]:
            task.cancel()
        self._bot_queue.close()
        self.hub.close_all()
        if self._bot_pool is not None:
            self._bot_pool.close()
        if self._committer is not None:
            await self._committer.stop()
        # The others drop this process's users at once (not after EXPIRE_SECONDS).
        await self.bus.close(farewell={"k": "goodbye"})
        self.passwords.close()
        await self.db.close()

    @property
    def live_count(self) -> int:
        """Matches held in memory by this process."""
        return len(self._live)

    @property
    def bot_decisions(self) -> tuple[int, int]:
        """Bot decisions in this process: how many wait for a bots' worker, and how
        many are being made (the bots' scheduler, :mod:`.bots.queue`)."""
        return self._bot_queue.waiting, self._bot_queue.running

    def _lock(self, match_id: str) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def publish(self, room: str, message: dict[str, Any]) -> None:
        """Send ``message`` to everyone in ``room``, in every process."""
        self._to_room(room, message)

    def tell_user(self, user_id: int, message: dict[str, Any]) -> None:
        """Send ``message`` to every connection of a user, in every process."""
        self._to_user(user_id, message)

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
        """Another process's event: catch a match up from the log, relay a message to
        this process's clients, or note who is connected there."""
        kind = event.get("k")
        origin = str(event.get("origin", ""))
        if self._elsewhere.heard(origin, self.clock.now()):
            # Taken for dead while it was only slow: ask it who is connected there.
            self.bus.send({"k": "roster_request", "of": origin})
        if kind == "match":
            await self.match_service._catch_up(str(event["id"]), int(event["seq"]))
        elif kind == "room":
            self._on_room_event(origin, event)
        elif kind == "user":
            self._deliver_to_user(int(event["user"]), event["message"], bool(event["close"]))
        elif kind == "moderation":
            self.moderation_service._apply_moderation(int(event["user"]), str(event["what"]))
        elif kind == "roster_request" and event.get("of") in (None, self.bus.origin):
            self._send_roster(origin)
        elif kind == "roster" and event.get("to") == self.bus.origin:
            for user_id, public in event["users"]:
                self._elsewhere.online(origin, int(user_id), public)
                self.lobby_service._presence_changed(int(user_id))
        elif kind == "goodbye":
            self._users_gone(self._elsewhere.forget(origin))
            self._take_over_departed()

    def _on_room_event(self, origin: str, event: dict[str, Any]) -> None:
        """Relay a message to a room's connections here (noting who came online or
        went offline elsewhere)."""
        message = event["message"]
        if message.get("event") in ("online", "offline"):
            self._note_elsewhere(origin, message)
            self.lobby_service._presence_changed(int(message["user_id"]))
        if event["room"] == "lobby" and message.get("type") == "lobby_event":
            self.lobby_service._lobby_changed(message)
        spectators = event.get("spectators_only")
        only = None
        if spectators:
            players = set(event.get("players", ()))

            def only(connection: Connection) -> bool:
                return connection.user.id not in players

        self.hub.publish(str(event["room"]), message, only)

    def _send_roster(self, origin: str) -> None:
        """Tell a process that has just started who is connected here (as if each had
        come online), in events small enough for the bus."""
        users = self.hub.online()
        for start in range(0, len(users), ROSTER_CHUNK):
            chunk = [[user.id, user.public()] for user in users[start : start + ROSTER_CHUNK]]
            self.bus.send({"k": "roster", "to": origin, "users": chunk})

    def _note_elsewhere(self, origin: str, message: dict[str, Any]) -> None:
        user_id = int(message["user_id"])
        if message["event"] == "online":
            self._elsewhere.online(origin, user_id, message["user"])
        else:
            self._elsewhere.offline(origin, user_id)

    async def _beat_forever(self) -> None:
        """Say this process is alive every BEAT_SECONDS, and drop the users of the
        processes that have fallen silent."""
        while True:
            self._beat()
            await asyncio.sleep(BEAT_SECONDS)

    def _beat(self) -> None:
        """One heartbeat: say this process is alive, drop the silent ones' users."""
        self.bus.send({"k": "beat"})
        self._users_gone(self._elsewhere.expire(self.clock.now()))
        self._take_over_departed()

    def _take_over_departed(self) -> None:
        """Carry on the work of every process gone since the last look."""
        for origin in self._elsewhere.departed():
            task = asyncio.create_task(self._take_over(origin))
            self._takeovers.add(task)
            task.add_done_callback(self._takeovers.discard)

    async def _take_over(self, origin: str) -> None:
        """Carry on what the process ``origin`` held, if no other process is doing
        so: its matches' clocks and bots (:meth:`BotService.take_over`), then its
        chouette tables and tournaments (``takeover_hooks``). Nothing is done twice
        if two processes both do it: each bot acts at a ``seq`` and each event's step
        holds its lock (docs/deploy.md, "Taking over from a process gone")."""
        try:
            async with held(self.db, f"takeover:{origin}", wait=False) as mine:
                if not mine:
                    return
                log.info("process %s is gone: taking over its work", origin)
                await self.bot_service.take_over()
                for hook in self.takeover_hooks:
                    await hook()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("taking over from process %s failed", origin)

    def _users_gone(self, users: list[tuple[int, dict[str, Any]]]) -> None:
        """A process went away with these users (id, public facts): those connected
        nowhere else leave this process's lobby, and their matches here hear them
        away."""
        for user_id, public in users:
            if not self._connected(user_id):
                event = {"event": "offline", "user": public, "user_id": user_id}
                self.hub.publish("lobby", {"type": "lobby_event", **event})
            self.lobby_service._presence_changed(user_id)

    @property
    def moderation_epoch(self) -> int:
        """A mark to take before authenticating a connection, for :meth:`connect`."""
        return self._standings.epoch
