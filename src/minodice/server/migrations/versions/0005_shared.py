"""What several server processes on one database share: who is connected where, and the turn timers.

Revision ID: 0005
Revises: 0004
Create Date: 2027-01-20

`processes` holds each running server process's heartbeat; `presence` how many
sockets each process has per table and seat (seat -1: spectators), so the
process driving a table's turn timers knows whether a player is connected
anywhere. A seat's `autoplay` (a bot stands in for its absent player) and
`waiting_since` (when its absent player's turn timer started) are shared the
same way. A single process on SQLite keeps these in memory and writes none of them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create `processes` and `presence`; add the shared turn-timer columns to `seats`."""
    op.create_table(
        "processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "presence",
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("table_code", sa.String(12), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("conns", sa.Integer, nullable=False),
    )
    op.create_index("presence_by_table", "presence", ["table_code"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("autoplay", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("waiting_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop what `upgrade` made."""
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("waiting_since")
        batch.drop_column("autoplay")
    op.drop_index("presence_by_table", "presence")
    op.drop_table("presence")
    op.drop_table("processes")
