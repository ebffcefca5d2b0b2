"""Accounts: register, log in (or play as a guest), log out, who am I; the
protocol's version. A session is a cookie for browsers and a token for programs."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from backgammon import __version__
from backgammon.server.db.repository import User
from backgammon.server.protocol import PROTOCOL_VERSION, Credentials
from backgammon.server.settings import Settings
from backgammon.server.web.routes.dependencies import (
    COOKIE,
    Auth,
    Service,
    client_address,
    session_token,
)

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["accounts"])


def _session_response(
    user: User, token: str, settings: Settings, status: int = 200
) -> JSONResponse:
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


@router.post("/register", status_code=201)
async def register(body: Credentials, request: Request, service: Service) -> JSONResponse:
    user, token = await service.register(body.name, body.password, address=client_address(request))
    return _session_response(user, token, service.settings, 201)


@router.post("/login")
async def login(body: Credentials, request: Request, service: Service) -> JSONResponse:
    user, token = await service.login(body.name, body.password, client_address(request))
    return _session_response(user, token, service.settings)


@router.post("/guest", status_code=201)
async def guest(request: Request, service: Service) -> JSONResponse:
    user, token = await service.guest(address=client_address(request))
    return _session_response(user, token, service.settings, 201)


@router.post("/logout")
async def logout(request: Request, response: Response, service: Service) -> dict[str, bool]:
    token = session_token(request)
    if token:
        await service.logout(token)
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=service.settings.secure_cookies
    )
    return {"ok": True}


@router.get("/me")
async def me(user: Auth) -> dict[str, Any]:
    return {**user.public(), "is_admin": user.is_admin, "muted": user.muted}


@router.get("/version")
async def version() -> dict[str, Any]:
    return {"protocol": PROTOCOL_VERSION, "server": f"backgammon {__version__}"}
