"""Accounts security: names unique whatever their case, login and sign-up throttles
counted atomically, the addresses each account has logged in from.

Two accounts whose names differ only in case (possible before this revision when two
registrations raced) keep the older one's name; the newer is renamed ``name_ID`` so
that the unique index on ``lower(name)`` can be built. The per-attempt
``login_failures`` log is replaced by one counter row per throttled key.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _rename_case_duplicates() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.text("SELECT id, name FROM users ORDER BY id")).all()
    seen: set[str] = set()
    for user_id, name in rows:
        if name.lower() in seen:
            renamed = f"{name[: 31 - len(str(user_id))]}_{user_id}"
            connection.execute(
                sa.text("UPDATE users SET name = :name WHERE id = :id"),
                {"name": renamed, "id": user_id},
            )
            name = renamed
        seen.add(name.lower())


def upgrade() -> None:
    """Add the case-insensitive name index and the throttle tables."""
    _rename_case_duplicates()
    op.create_index("uq_users_name_lower", "users", [sa.text("lower(name)")], unique=True)
    op.drop_index("ix_login_failures_address_at", table_name="login_failures")
    op.drop_index("ix_login_failures_name_at", table_name="login_failures")
    op.drop_table("login_failures")
    op.create_table(
        "throttles",
        sa.Column("key", sa.String(96), primary_key=True),
        sa.Column("level", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
    )
    op.create_index("ix_throttles_at", "throttles", ["at"])
    op.create_table(
        "login_addresses",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Back to revision 0001 (renamed duplicates keep their new names)."""
    op.drop_table("login_addresses")
    op.drop_index("ix_throttles_at", table_name="throttles")
    op.drop_table("throttles")
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_login_failures_name_at", "login_failures", ["name", "at"])
    op.create_index("ix_login_failures_address_at", "login_failures", ["address", "at"])
    op.drop_index("uq_users_name_lower", table_name="users")
