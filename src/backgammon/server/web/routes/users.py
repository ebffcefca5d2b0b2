"""Users: a player's public profile and match history."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

from fastapi import APIRouter, Query

from backgammon.server.matches.history import MAX_PER_PAGE, HistoryFilter, HistoryResult
from backgammon.server.service import ServiceError
from backgammon.server.web.routes.dependencies import Service

__all__ = ["router"]

router = APIRouter(prefix="/api/users", tags=["users"])

FIRST_DAY = date(2000, 1, 1)
"""The earliest ``since`` or ``until`` of a match history."""
LAST_DAY = date(9998, 12, 31)
"""The latest ``since`` or ``until`` (the day after it is still a ``date``)."""


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
    for field, day in (("since", since), ("until", until)):
        if day is not None and not FIRST_DAY <= day <= LAST_DAY:
            # 9999-12-31 was a 500: the day after it is beyond ``date``.
            raise ServiceError(
                "bad_request", f"{field}: a day from {FIRST_DAY} to {LAST_DAY}, got {day}", 422
            )
    if since is not None and until is not None and until < since:
        raise ServiceError("bad_request", f"until: {until} is before since ({since})", 422)
    wanted = HistoryFilter(
        result=result, length=length, since=since, until=until, page=page, per_page=per_page
    )
    return await service.match_history(name, wanted, opponent)
