"""The ASGI application: the HTTP API and the WebSocket, over one game service.

:func:`create_app` builds a FastAPI application from :class:`Settings`; nothing is
read at import time. It only assembles: the service, its start and stop, the
middleware, and the routers of :mod:`backgammon.server.web.routes`, one per resource
(accounts, lobby, matches, tournaments, chouettes, users, administration, the
position tool, analysis, rollouts, operations), the web app's page and files, and ``/ws``, the live
connection. Every API route refuses a state-changing browser request from another
site (:func:`~backgammon.server.web.routes.dependencies.same_site_only`).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from functools import partial

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.staticfiles import StaticFiles

from backgammon import __version__
from backgammon.server.bots.pool import BotPool
from backgammon.server.chouettes.service import ChouetteService
from backgammon.server.db.database import Database
from backgammon.server.service import Clock, GameService, ServiceError
from backgammon.server.settings import Settings
from backgammon.server.tournaments.service import TournamentService
from backgammon.server.web.body_limit import BodySizeLimit
from backgammon.server.web.control_characters import ControlCharacters
from backgammon.server.web.routes import (
    accounts,
    admin,
    analysis,
    chouettes,
    friends,
    lobby,
    matches,
    operations,
    pages,
    position,
    rollout,
    tournaments,
    users,
    websocket,
)
from backgammon.server.web.routes.dependencies import COOKIE, Auth, current_user, same_site_only
from backgammon.server.web.routes.state import close_jobs, install

__all__ = ["COOKIE", "Auth", "create_app", "current_user", "same_site_only"]

log = logging.getLogger("backgammon.server")

COLLECTOR_THRESHOLDS = (1_500, 2, 1_000)
"""The cyclic garbage collector's thresholds (``gc.set_threshold``). A pass's pause
grows with the objects it looks at, and with a thousand matches most of what an
action makes lives for seconds (a state, a session's waiting coroutines), so the
young generation holds mostly live objects and a pass's pause grows with its
threshold: the young generation is collected often (every 1,500 net allocations),
the middle one every second young pass, before those objects pile up in it, and what
outlives both is left to the rare full pass. Measured at 1,000 FIBS matches
(``benchmarks/fibs_load.py --levels 200 1000 --hold 60``, one run each): 10,000
paused 44 and 90 ms (young, middle; p99 144 ms), 3,000 about 13 and 48 ms (p99 59-106
ms), 1,500 about 5 and 20 ms (p99 56 ms); the defaults of an earlier release (20,000,
20, 20) paused 60-80 and 200-270 ms."""

MAX_BODY_BYTES = 16_384
"""The largest body of any request but an analysis upload (refused before it is read)."""

API_ROUTERS = (
    accounts.router,
    lobby.router,
    friends.router,
    matches.router,
    tournaments.router,
    chouettes.router,
    users.router,
    admin.router,
    position.router,
    analysis.router,
    rollout.router,
    operations.router,
)
"""The API's routers, in the order their routes are matched."""


def create_app(
    settings: Settings,
    *,
    clock: Clock | None = None,
    bots: BotPool | None = None,
    warm_up: Callable[[Callable[[str], None]], object] | None = None,
    progress: Callable[[str], None] | None = None,
) -> FastAPI:
    """The server as an ASGI application.

    Args:
        settings: what to serve and how.
        clock: the time source (tests inject one); the real time by default.
        bots: the bots' pool (default: made from the settings).
        warm_up: compiles the engine's kernels before the server reports ready
            (called in a thread with a progress callback).
        progress: where start-up progress lines go (default: the log).
    """
    service = GameService(settings, Database(settings.database), clock=clock, bots=bots)
    say = progress or (lambda line: log.info(line))
    app = FastAPI(
        title="backgammon server",
        version=__version__,
        lifespan=partial(_lifespan, warm_up=warm_up, say=say),
        description="Accounts, lobby, matches and downloads; live play over /ws.",
    )
    install(app, service)
    app.state.tournaments = TournamentService(service)
    app.state.chouettes = ChouetteService(service)
    # (The last added runs first: the body's cap, then the control characters' check.)
    app.add_middleware(ControlCharacters)
    app.add_middleware(
        BodySizeLimit,
        default=MAX_BODY_BYTES,
        by_path={"/api/analysis": analysis.MAX_UPLOAD_BYTES},
    )
    app.exception_handler(ServiceError)(_service_error)
    app.exception_handler(RequestValidationError)(_validation_error)
    for router in API_ROUTERS:
        app.include_router(router, dependencies=[Depends(same_site_only)])
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=pages.WEB), name="static")
    app.include_router(websocket.router)
    return app


@asynccontextmanager
async def _lifespan(
    app: FastAPI,
    *,
    warm_up: Callable[[Callable[[str], None]], object] | None,
    say: Callable[[str], None],
) -> AsyncIterator[None]:
    """Start the service (and the FIBS listener), serve, then stop them in order."""
    service: GameService = app.state.service
    settings = service.settings
    if warm_up is not None and settings.warm_up and settings.bots:
        started = time.perf_counter()
        await asyncio.to_thread(warm_up, say)
        say(f"engine ready in {time.perf_counter() - started:.1f} s")
    await service.start(say)
    tournaments: TournamentService = app.state.tournaments
    await tournaments.resume()
    chouette_tables: ChouetteService = app.state.chouettes
    await chouette_tables.resume()
    build = None
    if settings.build_hypergammon:
        from backgammon.server.tools.hypergammon_build import BackgroundBuild

        build = BackgroundBuild(say)
        await build.start()
    fibs = None
    if settings.fibs_port is not None:
        from backgammon.server.fibs.listener import FibsListener

        fibs = FibsListener(
            service, settings.fibs_host, settings.fibs_port, proxies=settings.fibs_proxies
        )
        await fibs.start()
        say(f"FIBS clients: telnet {settings.fibs_host} {fibs.port}")
    # What start-up loaded (the engine, resumed matches) lives as long as the
    # process: keep it out of the cyclic collector's passes. Then keep each pass
    # short, as a pause holds every client (docs/server.md, "The event loop").
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    service.metrics.collector.start()
    say("ready: accepting connections")
    yield
    service.metrics.collector.stop()
    say("stopping: finishing writes")
    close_jobs(app)
    if build is not None:
        await build.stop()
    if fibs is not None:
        await fibs.stop()
    await tournaments.close()
    await chouette_tables.close()
    await service.stop()
    say("stopped")


async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
    """FastAPI's 422 (``detail``: each problem's ``type``, ``loc`` and ``msg``) without
    the inputs echoed: a body's ``Infinity`` or ``1e400`` made FastAPI's own answer a
    500, since JSON has no infinity (and an echo can be as large as the body)."""
    detail = [
        {"type": str(problem["type"]), "loc": list(problem["loc"]), "msg": str(problem["msg"])}
        for problem in error.errors()
    ]
    return JSONResponse({"detail": detail}, status_code=422)


async def _service_error(_request: Request, error: ServiceError) -> JSONResponse:
    """A :class:`ServiceError` as its JSON answer (with ``Retry-After`` if it has one)."""
    headers = None
    if error.retry_after is not None:
        headers = {"retry-after": str(max(1, math.ceil(error.retry_after)))}
    body = {"error": error.code, "message": error.message}
    if error.detail is not None:
        body["detail"] = error.detail
    return JSONResponse(
        body,
        status_code=error.status,
        headers=headers,
    )
