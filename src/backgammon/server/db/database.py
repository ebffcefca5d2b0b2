"""The database connection: an async SQLAlchemy engine, sessions, and migrations.

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed transaction survives
the server process being killed (it is in the write-ahead log before ``commit``
returns), though not a power failure in the next moment; PostgreSQL is the choice
where that matters. Migrations are Alembic's, run by :func:`upgrade` at start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from backgammon.server.db import sqlite_inline

__all__ = ["Database", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")


def _alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` to ``revision`` (blocking: call it in a thread
    from async code). Alembic's own lines (one a migration, with its docstring) are
    kept out of the server's log; its warnings and errors still reach it."""
    migration_log = logging.getLogger("alembic")
    level = migration_log.level
    migration_log.setLevel(logging.WARNING)
    try:
        command.upgrade(_alembic_config(url), revision)
    finally:
        migration_log.setLevel(level)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Database:
    """One database, opened by URL: transactions for the repositories, and the
    migrations."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.sqlite_file: Path | None = None
        """The SQLite database's file (None for PostgreSQL and in-memory SQLite)."""
        if self.is_sqlite:
            path = url.split(":///", 1)[1].split("?", 1)[0] if ":///" in url else ""
            if path and path != ":memory:":
                self.sqlite_file = Path(path)
                self.sqlite_file.parent.mkdir(parents=True, exist_ok=True)
        if self.is_sqlite:
            # One connection driven on the loop's thread (sqlite_inline's doc says
            # why): transactions take turns at its checkout. The match log's writer
            # (log_writer) has a connection of its own on its own thread.
            target = str(self.sqlite_file) if self.sqlite_file is not None else ":memory:"
            self.engine: AsyncEngine = create_async_engine(
                url,
                async_creator=partial(sqlite_inline.connect, target),
                pool_size=1,
                max_overflow=0,
                pool_timeout=60,
            )
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        else:
            self.engine = create_async_engine(
                url, pool_pre_ping=True, pool_timeout=60, pool_size=10
            )

    async def migrate(self) -> None:
        """Apply every Alembic migration not yet applied."""
        await asyncio.to_thread(upgrade, self.url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a transaction, committed on leaving (rolled back on error)."""
        if not self.is_sqlite:
            async with self.engine.begin() as connection:
                yield connection
            return
        # Not ``engine.begin()``: its exit closes the connection in a task of its
        # own (so that a cancellation cannot interrupt it), two turns of the loop
        # during which the pool's one connection is out. An inline SQLite close
        # never suspends, so nothing can interrupt it.
        connection = await self.engine.connect()
        try:
            async with connection.begin():
                yield connection
        finally:
            await connection.close()

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()
