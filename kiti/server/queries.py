"""What the server stores, as rows and as operations on a connection.

A table's record is the stored truth: its header (game, version, seats, options, seed,
lobby settings: :class:`TableRow`), its seats (:class:`SeatRow`) and its moves.  Each
operation here is a function of a SQLAlchemy connection, handed to :meth:`Store.write`
(which commits it) or :meth:`Store.read`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from . import models
from .store import Op, Rows


@dataclass
class SeatRow:
    kind: str  # "human" or a bot spec
    name: str
    token_hash: str | None = None
    claimed: bool = False
    open: bool = False  # a lobby join may take it (else only its link: it belongs to its person)


@dataclass
class TableRow:
    """A table's stored header (its record's header, plus the lobby's settings)."""

    id: str
    game: str
    version: str
    players: int
    options: dict[str, Any]
    seed: int
    timer: float | None
    takeover: bool
    stand_in: str
    status: str
    created: float
    rematch_of: str | None = None
    rematch: str | None = None
    result: dict[str, Any] | None = None
    seats: list[SeatRow] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)


def insert_table(row: TableRow) -> Op:
    def op(conn: Connection) -> None:
        conn.execute(
            insert(models.tables).values(
                id=row.id,
                game=row.game,
                version=row.version,
                players=row.players,
                options=json.dumps(row.options, sort_keys=True),
                seed=row.seed,
                timer=row.timer,
                takeover=row.takeover,
                stand_in=row.stand_in,
                status=row.status,
                rematch_of=row.rematch_of,
                rematch=row.rematch,
                result=None,
                created=row.created,
            )
        )
        conn.execute(
            insert(models.seats),
            [
                {
                    "table_id": row.id,
                    "seat": i,
                    "kind": s.kind,
                    "name": s.name,
                    "token_hash": s.token_hash,
                    "claimed": s.claimed,
                    "open": s.open,
                }
                for i, s in enumerate(row.seats)
            ],
        )
        for idx, (seat, move) in enumerate(row.moves):
            conn.execute(insert(models.moves).values(table_id=row.id, idx=idx, seat=seat, move=move))

    return op


def append_move(table_id: str, idx: int, seat: int, move: str) -> Op:
    return Rows(models.moves, [{"table_id": table_id, "idx": idx, "seat": seat, "move": move}])


def delete_move(table_id: str, idx: int) -> Op:
    """Take back the last move (an undo the engine allowed)."""

    def op(conn: Connection) -> None:
        conn.execute(
            delete(models.moves).where(models.moves.c.table_id == table_id, models.moves.c.idx == idx)
        )

    return op


def update_table(table_id: str, **values: Any) -> Op:
    if "result" in values and values["result"] is not None:
        values["result"] = json.dumps(values["result"], sort_keys=True)

    def op(conn: Connection) -> None:
        conn.execute(update(models.tables).where(models.tables.c.id == table_id).values(**values))

    return op


class Taken(Exception):
    """A table's rematch was made first elsewhere (another instance of a cluster, reading the
    same finished table): nothing of this transaction is kept."""


def set_rematch(table_id: str, rematch_id: str) -> Op:
    """Point a finished table at its rematch, only if no rematch was made yet (else Taken)."""

    def op(conn: Connection) -> None:
        t = models.tables.c
        done = conn.execute(
            update(models.tables).where(t.id == table_id, t.rematch.is_(None)).values(rematch=rematch_id)
        )
        if done.rowcount != 1:
            raise Taken(table_id)

    return op


def rematch_of(table_id: str) -> Op:
    """The rematch a table points at (None: none yet)."""

    def op(conn: Connection) -> str | None:
        t = models.tables.c
        return conn.execute(select(t.rematch).where(t.id == table_id)).scalar_one_or_none()

    return op


def update_seat(table_id: str, seat: int, **values: Any) -> Op:
    def op(conn: Connection) -> None:
        conn.execute(
            update(models.seats)
            .where(models.seats.c.table_id == table_id, models.seats.c.seat == seat)
            .values(**values)
        )

    return op


def load_tables(statuses: tuple[str, ...] | None = None, ids: tuple[str, ...] | None = None) -> Op:
    """The stored tables with these statuses (or these ids), seats and moves included."""
    chosen = select(models.tables.c.id)
    if statuses is not None:
        chosen = chosen.where(models.tables.c.status.in_(statuses))
    if ids is not None:
        chosen = chosen.where(models.tables.c.id.in_(ids))

    def op(conn: Connection) -> list[TableRow]:
        query = select(models.tables).where(models.tables.c.id.in_(chosen))
        rows = {r.id: _table_row(r) for r in conn.execute(query)}
        if not rows:
            return []
        seat_rows = select(models.seats).where(models.seats.c.table_id.in_(chosen))
        for s in conn.execute(seat_rows.order_by(models.seats.c.table_id, models.seats.c.seat)):
            if s.table_id in rows:
                rows[s.table_id].seats.append(SeatRow(s.kind, s.name, s.token_hash, s.claimed, s.open))
        move_rows = select(models.moves).where(models.moves.c.table_id.in_(chosen))
        for m in conn.execute(move_rows.order_by(models.moves.c.table_id, models.moves.c.idx)):
            if m.table_id in rows:
                rows[m.table_id].moves.append((m.seat, m.move))
        return list(rows.values())

    return op


def list_tables(status: str, offset: int = 0, limit: int = 50, ids: tuple[str, ...] | None = None) -> Op:
    """One page of the stored tables (newest first, seats included, no moves) and whether more
    follow.  ``status``: ``open`` (waiting, with a free seat open to anyone), ``waiting``,
    ``playing``, ``over`` or ``all`` (every table but the broken ones); ``ids``: only those."""
    t, s = models.tables, models.seats
    chosen = select(t.c.id)
    if status == "open":
        free = select(s.c.table_id).where(s.c.kind == "human", s.c.claimed.is_(False), s.c.open.is_(True))
        chosen = chosen.where(t.c.status == "waiting", t.c.id.in_(free))
    elif status == "all":
        chosen = chosen.where(t.c.status != "broken")
    else:
        chosen = chosen.where(t.c.status == status)
    if ids is not None:
        chosen = chosen.where(t.c.id.in_(ids))
    chosen = chosen.order_by(t.c.created.desc(), t.c.id.desc()).offset(offset).limit(limit + 1)

    def op(conn: Connection) -> tuple[list[TableRow], bool]:
        page = [r.id for r in conn.execute(chosen)]
        more, page = len(page) > limit, page[:limit]
        if not page:
            return [], more
        rows = {r.id: _table_row(r) for r in conn.execute(select(t).where(t.c.id.in_(page)))}
        for r in conn.execute(select(s).where(s.c.table_id.in_(page)).order_by(s.c.table_id, s.c.seat)):
            rows[r.table_id].seats.append(SeatRow(r.kind, r.name, r.token_hash, r.claimed, r.open))
        return [rows[i] for i in page], more

    return op


def _table_row(r: Any) -> TableRow:
    return TableRow(
        id=r.id,
        game=r.game,
        version=r.version,
        players=r.players,
        options=json.loads(r.options),
        seed=r.seed,
        timer=r.timer,
        takeover=r.takeover,
        stand_in=r.stand_in,
        status=r.status,
        created=r.created,
        rematch_of=r.rematch_of,
        rematch=r.rematch,
        result=None if r.result is None else json.loads(r.result),
    )
