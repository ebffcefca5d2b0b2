"""Named locks across processes (``server/db/locks.py``) on a real PostgreSQL
database: two ``Database`` objects stand for two processes (each its own pool of
connections and sessions). One holds a name, the other waits for it or is told at
once that it is taken; many holders at once, each needing another connection for
its work, never take the whole pool; nothing is held on SQLite."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from backgammon.server.db.database import Database
from backgammon.server.db.locks import HOLDERS, held

from .conftest import POSTGRESQL, new_postgresql_database


def _postgresql() -> str:
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    url = new_postgresql_database()
    return url.replace("postgresql://", "postgresql+asyncpg://", 1)


@pytest.mark.postgresql
def test_a_name_is_held_by_one_process_at_a_time() -> None:
    url = _postgresql()

    async def run() -> None:
        first, second = Database(url), Database(url)
        order: list[str] = []
        try:
            async with held(first, "tournament:x") as got:
                assert got
                async with held(second, "tournament:x", wait=False) as other:
                    assert not other  # taken: told at once
                async with held(second, "tournament:y", wait=False) as other:
                    assert other  # another name is free

                async def wait_for_it() -> None:
                    async with held(second, "tournament:x"):
                        order.append("second")

                waiting = asyncio.create_task(wait_for_it())
                await asyncio.sleep(0.3)
                order.append("first done")
            await asyncio.wait_for(waiting, 10)
            assert order == ["first done", "second"]
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


@pytest.mark.postgresql
def test_many_holders_at_once_leave_connections_for_their_work() -> None:
    """40 holders of different names, each opening a transaction while it holds its
    name: with a holder per connection the pool (20 at most) would be taken by the
    holders and every transaction would wait for a connection until its timeout."""
    url = _postgresql()

    async def run() -> int:
        database = Database(url)
        done = 0

        async def one(number: int) -> None:
            nonlocal done
            async with held(database, f"event:{number}"), database.transaction() as connection:
                await connection.exec_driver_sql("SELECT pg_sleep(0.05)")
                done += 1

        try:
            await asyncio.wait_for(asyncio.gather(*(one(n) for n in range(40))), 30)
        finally:
            await database.close()
        return done

    assert asyncio.run(run()) == 40 > HOLDERS


def test_nothing_is_held_on_sqlite(tmp_path: Path) -> None:
    async def run() -> None:
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'one.db'}")
        try:
            async with held(database, "x") as first, held(database, "x", wait=False) as second:
                assert first and second
        finally:
            await database.close()

    asyncio.run(run())
