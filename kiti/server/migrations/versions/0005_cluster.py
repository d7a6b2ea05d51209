"""Several instances on one PostgreSQL (issue 22): leases, table owners, the fence.

Every database gets the owner columns of ``kiti_tables`` (empty outside a cluster) and the
``kiti_leases`` table; PostgreSQL alone also gets the epoch sequence, each move's commit time
(``kiti_moves.at``, filled by the database, so no insert names it) and the fence procedure
that a cluster instance calls first in every transaction that changes a table (see
:mod:`kiti.server.cluster`).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

FENCE = """
CREATE OR REPLACE PROCEDURE kiti_fence(inst text, ep bigint, ids text[])
LANGUAGE plpgsql AS $$
DECLARE
  held integer;
BEGIN
  -- the tables' rows first (a claim waits for this transaction, or this one for the claim);
  -- a finished table is nobody's (a rematch may be asked for wherever it is read)
  SELECT count(*) INTO held FROM (
    SELECT 1 FROM kiti_tables WHERE id = ANY(ids)
      AND (owner = inst AND owner_epoch = ep OR status NOT IN ('waiting', 'playing')) FOR SHARE
  ) AS mine;
  IF held < cardinality(ids) THEN
    RAISE EXCEPTION 'kiti: table(s) % not owned by % (epoch %)', ids, inst, ep USING ERRCODE = 'K0002';
  END IF;
  PERFORM 1 FROM kiti_leases WHERE instance = inst AND epoch = ep AND expires > clock_timestamp();
  IF NOT FOUND THEN
    RAISE EXCEPTION 'kiti: the lease of % (epoch %) is lost', inst, ep USING ERRCODE = 'K0001';
  END IF;
END $$;
"""


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("kiti_tables") as batch:
        batch.add_column(sa.Column("owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("owner_epoch", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("owned_at", sa.Float, nullable=True))
    op.create_table(
        "kiti_leases",
        sa.Column("instance", sa.String(64), primary_key=True),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    if postgres:
        op.execute("CREATE SEQUENCE kiti_epoch")
        op.execute("ALTER TABLE kiti_moves ADD COLUMN at timestamptz DEFAULT clock_timestamp()")
        op.execute(FENCE)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP PROCEDURE kiti_fence(text, bigint, text[])")
        op.execute("ALTER TABLE kiti_moves DROP COLUMN at")
        op.execute("DROP SEQUENCE kiti_epoch")
    op.drop_table("kiti_leases")
    with op.batch_alter_table("kiti_tables") as batch:
        batch.drop_column("owned_at")
        batch.drop_column("owner_epoch")
        batch.drop_column("owner")
