"""Matches: create, join, give a seated match's nonce, decline, cancel and rematch;
a match's state and its records (the match file, the dice's proof)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from backgammon.server.protocol import CreateMatch, GiveNonce, JoinMatch, Rematch
from backgammon.server.web.routes.dependencies import Auth, Service, client_address, session_token

__all__ = ["router"]

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.post("", status_code=201)
async def create(
    body: CreateMatch, user: Auth, service: Service, request: Request
) -> dict[str, Any]:
    return await service.create_match(user, body, address=client_address(request))


@router.post("/commitment", status_code=201)
async def dice_commitment(user: Auth, service: Service) -> dict[str, str]:
    return await service.dice_commitment(user)


@router.post("/{match_id}/join")
async def join(match_id: str, body: JoinMatch, user: Auth, service: Service) -> dict[str, Any]:
    return await service.join_match(user, match_id, body.nonce)


@router.post("/{match_id}/nonce")
async def give_nonce(
    match_id: str, body: GiveNonce, user: Auth, service: Service
) -> dict[str, Any]:
    return await service.give_nonce(user, match_id, body.nonce)


@router.post("/{match_id}/decline")
async def decline(match_id: str, user: Auth, service: Service) -> dict[str, Any]:
    return await service.decline(user, match_id)


@router.post("/{match_id}/cancel")
async def cancel(match_id: str, user: Auth, service: Service) -> dict[str, Any]:
    return await service.cancel(user, match_id)


@router.post("/{match_id}/rematch", status_code=201)
async def rematch(
    match_id: str, user: Auth, service: Service, request: Request, body: Rematch | None = None
) -> dict[str, Any]:
    return await service.rematch(user, match_id, body, address=client_address(request))


@router.get("/{match_id}")
async def get_match(match_id: str, request: Request, service: Service) -> dict[str, Any]:
    """The match's state: anyone may see a started match; an open one (an
    invitation, a match waiting for its opponent) only a logged-in user."""
    viewer = await service.authenticate(session_token(request))
    return await service.state(match_id, anonymous=viewer is None)


@router.get("/{match_id}/record.{kind}")
async def download(match_id: str, kind: str, service: Service) -> Response:
    text = await service.download(match_id, kind)
    media = "application/json" if kind == "dice" else "text/plain; charset=utf-8"
    if isinstance(text, bytes):  # an OGXM file
        media = "application/octet-stream"
    filename = f"{match_id}.{'json' if kind == 'dice' else kind}"
    return Response(
        text,
        media_type=media,
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )
