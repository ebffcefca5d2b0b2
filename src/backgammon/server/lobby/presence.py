"""What the who list says of a user, kept in memory so that a login storm does not
turn into a query storm.

Every FIBS login sends the newcomer a who line per user online and every other user a
who line of the newcomer: with N users online, N logins need N² who lines. Each line
used to cost three queries (the user, the rating, the current match); here each user's
facts are read once and shared by every session that shows them, until they change
(a match of theirs starts or ends: :meth:`WhoCache.forget`) or ``ttl`` seconds pass
(so a change made by another server process shows within that time). A who list reads
every user it lacks in one batch (three queries, not three per user), and concurrent
asks for the same user wait for one read. User names never change, so :class:`NameCache`
keeps them without expiry (bounded in size) for the lobby's match summaries.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

__all__ = ["NameCache", "WhoCache", "WhoFacts"]


@dataclass(frozen=True, slots=True)
class WhoFacts:
    """A user's line in the who list, less what each viewer adds (its own toggles)."""

    name: str
    kind: str
    rating: float
    experience: int
    opponent: str | None


class WhoCache:
    """Who facts by user id: read in batches by ``load``, kept ``ttl`` seconds.

    Args:
        load: reads the facts of several users from the database at once (users
            that do not exist are left out).
        now: the time source (seconds).
        ttl: how long facts are kept (a bound on staleness across processes).
        size: the most users kept (the least recently used are dropped).
    """

    def __init__(
        self,
        load: Callable[[list[int]], Awaitable[dict[int, WhoFacts]]],
        now: Callable[[], float],
        ttl: float = 30.0,
        size: int = 50_000,
    ) -> None:
        self._load = load
        self._now = now
        self.ttl = ttl
        self.size = size
        self._kept: OrderedDict[int, tuple[float, WhoFacts]] = OrderedDict()
        self._reading: dict[int, asyncio.Future[WhoFacts | None]] = {}

    async def get(self, user_id: int) -> WhoFacts | None:
        """The facts of ``user_id`` (None for no such user)."""
        return (await self.get_many([user_id])).get(user_id)

    def peek(self, user_id: int) -> WhoFacts | None:
        """The facts of ``user_id`` if kept and fresh, else None (no read)."""
        kept = self._kept.get(user_id)
        if kept is not None and self._now() - kept[0] < self.ttl:
            return kept[1]
        return None

    async def get_many(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        """The facts of each of ``user_ids`` that exists: those kept and fresh at
        once, those another task is reading when it has them, the rest in one read."""
        found: dict[int, WhoFacts] = {}
        waiting: dict[int, asyncio.Future[WhoFacts | None]] = {}
        # In order and each once: a dict (a list's ``in`` made a who list of 2,000
        # stale users 2 million comparisons).
        wanted: dict[int, None] = {}
        now = self._now()
        for user_id in user_ids:
            kept = self._kept.get(user_id)
            if kept is not None and now - kept[0] < self.ttl:
                self._kept.move_to_end(user_id)
                found[user_id] = kept[1]
            elif user_id in self._reading:
                waiting[user_id] = self._reading[user_id]
            else:
                wanted[user_id] = None
        if wanted:
            found.update(await self._read(list(wanted)))
        for user_id, future in waiting.items():
            facts = await asyncio.shield(future)
            if facts is not None:
                found[user_id] = facts
        return found

    async def _read(self, user_ids: list[int]) -> dict[int, WhoFacts]:
        loop = asyncio.get_running_loop()
        futures = {user_id: loop.create_future() for user_id in user_ids}
        self._reading.update(futures)
        try:
            loaded = await self._load(user_ids)
        except BaseException as error:
            for future in futures.values():
                future.set_exception(error)
                future.exception()  # retrieved: the waiters (if any) re-raise it
            raise
        finally:
            for user_id in user_ids:
                self._reading.pop(user_id, None)
        for user_id, future in futures.items():
            facts = loaded.get(user_id)
            future.set_result(facts)
            if facts is not None:
                self._keep(user_id, facts)
        return loaded

    def _keep(self, user_id: int, facts: WhoFacts) -> None:
        self._kept[user_id] = (self._now(), facts)
        self._kept.move_to_end(user_id)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def forget(self, *user_ids: int) -> None:
        """Drop what is kept of these users (their facts changed)."""
        for user_id in user_ids:
            self._kept.pop(user_id, None)


class NameCache:
    """User names by id (names never change), the ``size`` most recently used."""

    def __init__(self, size: int = 100_000) -> None:
        self.size = size
        self._names: OrderedDict[int, str] = OrderedDict()

    def get(self, user_id: int) -> str | None:
        """The name of ``user_id`` if kept."""
        name = self._names.get(user_id)
        if name is not None:
            self._names.move_to_end(user_id)
        return name

    def put(self, user_id: int, name: str) -> None:
        """Keep a name."""
        self._names[user_id] = name
        self._names.move_to_end(user_id)
        while len(self._names) > self.size:
            self._names.popitem(last=False)
