"""A user's sessions found by an index (issue 50): ``tokens.user_id``, searched when a
login counts the user's sessions and when a password change or a ban drops them, was
read by scanning the whole table.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``ix_tokens_user``."""
    op.create_index("ix_tokens_user", "tokens", ["user_id", "created_at"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_tokens_user", "tokens")
