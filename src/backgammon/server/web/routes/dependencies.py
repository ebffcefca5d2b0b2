"""What the routes take from a request: the game service, who is asking (a session
cookie or a bearer token, the client's address), and whether a browser's request
came from this site's own pages.

Browsers authenticate with an HttpOnly, SameSite cookie; bots send
``Authorization: Bearer``. A state-changing request without a bearer token must come
from the site's own pages (its ``Origin`` and ``Sec-Fetch-Site`` say so), so that
another site cannot make a visitor's browser act with the visitor's cookie.
"""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from backgammon.server.accounts import throttle
from backgammon.server.db.repository import User
from backgammon.server.service import GameService, ServiceError
from backgammon.server.settings import Settings
from backgammon.server.tools.quotas import QuotaExceededError
from backgammon.server.web.routes.state import service_of

__all__ = [
    "COOKIE",
    "Auth",
    "Service",
    "client_address",
    "current_user",
    "origin_allowed",
    "request_owner",
    "same_site_only",
    "session_token",
    "throttled",
]

COOKIE = "bg_session"
"""The session cookie's name."""

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

log = logging.getLogger("backgammon.server")


def session_token(connection: HTTPConnection) -> str | None:
    """The session token a request carries: its bearer token, else its cookie."""
    header = connection.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return connection.cookies.get(COOKIE)


def client_address(connection: HTTPConnection) -> str:
    """The client's address."""
    # uvicorn has already put the proxy's X-Forwarded-For here when the proxy is
    # trusted (``serve --forwarded-allow-ips``).
    return connection.client.host if connection.client is not None else "unknown"


Service = Annotated[GameService, Depends(service_of)]
"""A route argument: the application's game service."""


async def current_user(request: Request) -> User:
    """The logged-in user of a request (cookie or bearer token).

    Raises:
        ServiceError: ``unauthorized`` without a live session.
    """
    user = await service_of(request).authenticate(session_token(request))
    if user is None:
        raise ServiceError("unauthorized", "log in first", 401)
    return user


Auth = Annotated[User, Depends(current_user)]
"""A route argument that requires a logged-in user."""


async def request_owner(request: Request) -> str:
    """Whom engine work is counted against: the logged-in user, else the address
    (an IPv6 address by its /64, one subscriber's allocation)."""
    user = await service_of(request).authenticate(session_token(request))
    if user is not None:
        return f"user:{user.id}"
    return f"address:{throttle.client_address(client_address(request))}"


def throttled(error: QuotaExceededError) -> ServiceError:
    """A quota's refusal as a ``throttled`` (429) error."""
    return ServiceError("throttled", str(error), 429)


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
    settings = service_of(request).settings
    origin = request.headers.get("origin")
    fetch_site = request.headers.get("sec-fetch-site")
    if origin is not None:
        allowed = origin_allowed(request, settings)
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


def origin_allowed(connection: HTTPConnection, settings: Settings) -> bool:
    """Whether the ``Origin`` of a request may act here: none (not a browser), one of
    ``settings.allowed_origins``, or the site's own host."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True  # not a browser: bots and other programs
    if origin in settings.allowed_origins:
        return True
    host = connection.headers.get("host", "")
    return origin.split("://", 1)[-1] == host
