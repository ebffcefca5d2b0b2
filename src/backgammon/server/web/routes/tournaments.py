"""Tournaments: list, create, one tournament, register, withdraw, enter a bot, start,
pause and resume, cancel.
The rules (who may do what, and when) are the tournament service's."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from starlette.requests import HTTPConnection

from backgammon.server.tournaments.service import CreateTournament, EnterBot, TournamentService
from backgammon.server.web.routes.dependencies import Auth, session_token
from backgammon.server.web.routes.state import service_of

__all__ = ["router"]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])


def tournaments_of(connection: HTTPConnection) -> TournamentService:
    """The application's tournament service."""
    service: TournamentService = connection.app.state.tournaments
    return service


Tournaments = Annotated[TournamentService, Depends(tournaments_of)]


@router.get("")
async def listing(
    service: Tournaments,
    status: Annotated[Literal["open", "running", "finished", "cancelled"] | None, Query()] = None,
) -> dict[str, Any]:
    return {"tournaments": await service.listing(status)}


@router.post("", status_code=201)
async def create(body: CreateTournament, user: Auth, service: Tournaments) -> dict[str, Any]:
    return await service.create(user, body)


@router.get("/{tournament_id}")
async def get_one(tournament_id: str, request: Request, service: Tournaments) -> dict[str, Any]:
    view = await service.view(tournament_id)
    user = await service_of(request).authenticate(session_token(request))
    if user is not None:  # a person on the page is present at the start
        service.note_seen(tournament_id, user)
    return view


@router.post("/{tournament_id}/register")
async def register(tournament_id: str, user: Auth, service: Tournaments) -> dict[str, Any]:
    return await service.register(user, tournament_id)


@router.post("/{tournament_id}/withdraw")
async def withdraw(
    tournament_id: str,
    user: Auth,
    service: Tournaments,
    name: Annotated[str | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    return await service.withdraw(user, tournament_id, name)


@router.post("/{tournament_id}/bots")
async def enter_bot(
    tournament_id: str, body: EnterBot, user: Auth, service: Tournaments
) -> dict[str, Any]:
    return await service.enter_bot(user, tournament_id, body.level)


@router.post("/{tournament_id}/pause")
async def pause(tournament_id: str, user: Auth, service: Tournaments) -> dict[str, Any]:
    return await service.pause(user, tournament_id, paused=True)


@router.post("/{tournament_id}/resume")
async def resume(tournament_id: str, user: Auth, service: Tournaments) -> dict[str, Any]:
    return await service.pause(user, tournament_id, paused=False)


@router.post("/{tournament_id}/cancel")
async def cancel(tournament_id: str, user: Auth, service: Tournaments) -> dict[str, Any]:
    return await service.cancel(user, tournament_id)


@router.post("/{tournament_id}/start")
async def start(tournament_id: str, user: Auth, service: Tournaments) -> dict[str, Any]:
    return await service.start(user, tournament_id)
