"""Users: a player's public profile and match history."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query

from backgammon.server.history import MAX_PER_PAGE, HistoryFilter, HistoryResult
from backgammon.server.routes.dependencies import Service
from backgammon.server.service import ServiceError

__all__ = ["router"]

router = APIRouter(prefix="/api/users", tags=["users"])


@router.get("/{name}")
async def profile(name: str, service: Service) -> dict[str, Any]:
    return await service.profile(name)


@router.get("/{name}/matches")
async def match_history(
    name: str,
    service: Service,
    opponent: Annotated[
        str | None, Query(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_:-]+$")
    ] = None,
    result: HistoryResult | None = None,
    length: Annotated[int | None, Query(ge=0, le=64, description="0: money")] = None,
    since: Annotated[date | None, Query(description="YYYY-MM-DD, from that day (UTC)")] = None,
    until: Annotated[date | None, Query(description="YYYY-MM-DD, to that day (UTC)")] = None,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=MAX_PER_PAGE)] = 20,
) -> dict[str, Any]:
    """A page of a player's matches, newest first; bad parameters get a 422 naming them."""
    if since is not None and until is not None and until < since:
        raise ServiceError("bad_request", f"until: {until} is before since ({since})", 422)
    wanted = HistoryFilter(
        result=result, length=length, since=since, until=until, page=page, per_page=per_page
    )
    return await service.match_history(name, wanted, opponent)
