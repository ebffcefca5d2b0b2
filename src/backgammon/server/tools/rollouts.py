"""The position tool's rollouts: jobs that run in the bots' pool, with live progress.

``POST /api/rollout`` starts a :class:`RolloutJobs` job; ``GET /api/rollout/{id}``
polls it (the running figures included); ``DELETE /api/rollout/{id}`` cancels it (only
who started it may). As
with the review's jobs (:mod:`backgammon.server.tools.review`), the rollout
(:func:`~backgammon.server.tools.engine_tools.rollout_report`) runs in a worker, never in the
event loop, and writes its progress to a mapping shared with the server; a cancel is a
flag in that mapping, which the worker reads between chunks of trials. Jobs live in
memory; the newest :attr:`RolloutJobs.kept` are kept, and at most
:attr:`RolloutJobs.running_limit` run at once (:attr:`RolloutJobs.owner_limit` for one
user). A rollout's trials in all (its trials times the plays it rolls out) are at most
:data:`~backgammon.server.tools.engine_tools.MAX_ROLLOUT_TRIALS`, refused before any trial.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from typing import Any

from pydantic import Field

from backgammon.server.protocol import PositionQuery
from backgammon.server.tools.engine_tools import (
    MAX_ROLLOUT_TRIALS,
    rollout_report,
    rollout_subjects,
)
from backgammon.server.tools.pool_jobs import PoolJob, PoolJobs

__all__ = ["RolloutJob", "RolloutJobs", "RolloutQuery", "check_cost"]

log = logging.getLogger("backgammon.server")


class RolloutQuery(PositionQuery):
    """``POST /api/rollout``: the position (as for ``POST /api/position``), optional
    dice (then the best plays are rolled out, ranked at ``ply``) and the number of
    trials (at most :data:`~backgammon.server.tools.engine_tools.MAX_ROLLOUT_TRIALS`)."""

    trials: int = Field(default=144, ge=1, le=MAX_ROLLOUT_TRIALS)


def check_cost(trials: int, plays: int) -> None:
    """Refuse a rollout of ``trials`` for each of ``plays`` lines over
    :data:`~backgammon.server.tools.engine_tools.MAX_ROLLOUT_TRIALS` trials in all (about
    3 minutes of one core: a rollout holds a long jobs' worker that long).

    Raises:
        ValueError: naming the limit and what was asked.
    """
    if trials * plays > MAX_ROLLOUT_TRIALS:
        raise ValueError(
            f"trials: {trials} for each of {plays} plays is {trials * plays} trials, over "
            f"the limit of {MAX_ROLLOUT_TRIALS} a rollout: ask for at most "
            f"{MAX_ROLLOUT_TRIALS // plays} each"
        )


class RolloutJob(PoolJob):
    """One rollout: ``total`` trials in all, then the result or an error."""


class RolloutJobs(PoolJobs[RolloutJob]):
    """The rollouts of one server process."""

    noun = "rollouts"

    async def start(self, query: RolloutQuery, owner: str = "") -> RolloutJob:
        """Check the position (in the pool) and start rolling it out for ``owner``.

        Raises:
            QuotaExceededError: ``owner`` or the server runs as many as allowed.
            ValueError: naming what is wrong with the position or the dice, or
                trials over the limit (:func:`check_cost`).
        """
        slot = self.quota.take(owner)
        try:
            plays = await self._pool.run(rollout_subjects, query.position, query.roll)
            check_cost(query.trials, plays)
            await self._shared_progress()
        except BaseException:
            slot.release()
            raise
        job = RolloutJob(secrets.token_urlsafe(9), query.trials * plays, owner=owner)
        self._launch(job, slot, self._run(job, query))
        return job

    async def _run(self, job: RolloutJob, query: RolloutQuery) -> None:
        try:
            job.result = await self._pool.run_job(
                job.owner,
                rollout_report,
                query.position,
                query.roll,
                query.trials,
                job.id,
                self._progress,
                query.ply,
            )
        except ValueError as error:
            job.error = str(error)
        except Exception as error:  # a worker that died, an engine error: say so
            log.exception("rollout %s failed", job.id)
            job.error = f"the rollout failed: {error}"
        finally:
            # Not when the server stops (the task cancelled): the worker must still
            # see the cancel that close() left for it.
            if job.finished:
                with contextlib.suppress(OSError, EOFError):  # the manager stopped first
                    self._progress.pop(job.id, None)
                    self._progress.pop(f"{job.id}:cancel", None)

    def status(self, job_id: str) -> dict[str, Any] | None:
        """What ``GET /api/rollout/{id}`` answers, or ``None`` for an unknown job."""
        job = self._jobs.get(job_id)
        if job is None:
            return None
        if job.result is not None:
            done = sum(line["trials"] for line in job.result["lines"])
            return {
                "id": job.id,
                "state": "cancelled" if job.result["cancelled"] else "done",
                "done": done,
                "total": job.total,
                "result": job.result,
            }
        if job.error is not None:
            return {
                "id": job.id,
                "state": "failed",
                "done": 0,
                "total": job.total,
                "message": job.error,
            }
        progress = self._progress.get(job.id) or {"done": 0, "result": None}
        return {
            "id": job.id,
            "state": "running",
            "done": progress["done"],
            "total": job.total,
            "result": progress["result"],
        }

    def close(self) -> None:
        """Cancel the rollouts still running (their workers stop at their next report)."""
        for job in self._jobs.values():
            if not job.finished:
                with contextlib.suppress(OSError, EOFError):
                    self._progress[f"{job.id}:cancel"] = True
        super().close()
