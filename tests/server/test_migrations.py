"""Alembic's migrations build the schema the code declares, from an empty database."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from backgammon.server.db.database import Database
from backgammon.server.db.tables import metadata

from .conftest import new_postgresql_database


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
    assert revision == "0013"
