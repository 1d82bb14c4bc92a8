"""Initial schema: tables, seats, actions.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables of the server."""
    op.create_table(
        "tables",
        sa.Column("code", sa.String(12), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("first_start", sa.Integer, nullable=False),
        sa.Column("host_hash", sa.String(64), nullable=False),
        sa.Column("host_seat", sa.Integer, nullable=True),
        sa.Column("rematch_of", sa.String(12), nullable=True),
        sa.Column("rematch", sa.String(12), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.DateTime(timezone=True), nullable=True, index=True),
        sa.Column("totals", sa.Text, nullable=True),
    )
    op.create_table(
        "seats",
        sa.Column("table_code", sa.String(12), sa.ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("bot", sa.String(80), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("table_code", sa.String(12), sa.ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("value", sa.String(16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop everything."""
    op.drop_table("actions")
    op.drop_table("seats")
    op.drop_table("tables")
