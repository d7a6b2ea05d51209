"""Storage: SQLite by default, PostgreSQL by URL, through SQLAlchemy 2 (one code path).

Every write goes through one writer thread that commits in batches (group commit): the
event loop hands it an operation and awaits the commit, so a move is durable before it is
broadcast, the loop never blocks on the database, and many tables share one commit.
Reads run in the default thread pool.  The schema is created and upgraded by Alembic at
start (:meth:`Store.migrate`).

SQLite runs in WAL mode with ``synchronous=NORMAL`` by default: a committed move survives
the server being killed (``kill -9``); ``fsync=True`` (``synchronous=FULL``) also makes it
survive a power cut, at a cost per commit.  One server process per database.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, delete, event, insert, select, update
from sqlalchemy.engine import make_url

from . import models

Op = Callable[[Connection], Any]
BATCH = 256  # most operations in one commit


@dataclass
class SeatRow:
    kind: str  # "human" or a bot spec
    name: str
    token_hash: str | None = None
    claimed: bool = False


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


def engine_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here (SQLAlchemy's default driver is psycopg2)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, fsync: bool = False) -> Engine:
    url = engine_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"timeout": 30})
    sync = "FULL" if fsync else "NORMAL"

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={sync}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


class Store:
    """The database, with a writer thread that group-commits."""

    def __init__(self, url: str, fsync: bool = False) -> None:
        self.url = url
        self.engine = make_engine(url, fsync)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic, shipped in the package)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(resources.files("kiti.server") / "migrations"))
        with self.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="kiti-store", daemon=True)
        self._thread.start()

    def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        self.engine.dispose()

    async def write(self, op: Op) -> Any:
        """Run ``op(connection)`` in a transaction; return once it is committed."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._queue.put((op, loop, future))
        return await future

    async def read(self, op: Op) -> Any:
        return await asyncio.to_thread(self.read_now, op)

    def read_now(self, op: Op) -> Any:
        with self.engine.connect() as conn:
            return op(conn)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._commit(batch)
                    return
                batch.append(nxt)
            self._commit(batch)

    def _commit(self, batch: list[Any]) -> None:
        try:
            with self.engine.begin() as conn:
                results = [op(conn) for op, _, _ in batch]
        except Exception as exc:  # one bad operation: retry each alone, fail only that one
            if len(batch) > 1:
                for item in batch:
                    self._commit([item])
                return
            _resolve(batch[0], error=exc)
            return
        for item, result in zip(batch, results):
            _resolve(item, result)


def _resolve(item: Any, result: Any = None, error: BaseException | None = None) -> None:
    _, loop, future = item

    def done() -> None:
        if future.done():
            return
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)

    try:
        loop.call_soon_threadsafe(done)
    except RuntimeError:  # the loop is closed: nobody waits any more
        pass


# ------------------------------------------------------------------ operations
def insert_table(row: TableRow) -> Op:
    def op(conn: Connection) -> None:
        conn.execute(insert(models.tables).values(
            id=row.id, game=row.game, version=row.version, players=row.players,
            options=json.dumps(row.options, sort_keys=True), seed=row.seed, timer=row.timer,
            takeover=row.takeover, stand_in=row.stand_in, status=row.status,
            rematch_of=row.rematch_of, rematch=row.rematch, result=None, created=row.created))
        conn.execute(insert(models.seats), [
            {"table_id": row.id, "seat": i, "kind": s.kind, "name": s.name,
             "token_hash": s.token_hash, "claimed": s.claimed} for i, s in enumerate(row.seats)])
        for idx, (seat, move) in enumerate(row.moves):
            conn.execute(insert(models.moves).values(table_id=row.id, idx=idx, seat=seat, move=move))
    return op


def append_move(table_id: str, idx: int, seat: int, move: str) -> Op:
    def op(conn: Connection) -> None:
        conn.execute(insert(models.moves).values(table_id=table_id, idx=idx, seat=seat, move=move))
    return op


def delete_move(table_id: str, idx: int) -> Op:
    """Take back the last move (an undo the engine allowed)."""
    def op(conn: Connection) -> None:
        conn.execute(delete(models.moves).where(models.moves.c.table_id == table_id,
                                                models.moves.c.idx == idx))
    return op


def update_table(table_id: str, **values: Any) -> Op:
    if "result" in values and values["result"] is not None:
        values["result"] = json.dumps(values["result"], sort_keys=True)

    def op(conn: Connection) -> None:
        conn.execute(update(models.tables).where(models.tables.c.id == table_id).values(**values))
    return op


def update_seat(table_id: str, seat: int, **values: Any) -> Op:
    def op(conn: Connection) -> None:
        conn.execute(update(models.seats).where(models.seats.c.table_id == table_id,
                                                models.seats.c.seat == seat).values(**values))
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
                rows[s.table_id].seats.append(SeatRow(s.kind, s.name, s.token_hash, s.claimed))
        move_rows = select(models.moves).where(models.moves.c.table_id.in_(chosen))
        for m in conn.execute(move_rows.order_by(models.moves.c.table_id, models.moves.c.idx)):
            if m.table_id in rows:
                rows[m.table_id].moves.append((m.seat, m.move))
        return list(rows.values())
    return op


def _table_row(r: Any) -> TableRow:
    return TableRow(id=r.id, game=r.game, version=r.version, players=r.players,
                    options=json.loads(r.options), seed=r.seed, timer=r.timer, takeover=r.takeover,
                    stand_in=r.stand_in, status=r.status, created=r.created, rematch_of=r.rematch_of,
                    rematch=r.rematch, result=None if r.result is None else json.loads(r.result))
