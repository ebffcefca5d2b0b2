"""Analysis: jobs that analyse a match file (uploaded, or a finished match played
here), their progress, their cancelling, and their HTML reports."""

from __future__ import annotations

import base64
import binascii

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from backgammon.server.bots.pool import WorkerDiedError
from backgammon.server.protocol import AnalysisUpload, ProtocolError, parse_body
from backgammon.server.service import ServiceError
from backgammon.server.tools.quotas import QuotaExceededError
from backgammon.server.web.routes.dependencies import Service, request_owner, throttled
from backgammon.server.web.routes.state import review_jobs

__all__ = ["MAX_FILE_BYTES", "MAX_UPLOAD_BYTES", "router"]

MAX_UPLOAD_BYTES = 1_400_000
"""The largest ``POST /api/analysis`` body (a million characters of match file and
its JSON quoting, or a million bytes in base64)."""
MAX_FILE_BYTES = 1_000_000
"""The largest uploaded file's bytes (``data``, decoded)."""

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
    given = [part for part in (upload.text, upload.data, upload.match) if part is not None]
    if len(given) != 1:
        raise ServiceError(
            "bad_request", "text: a match file's text, its bytes in data, or a match id in match"
        )
    text: str | bytes | None = upload.text
    name = upload.name
    if upload.data is not None:
        text = _decoded(upload.data)
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
        except WorkerDiedError as error:
            raise ServiceError("busy", f"{error}: try again", 503, retry_after=5) from None
        except ValueError as error:
            message, detail = _unreadable(upload, error)
            raise ServiceError("bad_request", message, detail=detail) from None
    answer = {"id": job.id, "ply": job.ply, "done": 0, "total": job.total}
    return JSONResponse(answer, status_code=202)


def _unreadable(upload: AnalysisUpload, error: ValueError) -> tuple[str, str | None]:
    """What is said of an upload no reader takes: for a text upload the reader's words
    (they quote the line); for a file sent as its bytes (an eXtreme Gammon or OGXM file)
    a plain sentence, the reader's words apart (``detail``: "not a whole number of
    2560-byte records" means nothing to a player)."""
    if upload.data is None:
        return f"text: {error}", None
    sentence = (
        f"data: {upload.name or 'the file'} cannot be read as a match; it may be damaged, "
        "cut short, or another kind of file"
    )
    return sentence, str(error)


def _decoded(data: str) -> bytes:
    """The bytes of an upload's base64 ``data``.

    Raises:
        ServiceError: not base64 (400), or over :data:`MAX_FILE_BYTES` (413).
    """
    try:
        content = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ServiceError("bad_request", "data: not base64 (a file's bytes)") from None
    if len(content) > MAX_FILE_BYTES:
        raise ServiceError("too_large", f"data: at most {MAX_FILE_BYTES // 1_000_000} MB", 413)
    return content


@router.get("/analysis/{job_id}")
async def analysis_status(job_id: str, request: Request) -> Response:
    """A job's progress, or its whole summary once done. A done job's answer carries
    an ``ETag``: a poll naming it in ``If-None-Match`` gets 304 with no body (a long
    match's summary is tens of MB), as a browser's revalidation does by itself."""
    jobs = review_jobs(request)
    status = jobs.status_json(job_id)
    if status is None:
        raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
    tag = jobs.done_tag(job_id)
    if tag is None:
        return Response(status, media_type="application/json")
    cached = {"ETag": tag, "Cache-Control": "no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=cached)
    return Response(status, media_type="application/json", headers=cached)


@router.delete("/analysis/{job_id}")
async def cancel_analysis(job_id: str, request: Request) -> dict[str, bool]:
    jobs = review_jobs(request)
    started_by = jobs.owner_of(job_id)
    if started_by is None:
        raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
    if started_by != await request_owner(request):
        raise ServiceError("forbidden", "only who started an analysis may cancel it", 403)
    jobs.cancel(job_id)
    return {"ok": True}


@router.get("/analysis/{job_id}/report.html")
async def analysis_report(job_id: str, request: Request) -> HTMLResponse:
    jobs = review_jobs(request)
    if not jobs.known(job_id):
        raise ServiceError("not_found", f"no analysis {job_id!r} (they are kept a while)", 404)
    report = jobs.report(job_id)
    if report is None:
        raise ServiceError("conflict", f"the analysis {job_id!r} is not done", 409)
    return HTMLResponse(
        report,
        headers={"content-disposition": f'attachment; filename="analysis-{job_id}.html"'},
    )
