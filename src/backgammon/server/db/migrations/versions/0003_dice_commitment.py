"""Dice commitments handed out before a match exists: the seed is drawn and its hash
published before the player who asked for it chooses a nonce (docs/fair-dice.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``dice_commitments``."""
    op.create_table(
        "dice_commitments",
        sa.Column("commitment", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_dice_commitments_user", "dice_commitments", ["user_id", "created_at"])


def downgrade() -> None:
    """Drop ``dice_commitments``."""
    op.drop_table("dice_commitments")
