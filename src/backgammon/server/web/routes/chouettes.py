"""Chouette tables: list, open, one table, its chat's last lines, sit down (with a
dice nonce), give a dice nonce, leave, seat a bot, start, close, the session's record
and its dice record. Acting in a session is a
``chouette`` WebSocket message; the rules (who may do what, and when) are the
chouette service's."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import PlainTextResponse
from starlette.requests import HTTPConnection

from backgammon.server.chouettes.service import (
    AddBot,
    ChouetteNonce,
    ChouetteService,
    CreateChouette,
)
from backgammon.server.web.routes.dependencies import Auth

__all__ = ["chouettes_of", "router"]

router = APIRouter(prefix="/api/chouettes", tags=["chouettes"])


def chouettes_of(connection: HTTPConnection) -> ChouetteService:
    """The application's chouette service."""
    service: ChouetteService = connection.app.state.chouettes
    return service


Chouettes = Annotated[ChouetteService, Depends(chouettes_of)]


@router.get("")
async def listing(service: Chouettes) -> dict[str, Any]:
    return {"tables": await service.listing()}


@router.post("", status_code=201)
async def create(body: CreateChouette, user: Auth, service: Chouettes) -> dict[str, Any]:
    return await service.create(user, body)


@router.get("/{table_id}")
async def get_one(table_id: str, service: Chouettes) -> dict[str, Any]:
    return await service.view(table_id)


@router.get("/{table_id}/record", response_class=PlainTextResponse)
async def record(table_id: str, service: Chouettes) -> str:
    return await service.record(table_id)


@router.get("/{table_id}/chat")
async def chat(table_id: str, user: Auth, service: Chouettes) -> dict[str, Any]:
    return {"lines": await service.chat_history(user, table_id)}


@router.get("/{table_id}/record.dice")
async def dice_record(table_id: str, service: Chouettes) -> dict[str, Any]:
    return await service.dice_record(table_id)


@router.post("/{table_id}/sit")
async def sit(
    table_id: str, user: Auth, service: Chouettes, body: ChouetteNonce | None = None
) -> dict[str, Any]:
    return await service.sit(user, table_id, "" if body is None else body.nonce)


@router.post("/{table_id}/nonce")
async def give_nonce(
    table_id: str, body: ChouetteNonce, user: Auth, service: Chouettes
) -> dict[str, Any]:
    return await service.give_nonce(user, table_id, body.nonce)


@router.post("/{table_id}/leave")
async def leave(
    table_id: str,
    user: Auth,
    service: Chouettes,
    name: Annotated[str | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    return await service.leave(user, table_id, name)


@router.post("/{table_id}/bots")
async def add_bot(table_id: str, body: AddBot, user: Auth, service: Chouettes) -> dict[str, Any]:
    return await service.add_bot(user, table_id, body.level)


@router.post("/{table_id}/start")
async def start(table_id: str, user: Auth, service: Chouettes) -> dict[str, Any]:
    return await service.start(user, table_id)


@router.post("/{table_id}/close")
async def close(table_id: str, user: Auth, service: Chouettes) -> dict[str, Any]:
    return await service.close_table(user, table_id)
