"""The position tool: one position's evaluation (its plays for a roll, or its cube
decision), computed in the engine's pool."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from backgammon.server.bots.pool import WorkerDiedError
from backgammon.server.protocol import PositionQuery, ProtocolError, parse_position_query
from backgammon.server.service import ServiceError
from backgammon.server.tools.engine_tools import position_report, read_position
from backgammon.server.tools.quotas import QuotaExceededError
from backgammon.server.web.routes.dependencies import Service, request_owner, throttled
from backgammon.server.web.routes.state import position_quota

__all__ = ["MAX_QUERY_BYTES", "router"]

MAX_QUERY_BYTES = 4096
"""The largest position query (and rollout query)."""

router = APIRouter(prefix="/api", tags=["tools"])


@router.post(
    "/position",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": PositionQuery.model_json_schema()}},
        }
    },
)
async def position(request: Request, service: Service) -> dict[str, Any]:
    # Validated here (not by FastAPI) so that bad input is a 400 naming the field.
    body = await request.body()
    if len(body) > MAX_QUERY_BYTES:
        raise ServiceError("bad_request", f"body: at most {MAX_QUERY_BYTES} bytes")
    try:
        query = parse_position_query(body)
        read_position(query.position)
    except (ProtocolError, ValueError) as error:
        raise ServiceError("bad_request", str(error)) from None
    owner = await request_owner(request)
    try:
        slot = position_quota(request).take(owner)
    except QuotaExceededError as error:
        raise throttled(error) from None
    with slot:
        try:
            report: dict[str, Any] = await service.pool.run(
                position_report, query.position, query.roll, query.ply
            )
        except WorkerDiedError as error:
            raise ServiceError("busy", f"{error}: try again", 503, retry_after=5) from None
    return report
