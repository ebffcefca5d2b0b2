"""Open matches counted per client address (issue 50): ``matches.created_from``, the
creator's address (an IPv6 client's /64) when the match was made over the network,
so that free guest accounts cannot fill the lobby from one address.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``matches.created_from`` (null for the matches made before) and its index."""
    op.add_column("matches", sa.Column("created_from", sa.String(64), nullable=True))
    op.create_index("ix_matches_created_from", "matches", ["created_from", "status"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_matches_created_from", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("created_from")
