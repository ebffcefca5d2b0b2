"""Named locks that hold across server processes on one database.

Several ``backgammon serve`` processes on one PostgreSQL database each run a
tournament's steps when something happens to it (a match of it ends, its start
time comes, its organiser acts), and each takes over the work of a process that
died. :func:`held` makes such work take turns across the processes: a PostgreSQL
session advisory lock on a connection of its own, taken before the work and given
back after it. A process that dies holding one loses its database session, and
PostgreSQL releases the lock with it, so another process goes ahead at once
(`PostgreSQL: Advisory Locks
<https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS>`_).
SQLite serves one process, whose own locks suffice: there it holds nothing.

At most :data:`HOLDERS` locks are held (or waited for) at once by one process: each
holds a pooled connection while the work under it needs another, so unbounded
holders could take every connection of the pool and wait for one forever.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import func, select

from backgammon.server.db.database import Database

__all__ = ["HOLDERS", "held"]

HOLDERS = 4
"""Locks one process holds or waits for at once (the pool has 10 connections)."""

_holders: weakref.WeakKeyDictionary[Database, asyncio.Semaphore] = weakref.WeakKeyDictionary()


@asynccontextmanager
async def held(database: Database, name: str, *, wait: bool = True) -> AsyncIterator[bool]:
    """Hold the lock called ``name`` across every process on ``database`` while the
    block runs; yields whether it is held. ``wait``: wait for it (then always
    True); otherwise yield False at once if another process holds it. On SQLite,
    True with nothing held."""
    if database.is_sqlite:
        yield True
        return
    holders = _holders.get(database)
    if holders is None:
        holders = _holders[database] = asyncio.Semaphore(HOLDERS)
    async with holders, _advisory(database, name, wait) as got:
        yield got


@asynccontextmanager
async def _advisory(database: Database, name: str, wait: bool) -> AsyncIterator[bool]:
    """The advisory lock ``name`` on a connection of its own (see :func:`held`)."""
    key = func.hashtext(name)
    connection = await database.engine.connect()
    released = False
    try:
        await connection.execution_options(isolation_level="AUTOCOMMIT")
        if wait:
            await connection.execute(select(func.pg_advisory_lock(key)))
        elif not (await connection.execute(select(func.pg_try_advisory_lock(key)))).scalar():
            released = True
            yield False
            return
        try:
            yield True
        finally:
            await connection.execute(select(func.pg_advisory_unlock(key)))
            released = True
    finally:
        if not released:
            # Waiting was cancelled, or the unlock failed: the session may still
            # hold (or be granted) the lock, so it is closed rather than pooled.
            await connection.invalidate()
        await connection.close()
