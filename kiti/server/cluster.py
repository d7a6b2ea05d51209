"""Several ``kiti serve`` instances on one PostgreSQL (``kiti serve --cluster``, issue 22).

Each instance holds a lease (a ``kiti_leases`` row: its name, its address for relays, an
epoch drawn from a sequence at every start, and an expiry in the database's time) that it
renews every quarter of the lease time.  A live table records its owner (instance and
epoch).  Every transaction that changes a table calls the ``kiti_fence`` procedure first
(migration 0005): it locks the tables' rows and refuses, so that the transaction commits
nothing, unless this instance owns them at this epoch and its lease has not expired, by the
database's clock.  An instance whose lease expired (paused, cut off) can therefore commit
nothing more: its refused move is taken back and told to nobody, and once it notices it
drops every table, closes their sockets (code 4004: clients reconnect through the proxy)
and registers again under a new epoch.

A table is owned by whoever claims it: the instance a client of the table reaches first
(the proxy hashes the table in the URL, so that is where its people land), or, for a table
whose owner's lease expired or that was handed over, any live instance after ``claim_delay``
seconds, in fair shares (each claims the orphans that bring it up to an even share of
the live tables; rows locked with ``SKIP LOCKED``, so one claim wins).  A claimer replays
the table from its log and resumes its clock from the last move's stored time.  A
connection that reaches an instance that does not own its table is relayed to the owner;
a lobby request is forwarded.
A graceful stop hands every table over at once (owner cleared, lease deleted).
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, text
from sqlalchemy.exc import DBAPIError

from .store import Fence

if TYPE_CHECKING:
    from .lobby import Hub
    from .tables import Table

log = logging.getLogger("kiti.server")
LIVE_SQL = "('waiting', 'playing')"
#: The fence procedure's errors: the lease is lost, or a table is owned by another instance.
REFUSALS = {"K0001": "lease", "K0002": "owner"}


class Elsewhere(Exception):
    """The table is owned by another live instance, at ``address`` (host:port)."""

    def __init__(self, address: str) -> None:
        super().__init__(address)
        self.address = address


def refusal(exc: BaseException) -> str | None:
    """``lease`` or ``owner`` if ``exc`` is the fence's refusal, else None."""
    if isinstance(exc, DBAPIError):
        return REFUSALS.get(getattr(exc.orig, "sqlstate", None) or "")
    return None


