"""The first schema: tables, seats, moves.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kiti_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("version", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("timer", sa.Float, nullable=True),
        sa.Column("takeover", sa.Boolean, nullable=False),
        sa.Column("stand_in", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rematch_of", sa.String(16), nullable=True),
        sa.Column("rematch", sa.String(16), nullable=True),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_index("ix_kiti_tables_status", "kiti_tables", ["status"])
    op.create_table(
        "kiti_seats",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(200), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("claimed", sa.Boolean, nullable=False),
    )
    op.create_table(
        "kiti_moves",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("move", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("kiti_moves")
    op.drop_table("kiti_seats")
    op.drop_index("ix_kiti_tables_status", "kiti_tables")
    op.drop_table("kiti_tables")
