"""Gags kept across logins, and bounds on stored messages (issue 50): ``gags`` (whom a
user does not hear, FIBS's ``gag``) and indexes to count a sender's stored messages
and find the expired ones.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``gags`` and the indexes of ``stored_messages`` by sender and by age."""
    op.create_table(
        "gags",
        sa.Column(
            "user_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "gagged_id",
            sa.Integer,
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("added_at", sa.Float, nullable=False),
    )
    op.create_index("ix_stored_messages_sender", "stored_messages", ["sender", "recipient"])
    op.create_index("ix_stored_messages_at", "stored_messages", ["at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_stored_messages_at", "stored_messages")
    op.drop_index("ix_stored_messages_sender", "stored_messages")
    op.drop_table("gags")