class Cluster:
    def __init__(self, hub: Hub, instance: str, address: str, lease: float, claim_delay: float) -> None:
        self.hub = hub
        self.instance = instance or f"kiti-{secrets.token_hex(4)}"
        self.address = address
        self.lease = lease
        self.claim_delay = claim_delay
        self.epoch = 0
        self.held = False
        self.valid_until = 0.0  # monotonic time until which the last renewal holds
        self.relaying = 0  # connections relayed to another instance now
        self.relayed = 0  # ... since start
        self.forwarded = 0  # lobby requests forwarded to a table's owner
        self.claimed = 0  # tables claimed after their owner died or handed them over
        self.lost = 0  # times this instance lost its lease
        self.task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ database
    async def run(self, op: Callable[[Connection], Any]) -> Any:
        """``op`` in a transaction of its own, in a thread (never in the writer's queue)."""

        def work() -> Any:
            with self.hub.store.engine.begin() as conn:
                return op(conn)

        return await asyncio.to_thread(work)

    def fence(self, table_id: str) -> Fence:
        return Fence(self.instance, self.epoch, (table_id,))

    # ------------------------------------------------------------ lease
    async def start(self) -> None:
        await self.register()
        self.task = asyncio.get_running_loop().create_task(self._loop())

    async def register(self) -> None:
        """Take a lease under a new epoch (a restart or a rejoin: the old epoch is dead)."""

        def op(conn: Connection) -> int:
            row = conn.execute(
                text(
                    "INSERT INTO kiti_leases (instance, epoch, address, expires) VALUES "
                    "(:i, nextval('kiti_epoch'), :a, clock_timestamp() + make_interval(secs => :s)) "
                    "ON CONFLICT (instance) DO UPDATE SET epoch = excluded.epoch, "
                    "address = excluded.address, expires = excluded.expires RETURNING epoch"
                ),
                {"i": self.instance, "a": self.address, "s": self.lease},
            ).one()
            return int(row.epoch)

        start = time.monotonic()
        self.epoch = await self.run(op)
        self.held, self.valid_until = True, start + self.lease
        log.info("cluster: %s holds its lease at epoch %d", self.instance, self.epoch)

    async def renew(self) -> bool:
        """Extend the lease; False once it has expired (the instance was declared dead)."""

        def op(conn: Connection) -> bool:
            row = conn.execute(
                text(
                    "UPDATE kiti_leases SET expires = clock_timestamp() + make_interval(secs => :s) "
                    "WHERE instance = :i AND epoch = :e AND expires > clock_timestamp() RETURNING 1"
                ),
                {"i": self.instance, "e": self.epoch, "s": self.lease},
            ).first()
            return row is not None

        start = time.monotonic()
        try:
            ok = await self.run(op)
        except Exception as exc:  # the database is down: the lease holds until it expires
            log.warning("cluster: the lease could not be renewed (%s)", type(exc).__name__)
            return time.monotonic() < self.valid_until
        if ok:
            self.valid_until = start + self.lease
        return bool(ok)

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 4)
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database down: said once a round, without a traceback
                log.warning("cluster: a round failed: %s", exc, exc_info=not isinstance(exc, DBAPIError))

    async def tick(self) -> None:
        """Renew the lease (or, lost, drop every table and rejoin), then claim orphans."""
        if not self.held:
            await self.register()
        elif not await self.renew():
            self.lose("its lease expired")
            await self.register()
        await self.claim_orphans()

    def lose(self, why: str) -> None:
        """Declared dead: stop serving every table (nothing of theirs can commit any more)."""
        if not self.held:
            return
        self.held = False
        self.lost += 1
        log.warning("cluster: %s (epoch %d) stops serving its tables: %s", self.instance, self.epoch, why)
        for table in list(self.hub.tables.values()):
            self.hub.drop(table)

    def refused(self, table: Table, why: str) -> None:
        """A commit of ``table`` was fenced off: drop it (or everything, the lease being lost)."""
        loop = asyncio.get_running_loop()
        if why == "lease":
            loop.call_soon(self.lose, "a commit found the lease lost")
        else:
            log.warning("cluster: table %s is owned by another instance: dropped", table.id)
            loop.call_soon(self.hub.drop, table)

    # ------------------------------------------------------------ owners
    async def take(self, table_id: str) -> float | None:
        """Own a live table: claim it if it has no live owner.  Returns the seconds since its
        last move (for its clock) once it is ours; raises :class:`Elsewhere` if another
        live instance owns it."""
        if not self.held:
            from .protocol import ProtocolError

            raise ProtocolError("moved", "this server is rejoining its cluster: reconnect in a moment")

        def op(conn: Connection) -> tuple[str, Any]:
            taken = conn.execute(
                text(
                    f"UPDATE kiti_tables t SET owner = :i, owner_epoch = :e, "
                    f"owned_at = extract(epoch from clock_timestamp()) "
                    f"WHERE t.id = :t AND t.status IN {LIVE_SQL} AND NOT EXISTS (SELECT 1 FROM kiti_leases l "
                    f"WHERE l.instance = t.owner AND l.epoch = t.owner_epoch AND l.expires > clock_timestamp()) "
                    f"AND EXISTS (SELECT 1 FROM kiti_leases WHERE instance = :i AND epoch = :e "
                    f"AND expires > clock_timestamp()) RETURNING t.id"
                ),
                {"i": self.instance, "e": self.epoch, "t": table_id},
            ).first()
            if taken is not None:
                return "mine", _since_last_move(conn, table_id)
            row = conn.execute(
                text(
                    "SELECT t.owner, t.owner_epoch, t.status, l.address FROM kiti_tables t LEFT JOIN kiti_leases l "
                    "ON l.instance = t.owner AND l.epoch = t.owner_epoch AND l.expires > clock_timestamp() "
                    "WHERE t.id = :t"
                ),
                {"t": table_id},
            ).first()
            if row is None or row.status not in ("waiting", "playing"):
                return "mine", None  # no table, or a finished one: anybody may read it
            if row.owner == self.instance and row.owner_epoch == self.epoch:
                return "mine", None
            if row.address is None:
                return "none", None
            return "elsewhere", row.address

        kind, value = await self.run(op)
        if kind == "elsewhere":
            raise Elsewhere(value)
        if kind == "none":
            from .protocol import ProtocolError

            raise ProtocolError("moved", "the table is changing servers: reconnect in a moment")
        return value  # type: ignore[no-any-return]

    def own_op(self, table_id: str) -> Callable[[Connection], None]:
        """Make this instance a new table's owner (a table nobody will connect to: bots only)."""

        def op(conn: Connection) -> None:
            conn.execute(
                text(
                    "UPDATE kiti_tables SET owner = :i, owner_epoch = :e, "
                    "owned_at = extract(epoch from clock_timestamp()) WHERE id = :t"
                ),
                {"i": self.instance, "e": self.epoch, "t": table_id},
            )

        return op

    async def claim_orphans(self) -> None:
        """Claim this instance's fair share of the live tables without a live owner (the
        owner's lease expired, or it handed them over) for ``claim_delay`` seconds."""

        def op(conn: Connection) -> dict[str, float | None]:
            params = {"i": self.instance, "e": self.epoch, "d": self.claim_delay}
            orphans = (
                f"SELECT t.id FROM kiti_tables t LEFT JOIN kiti_leases l "
                f"ON l.instance = t.owner AND l.epoch = t.owner_epoch "
                f"WHERE t.status IN {LIVE_SQL} AND (l.instance IS NULL OR l.expires < clock_timestamp()) "
                f"AND NOT (t.owner IS NULL AND t.owned_at IS NULL AND t.status = 'waiting') "
                f"AND coalesce(extract(epoch from l.expires), t.owned_at, 0) "
                f"< extract(epoch from clock_timestamp()) - :d"
            )
            count = conn.execute(text(f"SELECT count(*) FROM ({orphans}) o"), params).scalar_one()
            if not count:
                return {}
            share = _fair_share(conn, orphans, params, count, self.lease)
            if not share:
                return {}
            ids = conn.execute(
                text(
                    f"UPDATE kiti_tables SET owner = :i, owner_epoch = :e, "
                    f"owned_at = extract(epoch from clock_timestamp()) WHERE id IN "
                    f"({orphans} ORDER BY random() LIMIT :n FOR UPDATE OF t SKIP LOCKED) "
                    f"AND EXISTS (SELECT 1 FROM kiti_leases WHERE instance = :i AND epoch = :e "
                    f"AND expires > clock_timestamp()) RETURNING id"
                ),
                {**params, "n": share},
            ).scalars()
            return {i: _since_last_move(conn, i) for i in list(ids)}

        claimed = await self.run(op)
        for table_id, since in claimed.items():
            self.claimed += 1
            await self.hub.adopt(table_id, since)
        if claimed:
            log.info("cluster: %s claimed %d orphaned table(s)", self.instance, len(claimed))

    async def stop(self) -> None:
        """A graceful stop: every table handed over at once (its owner cleared under its lock,
        after any move in progress), then the lease given up."""
        if self.task is not None:
            self.task.cancel()
        tables = list(self.hub.tables.values())
        for table in tables:
            async with table.lock:
                table.close()

        def op(conn: Connection) -> None:
            conn.execute(
                text(
                    "UPDATE kiti_tables SET owner = NULL, owner_epoch = NULL, "
                    "owned_at = extract(epoch from clock_timestamp()) - :d "
                    "WHERE owner = :i AND owner_epoch = :e"
                ),
                {"i": self.instance, "e": self.epoch, "d": self.claim_delay / 2},
            )
            conn.execute(
                text("DELETE FROM kiti_leases WHERE instance = :i AND epoch = :e"),
                {"i": self.instance, "e": self.epoch},
            )

        if self.held:
            try:
                await self.run(op)
                log.info("cluster: %s handed over %d table(s)", self.instance, len(tables))
            except Exception:
                log.exception("cluster: the hand-over failed (the tables go when the lease expires)")
        self.held = False

    def health(self) -> dict[str, Any]:
        return {
            "instance": self.instance,
            "epoch": self.epoch,
            "lease": "held" if self.held else "lost",
            "lease_left": round(max(0.0, self.valid_until - time.monotonic()), 2),
            "owned": sum(1 for t in self.hub.tables.values() if t.row.status in ("waiting", "playing")),
            "relaying": self.relaying,
            "relayed": self.relayed,
            "forwarded": self.forwarded,
            "claimed": self.claimed,
            "lost": self.lost,
        }


