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
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from sqlalchemy.exc import IntegrityError

__all__ = ["SQLiteLogWriter"]

INSERT = "INSERT INTO match_actions (match_id, seq, entry) VALUES (?, ?, ?)"

LOCK_WAIT = 10.0
"""Seconds the writer waits for SQLite's write lock before it gives up."""

LOCK_RETRY = 0.0005
"""Seconds between two tries for the write lock. SQLite's own busy handler sleeps 1,
2, 5, ... up to 100 ms between tries, so a batch that met another writer's
transaction (a match starting or ending, through the async engine) waited tens of ms
after the lock was free: at 1,000 FIBS matches that was most of the tail."""


class SQLiteLogWriter:
    """Appends log rows to a SQLite file from a thread of its own."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-writer")
        self._connection: sqlite3.Connection | None = None

    def _connect(self) -> sqlite3.Connection:
        if self._connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            # No busy timeout: _begin retries on its own, more often than SQLite would.
            for pragma in ("synchronous=NORMAL", "busy_timeout=0", "foreign_keys=ON"):
                connection.execute(f"PRAGMA {pragma}")
            self._connection = connection
        return self._connection

    @staticmethod
    def _begin(connection: sqlite3.Connection) -> None:
        """Take the write lock, trying every :data:`LOCK_RETRY` for :data:`LOCK_WAIT`."""
        give_up = time.monotonic() + LOCK_WAIT
        while True:
            try:
                connection.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > give_up:
                    raise
            time.sleep(LOCK_RETRY)

    def _write_rows(self, rows: list[tuple[str, int, str]]) -> None:
        connection = self._connect()
        self._begin(connection)
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
