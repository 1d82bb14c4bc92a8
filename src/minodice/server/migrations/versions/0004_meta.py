"""The database's own facts: which secret key seals the tables' seeds (its fingerprint).

Revision ID: 0004
Revises: 0003
Create Date: 2027-01-10

The seeds themselves are sealed (or, in a database made before this revision,
sealed from plain text) by the store when it opens with its key: a migration
never sees the key, which lives outside the database.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the meta table (name → value)."""
    op.create_table(
        "meta",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Drop the meta table."""
    op.drop_table("meta")
