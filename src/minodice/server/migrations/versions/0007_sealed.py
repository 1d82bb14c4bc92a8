"""Room for values sealed with an AEAD: seeds and bids (`server/sealing.py`).

Revision ID: 0007
Revises: 0006
Create Date: 2027-03-01

A sealed value is `s2:` + 48 characters (a 96-bit nonce, 8 bytes of cipher text and a
16-byte tag in URL-safe base64): `tables.seed` grows from 40 characters to 64, and
`actions.value` (a bid, sealed; or a die's name) from 16 to 64. SQLite does not hold
a text column to its length, so there the schema is left as it is (no copy of the
`actions` table). The values themselves — older `s1:` seeds, plain seeds and plain
bids — are re-sealed by the store when it opens with its key: a migration never sees
the key, which lives outside the database.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Widen tables.seed and actions.value to 64 characters (not on SQLite, which does not enforce it)."""
    if op.get_bind().dialect.name == "sqlite":
        return
    op.alter_column("tables", "seed", type_=sa.String(64), existing_type=sa.String(40), existing_nullable=False)
    op.alter_column("actions", "value", type_=sa.String(64), existing_type=sa.String(16), existing_nullable=False)


def downgrade() -> None:
    """Narrow them back (only a database holding no sealed `s2:` values fits)."""
    if op.get_bind().dialect.name == "sqlite":
        return
    op.alter_column("actions", "value", type_=sa.String(16), existing_type=sa.String(64), existing_nullable=False)
    op.alter_column("tables", "seed", type_=sa.String(40), existing_type=sa.String(64), existing_nullable=False)
