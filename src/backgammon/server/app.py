"""The ASGI application: the HTTP API and the WebSocket, over one game service.

:func:`create_app` builds a FastAPI application from :class:`Settings`; nothing is
read at import time. Routes are grouped by resource (accounts, lobby, matches,
users, administration, operations); ``/ws`` is the live connection. Browsers
authenticate with an HttpOnly, SameSite cookie; bots send ``Authorization: Bearer``.
A state-changing request without a bearer token must come from the site's own pages
(its ``Origin`` and ``Sec-Fetch-Site`` say so), so that another site cannot make a
visitor's browser act with the visitor's cookie.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response, WebSocket
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from starlette.requests import HTTPConnection
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect, WebSocketState

from backgammon import __version__
from backgammon.server.body_limit import BodySizeLimit
from backgammon.server.bots import BotPool
from backgammon.server.database import Database
from backgammon.server.engine_tools import position_report, read_position
from backgammon.server.hub import Connection
from backgammon.server.protocol import (
    PROTOCOL_VERSION,
    ActionMessage,
    AnalysisUpload,
    ChatMessage,
    CreateMatch,
    Credentials,
    JoinMatch,
    PingMessage,
    PositionQuery,
    ProtocolError,
    Rematch,
    SubscribeMessage,
    TellMessage,
    UnsubscribeMessage,
    parse_body,
    parse_client_message,
    parse_position_query,
)
from backgammon.server.quotas import Quota, QuotaExceededError
from backgammon.server.rate_limit import TokenBucket
from backgammon.server.repository import User
from backgammon.server.review import ReviewJobs
from backgammon.server.rollouts import RolloutJobs, RolloutQuery
from backgammon.server.service import Clock, GameService, Histogram, ServiceError
from backgammon.server.settings import Settings

__all__ = ["COOKIE", "create_app"]

COOKIE = "bg_session"
"""The session cookie's name."""

log = logging.getLogger("backgammon.server")

MAX_UPLOAD_BYTES = 1_100_000
"""The largest ``POST /api/analysis`` body (a million characters of match file and
its JSON quoting)."""

MAX_BODY_BYTES = 16_384
"""The largest body of any other request (refused before it is read)."""

POSITION_LIMITS = (2, 8)
"""``POST /api/position`` requests in flight: per user (or address), and in all."""

WEB = Path(__file__).parent / "web"
"""The web app's static files (``index.html``, ES modules, a style sheet)."""


def _token(request: Request | WebSocket) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return request.cookies.get(COOKIE)


def _address(request: Request | WebSocket) -> str:
    # uvicorn has already put the proxy's X-Forwarded-For here when the proxy is
    # trusted (``serve --forwarded-allow-ips``).
    return request.client.host if request.client is not None else "unknown"


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def same_site_only(request: Request) -> None:
    """Refuse a state-changing request that a page of another site made a browser
    send (a forged request riding on the visitor's cookie). Requests with a bearer
    token, and programs that send neither ``Origin`` nor ``Sec-Fetch-Site``, pass.

    Raises:
        ServiceError: ``forbidden`` (403) naming the foreign origin.
    """
    if request.method in SAFE_METHODS:
        return
    if request.headers.get("authorization", "").lower().startswith("bearer "):
        return
    settings: Settings = request.app.state.service.settings
    origin = request.headers.get("origin")
    fetch_site = request.headers.get("sec-fetch-site")
    if origin is not None:
        allowed = _origin_allowed(request, settings)
    else:
        allowed = fetch_site in (None, "same-origin", "none")
    if not allowed:
        log.warning("cross-site request refused: origin %r, %s", origin, request.url.path)
        raise ServiceError(
            "forbidden",
            f"cross-site request refused: {request.method} {request.url.path} from "
            f"{(origin or fetch_site or '')[:80]!r}, not a page of this site",
            403,
        )


async def _owner(request: Request) -> str:
    """Whom engine work is counted against: the logged-in user, else the address."""
    service: GameService = request.app.state.service
    user = await service.authenticate(_token(request))
    return f"user:{user.id}" if user is not None else f"address:{_address(request)}"


def _throttled(error: QuotaExceededError) -> ServiceError:
    return ServiceError("throttled", str(error), 429)


async def current_user(request: Request) -> User:
    """The logged-in user of a request (cookie or bearer token).

    Raises:
        ServiceError: ``unauthorized`` without a live session.
    """
    service: GameService = request.app.state.service
    user = await service.authenticate(_token(request))
    if user is None:
        raise ServiceError("unauthorized", "log in first", 401)
    return user


