"""Tables remember whether the bid advisor's hints are allowed (on unless the host switched them off).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add tables.hints, true for every existing table."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.true()))


def downgrade() -> None:
    """Drop tables.hints."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hints")
