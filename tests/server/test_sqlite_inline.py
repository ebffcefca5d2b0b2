"""Tests for backgammon.server.db.sqlite_inline: the server's SQLite engine on the loop's
own thread.

A transaction must never give the event loop away (that was the point: under load
each turn of the loop cost tens of milliseconds while SQLite's write lock was held),
nor take turns of the loop to hand its one connection on; and the single connection
must stay right when transactions wait for it, fail, are cancelled, or run beside the
match log's writer thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from backgammon.server.db import repository as repo
from backgammon.server.db.database import Database
from backgammon.server.db.events import LocalBus
from backgammon.server.db.group_commit import GroupCommitter

from .test_log_writer import database_with_matches


async def counting_turns(work: Callable[[], Awaitable[None]]) -> int:
    """How many turns of the loop another task got while ``work`` ran."""
    turns = 0
    running = True

    async def spin() -> None:
        nonlocal turns
        while running:
            turns += 1
            await asyncio.sleep(0)

    spinner = asyncio.create_task(spin())
    await asyncio.sleep(0)
    before = turns
    await work()
    seen = turns - before
    running = False
    await spinner
    return seen


def test_a_transaction_never_gives_the_loop_away(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'turns.sqlite3'}")
        await database.migrate()

        async def sign_up_and_read() -> None:
            async with database.transaction() as connection:
                for number in range(5):
                    await repo.create_user(connection, f"player{number}", None, "guest", 0.0)
                found = await repo.user_by_name(connection, "player3")
                assert found is not None and found[0].name == "player3"

        assert await counting_turns(sign_up_and_read) == 0
        await database.close()

    asyncio.run(scenario())


def test_waiting_transactions_take_the_connection_in_turn_and_lose_nothing(
    tmp_path: Path,
) -> None:
    """Hostile: 300 transactions at once, a third of them failing after writing, while
    the log writer's thread appends; every committed row is there, no failed one."""

    async def scenario() -> None:
        database = await database_with_matches(tmp_path / "busy.sqlite3", 20)
        committer = GroupCommitter(database, LocalBus())
        committer.start()

        async def sign_up(number: int) -> None:
            async with database.transaction() as connection:
                await repo.create_user(connection, f"user{number}", None, "guest", 0.0)
                if number % 3 == 0:
                    raise ValueError(f"user{number} changes its mind")

        async def play(match: str) -> None:
            for seq in range(15):
                await committer.append(match, seq, [{"kind": "roll", "n": seq}])

        outcomes = await asyncio.gather(
            *(sign_up(number) for number in range(300)),
            *(play(f"m{number}") for number in range(20)),
            return_exceptions=True,
        )
        failures = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        assert len(failures) == 100 and all(isinstance(f, ValueError) for f in failures)
        await committer.stop()
        async with database.transaction() as connection:
            for number in range(300):
                found = await repo.user_by_name(connection, f"user{number}")
                assert (found is None) == (number % 3 == 0), number
            for number in range(20):
                entries = await repo.match_entries(connection, f"m{number}")
                assert [entry["n"] for entry in entries] == list(range(15))
        await database.close()

    asyncio.run(scenario())


def test_a_cancelled_transaction_rolls_back_and_frees_the_connection(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = Database(f"sqlite+aiosqlite:///{tmp_path / 'cancel.sqlite3'}")
        await database.migrate()
        inside = asyncio.Event()

        async def slow_sign_up() -> None:
            async with database.transaction() as connection:
                await repo.create_user(connection, "halfway", None, "guest", 0.0)
                inside.set()
                await asyncio.sleep(30)  # holds the one connection

        async def waiting_sign_up() -> None:
            async with database.transaction() as connection:
                await repo.create_user(connection, "never", None, "guest", 0.0)

        holder = asyncio.create_task(slow_sign_up())
        await inside.wait()
        waiter = asyncio.create_task(waiting_sign_up())
        await asyncio.sleep(0.05)
        assert not waiter.done()  # it waits for the connection
        waiter.cancel()
        holder.cancel()
        for task in (holder, waiter):
            with pytest.raises(asyncio.CancelledError):
                await task
        async with database.transaction() as connection:
            assert await repo.user_by_name(connection, "halfway") is None
            assert await repo.user_by_name(connection, "never") is None
            await repo.create_user(connection, "after", None, "guest", 0.0)
        async with database.transaction() as connection:
            assert await repo.user_by_name(connection, "after") is not None
        await database.close()

    asyncio.run(scenario())