Auth = Annotated[User, Depends(current_user)]
"""A route argument that requires a logged-in user."""


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
    database = Database(settings.database)
    service = GameService(settings, database, clock=clock, bots=bots)
    say = progress or (lambda line: log.info(line))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if warm_up is not None and settings.warm_up and settings.bots:
            started = time.perf_counter()
            await asyncio.to_thread(warm_up, say)
            say(f"engine ready in {time.perf_counter() - started:.1f} s")
        await service.start(say)
        fibs = None
        if settings.fibs_port is not None:
            from backgammon.server.fibs.listener import FibsListener

            fibs = FibsListener(service, settings.fibs_host, settings.fibs_port)
            await fibs.start()
            say(f"FIBS clients: telnet {settings.fibs_host} {fibs.port}")
        # What start-up loaded (the engine, resumed matches) lives as long as the
        # process: keep it out of the cyclic collector's full passes, and collect the
        # young generation less often (the server makes many short-lived objects;
        # full passes over hundreds of live matches paused the event loop).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        say("ready: accepting connections")
        yield
        say("stopping: finishing writes")
        for jobs in reviews:
            jobs.close()
        for rollout_jobs in rollouts:
            rollout_jobs.close()
        if fibs is not None:
            await fibs.stop()
        await service.stop()
        say("stopped")

    app = FastAPI(
        title="backgammon server",
        version=__version__,
        lifespan=lifespan,
        description="Accounts, lobby, matches and downloads; live play over /ws.",
    )
    app.state.service = service
    app.add_middleware(
        BodySizeLimit, default=MAX_BODY_BYTES, by_path={"/api/analysis": MAX_UPLOAD_BYTES}
    )

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Request, error: ServiceError) -> JSONResponse:
        headers = None
        if error.retry_after is not None:
            headers = {"retry-after": str(max(1, math.ceil(error.retry_after)))}
        return JSONResponse(
            {"error": error.code, "message": error.message},
            status_code=error.status,
            headers=headers,
        )

    def _session_response(user: User, token: str, status: int = 200) -> JSONResponse:
        response = JSONResponse({"user": user.public(), "token": token}, status_code=status)
        response.set_cookie(
            COOKIE,
            token,
            max_age=settings.session_days * 86400,
            httponly=True,
            samesite="lax",
            secure=settings.secure_cookies,
        )
        return response

    accounts = APIRouter(prefix="/api", tags=["accounts"])

    @accounts.post("/register", status_code=201)
    async def register(body: Credentials, request: Request) -> JSONResponse:
        user, token = await service.register(body.name, body.password, address=_address(request))
        return _session_response(user, token, 201)

    @accounts.post("/login")
    async def login(body: Credentials, request: Request) -> JSONResponse:
        user, token = await service.login(body.name, body.password, _address(request))
        return _session_response(user, token)

    @accounts.post("/guest", status_code=201)
    async def guest(request: Request) -> JSONResponse:
        user, token = await service.guest(address=_address(request))
        return _session_response(user, token, 201)

    @accounts.post("/logout")
    async def logout(request: Request, response: Response) -> dict[str, bool]:
        token = _token(request)
        if token:
            await service.logout(token)
        response.delete_cookie(
            COOKIE, httponly=True, samesite="lax", secure=settings.secure_cookies
        )
        return {"ok": True}

    @accounts.get("/me")
    async def me(user: Auth) -> dict[str, Any]:
        return {**user.public(), "is_admin": user.is_admin, "muted": user.muted}

    @accounts.get("/version")
    async def version() -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "server": f"backgammon {__version__}"}

    lobby = APIRouter(prefix="/api", tags=["lobby"])

    @lobby.get("/lobby")
    async def get_lobby(user: Auth) -> dict[str, Any]:
        return await service.lobby(user)

    matches = APIRouter(prefix="/api/matches", tags=["matches"])

    @matches.post("", status_code=201)
    async def create(body: CreateMatch, user: Auth) -> dict[str, Any]:
        return await service.create_match(user, body)

    @matches.post("/commitment", status_code=201)
    async def dice_commitment(user: Auth) -> dict[str, str]:
        return await service.dice_commitment(user)

    @matches.post("/{match_id}/join")
    async def join(match_id: str, body: JoinMatch, user: Auth) -> dict[str, Any]:
        return await service.join_match(user, match_id, body.nonce)

    @matches.post("/{match_id}/decline")
    async def decline(match_id: str, user: Auth) -> dict[str, Any]:
        return await service.decline(user, match_id)

    @matches.post("/{match_id}/cancel")
    async def cancel(match_id: str, user: Auth) -> dict[str, Any]:
        return await service.cancel(user, match_id)

    @matches.post("/{match_id}/rematch", status_code=201)
    async def rematch(match_id: str, user: Auth, body: Rematch | None = None) -> dict[str, Any]:
        return await service.rematch(user, match_id, body)

    @matches.get("/{match_id}")
    async def get_match(match_id: str) -> dict[str, Any]:
        return await service.state(match_id)

    @matches.get("/{match_id}/record.{kind}")
    async def download(match_id: str, kind: str) -> Response:
        text = await service.download(match_id, kind)
        media = "application/json" if kind == "dice" else "text/plain; charset=utf-8"
        filename = f"{match_id}.{'json' if kind == 'dice' else kind}"
        return Response(
            text,
            media_type=media,
            headers={"content-disposition": f'attachment; filename="{filename}"'},
        )

    users = APIRouter(prefix="/api/users", tags=["users"])

    @users.get("/{name}")
    async def profile(name: str) -> dict[str, Any]:
        return await service.profile(name)

    admin = APIRouter(prefix="/api/admin", tags=["administration"])

    @admin.post("/users/{name}/{what}")
    async def moderate(name: str, what: str, user: Auth) -> dict[str, bool]:
        await service.moderate(user, name, what)
        return {"ok": True}

    tools = APIRouter(prefix="/api", tags=["tools"])

    @tools.post(
        "/position",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": PositionQuery.model_json_schema()}},
            }
        },
    )
    async def position(request: Request) -> dict[str, Any]:
        # Validated here (not by FastAPI) so that bad input is a 400 naming the field.
        body = await request.body()
        if len(body) > 4096:
            raise ServiceError("bad_request", "body: at most 4096 bytes")
        try:
            query = parse_position_query(body)
            read_position(query.position)
        except (ProtocolError, ValueError) as error:
            raise ServiceError("bad_request", str(error)) from None
        owner = await _owner(request)
        try:
            slot = position_quota.take(owner)
        except QuotaExceededError as error:
            raise _throttled(error) from None
        with slot:
            report: dict[str, Any] = await service.pool.run(
                position_report, query.position, query.roll, query.ply
            )
        return report

    position_quota = Quota("position evaluations", *POSITION_LIMITS)

    reviews: list[ReviewJobs] = []  # made on first use (it needs the pool)

    def _reviews() -> ReviewJobs:
        if not reviews:
            reviews.append(ReviewJobs(service.pool))
        return reviews[0]

    @tools.post(
        "/analysis",
        status_code=202,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": AnalysisUpload.model_json_schema()}},
            }
        },
    )
    async def upload_analysis(request: Request) -> JSONResponse:
        body = await request.body()
        if len(body) > MAX_UPLOAD_BYTES:
            raise ServiceError(
                "too_large", f"body: at most {MAX_UPLOAD_BYTES // 1_000_000} MB", 413
            )
        try:
            upload = parse_body(AnalysisUpload, body)
        except ProtocolError as error:  # a ply out of 0-2 is a 422, the rest a 400
            status = 422 if str(error).startswith("ply:") else 400
            raise ServiceError("bad_request", str(error), status) from None
        if (upload.text is None) == (upload.match is None):
            raise ServiceError("bad_request", "text: a match file's text, or a match id in match")
        text, name = upload.text, upload.name
        if upload.match is not None:  # a finished match played here, as a .mat file
            text, name = await service.finished_record(upload.match), f"{upload.match}.mat"
        assert text is not None
        jobs = _reviews()
        job = jobs.find(text, name, upload.ply)
        if job is None:
            owner = await _owner(request)
            try:
                job = await jobs.start(text, name, upload.ply, owner)
            except QuotaExceededError as error:
                raise _throttled(error) from None
            except ValueError as error:
                raise ServiceError("bad_request", f"text: {error}") from None
        answer = {"id": job.id, "ply": job.ply, "done": 0, "total": job.total}
        return JSONResponse(answer, status_code=202)

    @tools.get("/analysis/{job_id}")
    async def analysis_status(job_id: str) -> dict[str, Any]:
        status = _reviews().status(job_id)
        if status is None:
            raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
        return status

    @tools.get("/analysis/{job_id}/report.html")
    async def analysis_report(job_id: str) -> HTMLResponse:
        jobs = _reviews()
        if jobs.status(job_id) is None:
            raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
        report = jobs.report(job_id)
        if report is None:
            raise ServiceError("conflict", f"the analysis {job_id!r} is not done", 409)
        return HTMLResponse(
            report,
            headers={"content-disposition": f'attachment; filename="analysis-{job_id}.html"'},
        )

    rollouts: list[RolloutJobs] = []  # made on first use (it needs the pool)

    def _rollouts() -> RolloutJobs:
        if not rollouts:
            rollouts.append(RolloutJobs(service.pool))
        return rollouts[0]

    @tools.post(
        "/rollout",
        status_code=202,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": RolloutQuery.model_json_schema()}},
            }
        },
    )
    async def start_rollout(request: Request) -> JSONResponse:
        body = await request.body()
        if len(body) > 4096:
            raise ServiceError("bad_request", "body: at most 4096 bytes")
        try:
            query = parse_body(RolloutQuery, body)
            read_position(query.position)
        except (ProtocolError, ValueError) as error:
            raise ServiceError("bad_request", str(error)) from None
        owner = await _owner(request)
        try:
            job = await _rollouts().start(query, owner)
        except QuotaExceededError as error:
            raise _throttled(error) from None
        except ValueError as error:
            raise ServiceError("bad_request", str(error)) from None
        return JSONResponse({"id": job.id, "done": 0, "total": job.total}, status_code=202)

    @tools.get("/rollout/{job_id}")
    async def rollout_status(job_id: str) -> dict[str, Any]:
        status = _rollouts().status(job_id)
        if status is None:
            raise ServiceError("not_found", f"no rollout {job_id!r} (they are kept a while)", 404)
        return status

    @tools.delete("/rollout/{job_id}")
    async def cancel_rollout(job_id: str) -> dict[str, bool]:
        if not _rollouts().cancel(job_id):
            raise ServiceError("not_found", f"no rollout {job_id!r} (they are kept a while)", 404)
        return {"ok": True}

    operations = APIRouter(tags=["operations"])

    @operations.get("/healthz")
    async def healthz() -> JSONResponse:
        ready = service.ready
        return JSONResponse(
            {"ready": ready, "protocol": PROTOCOL_VERSION}, status_code=200 if ready else 503
        )

    @operations.get("/metrics")
    async def metrics() -> PlainTextResponse:
        return PlainTextResponse(_prometheus(service), media_type="text/plain; version=0.0.4")

    for router in (accounts, lobby, matches, users, admin, tools, operations):
        app.include_router(router, dependencies=[Depends(same_site_only)])

    # The web app (docs/web.md): static files, no build step. The page at /, its
    # modules and style sheet under /static.
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(
            WEB / "index.html",
            media_type="text/html; charset=utf-8",
            headers={"cache-control": "no-cache"},
        )

    app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.websocket("/ws")
    async def websocket_endpoint(websocket: WebSocket) -> None:
        await _serve_websocket(websocket, service, settings)

    return app


