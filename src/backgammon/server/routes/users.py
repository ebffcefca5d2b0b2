"""Users: a player's public profile."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from backgammon.server.routes.dependencies import Service

__all__ = ["router"]

router = APIRouter(prefix="/api/users", tags=["users"])


@router.get("/{name}")
async def profile(name: str, service: Service) -> dict[str, Any]:
    return await service.profile(name)
