"""Analysis of match files (uploaded, or played here): jobs that run in the bots'
pool, with progress.

``POST /api/analysis`` starts a :class:`ReviewJobs` job; ``GET /api/analysis/{id}``
polls it, ``DELETE /api/analysis/{id}`` cancels it (only who started it may) and
``GET /api/analysis/{id}/report.html`` gives its HTML report. The analysis
(:func:`~backgammon.server.tools.engine_tools.analyze_upload`) runs in a worker, never in the
event loop; the worker writes its progress to a mapping shared with the server. Jobs
live in memory (a restart forgets them); the newest :attr:`ReviewJobs.kept` are kept,
at most :attr:`ReviewJobs.running_limit` run at once (:attr:`ReviewJobs.owner_limit` for
one user), and the same file (or match) at the same ply is one job while it is kept and
has not failed. A file whose analysis would cost more than :data:`MAX_ANALYSIS_COST` (its
actions times :data:`PLY_COST` of the ply) is refused before any work.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from backgammon.server.tools.engine_tools import (
    AnalysisCancelledError,
    analyze_upload,
    check_upload,
)
from backgammon.server.tools.pool_jobs import PoolJob, PoolJobs

__all__ = ["MAX_ANALYSIS_COST", "PLY_COST", "ReviewJob", "ReviewJobs", "check_cost"]

log = logging.getLogger("backgammon.server")

PLY_COST = {0: 1, 1: 2, 2: 16}
"""What analysing one action costs at each ply, in 0-ply actions (measured on one
core: about 1.8 ms an action at 0 ply, 2.5 ms at 1 ply, 20-35 ms at 2 plies)."""
MAX_ANALYSIS_COST = 100_000
"""The most one analysis may cost, in 0-ply actions (about 3 minutes of one core:
an analysis holds a long jobs' worker that long)."""


def check_cost(actions: int, ply: int) -> None:
    """Refuse the analysis of a file of ``actions`` at ``ply`` if it costs more than
    :data:`MAX_ANALYSIS_COST`.

    Raises:
        ValueError: naming the limit at each ply and the file's size in actions.
    """
    if actions * PLY_COST[ply] > MAX_ANALYSIS_COST:
        limits = ", ".join(
            f"{MAX_ANALYSIS_COST // cost:,} at {each} {'ply' if each == 1 else 'plies'}"
            for each, cost in sorted(PLY_COST.items(), reverse=True)
        )
        raise ValueError(
            f"the file has {actions:,} actions to analyse, over the limit of one analysis "
            f"at {ply} {'ply' if ply == 1 else 'plies'} (at most {limits}): "
            "choose fewer plies or upload fewer games"
        )


def analyze_encoded(
    text: str | bytes, name: str | None, job: str, board: Any, ply: int
) -> tuple[bytes, str]:
    """:func:`~backgammon.server.tools.engine_tools.analyze_upload`, its summary already as
    JSON (run in a worker: a long match's summary is tens of MB of JSON, encoded once
    there instead of in the event loop on every poll)."""
    summary, report = analyze_upload(text, name, job, board, ply)
    return json.dumps(summary, separators=(",", ":")).encode(), report


def _done_status(job: ReviewJob, summary: bytes) -> bytes:
    """The answer to every poll of a done job: its status with the encoded summary."""
    head = {"id": job.id, "state": "done", "ply": job.ply, "done": job.total}
    head["total"] = job.total
    return json.dumps(head)[:-1].encode() + b', "result": ' + summary + b"}"


@dataclass
class ReviewJob(PoolJob):
    """One match file's analysis at ``ply``: ``total`` actions, then the result (the
    whole answer of a poll as JSON, ``encoded`` once, and the HTML ``report``) or an
    error (``cancelled`` when its owner cancelled it)."""

    ply: int = 0
    key: str = ""
    cancelled: bool = False
    encoded: bytes | None = field(default=None, repr=False)
    report: str | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        """Whether the job is over (done, cancelled or failed)."""
        return self.encoded is not None or self.error is not None

    @property
    def size(self) -> int:
        """The bytes its result holds in memory."""
        return len(self.encoded or b"") + len(self.report or "")


class ReviewJobs(PoolJobs[ReviewJob]):
    """The analysis jobs of one server process."""

    running_limit = 4
    """How many analyses may run at once."""
    owner_limit = 2
    """How many one user (or address) may run at once."""
    noun = "analyses"
    kept_bytes = 256 * 1024 * 1024
    """The most the kept results may hold in memory together (a 1 MB match file's
    summary and report are about 60 MB): beyond it the oldest finished are forgotten."""

    def find(self, text: str | bytes, name: str | None, ply: int) -> ReviewJob | None:
        """The kept job of the same file at the same ply, unless it failed (or was
        cancelled)."""
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
            ValueError: naming what is wrong with the file, or its cost over the
                limit (:func:`check_cost`).
        """
        found = self.find(text, name, ply)
        if found is not None:
            return found
        slot = self.quota.take(owner)
        try:
            total = await self._pool.run(check_upload, text, name)
            check_cost(total, ply)
            await self._shared_progress()
        except BaseException:
            slot.release()
            raise
        key = self._key(text, name, ply)
        job = ReviewJob(secrets.token_urlsafe(9), total, owner=owner, ply=ply, key=key)
        self._launch(job, slot, self._run(job, text, name))
        return job

    async def _run(self, job: ReviewJob, text: str | bytes, name: str | None) -> None:
        try:
            summary, job.report = await self._pool.run_job(
                job.owner, analyze_encoded, text, name, job.id, self._progress, job.ply
            )
            job.encoded = _done_status(job, summary)
        except AnalysisCancelledError:
            job.cancelled = True
            job.error = "the analysis was cancelled"
        except ValueError as error:
            job.error = str(error)
        except Exception as error:  # a worker that died, an engine error: say so
            log.exception("analysis %s failed", job.id)
            job.error = f"the analysis failed: {error}"
        finally:
            with contextlib.suppress(OSError, EOFError):  # the manager stopped first
                self._progress.pop(job.id, None)
                self._progress.pop(f"{job.id}:cancel", None)
            self._forget_oldest()

    def _forget_oldest(self) -> None:
        """Forget the oldest finished jobs while the kept results hold more than
        :attr:`kept_bytes`."""
        held = sum(job.size for job in self._jobs.values())
        for job_id, job in list(self._jobs.items()):
            if held <= self.kept_bytes:
                break
            if job.finished:
                held -= job.size
                del self._jobs[job_id]

    def known(self, job_id: str) -> bool:
        """Whether ``job_id`` is a kept job."""
        return job_id in self._jobs

    def status_json(self, job_id: str) -> bytes | None:
        """What ``GET /api/analysis/{id}`` answers, as JSON, or ``None`` for an unknown
        job. A done job's summary was encoded once, in the worker: a poll only joins
        bytes, the same for every poll, however large the analysis."""
        job = self._jobs.get(job_id)
        if job is None:
            return None
        if job.encoded is not None:
            return job.encoded
        status = self._unfinished_status(job)
        return json.dumps(status).encode()

    def done_tag(self, job_id: str) -> str | None:
        """The entity tag of a done job's answer (RFC 9110, section 8.8.3), which
        never changes once done: a poller that has it is answered 304 with no body;
        ``None`` while the job runs (or is unknown)."""
        job = self._jobs.get(job_id)
        if job is None or job.encoded is None:
            return None
        return f'"{job.id}-done"'

    def _unfinished_status(self, job: ReviewJob) -> dict[str, Any]:
        """The status of a job that failed or runs."""
        if job.error is not None:
            return {
                "id": job.id,
                "state": "cancelled" if job.cancelled else "failed",
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
