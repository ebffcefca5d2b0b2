"""Alembic's migrations build the schema the code declares, from an empty database."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from backgammon.server.db.database import Database
from backgammon.server.db.tables import metadata

from .conftest import POSTGRESQL, new_postgresql_database


def test_upgrade_an_empty_database_to_the_declared_schema(tmp_path: Path, backend: str) -> None:
    url = (
        new_postgresql_database().replace("postgresql://", "postgresql+asyncpg://", 1)
        if backend == "postgresql"
        else f"sqlite+aiosqlite:///{tmp_path / 'empty.sqlite3'}"
    )

    async def main() -> list[Any]:
        database = Database(url)
        await database.migrate()
        await database.migrate()  # idempotent: nothing left to apply
        async with database.transaction() as connection:
            differences = await connection.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), metadata)
            )
            revision = await connection.run_sync(
                lambda sync: MigrationContext.configure(sync).get_current_revision()
            )
        await database.close()
        return [differences, revision]

    differences, revision = asyncio.run(main())
    assert differences == []
    assert revision == "0014"


def test_migrating_says_nothing_below_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A new server's start used to log a JSON line a migration, with its docstring
    (issue 54); Alembic's information stays out of the log, its warnings do not."""
    from backgammon.server.db.database import upgrade

    caplog.set_level(logging.INFO)
    upgrade(f"sqlite+aiosqlite:///{tmp_path / 'quiet.sqlite3'}")
    assert (tmp_path / "quiet.sqlite3").stat().st_size > 0
    assert [r.getMessage() for r in caplog.records if r.name.startswith("alembic")] == []
    assert logging.getLogger("alembic").level == logging.NOTSET  # put back as it was


@pytest.mark.postgresql
@pytest.mark.slow
def test_processes_starting_together_on_an_empty_database_migrate_it_once() -> None:
    """Several server processes started at once on a new PostgreSQL database (the
    compose file starts two) each migrate it first; one does, the others wait for its
    lock and find nothing left. Before, the lock was given back before the migration
    was committed, and a waiting process created the same tables again: "duplicate
    key value violates unique constraint pg_type_typname_nsp_index"."""
    if not POSTGRESQL:
        pytest.skip("no PostgreSQL server (set BACKGAMMON_TEST_POSTGRESQL; .ci/run does)")
    script = "import sys; from backgammon.server.db.database import upgrade; upgrade(sys.argv[1])"
    for _attempt in range(3):  # the race is won or lost in milliseconds: try it again
        fresh = new_postgresql_database().replace("postgresql://", "postgresql+asyncpg://", 1)
        starting = [
            subprocess.Popen([sys.executable, "-c", script, fresh], stderr=subprocess.PIPE)
            for _ in range(4)
        ]
        failures = [
            process.stderr.read().decode()[-600:]
            for process in starting
            if process.wait(120) != 0 and process.stderr is not None
        ]
        assert failures == [], failures
