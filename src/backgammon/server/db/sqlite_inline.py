"""SQLite driven on the event loop's own thread, behind SQLAlchemy's asyncio API.

aiosqlite runs each statement on a thread of its own and hands the result back
through the event loop, so a transaction of five statements costs five trips, each
waiting for the loop's next turn. Under load (1,000 FIBS matches) a turn took tens of
milliseconds and a write transaction kept SQLite's single write lock for hundreds of
them, while every match's actions queued behind it at the log writer (commits of one
to five seconds when logins and new matches came in a storm).

A statement on a local SQLite file takes microseconds, less than one trip. So the
server's SQLite engine uses :class:`InlineConnection`: the same interface as an
aiosqlite connection, but every coroutine runs its :mod:`sqlite3` call at once and
returns without suspending, so SQLAlchemy's ``await`` never gives the loop away and a
transaction holds the write lock only while its statements run. The engine keeps one
such connection (a pool of one), so transactions take turns at checkout, waiting
asynchronously; a transaction never waits on the loop for SQLite's lock held by
another of its own.

What this costs: a slow query stops the loop while it runs (the server's queries are
indexed lookups), and while the match log's writer thread commits a batch
(:mod:`backgammon.server.db.log_writer`, a few milliseconds) a write here waits for it
in SQLite's busy handler, on the loop's thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["InlineConnection", "InlineCursor", "connect"]


class InlineCursor:
    """An aiosqlite-shaped cursor whose coroutines finish without suspending."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    async def __aenter__(self) -> InlineCursor:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        self._cursor.close()

    @property
    def description(self) -> Any:
        """The columns of the last query (DB-API)."""
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        """Rows the last statement changed (DB-API)."""
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        """The last inserted row's id (DB-API)."""
        return self._cursor.lastrowid

    @property
    def arraysize(self) -> int:
        """Rows :meth:`fetchmany` returns by default (DB-API)."""
        return self._cursor.arraysize

    @arraysize.setter
    def arraysize(self, value: int) -> None:
        self._cursor.arraysize = value

    async def execute(self, sql: str, parameters: Sequence[Any] | None = None) -> InlineCursor:
        """Run one statement."""
        self._cursor.execute(sql, () if parameters is None else parameters)
        return self

    async def executemany(self, sql: str, parameters: Iterable[Sequence[Any]]) -> InlineCursor:
        """Run one statement for each set of parameters."""
        self._cursor.executemany(sql, parameters)
        return self

    async def fetchone(self) -> Any:
        """The next row, or None."""
        return self._cursor.fetchone()

    async def fetchmany(self, size: int | None = None) -> list[Any]:
        """Up to ``size`` more rows."""
        return self._cursor.fetchmany(self._cursor.arraysize if size is None else size)

    async def fetchall(self) -> list[Any]:
        """Every remaining row."""
        return self._cursor.fetchall()

    async def close(self) -> None:
        """Close the cursor."""
        self._cursor.close()


class InlineConnection:
    """An aiosqlite-shaped connection whose coroutines finish without suspending
    (see the module doc)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._conn = connection
        self._open = True

    @property
    def _connection(self) -> sqlite3.Connection | None:
        # SQLAlchemy's aiosqlite adapter commits and rolls back only while this is set.
        return self._conn if self._open else None

    @property
    def isolation_level(self) -> str | None:
        """sqlite3's transaction mode (SQLAlchemy reads it)."""
        return self._conn.isolation_level

    def cursor(self) -> InlineCursor:
        """A new cursor (entered with ``async with`` or awaited by the adapter)."""
        return InlineCursor(self._conn.cursor())

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        """Register a SQL function (sqlite3's ``create_function``)."""
        self._conn.create_function(*args, **kwargs)

    async def commit(self) -> None:
        """Commit the transaction."""
        self._conn.commit()

    async def rollback(self) -> None:
        """Roll the transaction back."""
        self._conn.rollback()

    async def close(self) -> None:
        """Close the connection (again: nothing)."""
        self.stop()

    def stop(self) -> None:
        """Close the connection at once (SQLAlchemy's forced termination)."""
        if self._open:
            self._open = False
            self._conn.close()


async def connect(path: Path | str) -> InlineConnection:
    """Open ``path`` (a file, or ``:memory:``) for :func:`create_async_engine`'s
    ``async_creator``."""
    return InlineConnection(sqlite3.connect(path, check_same_thread=False))
