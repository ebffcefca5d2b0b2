"""The first schema: users, tokens, login failures, matches and their action logs,
ratings with history, chat.

Revision ID: 0001
Revises:
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create every table."""
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255)),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot_level", sa.String(16)),
        sa.Column("is_admin", sa.Boolean, nullable=False),
        sa.Column("muted", sa.Boolean, nullable=False),
        sa.Column("banned", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_login_failures_name_at", "login_failures", ["name", "at"])
    op.create_index("ix_login_failures_address_at", "login_failures", ["address", "at"])
    op.create_table(
        "matches",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("config", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("player0", sa.Integer, sa.ForeignKey("users.id")),
        sa.Column("player1", sa.Integer, sa.ForeignKey("users.id")),
        sa.Column("invitee", sa.Integer, sa.ForeignKey("users.id")),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("nonce0", sa.String(64), nullable=False),
        sa.Column("nonce1", sa.String(64), nullable=False),
        sa.Column("winner", sa.Integer),
        sa.Column("result", sa.JSON),
        sa.Column("finished_at", sa.Float),
        sa.Column("rematch_of", sa.String(16)),
    )
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_table(
        "match_actions",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("entry", sa.JSON, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("experience", sa.Integer, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("experience", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_history_user", "rating_history", ["user_id", "variant"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(24), nullable=False),
        sa.Column("audience", sa.String(12), nullable=False),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_room", "chat_messages", ["room", "id"])


def downgrade() -> None:
    """Drop every table."""
    for table in (
        "chat_messages",
        "rating_history",
        "ratings",
        "match_actions",
        "matches",
        "login_failures",
        "tokens",
        "users",
    ):
        op.drop_table(table)
