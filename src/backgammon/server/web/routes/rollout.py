"""The position tool's rollouts: start one, follow its progress, cancel it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from backgammon.server.protocol import ProtocolError, parse_body
from backgammon.server.service import ServiceError
from backgammon.server.tools.engine_tools import read_position
from backgammon.server.tools.quotas import QuotaExceededError
from backgammon.server.tools.rollouts import RolloutQuery
from backgammon.server.web.routes.dependencies import request_owner, throttled
from backgammon.server.web.routes.position import MAX_QUERY_BYTES
from backgammon.server.web.routes.state import rollout_jobs

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["tools"])


@router.post(
    "/rollout",
    status_code=202,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": RolloutQuery.model_json_schema()}},
        }
    },
)
async def start_rollout(request: Request) -> JSONResponse:
    body = await request.body()
    if len(body) > MAX_QUERY_BYTES:
        raise ServiceError("bad_request", f"body: at most {MAX_QUERY_BYTES} bytes")
    try:
        query = parse_body(RolloutQuery, body)
        read_position(query.position)
    except (ProtocolError, ValueError) as error:
        raise ServiceError("bad_request", str(error)) from None
    owner = await request_owner(request)
    try:
        job = await rollout_jobs(request).start(query, owner)
    except QuotaExceededError as error:
        raise throttled(error) from None
    except ValueError as error:
        raise ServiceError("bad_request", str(error)) from None
    return JSONResponse({"id": job.id, "done": 0, "total": job.total}, status_code=202)


@router.get("/rollout/{job_id}")
async def rollout_status(job_id: str, request: Request) -> dict[str, Any]:
    status = rollout_jobs(request).status(job_id)
    if status is None:
        raise ServiceError("not_found", f"no rollout {job_id!r} (they are kept a while)", 404)
    return status


@router.delete("/rollout/{job_id}")
async def cancel_rollout(job_id: str, request: Request) -> dict[str, bool]:
    jobs = rollout_jobs(request)
    started_by = jobs.owner_of(job_id)
    if started_by is None:
        raise ServiceError("not_found", f"no rollout {job_id!r} (they are kept a while)", 404)
    if started_by != await request_owner(request):
        raise ServiceError("forbidden", "only who started a rollout may cancel it", 403)
    jobs.cancel(job_id)
    return {"ok": True}
