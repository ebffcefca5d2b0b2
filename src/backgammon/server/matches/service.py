"""Matches in play: the live copies, actions committed before anyone hears of them, results
and ratings, claims, states and records.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from backgammon.formats import MatchRecord, write_match_text
from backgammon.formats.ogxm import write_ogxm
from backgammon.server.common import (
    FINISHED_KEPT,
    ServiceError,
    _ConflictError,
    _findable,
    _login_required,
    _Seats,
    log,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import MatchRow, User
from backgammon.server.matches.live import ActionRefusedError, Entry, LiveMatch
from backgammon.server.protocol import (
    ActionBody,
    MatchSettings,
)
from backgammon.server.social.ratings import Rating, rate_match

if TYPE_CHECKING:
    from backgammon.server.service import GameService


class MatchService:
    """Matches in play: the live copies, actions committed before anyone hears of them,
    results and ratings, claims, states and records."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    async def _load(self, match_id: str) -> LiveMatch:
        """The live match (rebuilt from the database if this process has none).

        Callers that do not hold the match's lock (a state, a chat) may load it while
        another task does: the first copy stored is the one kept, so the match is
        never acted on in one copy and shown from another.
        """
        live = self.site._live.get(match_id)
        if live is not None:
            return live
        live, row, users = await self._rebuild(match_id)
        self.site._finished.pop(match_id, None)
        stored = self.site._live.get(match_id)
        if stored is not None:
            return stored  # another task loaded it while this one read the log
        self.site._live[match_id] = live
        self.site._seats[match_id] = _Seats(
            (users[0], users[1]), row.rated, row.public, row.created_by
        )
        for user in users:
            if user is not None:
                self.site._matches_of.setdefault(user.id, set()).add(match_id)
        return live

    async def _rebuild(self, match_id: str) -> tuple[LiveMatch, MatchRow, list[User | None]]:
        """A match rebuilt from the database (stored nowhere), its row and players.

        Raises:
            ServiceError: ``not_found``.
        """
        async with self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
            entries = await repo.match_entries(connection, match_id)
            event = await repo.match_event(connection, match_id)
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
            self.site._play_texts,
        )
        live.event = event
        live.replay(entries)
        return live, row, users

    async def _view(self, match_id: str, row: MatchRow | None = None) -> LiveMatch:
        """A started match to read (its state, its records, its chat): this process's
        live copy, else a finished match from the bounded cache of
        :data:`FINISHED_KEPT`, else the match loaded to be played.

        Raises:
            ServiceError: ``not_found``.
        """
        live = self.site._live.get(match_id)
        if live is not None:
            return live
        if match_id in self.site._finished:
            return self.site._finished[match_id][0]
        if row is None:
            async with self.site.db.transaction() as connection:
                row = await repo.match_row(connection, match_id)
            if row is None:
                raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
        if row.status != "finished":  # in play (or open): played from _live
            return await self._load(match_id)
        live, row, users = await self._rebuild(match_id)
        seats = _Seats((users[0], users[1]), row.rated, row.public, row.created_by)
        self.site._finished[match_id] = (live, seats)
        while len(self.site._finished) > FINISHED_KEPT:
            self.site._finished.popitem(last=False)
        return live

    def _seating(self, match_id: str) -> _Seats | None:
        """Who sits where in a match this process holds, live or finished."""
        seats = self.site._seats.get(match_id)
        if seats is None and match_id in self.site._finished:
            return self.site._finished[match_id][1]
        return seats

    async def throw_missing_opening(self, match_id: str) -> None:
        """Throw the opening of a match marked playing whose opening throw was never
        committed: its process was killed between the two steps of starting it (the
        seat taken, then the throw). At a process's start and when a process takes
        over from one gone. Another process throwing it at the same moment is told
        apart by the log's key (a match and a sequence number): one throw is stored,
        the other copy forgotten."""
        async with self.site._lock(match_id):
            live = await self._load(match_id)
            if live.seq != 0 or live.result is not None:
                return
            try:
                await self._commit(live, live.start(self.site.clock.now()))
            except _ConflictError:
                log.info("match %s: its opening was thrown by another process", match_id)

    async def _commit(self, live: LiveMatch, entries: list[Entry]) -> None:
        """Commit ``entries`` (already applied to ``live``) before anyone hears of
        them, then publish the new state. On failure, forget the in-memory match."""
        first = live.seq - len(entries)
        started = time.perf_counter()
        try:
            if live.result is None and self.site._committer is not None:
                await self.site._committer.append(live.id, first, entries)
            else:
                async with self.site.db.transaction() as connection:
                    await repo.append_entries(connection, live.id, first, entries)
                    if live.result is not None:
                        await self._finish(connection, live)
                    event = {"k": "match", "id": live.id, "seq": live.seq}
                    await self.site.bus.send_in(connection, event)
        except IntegrityError:
            self.site._live.pop(live.id, None)
            self.site._seats.pop(live.id, None)
            raise _ConflictError(live.id) from None
        except Exception:
            self.site._live.pop(live.id, None)
            self.site._seats.pop(live.id, None)
            log.exception("commit failed match=%s; reloading from the log", live.id)
            raise ServiceError(
                "unavailable", "the action could not be saved; try again", 503
            ) from None
        self.site.metrics.commit.observe(time.perf_counter() - started)
        self.site.metrics.actions += len(entries)
        self._publish_state(live, entries)
        if live.result is not None:
            self.site.metrics.matches_finished += 1
            self.site.lobby_service._lobby_event({"event": "match_finished", "match": live.id})
            seats = self.site._seats.get(live.id)
            if seats is not None:
                self.site._who.forget(*(user.id for user in seats.users if user is not None))
            # A finished match leaves memory; it is reloaded from the log if asked for.
            self.site._live.pop(live.id, None)
            self.site._seats.pop(live.id, None)
            for hook in self.site.match_finished_hooks:
                hook(live.id)

    async def _finish(self, connection: Any, live: LiveMatch) -> None:
        """Store the result and, for a rated match, the new ratings (same transaction)."""
        result = live.result
        assert result is not None
        now = self.site.clock.now()
        await repo.update_match(
            connection,
            live.id,
            status="finished",
            winner=result.winner,
            result=result.as_json(),
            finished_at=now,
        )
        seats = self.site._seats[live.id]
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
        return self.site._bot_users.get(level, user) if level is not None else user

    def _publish_state(self, live: LiveMatch, entries: list[Entry]) -> None:
        message = {
            "type": "state",
            "match": live.id,
            "entries": entries,
            "state": live.state(
                self.site.clock.now(), self.site.hub.any_reads_legal_plays(live.id)
            ),
        }
        self.site.hub.publish(live.id, message)

    async def act(
        self, user: User, match_id: str, action: ActionBody, expect: int | None = None
    ) -> int:
        """Apply ``user``'s action in a match; returns the new state's ``seq``.

        Raises:
            ServiceError: ``not_found``; ``not_a_player`` for a spectator or an
                outsider; ``forbidden`` for a banned user; or the rules' refusal
                (``not_your_turn``, ``illegal``, ...).
        """
        await self.site.moderation_service._check_active(user)
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
            self.site.metrics.action.observe(time.perf_counter() - received)
            self.site.bot_service._wake_bot(match_id)
            return seq
        raise AssertionError("unreachable")  # pragma: no cover

    async def _act_once(
        self, user: User, match_id: str, action: ActionBody, expect: int | None
    ) -> int:
        async with self.site._lock(match_id):
            live = await self._load(match_id)
            seats = self.site._seats[match_id]
            seat = seats.seat_of(user)
            if seat is None:
                self.site.metrics.refused += 1
                raise ServiceError("not_a_player", "you are not a player in this match", 403)
            now = self.site.clock.now()
            if action.kind == "claim":
                await self._commit(live, self._claimed(live, seats, seat, now, expect))
                return live.seq
            try:
                entries = live.act(seat, action, now, expect)
            except ActionRefusedError as refusal:
                self.site.metrics.refused += 1
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
            self.site.metrics.refused += 1
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
        away = self.site.lobby_service._away_since(other)
        if away is None:
            return "opponent_connected", f"{name} is connected: you may not claim the win"
        waited = now - max(away, live.turn_started)
        wait = self.site.settings.claim_after
        if waited < wait:
            return "too_early", (
                f"{name} has been away {int(waited)} s of the {int(wait)} s after which "
                f"you may claim the win: try again in {math.ceil(wait - waited)} s"
            )
        return None

    async def state(self, match_id: str, *, anonymous: bool = False) -> dict[str, Any]:
        """A match's whole current state (open matches: their summary only, and not
        to an ``anonymous`` viewer).

        Raises:
            ServiceError: ``not_found``; ``login_required`` for an open match (an
                invitation or a match waiting for its opponent) and an anonymous viewer.
        """
        live = self.site._live.get(match_id)
        if live is not None:  # started: no trip to the database, which would keep a
            return live.state(self.site.clock.now())  # subscriber holding the match's lock
        async with self.site.db.transaction() as connection:
            row = await repo.match_row(connection, match_id)
        if row is None:
            raise ServiceError("not_found", f"no match {match_id[:16]!r}", 404)
        if row.status == "open":
            if anonymous:
                raise _login_required("see a match that has not started")
            return {"match": match_id, "open": await self.site.lobby_service._summary(row)}
        live = await self._view(match_id, row)
        return live.state(self.site.clock.now())

    async def download(self, match_id: str, kind: str) -> str | bytes:
        """A finished match's record: ``mat``, ``sgf``, ``ogxm`` (OGXM's bytes), or
        ``dice`` (JSON for ``backgammon verify-dice``).

        Raises:
            ServiceError: ``not_found`` before the match has started; ``conflict``
                for a match the format cannot hold (a variant other than those it
                names). The dice record of a match going on has no seed yet.
        """
        async with self.site.db.transaction() as connection:
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
        async with self.site.db.transaction() as connection:
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

    async def _catch_up(self, match_id: str, seq: int) -> None:
        """Bring this process's copy of a match up to ``seq`` from the log and tell
        its clients."""
        if match_id not in self.site._live and not self.site.hub.has_room(match_id):
            return
        async with self.site._lock(match_id):
            live = self.site._live.get(match_id)
            if live is None:
                self._publish_state(await self._load(match_id), [])
                return
            if live.seq >= seq:
                return
            async with self.site.db.transaction() as connection:
                entries = await repo.match_entries(connection, match_id, after=live.seq - 1)
            try:
                live.replay(entries)
            except ValueError:
                log.exception("match %s: the log does not follow on; reloading", match_id)
                self.site._live.pop(match_id, None)
                live = await self._load(match_id)
                entries = []
            self._publish_state(live, entries)

    async def matches_of(
        self, user: User, status: str = "playing", *, viewer: User | None = None
    ) -> list[dict[str, Any]]:
        """Summaries of a user's matches in ``status``, newest first; with a
        ``viewer``, only those the viewer may find by the user's name (public ones
        and the viewer's own: not another's unlisted match)."""
        async with self.site.db.transaction() as connection:
            rows = await repo.list_matches(connection, status=status, user_id=user.id)
        return [
            await self.site.lobby_service._summary(row)
            for row in rows
            if viewer is None or _findable(row.public, (row.player0, row.player1), viewer)
        ]

    def findable(self, match_id: str, viewer: User) -> bool:
        """Whether ``viewer`` may find the loaded match ``match_id`` by a player's
        name (as :meth:`matches_of` with a viewer); False for a match not loaded."""
        seats = self.site._seats.get(match_id)
        if seats is None:
            return False
        return _findable(seats.public, [u.id for u in seats.users if u is not None], viewer)

    async def log_entries(self, match_id: str, start: int, stop: int) -> list[Entry]:
        """Entries ``start`` to ``stop`` of a match's log (a client catching up)."""
        live = await self._load(match_id)
        return list(live.entries[max(0, start) : max(0, stop)])

    def seat_in(self, match_id: str, user: User) -> int | None:
        """``user``'s seat in a live match (None: not a player, or not loaded)."""
        seats = self.site._seats.get(match_id)
        return None if seats is None else seats.seat_of(user)
