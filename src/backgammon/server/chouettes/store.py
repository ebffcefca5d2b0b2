"""The chouette tables' queries: a table's row (settings, seats, status) and its
session's action log (see :mod:`backgammon.server.chouettes.service` for the rules)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from backgammon.server.db.tables import chouette_actions, chouette_tables

__all__ = [
    "TableRow",
    "actions_of",
    "append_action",
    "count_actions",
    "count_live_owned",
    "create_table",
    "list_tables",
    "table_row",
    "update_table",
]


@dataclass(frozen=True, slots=True)
class TableRow:
    """A chouette table's stored row."""

    id: str
    name: str
    owner: int
    created_at: float
    status: str
    settings: dict[str, Any]
    seats: list[dict[str, Any]]
    dice_seed: str | None = None


async def create_table(connection: AsyncConnection, **values: Any) -> None:
    """Insert a table's row."""
    await connection.execute(insert(chouette_tables).values(**values))


async def table_row(connection: AsyncConnection, table_id: str) -> TableRow | None:
    """A table's row, or None."""
    query = select(chouette_tables).where(chouette_tables.c.id == table_id)
    row = (await connection.execute(query)).first()
    return None if row is None else TableRow(**row._asdict())


async def update_table(connection: AsyncConnection, table_id: str, **values: Any) -> None:
    """Change a table's row."""
    query = update(chouette_tables).where(chouette_tables.c.id == table_id).values(**values)
    await connection.execute(query)


async def list_tables(
    connection: AsyncConnection, statuses: tuple[str, ...], limit: int = 100
) -> list[TableRow]:
    """Tables of the given statuses, newest first."""
    query = (
        select(chouette_tables)
        .where(chouette_tables.c.status.in_(statuses))
        .order_by(chouette_tables.c.created_at.desc())
        .limit(limit)
    )
    return [TableRow(**row._asdict()) for row in await connection.execute(query)]


async def count_live_owned(connection: AsyncConnection, user_id: int) -> int:
    """How many of ``user_id``'s tables are open or playing."""
    query = (
        select(func.count())
        .select_from(chouette_tables)
        .where(
            chouette_tables.c.owner == user_id,
            chouette_tables.c.status.in_(("open", "playing")),
        )
    )
    return int((await connection.execute(query)).scalar_one())


async def append_action(
    connection: AsyncConnection, table_id: str, seq: int, action: dict[str, Any]
) -> None:
    """Append action number ``seq`` (an IntegrityError if that number is taken)."""
    await connection.execute(
        insert(chouette_actions).values(table_id=table_id, seq=seq, action=action)
    )


async def actions_of(connection: AsyncConnection, table_id: str) -> list[dict[str, Any]]:
    """A table's whole action log, in order."""
    query = (
        select(chouette_actions.c.action)
        .where(chouette_actions.c.table_id == table_id)
        .order_by(chouette_actions.c.seq)
    )
    return [row.action for row in await connection.execute(query)]


async def count_actions(connection: AsyncConnection, table_id: str) -> int:
    """How many actions a table's log holds."""
    query = (
        select(func.count())
        .select_from(chouette_actions)
        .where(chouette_actions.c.table_id == table_id)
    )
    return int((await connection.execute(query)).scalar_one())
