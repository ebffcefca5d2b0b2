"""Analysis of match files (uploaded, or played here): jobs that run in the bots'
pool, with progress.

``POST /api/analysis`` starts a :class:`ReviewJobs` job; ``GET /api/analysis/{id}``
polls it and ``GET /api/analysis/{id}/report.html`` gives its HTML report. The analysis
(:func:`~backgammon.server.engine_tools.analyze_upload`) runs in a worker, never in the
event loop; the worker writes its progress to a mapping shared with the server. Jobs
live in memory (a restart forgets them); the newest :attr:`ReviewJobs.kept` are kept,
at most :attr:`ReviewJobs.running_limit` run at once (:attr:`ReviewJobs.owner_limit` for
one user), and the same file (or match) at the same ply is one job while it is kept and
has not failed.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from backgammon.server.engine_tools import analyze_upload, check_upload
from backgammon.server.pool_jobs import PoolJob, PoolJobs

__all__ = ["ReviewJob", "ReviewJobs"]

log = logging.getLogger("backgammon.server")


@dataclass
class ReviewJob(PoolJob):
    """One match file's analysis at ``ply``: ``total`` actions, then the result (and
    the HTML ``report``) or an error."""

    ply: int = 0
    key: str = ""
    report: str | None = field(default=None, repr=False)


class ReviewJobs(PoolJobs[ReviewJob]):
    """The analysis jobs of one server process."""

    running_limit = 4
    """How many analyses may run at once."""
    owner_limit = 2
    """How many one user (or address) may run at once."""
    noun = "analyses"

    def find(self, text: str | bytes, name: str | None, ply: int) -> ReviewJob | None:
        """The kept job of the same file at the same ply, unless it failed."""
        key = self._key(text, name, ply)
        for job in self._jobs.values():
            if job.key == key and job.error is None:
                return job
        return None

    @staticmethod
    def _key(text: str | bytes, name: str | None, ply: int) -> str:
        content = text if isinstance(text, bytes) else text.encode()
        kind = "bytes" if isinstance(text, bytes) else "text"
        digest = hashlib.sha256(f"{ply}\n{name or ''}\n{kind}\n".encode() + content)
        return digest.hexdigest()[:32]

    async def start(
        self, text: str | bytes, name: str | None, ply: int = 0, owner: str = ""
    ) -> ReviewJob:
        """Check the file (its text, or its bytes; in the pool) and start analysing
        it at ``ply`` for ``owner`` (or give the same file's kept job at that ply,
        see :meth:`find`).

        Raises:
            QuotaExceededError: ``owner`` or the server runs as many as allowed.
            ValueError: naming what is wrong with the file.
        """
        found = self.find(text, name, ply)
        if found is not None:
            return found
        slot = self.quota.take(owner)
        try:
            total = await self._pool.run(check_upload, text, name)
            await self._shared_progress()
        except BaseException:
            slot.release()
            raise
        job = ReviewJob(secrets.token_urlsafe(9), total, ply=ply, key=self._key(text, name, ply))
        self._launch(job, slot, self._run(job, text, name))
        return job

    async def _run(self, job: ReviewJob, text: str | bytes, name: str | None) -> None:
        try:
            job.result, job.report = await self._pool.run(
                analyze_upload, text, name, job.id, self._progress, job.ply
            )
        except ValueError as error:
            job.error = str(error)
        except Exception as error:  # a worker that died, an engine error: say so
            log.exception("analysis %s failed", job.id)
            job.error = f"the analysis failed: {error}"
        finally:
            with contextlib.suppress(OSError, EOFError):  # the manager stopped first
                self._progress.pop(job.id, None)

    def status(self, job_id: str) -> dict[str, Any] | None:
        """What ``GET /api/analysis/{id}`` answers, or ``None`` for an unknown job."""
        job = self._jobs.get(job_id)
        if job is None:
            return None
        if job.result is not None:
            return {
                "id": job.id,
                "state": "done",
                "ply": job.ply,
                "done": job.total,
                "total": job.total,
                "result": job.result,
            }
        if job.error is not None:
            return {
                "id": job.id,
                "state": "failed",
                "ply": job.ply,
                "done": 0,
                "total": job.total,
                "message": job.error,
            }
        done, _total = self._progress.get(job.id, (0, job.total))
        return {
            "id": job.id,
            "state": "running",
            "ply": job.ply,
            "done": done,
            "total": job.total,
        }

    def report(self, job_id: str) -> str | None:
        """The HTML report of a finished job, or ``None`` (unknown, or not done)."""
        job = self._jobs.get(job_id)
        return None if job is None else job.report
