"""Table chat: the messages and reactions of each table, and the seats its host muted.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the chat table (removed with its table) and add seats.muted, false for every seat."""
    op.create_table(
        "chat",
        sa.Column(
            "table_code", sa.String(12), sa.ForeignKey("tables.code", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("muted", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop seats.muted and the chat table."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("muted")
    op.drop_table("chat")
