"""Tournaments as records (issue 36): the event (format, settings, the library's JSON
state of its recorded rounds), its registrations, and which match plays which pairing.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``tournaments``, ``tournament_players`` and ``tournament_matches``."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("organiser", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("starts_at", sa.Float),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("state", sa.JSON),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_organiser", "tournaments", ["organiser"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("registered_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_matches",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("pairing", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False),
    )
    op.create_index("ix_tournament_matches_match", "tournament_matches", ["match_id"], unique=True)


def downgrade() -> None:
    """Drop the tournament tables."""
    op.drop_index("ix_tournament_matches_match", table_name="tournament_matches")
    op.drop_table("tournament_matches")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_organiser", table_name="tournaments")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
