"""The database schema (SQLAlchemy Core): tables, their seats and their moves.

A table's record is the stored truth: the ``tables`` row holds its header (game, version,
seats, options, seed), ``seats`` the lineup (a seat is ``human`` or a bot spec) with each
human seat's hashed token, and ``moves`` the accepted moves in order.  Replaying the header
and the moves rebuilds the game exactly (see :mod:`kiti.core.records`).

The schema is created and changed only by the Alembic migrations in ``migrations/``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

tables = Table(
    "kiti_tables",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("version", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("seed", BigInteger, nullable=False),
    Column("timer", Float, nullable=True),  # seconds per turn, or None
    Column("takeover", Boolean, nullable=False),  # a bot takes over a human who leaves
    Column("stand_in", String(200), nullable=False),  # the bot spec that stands in
    Column("status", String(16), nullable=False, index=True),  # waiting, playing, over, broken
    Column("rematch_of", String(16), nullable=True),
    Column("rematch", String(16), nullable=True),
    Column("result", Text, nullable=True),  # JSON, once over
    Column("created", Float, nullable=False),  # Unix time
)

seats = Table(
    "kiti_seats",
    metadata,
    Column("table_id", String(16), ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(200), nullable=False),  # "human" or a bot spec
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat's token (humans)
    Column("claimed", Boolean, nullable=False),
    #: a lobby ``join`` may take it (the creator left it open to anyone); else only its link
    Column("open", Boolean, nullable=False, server_default=false()),
)

#: A table's chat (issue 17): each message with the seat that wrote it (None: a spectator).
chat = Table(
    "kiti_chat",
    metadata,
    Column("table_id", String(16), ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=True),
    Column("name", String(64), nullable=False),
    Column("text", String(400), nullable=False),
    Column("at", Float, nullable=False),  # Unix time
)

#: Who may write in a table's chat beside its seats (the creator's choice); no row: seats only.
chat_rules = Table(
    "kiti_chat_rules",
    metadata,
    Column("table_id", String(16), ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("spectators", Boolean, nullable=False),
)

moves = Table(
    "kiti_moves",
    metadata,
    Column("table_id", String(16), ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("move", String(200), nullable=False),
)


#: Per human seat of a timed or takeover table: its time bank and the decisions a stand-in made
#: for it (all of them, and the last ones in a row); see :mod:`kiti.server.clock`.
clocks = Table(
    "kiti_clocks",
    metadata,
    Column("table_id", String(16), ForeignKey("kiti_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("bank", Float, nullable=False),
    Column("stand_ins", Integer, nullable=False),
    Column("streak", Integer, nullable=False),
)