def _fair_share(conn: Connection, orphans: str, params: dict[str, Any], count: int, lease: float) -> int:
    """How many of ``count`` orphans this instance claims now: as many as bring it up to an
    even share of every live table among the live instances (so the survivors of a failure
    end up evenly loaded, whichever claims first); orphans that waited a lease longer than
    the claim delay (an instance that does not claim its share) are shared out by count."""
    live, owned, mine = conn.execute(
        text(
            "SELECT (SELECT count(*) FROM kiti_leases WHERE expires > clock_timestamp()), "
            f"count(*), count(*) FILTER (WHERE t.owner = :i AND t.owner_epoch = :e) "
            f"FROM kiti_tables t JOIN kiti_leases l ON l.instance = t.owner AND l.epoch = t.owner_epoch "
            f"AND l.expires > clock_timestamp() WHERE t.status IN {LIVE_SQL}"
        ),
        params,
    ).one()
    share = max(0, math.ceil((int(owned) + count) / max(1, int(live))) - int(mine))
    if share:
        return min(share, count)
    late = int(
        conn.execute(
            text(f"SELECT count(*) FROM ({orphans}) o"), {**params, "d": params["d"] + lease}
        ).scalar_one()
    )
    return math.ceil(late / max(1, live)) if late else 0


def _since_last_move(conn: Connection, table_id: str) -> float | None:
    """Seconds since the table's last move was stored (database time), None without moves."""
    value = conn.execute(
        text("SELECT extract(epoch from clock_timestamp() - max(at)) FROM kiti_moves WHERE table_id = :t"),
        {"t": table_id},
    ).scalar()
    return None if value is None else float(value)


