"""A chat at each table, stored with the game (issue 17, item 9).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kiti_chat",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "kiti_chat_rules",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("spectators", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("kiti_chat_rules")
    op.drop_table("kiti_chat")
