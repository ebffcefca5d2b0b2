"""Messages kept for a user until their next login (FIBS's ``message NAME TEXT`` to
someone who is not online; docs/fibs.md).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``stored_messages``."""
    op.create_table(
        "stored_messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "recipient", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "sender", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_stored_messages_recipient", "stored_messages", ["recipient", "id"])


def downgrade() -> None:
    """Drop ``stored_messages``."""
    op.drop_table("stored_messages")
