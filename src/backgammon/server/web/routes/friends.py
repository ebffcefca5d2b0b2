"""Friends: the logged-in user's own friends list (nobody else's is reachable)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from backgammon.server.web.routes.dependencies import Auth, Service

__all__ = ["router"]

router = APIRouter(prefix="/api/friends", tags=["friends"])


@router.get("")
async def list_friends(user: Auth, service: Service) -> list[dict[str, Any]]:
    return await service.friends(user)


@router.put("/{name}")
async def add_friend(name: str, user: Auth, service: Service) -> list[dict[str, Any]]:
    return await service.add_friend(user, name)


@router.delete("/{name}")
async def remove_friend(name: str, user: Auth, service: Service) -> list[dict[str, Any]]:
    return await service.remove_friend(user, name)
