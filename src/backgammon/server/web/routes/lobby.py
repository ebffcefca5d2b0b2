"""The lobby: a logged-in user's view of the site, and what anyone may see of it
(``/api/live``: the landing page's matches to watch)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from backgammon.server.web.routes.dependencies import Auth, Service

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["lobby"])


@router.get("/lobby")
async def get_lobby(user: Auth, service: Service) -> dict[str, Any]:
    return await service.lobby(user)


@router.get("/live")
async def get_live(service: Service) -> dict[str, Any]:
    return await service.lobby_service.live()
