"""Tests for backgammon.server.db.log_writer and the group committer on a SQLite file.

The writer's rows must read back through the repository exactly as the async engine
wrote them before; a number already taken must raise SQLAlchemy's IntegrityError (the
service's conflict path catches that) and write nothing of its batch; and many
matches appending at once must each find their own rows, none lost.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from backgammon.server.db import repository as repo
from backgammon.server.db.database import Database
from backgammon.server.db.events import LocalBus
from backgammon.server.db.group_commit import GroupCommitter
from backgammon.server.db.log_writer import SQLiteLogWriter


async def database_with_matches(path: Path, count: int) -> Database:
    """A migrated SQLite file with ``count`` matches (m0, m1, ...) and no log rows."""
    database = Database(f"sqlite+aiosqlite:///{path}")
    await database.migrate()
    async with database.transaction() as connection:
        user = await repo.create_user(connection, "alice", None, "guest", 0.0)
        for number in range(count):
            await repo.create_match(
                connection,
                id=f"m{number}",
                created_at=0.0,
                created_by=user.id,
                config={"length": 1},
                status="playing",
                player0=user.id,
                rated=False,
                public=True,
                seed="00" * 32,
                commitment="00" * 32,
            )
    return database


def test_rows_read_back_and_a_taken_number_writes_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = await database_with_matches(tmp_path / "log.sqlite3", 1)
        assert database.sqlite_file == tmp_path / "log.sqlite3"
        writer = SQLiteLogWriter(tmp_path / "log.sqlite3")
        entries = [{"kind": "roll", "dice": [6, 5], "by": 0}, {"kind": "play", "move": "ü 13/8"}]
        await writer.write(
            [{"match_id": "m0", "seq": i, "entry": e} for i, e in enumerate(entries)]
        )
        clash = [
            {"match_id": "m0", "seq": 2, "entry": {"kind": "new"}},
            {"match_id": "m0", "seq": 1, "entry": {"kind": "clash"}},
        ]
        with pytest.raises(IntegrityError):
            await writer.write(clash)
        await writer.close()
        async with database.transaction() as connection:
            assert await repo.match_entries(connection, "m0") == entries
        await database.close()

    asyncio.run(scenario())


def test_many_matches_appending_at_once_lose_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        database = await database_with_matches(tmp_path / "many.sqlite3", 40)
        committer = GroupCommitter(database, LocalBus())
        committer.start()

        async def play(match: str) -> None:
            for seq in range(25):
                await committer.append(match, seq, [{"kind": "roll", "n": seq}])

        await asyncio.gather(*(play(f"m{number}") for number in range(40)))
        assert committer.batches < committer.appends == 1000  # batches were shared
        with pytest.raises(IntegrityError):
            await committer.append("m3", 7, [{"kind": "again"}])
        await committer.stop()
        async with database.transaction() as connection:
            for number in range(40):
                rows = await repo.match_entries(connection, f"m{number}")
                assert rows == [{"kind": "roll", "n": seq} for seq in range(25)]
        await database.close()

    asyncio.run(scenario())