def haproxy_config(
    servers: list[str], bind: str = "*:8080", check_interval: float = 1.0, maxconn: int = 8000
) -> str:
    """An HAProxy configuration for instances at ``servers`` (host:port): every request about
        one table (``/ws?table=ID``, ``/api/tables/ID/...``) hashed consistently on the table's id
        to one instance, the rest spread; instances checked at ``/api/health`` (HTTP 503 when an
        instance does not hold its lease).  Each server has weight 100, so that it holds many points
    on the hash ring (with weight 1, 500 tables split 188/312 between two instances; with
    100, 240/260).  ``maxconn``: connections at once (HAProxy needs about
    twice as many open files: raise ``ulimit -n`` for more)."""
    inter = f"{round(check_interval * 1000)}ms"
    lines = [f"    server kiti{i + 1} {address} check" for i, address in enumerate(servers)]
    backend = [
        "    option httpchk GET /api/health",
        "    http-check expect status 200",
        f"    default-server inter {inter} fall 2 rise 2 weight 100",  # weight: points on the ring
        *lines,
    ]
    return "\n".join(
        [
            "# Kiti cluster: generated by kiti serve --print-haproxy (docs/deploy.md)",
            "global",
            f"    maxconn {maxconn}",
            "defaults",
            "    mode http",
            "    option forwardfor",
            "    option redispatch",
            "    retries 3",
            "    timeout connect 2s",
            "    timeout client 60s",
            "    timeout server 60s",
            "    timeout tunnel 1h",
            "frontend kiti",
            f"    bind {bind}",
            "    http-request set-var(txn.table) url_param(table) if { url_param(table) -m found }",
            "    http-request set-var(txn.table) path,field(4,/) if { path_reg ^/api/tables/[^/]+ }",
            "    use_backend kiti_tables if { var(txn.table) -m found }",
            "    default_backend kiti_any",
            "backend kiti_tables",
            "    balance hash var(txn.table)",
            "    hash-type consistent",
            *backend,
            "backend kiti_any",
            "    balance roundrobin",
            *backend,
            "",
        ]
    )
