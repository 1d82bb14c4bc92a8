"""Move clocks, the table's level and the rematch's "ready".

Revision ID: 0006
Revises: 0005
Create Date: 2027-02-10

`tables.clock` is the clock speed the host chose (`off`, `relaxed`, `normal`, `fast`: `clocks.py`)
and `tables.level` the level whose bot makes a person's decision when their clock runs out and
stands in for an absent person (null: `medium`, the greedy bot that stood in before). A seat's
`bank` is the seconds left in its clock's bank (null: untouched, the speed's whole bank), stored
whenever a decision dips into it so a restart keeps it; `ready` is true once the seat's person
asked for the rematch of this finished table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add tables.clock and tables.level, seats.bank and seats.ready."""
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("clock", sa.String(16), nullable=False, server_default="off"))
        batch.add_column(sa.Column("level", sa.String(16), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bank", sa.Float, nullable=True))
        batch.add_column(sa.Column("ready", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop what `upgrade` added."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("ready")
        batch.drop_column("bank")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("level")
        batch.drop_column("clock")
