"""Storage: SQLite by default, PostgreSQL by URL, through SQLAlchemy 2 (one code path).

Writes are grouped: every change asked for during one turn of the event loop is committed
in one transaction (group commit), on a connection the writer keeps open, and the caller
awaits the commit, so a move is durable before it is broadcast.  On PostgreSQL a batch of
row inserts only (the moves) runs in psycopg's pipeline mode: its statements and its COMMIT
travel in one round trip.  With PostgreSQL (or SQLite with ``fsync``) the commits run in a
writer thread (a network round trip or a disk sync must not block the loop); an SQLite
commit otherwise takes microseconds, so it runs in the loop itself (a thread would wait
for the GIL at every call while the loop is busy), and a checkpoint thread copies SQLite's
write-ahead log into the database file every second, so that the disk syncs of checkpoints
never hold a commit up.  Reads run in the default thread pool.  The schema is created and
upgraded by Alembic at start (:meth:`Store.migrate`); what is stored is in
:mod:`kiti.server.queries`.

SQLite runs in WAL mode with ``synchronous=NORMAL`` by default: a committed move survives
the server being killed (``kill -9``); ``fsync=True`` (``synchronous=FULL``) also makes it
survive a power cut, at a cost per commit.  PostgreSQL likewise commits without waiting for
the disk unless ``fsync`` (``synchronous_commit``, :func:`postgres_engine`).  One server
process per database, except several ``kiti serve --cluster`` on one PostgreSQL, whose
commits each begin with a :class:`Fence` (:mod:`kiti.server.cluster`); instances starting
together migrate under an advisory lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

log = logging.getLogger("kiti.server")
Op = Callable[[Connection], Any]
SLOW = 0.05  # a commit slower than this (seconds) is logged
BATCH = 256  # most operations in one commit
#: PostgreSQL's deadlock and serialization failures: the transaction lost a race with another
#: instance's (e.g. two asking a finished table for its rematch at once); run once more.
TRANSIENT = ("40P01", "40001")
MIGRATION_LOCK = 0x6B697469  # PostgreSQL advisory lock held while migrating ("kiti")


class Closed(RuntimeError):
    """A change asked of a closed store (the server is stopping): nothing is written."""


def engine_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here (SQLAlchemy's default driver is psycopg2)."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str, fsync: bool = False) -> Engine:
    url = engine_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return postgres_engine(url, fsync)
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
        cursor.execute("PRAGMA wal_autocheckpoint=0")  # the checkpoint thread does it (see Store)
        cursor.close()

    return engine


def postgres_engine(url: str, fsync: bool) -> Engine:
    """PostgreSQL.  Without ``fsync`` its sessions commit without waiting for the disk
    (``synchronous_commit=off``): a committed move is in PostgreSQL, seen by every later
    read and kept if kiti serve is killed, but a crash of PostgreSQL itself or of the
    machine may lose the last half second, as with SQLite's default; ``fsync=True``
    waits for the disk at each commit (the group commit shares that wait)."""
    engine = create_engine(url, pool_pre_ping=True)
    if not fsync:

        @event.listens_for(engine, "connect")
        def _no_wait(dbapi_conn: Any, _record: Any) -> None:
            with dbapi_conn.cursor() as cursor:
                cursor.execute("SET synchronous_commit TO off")
            dbapi_conn.commit()

    return engine


class Store:
    """The database; writes are group-committed (see the module's doc)."""

    def __init__(self, url: str, fsync: bool = False) -> None:
        self.url = url
        self.engine = make_engine(url, fsync)
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._sqlite = self.engine.dialect.name == "sqlite"
        self._inline = self._sqlite and not fsync  # commit in the loop (no disk sync per commit)
        self._pending: list[Any] = []
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        self._conn: Connection | None = None  # the writer's connection (see _writer)
        self.fencing = False  # cluster mode: commits carry Fence ops (see fenced)
        self.closed = False

    def migrate(self) -> None:
        """Bring the schema to the newest migration (Alembic, shipped in the package)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(resources.files("kiti.server") / "migrations"))
        with self.engine.begin() as conn:
            if not self._sqlite:  # instances starting together: one migrates, the others wait
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def start(self) -> None:
        if not self._inline:
            self._thread = threading.Thread(target=self._run, name="kiti-store", daemon=True)
            self._thread.start()
        if self._sqlite:
            self._checkpointer = threading.Thread(target=self._checkpoints, name="kiti-wal", daemon=True)
            self._checkpointer.start()

    async def aclose(self) -> None:
        """Close from the event loop that writes (the server's stop).  Inline, the changes
        still pending are committed and the writer's connection is closed here, in the loop
        that uses it, so that no commit runs beside the close (a close in a thread freed the
        connection under a commit of the loop: SQLite crashed); the rest (writer thread,
        checkpoints, pool) is closed in a thread."""
        if self._inline:
            self._flush()
            self.closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None
        await asyncio.to_thread(self.close)

    def close(self) -> None:
        """Close now (no change may be asked any more: one is refused with :class:`Closed`)."""
        self.closed = True
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._checkpointer is not None:
            self._stop.set()
            self._checkpointer.join()
            self._checkpointer = None
            self._checkpoint("TRUNCATE")
        self.engine.dispose()

    def _checkpoints(self) -> None:
        """SQLite: copy the write-ahead log into the database every second, beside the
        writer (a checkpoint syncs the disk: in the writer it would hold up every commit)."""
        while not self._stop.wait(1.0):
            self._checkpoint("PASSIVE")

    def _checkpoint(self, mode: str) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:
            log.exception("WAL checkpoint failed")

    async def write(self, *ops: Op) -> None:
        """Run ``ops`` in one transaction; return once it is committed (:class:`Closed` once
        the store is closed: a connection opened anew would never be closed)."""
        if self.closed:
            raise Closed("the store is closed: the server is stopping")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        if self._inline:  # in the loop, once per loop turn: such commits take microseconds
            if not self._pending:
                loop.call_soon(self._flush)
            self._pending.append((ops, loop, future))
        else:
            self._queue.put((ops, loop, future))
        await future

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        for i in range(0, len(batch), BATCH):
            self._commit(batch[i : i + BATCH])

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

    def _writer(self) -> Connection:
        """The writer's own connection, kept open between commits (no pool checkout, no
        liveness ping per commit); a failed commit drops it, so the next one reconnects."""
        if self._conn is None:
            self._conn = self.engine.connect()
        return self._conn

    def _pipeline(self, conn: Connection, ops: list[Op]) -> contextlib.AbstractContextManager[Any]:
        """PostgreSQL, a batch of row inserts only (the moves: the hot path): psycopg's
        pipeline mode, so that the inserts and the COMMIT go to the server together, one round
        trip where there was one per statement and one for the commit.  Other operations may
        read what they execute (a pipeline gives no rows back until its end): they run as
        before.  SQLite: nothing."""
        if self._sqlite or not all(isinstance(op, (Rows, Fence)) for op in ops):
            return contextlib.nullcontext()
        raw = conn.connection.dbapi_connection
        pipeline = getattr(raw, "pipeline", None)
        return contextlib.nullcontext() if pipeline is None else pipeline()

    def _drop_writer(self) -> None:
        if self._conn is not None:
            try:
                self._conn.invalidate()
                self._conn.close()
            except Exception:
                log.exception("closing the writer's connection failed")
            self._conn = None

    def _commit(self, batch: list[Any], again: bool = True) -> None:
        start = time.perf_counter()
        try:
            conn = self._writer()
            ops = [op for ops, _, _ in batch for op in ops]
            if self.fencing:
                ops = fenced(ops)
            with self._pipeline(conn, ops), conn.begin():
                run_ops(conn, ops)
        except Exception as exc:  # one bad change: retry each alone, fail only that one
            self._drop_writer()
            if again and isinstance(exc, DBAPIError) and (exc.connection_invalidated or _transient(exc)):
                self._commit(batch, again=False)  # the connection was lost (a restart), or a race
                return
            if len(batch) > 1:
                for item in batch:
                    self._commit([item])
                return
            _resolve_all(batch, error=exc)
            return
        _resolve_all(batch)
        took = time.perf_counter() - start
        if took > SLOW:
            log.warning("slow commit: %.0f ms for %d change(s)", 1000 * took, len(batch))


@dataclass
class Fence:
    """Cluster mode (:mod:`kiti.server.cluster`): the check, first in a transaction, that
    ``instance`` still holds its lease at ``epoch`` and owns these tables; the procedure
    raises (and the transaction commits nothing) otherwise.  It reads nothing back, so a
    batch of moves still goes in one round trip."""

    instance: str
    epoch: int
    tables: tuple[str, ...]

    def __call__(self, conn: Connection) -> None:
        conn.exec_driver_sql("CALL kiti_fence(%s, %s, %s)", (self.instance, self.epoch, list(self.tables)))


def fenced(ops: list[Op]) -> list[Op]:
    """``ops`` with their fences (cluster mode) made one per lease, at the front: one
    statement per commit, however many moves it holds."""
    if ops and isinstance(ops[0], Fence) and not any(isinstance(op, Fence) for op in ops[1:]):
        return ops  # one change (the usual commit): its fence is first already
    fences: dict[tuple[str, int], set[str]] = {}
    rest: list[Op] = []
    for op in ops:
        if isinstance(op, Fence):
            fences.setdefault((op.instance, op.epoch), set()).update(op.tables)
        else:
            rest.append(op)
    if not fences:
        return ops
    # the tables sorted: every transaction locks their rows in one order
    return [Fence(i, e, tuple(sorted(t))) for (i, e), t in sorted(fences.items())] + rest


def run_ops(conn: Connection, ops: list[Op]) -> None:
    """Run ``ops`` in order, consecutive row inserts into one table as one executemany."""
    pending: Rows | None = None
    for op in ops:
        if isinstance(op, Rows) and pending is not None and op.table is pending.table:
            pending = Rows(pending.table, pending.rows + op.rows)
            continue
        if pending is not None:
            pending(conn)
            pending = None
        if isinstance(op, Rows):
            pending = op
        else:
            op(conn)
    if pending is not None:
        pending(conn)


@dataclass
class Rows:
    """An insert of rows, batched with its neighbours (the hot path: moves)."""

    table: Any
    rows: list[dict[str, Any]]

    def __call__(self, conn: Connection) -> None:
        conn.execute(_insert(self.table), self.rows)


@functools.cache
def _insert(table: Any) -> Any:
    """A table's insert statement, made once (SQLAlchemy then finds its compiled form
    without working out a new statement's cache key at every move)."""
    return insert(table)


def _transient(exc: DBAPIError) -> bool:
    return getattr(exc.orig, "sqlstate", None) in TRANSIENT


def _resolve_all(batch: list[Any], error: BaseException | None = None) -> None:
    """Tell every waiter of a batch that it is committed (or failed with ``error``), with one
    wake-up of each loop (not one per change: from the writer thread each wake-up is a write
    to the loop's pipe)."""
    loops: dict[Any, list[Any]] = {}
    for _, loop, future in batch:
        loops.setdefault(loop, []).append(future)
    for loop, futures in loops.items():

        def done(futures: list[Any] = futures) -> None:
            for future in futures:
                if future.done():
                    continue
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)

        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(done)
