"""What each user may still say, shared by every server process (issue 53): a token
bucket per user in ``chat_allowance``, so that chat lines and tells sent through
several processes count against one rate, not one rate a process.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``chat_allowance``."""
    op.create_table(
        "chat_allowance",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("chat_allowance")
