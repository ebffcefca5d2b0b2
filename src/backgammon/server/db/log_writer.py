"""The match log's SQLite writer: one thread, one connection, one hop per batch.

The group committer writes every action of every match. Through the async engine a
transaction costs half a dozen trips between the event loop and aiosqlite's thread
(check out, begin, prepare, execute, commit, release), and each trip waits for the
loop's next turn: under load a commit took 12-15 ms on average and over 100 ms at
the 99th percentile, most of it waiting. :class:`SQLiteLogWriter` owns a plain
:mod:`sqlite3` connection on a thread of its own and writes a whole batch in one
call, so a batch costs one trip. It is used for SQLite files only; PostgreSQL's
driver is asynchronous already.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError

__all__ = ["SQLiteLogWriter"]

INSERT = "INSERT INTO match_actions (match_id, seq, entry) VALUES (?, ?, ?)"


class SQLiteLogWriter:
    """Appends log rows to a SQLite file from a thread of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-writer")
        self._connection: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            for pragma in ("synchronous=NORMAL", "busy_timeout=10000", "foreign_keys=ON"):
                connection.execute(f"PRAGMA {pragma}")
            self._connection = connection
        return self._connection

    def _write_rows(self, rows: list[tuple[str, int, str]]) -> None:
        connection = self._connect()
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.executemany(INSERT, rows)
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    async def write(self, rows: list[dict[str, Any]]) -> None:
        """Append rows (``match_id``, ``seq``, ``entry``) in one transaction.

        Raises:
            IntegrityError: if a row's number is taken (another writer appended it).
        """
        encoded = [(row["match_id"], row["seq"], json.dumps(row["entry"])) for row in rows]
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._executor, self._write_rows, encoded)
        except sqlite3.IntegrityError as error:
            raise IntegrityError(INSERT, None, error) from error

    def _close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    async def close(self) -> None:
        """Close the connection and stop the thread."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor, self._close_connection)
        self._executor.shutdown(wait=True)
