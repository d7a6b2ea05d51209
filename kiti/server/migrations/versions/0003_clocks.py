"""Time banks and stand-ins' tallies per seat (issue 17, items 5 and 6).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kiti_clocks",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("bank", sa.Float, nullable=False),
        sa.Column("stand_ins", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("kiti_clocks")
