"""Seats open to anyone: a lobby ``join`` may take only those (issue 17, item 4).

Revision ID: 0002
Revises: 0001

Seats stored before this were joinable when free; an unclaimed, unnamed human seat stays
open, every other seat is kept for its link.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("kiti_seats") as batch:
        batch.add_column(sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))
    op.execute(
        "UPDATE kiti_seats SET open = "
        "(kind = 'human' AND NOT claimed AND name = 'seat ' || CAST(seat AS VARCHAR(8)))"
    )


def downgrade() -> None:
    with op.batch_alter_table("kiti_seats") as batch:
        batch.drop_column("open")