def _origin_allowed(connection: HTTPConnection, settings: Settings) -> bool:
    origin = connection.headers.get("origin")
    if origin is None:
        return True  # not a browser: bots and other programs
    if origin in settings.allowed_origins:
        return True
    host = connection.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


async def _serve_websocket(websocket: WebSocket, service: GameService, settings: Settings) -> None:
    """One client's live connection: authenticate, then read messages and write
    what the service publishes, until either side closes."""
    if not _origin_allowed(websocket, settings):
        log.warning("websocket refused: origin %r", websocket.headers.get("origin"))
        await websocket.close(code=4403, reason="origin not allowed")
        return
    since = service.moderation_epoch
    user = await service.authenticate(_token(websocket))
    if user is None:
        await websocket.close(code=4401, reason="log in first")
        return
    await websocket.accept()
    connection = Connection(user)
    service.connect(connection, since)
    writer = asyncio.create_task(_write(websocket, connection))
    limit = TokenBucket(settings.messages_per_second, settings.message_burst)
    try:
        while not connection.closed:
            received = await websocket.receive()
            if received["type"] == "websocket.disconnect":
                break
            data = received.get("text")
            if data is None:
                data = received.get("bytes") or b""
            if len(data) > settings.max_message_bytes:
                connection.send(
                    {
                        "type": "error",
                        "code": "too_large",
                        "message": f"a message has at most {settings.max_message_bytes} bytes",
                    }
                )
                connection.close()
                break
            if not limit.allow():
                refusal = {"type": "error", "code": "rate_limited", "ref": _ref_of(data)}
                if limit.flooding:
                    connection.send({**refusal, "message": "too many messages: disconnected"})
                    connection.close()
                    break
                connection.send({**refusal, "message": "too many messages: slow down"})
                continue
            await _handle(data, connection, service)
    except WebSocketDisconnect:
        pass
    finally:
        service.disconnect(connection)
        await writer


