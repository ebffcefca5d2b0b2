"""Idempotent match creation: the creator's client request id, unique per creator
(issue 35: a double click made two matches). Invitations themselves need no new
table: they are open matches with an ``invitee``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``matches.request_id`` and its unique index per creator."""
    op.add_column("matches", sa.Column("request_id", sa.String(40)))
    op.create_index("uq_matches_request", "matches", ["created_by", "request_id"], unique=True)


def downgrade() -> None:
    """Drop ``matches.request_id``."""
    op.drop_index("uq_matches_request", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("request_id")
