"""The long jobs' queue: which waiting analysis or rollout the long jobs' workers take
next.

Long jobs used to go straight into the tools' first-come-first-served queue, so one
owner's jobs queued first held the workers while another owner's first job waited
behind them all (issue 50). Here a job waits for its turn in a :class:`JobQueue`, which
lets at most ``workers`` jobs run at once (one a worker: nothing waits in the workers'
own queue) and, when a worker frees, gives the turn to the owner with the fewest jobs
running, then to the owner served least recently (round robin; one with nothing running
or waiting since is new again), then to the job that has waited longest. So with several
owners waiting, one owner's second job never starts before another owner's first.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

__all__ = ["JobQueue"]


@dataclass
class _Waiting:
    """One job waiting: its owner, its place in arrival order, and its ticket (done
    when its turn comes)."""

    owner: str
    arrival: int
    ticket: asyncio.Future[None] = field(repr=False)


class JobQueue:
    """At most ``workers`` long jobs running at once, the turns shared fairly between
    owners (see the module's doc)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"a job queue needs a worker at least, got {workers}")
        self.workers = workers
        self._running: Counter[str] = Counter()
        self._waiting: list[_Waiting] = []
        self._served: dict[str, int] = {}  # each owner's last turn, while it has jobs
        self._arrivals = itertools.count()
        self._turns = itertools.count()

    @property
    def running(self) -> int:
        """Jobs holding a turn now."""
        return sum(self._running.values())

    @property
    def waiting(self) -> int:
        """Jobs waiting for their turn."""
        return len(self._waiting)

    @asynccontextmanager
    async def turn(self, owner: str) -> AsyncIterator[None]:
        """Wait for ``owner``'s job's turn and hold it for the ``async with`` block.
        Cancelling the waiter before its turn takes it out of the queue."""
        waiting = _Waiting(owner, next(self._arrivals), asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        self._dispatch()
        try:
            await waiting.ticket
        except BaseException:
            if waiting in self._waiting:
                self._waiting.remove(waiting)
                self._forget(owner)
            elif waiting.ticket.done() and not waiting.ticket.cancelled():
                self._give_back(owner)  # given its turn, but cancelled before taking it
            raise
        try:
            yield
        finally:
            self._give_back(owner)

    def _give_back(self, owner: str) -> None:
        self._running[owner] -= 1
        if self._running[owner] <= 0:
            del self._running[owner]
        self._forget(owner)
        self._dispatch()

    def _forget(self, owner: str) -> None:
        """Forget when ``owner`` was served once it has no job running or waiting."""
        if not self._running[owner] and all(w.owner != owner for w in self._waiting):
            self._served.pop(owner, None)

    def _dispatch(self) -> None:
        """Give turns while a worker is free: the owner with the fewest jobs running
        first, then the one served least recently, then the earliest arrival."""
        while self.running < self.workers and self._waiting:
            chosen = min(
                self._waiting,
                key=lambda w: (self._running[w.owner], self._served.get(w.owner, -1), w.arrival),
            )
            self._waiting.remove(chosen)
            if chosen.ticket.done():  # its waiter was cancelled
                self._forget(chosen.owner)
                continue
            self._running[chosen.owner] += 1
            self._served[chosen.owner] = next(self._turns)
            chosen.ticket.set_result(None)

    def close(self) -> None:
        """Cancel the jobs waiting for a turn (the server stops)."""
        waiting, self._waiting = self._waiting, []
        for item in waiting:
            item.ticket.cancel()
