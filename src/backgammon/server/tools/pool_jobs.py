"""Long engine work started over HTTP and polled for progress: the bookkeeping the
review's analyses (:mod:`backgammon.server.tools.review`) and the position tool's rollouts
(:mod:`backgammon.server.tools.rollouts`) share.

A job runs in the long jobs' workers of the bots' pool (never in the event loop, never
in the bots' workers nor the quick tools' ones), once the pool's
:class:`~backgammon.server.bots.job_queue.JobQueue` gives it its turn, and writes its progress
to a mapping shared with the server process (a manager's dict, started on first use).
Jobs live in memory: the newest :attr:`PoolJobs.kept` are remembered and a server
restart forgets them. A job holds a slot of its kind's
:class:`~backgammon.server.tools.quotas.Quota` from the request that starts it (before its
first ``await``) until it ends. Only its owner may cancel it: a cancel is a flag in the
shared mapping (``"{id}:cancel"``), which the worker reads as it reports.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from backgammon.server.bots.pool import BotPool
from backgammon.server.tools.quotas import Quota, Slot

__all__ = ["PoolJob", "PoolJobs"]


@dataclass
class PoolJob:
    """One job of ``owner`` (as :func:`~backgammon.server.web.routes.dependencies.request_owner`
    names it): ``total`` units of work, then a result or an error."""

    id: str
    total: int
    owner: str = ""
    result: dict[str, Any] | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        """Whether the job is over (done, cancelled or failed)."""
        return self.result is not None or self.error is not None


JobT = TypeVar("JobT", bound=PoolJob)


class PoolJobs(Generic[JobT]):
    """The jobs of one kind in one server process."""

    kept = 50
    """How many jobs are remembered (the oldest finished ones are forgotten)."""
    running_limit = 2
    """How many may run at once in this process (they share the long jobs' workers,
    waiting their turn in the pool's job queue)."""
    owner_limit = 1
    """How many one owner (a user, or an address) may run at once."""
    noun = "jobs"
    """What the jobs are called in a refusal."""

    def __init__(self, pool: BotPool) -> None:
        self._pool = pool
        self._jobs: dict[str, JobT] = {}
        self._progress: Any = None
        self._progress_lock = asyncio.Lock()  # one mapping, however many jobs start at once
        self.quota = Quota(self.noun, self.owner_limit, self.running_limit)

    def _launch(self, job: JobT, slot: Slot, work: Any) -> None:
        """Remember ``job`` and run ``work`` (its coroutine) as its task; the slot is
        given back when the task ends."""
        self._add(job)
        job.task = asyncio.create_task(work)
        job.task.add_done_callback(lambda _task: slot.release())

    def owner_of(self, job_id: str) -> str | None:
        """Who started the job ``job_id`` (``None``: no such job is kept)."""
        job = self._jobs.get(job_id)
        return None if job is None else job.owner

    def cancel(self, job_id: str) -> None:
        """Ask the job ``job_id`` to stop, if it runs (its worker stops at its next
        report; one still waiting for its turn stops at its first)."""
        job = self._jobs.get(job_id)
        if job is not None and not job.finished and self._progress is not None:
            with contextlib.suppress(OSError, EOFError):  # the manager stopped first
                self._progress[f"{job_id}:cancel"] = True

    def running(self) -> int:
        """How many jobs are running."""
        return sum(not job.finished for job in self._jobs.values())

    async def _shared_progress(self) -> Any:
        """The mapping the workers write their progress to (a manager process for a
        process pool: started aside, once)."""
        async with self._progress_lock:
            if self._progress is None:
                self._progress = await asyncio.to_thread(self._pool.shared_mapping)
        return self._progress

    def _add(self, job: JobT) -> None:
        """Remember ``job``, forgetting the oldest finished ones beyond :attr:`kept`."""
        self._jobs[job.id] = job
        for job_id in list(self._jobs):
            if len(self._jobs) <= self.kept:
                break
            if self._jobs[job_id].finished:
                del self._jobs[job_id]

    def close(self) -> None:
        """Cancel the tasks still waiting on workers (the server stops)."""
        for job in self._jobs.values():
            if job.task is not None:
                job.task.cancel()
