"""Chouette tables (issue 36): a table's seats and settings, and the log of every
action of its session (the live session is the replay of that log).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``chouette_tables`` and ``chouette_actions``."""
    op.create_table(
        "chouette_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("owner", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
    )
    op.create_index("ix_chouette_tables_status", "chouette_tables", ["status"])
    op.create_table(
        "chouette_actions",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("chouette_tables.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("action", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    """Drop the chouette tables."""
    op.drop_table("chouette_actions")
    op.drop_index("ix_chouette_tables_status", table_name="chouette_tables")
    op.drop_table("chouette_tables")