def _ref_of(data: str | bytes) -> str | None:
    """The ``ref`` of a message that will not be handled, if it has a usable one."""
    try:
        ref = json.loads(data).get("ref")
    except (ValueError, AttributeError, UnicodeDecodeError):
        return None
    return ref if isinstance(ref, str) and len(ref) <= 40 else None


async def _write(websocket: WebSocket, connection: Connection) -> None:
    try:
        while True:
            message = await connection.queue.get()
            if message is None:
                break
            await websocket.send_text(message.json())
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        connection.closed = True
        if websocket.application_state == WebSocketState.CONNECTED:
            try:
                code = 1009 if connection.overflowed else 1000
                await websocket.close(code=code)
            except (WebSocketDisconnect, RuntimeError, OSError):
                pass


async def _handle(data: str | bytes, connection: Connection, service: GameService) -> None:
    """Dispatch one client message; every failure answers an ``error``."""
    ref = None
    try:
        message = parse_client_message(data)
        ref = getattr(message, "ref", None)
        if isinstance(message, ActionMessage):
            seq = await service.act(connection.user, message.match, message.action, message.expect)
            connection.send({"type": "ack", "match": message.match, "seq": seq, "ref": ref})
        elif isinstance(message, SubscribeMessage):
            await service.subscribe(connection, message.match)
        elif isinstance(message, UnsubscribeMessage):
            service.hub.leave(connection, message.match)
        elif isinstance(message, ChatMessage):
            await service.chat(connection.user, message.room, message.text)
        elif isinstance(message, TellMessage):
            await service.tell(connection.user, message.to, message.text)
        elif isinstance(message, PingMessage):
            connection.send({"type": "pong", "ref": ref})
    except ProtocolError as error:
        connection.send(
            {"type": "error", "code": "bad_message", "message": str(error), "ref": _ref_of(data)}
        )
    except ServiceError as error:
        connection.send({"type": "error", "code": error.code, "message": error.message, "ref": ref})


