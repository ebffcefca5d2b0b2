"""The bots' scheduler: which waiting bot decision the bots' workers take next.

Bot decisions used to go straight into the workers' first-come-first-served queue, so
one account's thirty bot matches (or an organiser's bots playing each other in an
arena, or a chouette's bots) kept a bot in someone else's clocked match waiting until
it lost on time (issue 50). Here every decision is counted against its owner (the
person who started the match, the organiser of the event, the chouette table's owner)
and waits in a :class:`Schedule`; a :class:`BotQueue` hands the workers one decision at
a time each, never more than there are workers, so nothing waits in their queue.

Which decision goes next: each owner's waiting decisions in deadline order (a clocked
match's by when the bot's time runs out, unclocked work after, oldest first), and
between owners, first those whose next decision is urgent (its bot's time runs out
within :data:`URGENT_SECONDS`), then the others; among those, the owner served least
recently first (one that has had nothing waiting since is new again), then the
earlier deadline. So however many decisions one owner queues, another owner's waits
behind at most one of them per worker and per owner with work waiting; a bot whose
time runs short waits only for the other owners' urgent decisions; and no clocked
bulk keeps unclocked work waiting for ever.

:class:`Schedule` is pure (no clock, no I/O) and tested on its own.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

__all__ = ["URGENT_SECONDS", "BotQueue", "Schedule"]

_T = TypeVar("_T")

URGENT_SECONDS = 10.0
"""A clocked decision whose bot has this little time left goes before other clocked
work (a world-class play takes about 10 ms on one core: ten seconds covers a long
queue)."""


@dataclass(order=True)
class _Waiting(Generic[_T]):
    """One waiting decision, ordered within its owner: clocked first, by deadline,
    then by arrival."""

    unclocked: bool
    deadline: float
    arrival: int
    item: _T = field(compare=False)


class Schedule(Generic[_T]):
    """The waiting decisions of every owner, and which goes next (:meth:`pop`)."""

    def __init__(self, urgent_seconds: float = URGENT_SECONDS) -> None:
        self.urgent_seconds = urgent_seconds
        self._waiting: dict[Any, list[_Waiting[_T]]] = {}
        self._served: dict[Any, int] = {}  # when each owner with work waiting was last served
        self._arrivals = itertools.count()
        self._turns = itertools.count()
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def push(self, owner: Any, deadline: float | None, item: _T) -> None:
        """Add ``item``, a decision of ``owner`` (any hashable key) that must be made by
        ``deadline`` (a time on the caller's clock; None for no clock)."""
        due = math.inf if deadline is None else deadline
        waiting = _Waiting(deadline is None, due, next(self._arrivals), item)
        heapq.heappush(self._waiting.setdefault(owner, []), waiting)
        self._count += 1

    def pop(self, now: float) -> _T:
        """Take the decision that goes next at time ``now`` (see the module's doc).

        Raises:
            IndexError: nothing waits.
        """
        if not self._waiting:
            raise IndexError("no bot decision waits")
        owner = min(self._waiting, key=lambda key: self._rank(key, now))
        queue = self._waiting[owner]
        taken = heapq.heappop(queue)
        self._count -= 1
        if queue:
            self._served[owner] = next(self._turns)
        else:
            del self._waiting[owner]
            self._served.pop(owner, None)
        return taken.item

    def _rank(self, owner: Any, now: float) -> tuple[int, int, float, int]:
        """Where ``owner``'s next decision stands: 0 if urgent else 1, when the owner
        was last served (-1: not since it last had nothing waiting), its deadline, its
        arrival."""
        head = self._waiting[owner][0]
        tier = 0 if head.deadline - now <= self.urgent_seconds else 1
        return tier, self._served.get(owner, -1), head.deadline, head.arrival


@dataclass
class _Job:
    """A decision to run: the call that makes it, and where its answer goes."""

    run: Callable[[], Awaitable[Any]]
    answer: asyncio.Future[Any]


class BotQueue:
    """Runs bot decisions through a :class:`Schedule`, at most ``workers`` at once
    (as many as the bots have workers); ``clock`` gives the time deadlines are on."""

    def __init__(
        self,
        workers: int,
        clock: Callable[[], float],
        urgent_seconds: float = URGENT_SECONDS,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a bot queue needs a worker at least, got {workers}")
        self.workers = workers
        self._clock = clock
        self._schedule: Schedule[_Job] = Schedule(urgent_seconds)
        self._running = 0
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def waiting(self) -> int:
        """Decisions waiting for a worker."""
        return len(self._schedule)

    @property
    def running(self) -> int:
        """Decisions being made now."""
        return self._running

    async def submit(
        self, owner: Any, deadline: float | None, run: Callable[[], Awaitable[_T]]
    ) -> _T:
        """``await run()`` once the schedule says so: ``owner``'s decision, needed by
        ``deadline`` (None: no clock). Cancelling the caller before its turn drops
        the decision; after, the decision runs on (its worker is busy either way)
        and its answer is dropped."""
        answer: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._schedule.push(owner, deadline, _Job(run, answer))
        self._dispatch()
        return await answer

    def _dispatch(self) -> None:
        """Start the next decisions while a worker is free."""
        while self._running < self.workers and len(self._schedule):
            job = self._schedule.pop(self._clock())
            if job.answer.cancelled():
                continue
            self._running += 1
            task = asyncio.create_task(self._run(job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        """Cancel the decisions being made and those waiting (the server stops)."""
        for task in list(self._tasks):
            task.cancel()
        while len(self._schedule):
            self._schedule.pop(self._clock()).answer.cancel()

    async def _run(self, job: _Job) -> None:
        try:
            result = await job.run()
        except asyncio.CancelledError:
            job.answer.cancel()
            raise
        except Exception as error:  # handed to the caller, whose error it is
            if not job.answer.done():
                job.answer.set_exception(error)
        else:
            if not job.answer.done():
                job.answer.set_result(result)
        finally:
            self._running -= 1
            self._dispatch()
