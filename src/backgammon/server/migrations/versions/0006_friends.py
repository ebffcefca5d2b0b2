"""STUB for the tournaments branch only: the friends branch's real 0006 replaces this
file at merge (drop this one). It changes nothing, so that 0007 has its parent.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing (a stand-in for the friends migration)."""


def downgrade() -> None:
    """Nothing."""
