"""Administration: moderating a user, closing a chouette table, cancelling a
tournament (the services check that the caller may, and tell the people concerned)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from backgammon.server.web.routes.chouettes import Chouettes
from backgammon.server.web.routes.dependencies import Auth, Service
from backgammon.server.web.routes.tournaments import Tournaments

__all__ = ["router"]

router = APIRouter(prefix="/api/admin", tags=["administration"])


@router.post("/users/{name}/{what}")
async def moderate(name: str, what: str, user: Auth, service: Service) -> dict[str, bool]:
    await service.moderate(user, name, what)
    return {"ok": True}


@router.post("/chouettes/{table_id}/close")
async def close_table(table_id: str, user: Auth, chouettes: Chouettes) -> dict[str, Any]:
    return await chouettes.close_table(user, table_id, as_admin=True)


@router.post("/tournaments/{tournament_id}/cancel")
async def cancel_tournament(
    tournament_id: str, user: Auth, tournaments: Tournaments
) -> dict[str, Any]:
    return await tournaments.cancel(user, tournament_id, as_admin=True)
