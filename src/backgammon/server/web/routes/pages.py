"""The web app's page (docs/web.md): static files, no build step. The page is at
``/``; its modules and style sheet, :data:`WEB`, are mounted under ``/static``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

__all__ = ["WEB", "router"]

WEB = Path(__file__).parent.parent
"""The web app's static files (``index.html``, ES modules, a style sheet)."""

router = APIRouter()


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(
        WEB / "index.html",
        media_type="text/html; charset=utf-8",
        headers={"cache-control": "no-cache"},
    )


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page() -> FileResponse:
    return FileResponse(
        WEB / "tournaments.html",
        media_type="text/html; charset=utf-8",
        headers={"cache-control": "no-cache"},
    )


@router.get("/chouettes", include_in_schema=False)
async def chouettes_page() -> FileResponse:
    return FileResponse(
        WEB / "chouettes.html",
        media_type="text/html; charset=utf-8",
        headers={"cache-control": "no-cache"},
    )