def _prometheus(service: GameService) -> str:
    metrics = service.metrics
    lines = [
        "# HELP backgammon_connections Open WebSocket connections in this process.",
        "# TYPE backgammon_connections gauge",
        f"backgammon_connections {service.hub.connection_count}",
        "# HELP backgammon_live_matches Matches held in memory by this process.",
        "# TYPE backgammon_live_matches gauge",
        f"backgammon_live_matches {service.live_count}",
        "# HELP backgammon_actions_total Log entries committed (player and server actions).",
        "# TYPE backgammon_actions_total counter",
        f"backgammon_actions_total {metrics.actions}",
        "# HELP backgammon_refused_total Actions refused.",
        "# TYPE backgammon_refused_total counter",
        f"backgammon_refused_total {metrics.refused}",
        "# HELP backgammon_matches_started_total Matches started.",
        "# TYPE backgammon_matches_started_total counter",
        f"backgammon_matches_started_total {metrics.matches_started}",
        "# HELP backgammon_matches_finished_total Matches finished.",
        "# TYPE backgammon_matches_finished_total counter",
        f"backgammon_matches_finished_total {metrics.matches_finished}",
    ]
    lines += _histogram(
        "backgammon_commit_seconds", "Time to commit an action to the database.", metrics.commit
    )
    lines += _histogram(
        "backgammon_action_seconds",
        "Time from an action's receipt to its new state published to the match's subscribers.",
        metrics.action,
    )
    return "\n".join(lines) + "\n"


def _histogram(name: str, description: str, histogram: Histogram) -> list[str]:
    """A histogram in Prometheus's text format."""
    lines = [f"# HELP {name} {description}", f"# TYPE {name} histogram"]
    for bound, count in histogram.cumulative():
        lines.append(f'{name}_bucket{{le="{bound}"}} {count}')
    lines += [
        f'{name}_bucket{{le="+Inf"}} {histogram.count}',
        f"{name}_sum {histogram.total:.6f}",
        f"{name}_count {histogram.count}",
    ]
    return lines
