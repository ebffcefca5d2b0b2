"""Group commit: many matches' new actions written in one transaction.

Every accepted action must be committed before anyone hears of it. Committing each
on its own costs a transaction (and, with SQLite, a turn at the single write lock)
per action; under load the transactions queue and the slowest take seconds. The
:class:`GroupCommitter` keeps one writer task: an action waits in its queue, the
writer takes everything waiting, appends it all in one transaction (with the
PostgreSQL notifications for the other processes), and then releases every waiter
at once. If the batch fails because one match's append lost a race (another process
appended first), the batch is retried one match at a time, so only that match's
waiter gets the error. With a SQLite file the batch goes through a
:class:`~backgammon.server.db.log_writer.SQLiteLogWriter` (one trip to its thread per
batch); with PostgreSQL through the async engine, with the notifications.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import IntegrityError

from backgammon.server.db import repository as repo
from backgammon.server.db.database import Database
from backgammon.server.db.events import EventBus
from backgammon.server.db.log_writer import SQLiteLogWriter

__all__ = ["GroupCommitter"]

MAX_BATCH = 500
"""The most appends written in one transaction."""


@dataclass
class _Append:
    match_id: str
    first: int
    entries: list[dict[str, Any]]
    done: asyncio.Future[None] = field(repr=False)


class GroupCommitter:
    """Appends matches' log entries in shared transactions (see the module doc)."""

    def __init__(self, database: Database, bus: EventBus) -> None:
        self.db = database
        self.bus = bus
        self._queue: asyncio.Queue[_Append] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._writer = (
            None if database.sqlite_file is None else SQLiteLogWriter(database.sqlite_file)
        )
        self.batches = 0
        self.appends = 0

    def start(self) -> None:
        """Start the writer task."""
        self._task = asyncio.create_task(self._write_forever())

    async def stop(self) -> None:
        """Write what is waiting, then stop."""
        while not self._queue.empty():
            await asyncio.sleep(0.01)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._writer is not None:
            await self._writer.close()

    async def append(self, match_id: str, first: int, entries: list[dict[str, Any]]) -> None:
        """Commit ``entries`` as numbers ``first``... of the match's log; returns once
        they are committed.

        Raises:
            IntegrityError: if another process appended those numbers first.
            Exception: whatever the database raised.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(_Append(match_id, first, entries, done))
        await done

    async def _write(self, batch: list[_Append]) -> None:
        rows = [
            {"match_id": item.match_id, "seq": item.first + offset, "entry": entry}
            for item in batch
            for offset, entry in enumerate(item.entries)
        ]
        if self._writer is not None:  # SQLite: one process, nobody to notify
            await self._writer.write(rows)
            return
        async with self.db.transaction() as connection:
            await repo.append_rows(connection, rows)
            for item in batch:
                seq = item.first + len(item.entries)
                await self.bus.send_in(connection, {"k": "match", "id": item.match_id, "seq": seq})

    async def _write_forever(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < MAX_BATCH:
                batch.append(self._queue.get_nowait())
            try:
                await self._write(batch)
            except IntegrityError:
                for item in batch:
                    try:
                        await self._write([item])
                    except Exception as error:  # handed to its waiter
                        if not item.done.done():
                            item.done.set_exception(error)
                    else:
                        if not item.done.done():
                            item.done.set_result(None)
                continue
            except Exception as error:  # handed to every waiter
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(error)
                continue
            self.batches += 1
            self.appends += len(batch)
            for item in batch:
                if not item.done.done():
                    item.done.set_result(None)
