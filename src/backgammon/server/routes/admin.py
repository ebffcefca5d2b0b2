"""Administration: moderating a user (the service checks that the caller may)."""

from __future__ import annotations

from fastapi import APIRouter

from backgammon.server.routes.dependencies import Auth, Service

__all__ = ["router"]

router = APIRouter(prefix="/api/admin", tags=["administration"])


@router.post("/users/{name}/{what}")
async def moderate(name: str, what: str, user: Auth, service: Service) -> dict[str, bool]:
    await service.moderate(user, name, what)
    return {"ok": True}
