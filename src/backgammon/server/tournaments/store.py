"""The tournament tables' queries: events, registrations, and the match of each
pairing (see :mod:`backgammon.server.tournaments.service` for the rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from backgammon.server.db.tables import (
    matches,
    tournament_matches,
    tournament_players,
    tournaments,
    users,
)

__all__ = [
    "TournamentRow",
    "WaitingPairing",
    "add_player",
    "count_live_by_organiser",
    "create_tournament",
    "link_match",
    "list_tournaments",
    "match_links",
    "pairings_waiting_for",
    "players_of",
    "remove_player",
    "tournament_ids",
    "tournament_of_match",
    "tournament_row",
    "update_tournament",
]


@dataclass(frozen=True, slots=True)
class WaitingPairing:
    """A person's tournament match stored and told, still waiting for their dice nonce."""

    tournament_id: str
    tournament_name: str
    round: int
    match_id: str
    opponent_id: int
    commitment: str
    created_at: float


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament's stored row."""

    id: str
    name: str
    format: str
    organiser: int
    created_at: float
    starts_at: float | None
    status: str
    settings: dict[str, Any]
    state: dict[str, Any] | None


async def create_tournament(connection: AsyncConnection, **values: Any) -> None:
    """Insert a tournament row."""
    await connection.execute(insert(tournaments).values(**values))


async def tournament_row(connection: AsyncConnection, tournament_id: str) -> TournamentRow | None:
    """A tournament's row, or None."""
    query = select(tournaments).where(tournaments.c.id == tournament_id)
    row = (await connection.execute(query)).first()
    return None if row is None else TournamentRow(**row._asdict())


async def update_tournament(connection: AsyncConnection, tournament_id: str, **values: Any) -> None:
    """Change a tournament's row."""
    query = update(tournaments).where(tournaments.c.id == tournament_id).values(**values)
    await connection.execute(query)


async def list_tournaments(
    connection: AsyncConnection,
    status: str | None = None,
    limit: int = 100,
    format: str | None = None,
) -> list[TournamentRow]:
    """Tournaments, newest first, of one status or all (of one format or all)."""
    query = select(tournaments).order_by(tournaments.c.created_at.desc()).limit(limit)
    if status is not None:
        query = query.where(tournaments.c.status == status)
    if format is not None:
        query = query.where(tournaments.c.format == format)
    return [TournamentRow(**row._asdict()) for row in await connection.execute(query)]


async def tournament_ids(connection: AsyncConnection, status: str, format: str) -> list[str]:
    """The ids of the tournaments of one status and format (their states unread: a
    long arena's is megabytes)."""
    query = select(tournaments.c.id).where(
        tournaments.c.status == status, tournaments.c.format == format
    )
    return [str(row.id) for row in await connection.execute(query)]


async def count_live_by_organiser(connection: AsyncConnection, user_id: int) -> int:
    """How many of ``user_id``'s tournaments are open or running."""
    query = (
        select(func.count())
        .select_from(tournaments)
        .where(tournaments.c.organiser == user_id, tournaments.c.status.in_(("open", "running")))
    )
    return int((await connection.execute(query)).scalar_one())


async def add_player(
    connection: AsyncConnection, tournament_id: str, user_id: int, at: float
) -> None:
    """Register a player (an IntegrityError if registered already)."""
    await connection.execute(
        insert(tournament_players).values(
            tournament_id=tournament_id, user_id=user_id, registered_at=at
        )
    )


async def remove_player(connection: AsyncConnection, tournament_id: str, user_id: int) -> bool:
    """Withdraw a player; True if one was registered."""
    result = await connection.execute(
        delete(tournament_players).where(
            tournament_players.c.tournament_id == tournament_id,
            tournament_players.c.user_id == user_id,
        )
    )
    return result.rowcount == 1


async def players_of(connection: AsyncConnection, tournament_id: str) -> list[tuple[int, str, str]]:
    """The registered players as ``(user id, name, kind)``, in registration order."""
    query = (
        select(users.c.id, users.c.name, users.c.kind)
        .join(tournament_players, tournament_players.c.user_id == users.c.id)
        .where(tournament_players.c.tournament_id == tournament_id)
        .order_by(tournament_players.c.registered_at, users.c.id)
    )
    return [(row.id, row.name, row.kind) for row in await connection.execute(query)]


async def link_match(
    connection: AsyncConnection, tournament_id: str, round_: int, pairing: int, match_id: str
) -> None:
    """Record that ``match_id`` plays pairing ``pairing`` of round ``round_``."""
    await connection.execute(
        insert(tournament_matches).values(
            tournament_id=tournament_id, round=round_, pairing=pairing, match_id=match_id
        )
    )


async def pairings_waiting_for(connection: AsyncConnection, user_id: int) -> list[WaitingPairing]:
    """``user_id``'s tournament matches that have not started and still wait for
    their nonce (docs/fair-dice.md), oldest first."""
    seated = or_(
        (matches.c.player0 == user_id) & (matches.c.nonce0 == ""),
        (matches.c.player1 == user_id) & (matches.c.nonce1 == ""),
    )
    query = (
        select(
            tournaments.c.id.label("tournament_id"),
            tournaments.c.name,
            tournament_matches.c.round,
            matches.c.id,
            matches.c.player0,
            matches.c.player1,
            matches.c.commitment,
            matches.c.created_at,
        )
        .join(matches, matches.c.id == tournament_matches.c.match_id)
        .join(tournaments, tournaments.c.id == tournament_matches.c.tournament_id)
        .where(matches.c.status == "open", matches.c.player1.is_not(None), seated)
        .order_by(matches.c.created_at)
        .limit(8)
    )
    return [
        WaitingPairing(
            row.tournament_id,
            row.name,
            row.round,
            row.id,
            row.player1 if row.player0 == user_id else row.player0,
            row.commitment,
            row.created_at,
        )
        for row in await connection.execute(query)
    ]


async def match_links(
    connection: AsyncConnection, tournament_id: str
) -> dict[tuple[int, int], tuple[str, str, int | None]]:
    """Every pairing's match: ``(round, pairing) -> (match id, status, winning seat)``."""
    query = (
        select(
            tournament_matches.c.round,
            tournament_matches.c.pairing,
            matches.c.id,
            matches.c.status,
            matches.c.winner,
        )
        .join(matches, matches.c.id == tournament_matches.c.match_id)
        .where(tournament_matches.c.tournament_id == tournament_id)
    )
    return {
        (row.round, row.pairing): (row.id, row.status, row.winner)
        for row in await connection.execute(query)
    }


async def match_scores(
    connection: AsyncConnection, tournament_id: str
) -> dict[str, tuple[int, int]]:
    """Each finished match's final score by match id, in its seats' order, capped at
    the match's length (a gammon in a 1-point match ends it 1-0, not 2-0)."""
    query = (
        select(matches.c.id, matches.c.result, matches.c.config)
        .join(tournament_matches, tournament_matches.c.match_id == matches.c.id)
        .where(tournament_matches.c.tournament_id == tournament_id, matches.c.result.is_not(None))
    )
    scores = {}
    for row in await connection.execute(query):
        length = row.config.get("length") or 0
        first, second = row.result["score"]
        if length:
            first, second = min(first, length), min(second, length)
        scores[row.id] = (first, second)
    return scores


async def tournament_of_match(connection: AsyncConnection, match_id: str) -> str | None:
    """The tournament a match belongs to, or None."""
    query = select(tournament_matches.c.tournament_id).where(
        tournament_matches.c.match_id == match_id
    )
    return (await connection.execute(query)).scalar_one_or_none()
