"""Verifiable chouette dice (issue 50): ``chouette_tables.dice_seed``, the secret seed
of a table's throws, drawn when the table opens (its commitment is published then)
and revealed once the table is closed.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``chouette_tables.dice_seed`` (null for the tables opened before)."""
    op.add_column("chouette_tables", sa.Column("dice_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("chouette_tables") as batch:
        batch.drop_column("dice_seed")
