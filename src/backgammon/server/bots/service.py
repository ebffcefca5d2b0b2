"""The bots' turns and the clocks: a bot's decision asked of the scheduler when its match
waits on it, and the clocks checked every second.

A service of the site (:class:`~backgammon.server.service.GameService` holds the
shared state and the other services, reached through ``self.site``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from backgammon.server.common import (
    _T,
    ServiceError,
    log,
)
from backgammon.server.db import repository as repo
from backgammon.server.db.repository import User
from backgammon.server.protocol import (
    ActionBody,
)

if TYPE_CHECKING:
    from backgammon.server.service import GameService


class BotService:
    """The bots' turns and the clocks: a bot's decision asked of the scheduler when its
    match waits on it, and the clocks checked every second."""

    def __init__(self, site: GameService) -> None:
        self.site = site

    def bots(self) -> list[User]:
        """The bot accounts this server offers."""
        return list(self.site._bot_users.values())

    def bot_user(self, level: str) -> User:
        """The bot account at ``level``.

        Raises:
            ServiceError: for a level this server does not offer.
        """
        try:
            return self.site._bot_users[level]
        except KeyError:
            offered = ", ".join(self.site._bot_users) or "none"
            raise ServiceError(
                "bad_request", f"no bot at level {level!r}; offered: {offered}"
            ) from None

    def _wake_bot(self, match_id: str) -> None:
        """If a bot must act in the match, let it think (in the pool)."""
        live, seats = self.site._live.get(match_id), self.site._seats.get(match_id)
        if live is None or seats is None or self.site._bot_pool is None:
            return
        seat = live.waiting_for
        if seat is None:
            return
        user = seats.users[seat]
        if user is None or user.kind != "bot":
            return
        task = asyncio.create_task(self._bot_turn(match_id, user, live.seq, seats.owner))
        self.site._bot_tasks.add(task)
        task.add_done_callback(self.site._bot_tasks.discard)

    async def bot_think(
        self, owner: int, deadline: float | None, fn: Callable[..., _T], *args: Any
    ) -> _T:
        """``fn(*args)`` in the bots' workers (as
        :meth:`~backgammon.server.bots.pool.BotPool.think`), once the bots' scheduler
        (:mod:`~backgammon.server.bots.queue`) gives it its turn: work of the user
        ``owner`` needed by ``deadline`` (None: no clock runs)."""
        return await self.site._bot_queue.submit(
            owner, deadline, partial(self.site.pool.think, fn, *args)
        )

    async def _bot_turn(self, match_id: str, bot: User, seq: int, owner: int) -> None:
        """Let ``bot`` decide at ``seq`` (through the bots' scheduler: the match's
        ``owner``'s work, needed before the bot's time runs out) and act."""
        live = self.site._live.get(match_id)
        if live is None or live.seq != seq or self.site._bot_pool is None:
            return
        game = live.game
        if game is None:
            return
        pool = self.site._bot_pool
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
            if self.site._live.get(match_id) is not live or live.seq != seq:
                return None
            return await pool.decide(request)

        try:
            decided = await self.site._bot_queue.submit(owner, live.deadline(), decide)
            if decided is not None:
                await self.site.match_service.act(bot, match_id, ActionBody(**decided), expect=seq)
        except ServiceError as error:
            if error.code != "stale":
                log.warning("bot %s in %s: %s", bot.name, match_id, error.message)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed in match %s", bot.name, match_id)

    async def take_over(self) -> int:
        """Hold every match in play here (this process checks its clock from now
        on), throw the opening of any whose process went between taking its seat and
        throwing, and let each bot whose turn it is act: what another process did for
        them until it went away. Returns how many matches are in play."""
        async with self.site.db.transaction() as connection:
            playing = await repo.list_matches(connection, status="playing", limit=100_000)
        for row in playing:
            live = await self.site.match_service._load(row.id)
            if live.seq == 0:  # killed between taking the seat and the opening throw
                await self.site.match_service.throw_missing_opening(row.id)
            self._wake_bot(row.id)
        return len(playing)

    async def check_clocks(self) -> int:
        """End every match whose waiting player's time is up, and adjudicate
        matches abandoned longer than the setting; returns how many ended."""
        now = self.site.clock.now()
        ended = 0
        stale = now - self.site.settings.abandon_after
        for match_id in list(self.site._live):
            live = self.site._live.get(match_id)
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
            async with self.site._lock(match_id):
                entries = live.timeout(now)
                if not entries and abandoned and live.waiting_for is not None:
                    entries = live.adjudicate(1 - live.waiting_for, now)
                if entries:
                    await self.site.match_service._commit(live, entries)
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
