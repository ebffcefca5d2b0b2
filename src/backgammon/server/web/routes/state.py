"""What one application's routes share, kept in ``app.state`` (never in a module):
the game service, the position tool's quota, and the analysis and rollout jobs, which
are made on first use (they need the engine's pool, which may start on first use)."""

from __future__ import annotations

from fastapi import FastAPI
from starlette.requests import HTTPConnection

from backgammon.server.service import GameService
from backgammon.server.tools.quotas import Quota
from backgammon.server.tools.review import ReviewJobs
from backgammon.server.tools.rollouts import RolloutJobs

__all__ = [
    "POSITION_LIMITS",
    "close_jobs",
    "install",
    "position_quota",
    "review_jobs",
    "rollout_jobs",
    "service_of",
]

POSITION_LIMITS = (2, 8)
"""``POST /api/position`` requests in flight: per user (or address), and in all."""


def install(app: FastAPI, service: GameService) -> None:
    """Give ``app`` its state: ``service``, a fresh position quota, no jobs yet."""
    app.state.service = service
    app.state.position_quota = Quota("position evaluations", *POSITION_LIMITS)
    app.state.reviews = None
    app.state.rollouts = None


def service_of(connection: HTTPConnection) -> GameService:
    """The game service of the application serving ``connection``."""
    service: GameService = connection.app.state.service
    return service


def position_quota(connection: HTTPConnection) -> Quota:
    """The quota of position evaluations in flight."""
    quota: Quota = connection.app.state.position_quota
    return quota


def review_jobs(connection: HTTPConnection) -> ReviewJobs:
    """The analysis jobs (made on the first call)."""
    state = connection.app.state
    if state.reviews is None:
        state.reviews = ReviewJobs(service_of(connection).pool)
    jobs: ReviewJobs = state.reviews
    return jobs


def rollout_jobs(connection: HTTPConnection) -> RolloutJobs:
    """The rollout jobs (made on the first call)."""
    state = connection.app.state
    if state.rollouts is None:
        state.rollouts = RolloutJobs(service_of(connection).pool)
    jobs: RolloutJobs = state.rollouts
    return jobs


def close_jobs(app: FastAPI) -> None:
    """Cancel the analysis and rollout jobs still running (the server stops)."""
    for jobs in (app.state.reviews, app.state.rollouts):
        if jobs is not None:
            jobs.close()
