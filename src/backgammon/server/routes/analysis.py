"""Analysis: jobs that analyse a match file (uploaded, or a finished match played
here), their progress, and their HTML reports."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from backgammon.server.protocol import AnalysisUpload, ProtocolError, parse_body
from backgammon.server.quotas import QuotaExceededError
from backgammon.server.routes.dependencies import Service, request_owner, throttled
from backgammon.server.routes.state import review_jobs
from backgammon.server.service import ServiceError

__all__ = ["MAX_UPLOAD_BYTES", "router"]

MAX_UPLOAD_BYTES = 1_100_000
"""The largest ``POST /api/analysis`` body (a million characters of match file and
its JSON quoting)."""

router = APIRouter(prefix="/api", tags=["tools"])


@router.post(
    "/analysis",
    status_code=202,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": AnalysisUpload.model_json_schema()}},
        }
    },
)
async def upload_analysis(request: Request, service: Service) -> JSONResponse:
    body = await request.body()
    if len(body) > MAX_UPLOAD_BYTES:
        raise ServiceError("too_large", f"body: at most {MAX_UPLOAD_BYTES // 1_000_000} MB", 413)
    try:
        upload = parse_body(AnalysisUpload, body)
    except ProtocolError as error:  # a ply out of 0-2 is a 422, the rest a 400
        status = 422 if str(error).startswith("ply:") else 400
        raise ServiceError("bad_request", str(error), status) from None
    if (upload.text is None) == (upload.match is None):
        raise ServiceError("bad_request", "text: a match file's text, or a match id in match")
    text, name = upload.text, upload.name
    if upload.match is not None:  # a finished match played here, as a .mat file
        text, name = await service.finished_record(upload.match), f"{upload.match}.mat"
    assert text is not None
    jobs = review_jobs(request)
    job = jobs.find(text, name, upload.ply)
    if job is None:
        owner = await request_owner(request)
        try:
            job = await jobs.start(text, name, upload.ply, owner)
        except QuotaExceededError as error:
            raise throttled(error) from None
        except ValueError as error:
            raise ServiceError("bad_request", f"text: {error}") from None
    answer = {"id": job.id, "ply": job.ply, "done": 0, "total": job.total}
    return JSONResponse(answer, status_code=202)


@router.get("/analysis/{job_id}")
async def analysis_status(job_id: str, request: Request) -> dict[str, Any]:
    status = review_jobs(request).status(job_id)
    if status is None:
        raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
    return status


@router.get("/analysis/{job_id}/report.html")
async def analysis_report(job_id: str, request: Request) -> HTMLResponse:
    jobs = review_jobs(request)
    if jobs.status(job_id) is None:
        raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
    report = jobs.report(job_id)
    if report is None:
        raise ServiceError("conflict", f"the analysis {job_id!r} is not done", 409)
    return HTMLResponse(
        report,
        headers={"content-disposition": f'attachment; filename="analysis-{job_id}.html"'},
    )
