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
    postgresql = connection.dialect.name == "postgresql"
    if postgresql:
        # Several server processes may start at once: one migrates, the others wait
        # and then find nothing left to do. The lock is the session's: it outlives
        # the transaction its SELECT began, which ends here so that the migrations
        # run in one of their own, committed before the lock is given back (given
        # back first, a waiting process would not see the new tables and create them
        # again).
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        connection.commit()
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
    connection.commit()
    if postgresql:
        connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
        connection.commit()


async def _run_async() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_async_engine(url)
    async with engine.connect() as connection:
        await connection.run_sync(_run)
        await connection.commit()
    await engine.dispose()


asyncio.run(_run_async())
