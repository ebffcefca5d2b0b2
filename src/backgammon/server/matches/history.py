"""A player's match history, filtered and paged: by opponent, result, length and
date range (``GET /api/users/{name}/matches``).

The filter is a value; :func:`history_page` turns it into one query for the page and
one for the total, on the connection it is given. Matches another user may not see
(an unlisted open match, whose id is its invitation link, and an invitation, the
invitee's business) are never listed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import and_, func, not_, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import ColumnElement

from backgammon.server.db.repository import MatchRow
from backgammon.server.db.tables import matches

__all__ = ["MAX_PER_PAGE", "HistoryFilter", "HistoryResult", "history_page"]

HistoryResult = Literal["won", "lost", "unfinished"]
"""What the result filter may ask for: matches the player won, lost, or not finished."""

MAX_PER_PAGE = 100
"""The most matches one page of history holds."""


@dataclass(frozen=True, slots=True)
class HistoryFilter:
    """Which of a player's matches to list, and which page of them (from 1)."""

    opponent_id: int | None = None
    result: HistoryResult | None = None
    length: int | None = None
    since: date | None = None
    until: date | None = None
    page: int = 1
    per_page: int = 20

    def against(self, opponent_id: int) -> HistoryFilter:
        """The same filter, for the matches against ``opponent_id`` only."""
        return replace(self, opponent_id=opponent_id)


def _epoch(day: date) -> float:
    """The first second of ``day`` (UTC), as the stored ``created_at`` counts."""
    return datetime(day.year, day.month, day.day, tzinfo=UTC).timestamp()


def _won_by(user_id: int) -> ColumnElement[bool]:
    return or_(
        and_(matches.c.winner == 0, matches.c.player0 == user_id),
        and_(matches.c.winner == 1, matches.c.player1 == user_id),
    )


def _conditions(user_id: int, wanted: HistoryFilter) -> list[ColumnElement[bool]]:
    mine = or_(matches.c.player0 == user_id, matches.c.player1 == user_id)
    visible = or_(
        matches.c.status != "open",
        and_(matches.c.public.is_(True), matches.c.invitee.is_(None)),
    )
    conditions: list[ColumnElement[bool]] = [mine, visible]
    if wanted.opponent_id is not None:
        other = wanted.opponent_id
        conditions.append(
            or_(
                and_(matches.c.player0 == user_id, matches.c.player1 == other),
                and_(matches.c.player1 == user_id, matches.c.player0 == other),
            )
        )
    finished = and_(matches.c.status == "finished", matches.c.winner.is_not(None))
    if wanted.result == "won":
        conditions.append(and_(finished, _won_by(user_id)))
    elif wanted.result == "lost":
        conditions.append(and_(finished, not_(_won_by(user_id))))
    elif wanted.result == "unfinished":
        conditions.append(matches.c.status != "finished")
    if wanted.length is not None:
        conditions.append(matches.c.config["length"].as_integer() == wanted.length)
    if wanted.since is not None:
        conditions.append(matches.c.created_at >= _epoch(wanted.since))
    if wanted.until is not None:
        conditions.append(matches.c.created_at < _epoch(wanted.until + timedelta(days=1)))
    return conditions


async def history_page(
    connection: AsyncConnection, user_id: int, wanted: HistoryFilter
) -> tuple[list[MatchRow], int]:
    """One page of ``user_id``'s matches that pass ``wanted``, newest first, and how
    many pass in all."""
    where = and_(*_conditions(user_id, wanted))
    total = await connection.execute(select(func.count()).select_from(matches).where(where))
    count = int(total.scalar_one())
    query = (
        select(matches)
        .where(where)
        .order_by(matches.c.created_at.desc(), matches.c.id)
        .limit(wanted.per_page)
        .offset((wanted.page - 1) * wanted.per_page)
    )
    rows: list[Any] = list((await connection.execute(query)).all())
    return [MatchRow(**row._asdict()) for row in rows], count
