"""Alembic's environment: runs the migrations on the URL the caller configured.

The server calls :func:`backgammon.server.db.database.upgrade`, which sets
``sqlalchemy.url`` (an async URL) and runs this in a worker thread.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from backgammon.server.db.tables import metadata

MIGRATION_LOCK = 7_262_000_001
"""The PostgreSQL advisory lock that lets one process at a time migrate."""


def _run(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Several server processes may start at once: one migrates, the others wait
        # and then find nothing left to do.
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})


async def _run_async() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_async_engine(url)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


asyncio.run(_run_async())
