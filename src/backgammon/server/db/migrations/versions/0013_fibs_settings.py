"""FIBS settings kept with the account (issue 54): ``fibs_settings`` holds a user's
toggles and variables (``toggle ready``, ``set boardstyle 2``) across logins and
server restarts, as FIBS keeps them.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``fibs_settings``."""
    op.create_table(
        "fibs_settings",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("fibs_settings")
