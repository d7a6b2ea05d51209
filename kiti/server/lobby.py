"""The lobby: every live table, and the services they share (store, bot pool, settings).

At start the hub applies the migrations and restores every unfinished table by replaying
its stored record; it creates tables, lists pages of the stored tables (finished ones too,
from the database), gives the seats their creators left open to joiners, makes rematches
(each seat kept for its person), and loads finished tables from the database when asked.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import secrets
import sys
import time
from typing import Any

from ..core.errors import KitiError, quoted
from ..core.game import MAX_SEED
from ..core.records import replay
from ..core.words import same_name
from ..games import get_game
from . import chat, queries
from .botpool import BotPool
from .cluster import Cluster
from .config import ServerConfig
from .newtable import join_request, new_table
from .protocol import ProtocolError
from .queries import SeatRow, TableRow
from .store import Store
from .tables import Seat, Table, table_info
from .tokens import new_table_id, new_token, token_hash

log = logging.getLogger("kiti.server")
LIVE = ("waiting", "playing")
#: The GIL switch interval: the writer thread must not wait 5 ms (Python's default) for the
#: GIL at each database call while the event loop is busy.
SWITCH = 0.0005
#: Young collections less often, full collections rarely: a full collection of a busy
#: server's objects pauses every table for a long while (see docs/architecture.md).
GC_THRESHOLDS = (700, 10, 1_000)


class Hub:
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.store = Store(config.db_url(), config.fsync)
        self.bots: BotPool
        self.tables: dict[str, Table] = {}
        self.moves = 0  # moves accepted since start
        self.connections = 0
        self.accepted = 0  # WebSockets accepted since start
        self.started = time.time()
        self._evictions: dict[str, asyncio.TimerHandle] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}  # tables being loaded (see get)
        #: With ``config.seed`` (tests, demos), every new game's seed comes from this generator.
        self._seeds = None if config.seed is None else random.Random(config.seed)
        self.cluster: Cluster | None = None
        if config.cluster:
            self.cluster = Cluster(
                self,
                config.instance or config.advertise,
                config.advertise,
                config.lease,
                config.claim_delay,
            )

    def new_seed(self) -> int:
        """A new game's seed: unpredictable, unless the server was started with a seed."""
        return secrets.randbelow(MAX_SEED) if self._seeds is None else self._seeds.randrange(MAX_SEED)

    async def start(self) -> None:
        sys.setswitchinterval(SWITCH)
        await asyncio.to_thread(self.store.migrate)
        self.store.start()
        self.bots = BotPool(self.config.bot_workers, self.config.bot_mode)
        if self.cluster is not None:  # the tables are the cluster's: claimed, not restored
            self.store.fencing = True
            await self.cluster.start()
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)
            return
        rows = await self.store.read(queries.load_tables(LIVE))
        for row in rows:
            table = await self._revive(row)
            if table is not None:
                table.resume()
        log.info("restored %d unfinished table(s)", len(rows))
        gc.freeze()  # modules, functions and restored tables: out of every later collection
        gc.set_threshold(*GC_THRESHOLDS)

    async def close(self) -> None:
        if self.cluster is not None:
            await self.cluster.stop()
        for table in self.tables.values():
            table.close()
        for handle in self._evictions.values():
            handle.cancel()
        self.bots.close()
        await self.store.aclose()

    async def _revive(self, row: TableRow) -> Table | None:
        """The table a stored row describes, its game replayed from the record."""
        record = {
            "game": row.game,
            "version": row.version,
            "players": row.players,
            "options": row.options,
            "seed": row.seed,
            "moves": [list(m) for m in row.moves],
        }
        try:
            state = replay(record)
        except KitiError as exc:
            log.error("table %s cannot be replayed (%s): marked broken", row.id, exc)
            await self.store.write(queries.update_table(row.id, status="broken"))
            return None
        table = self.tables[row.id] = Table(row, state, self)
        if state.over and row.status != "over":  # killed between the last move and its status
            row.status = "over"
            await self.store.write(
                queries.update_table(row.id, status="over", result=state.result().to_dict())
            )
        return table

    async def get(self, table_id: str) -> Table:
        """A table by id: live, or loaded from the database (finished ones too).  Connections
        that ask for one table at once (a rematch's seats) share one load (in a cluster one
        claim, not one per connection)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda done: self._loaded(table_id, done))
        return await asyncio.shield(loading)  # a waiter that leaves cancels nobody else's load

    def _loaded(self, table_id: str, done: asyncio.Future[Table]) -> None:
        self._loading.pop(table_id, None)
        if not done.cancelled():
            done.exception()  # retrieved: every waiter may have left

    async def _load(self, table_id: str) -> Table:
        since = None
        if self.cluster is not None and len(table_id) <= 16:  # a live table: owned here first
            since = await self.cluster.take(table_id)  # raises Elsewhere (another owner)
        rows = await self.store.read(queries.load_tables(ids=(table_id,)))
        if not rows or rows[0].status == "broken":
            raise ProtocolError("no_table", f"there is no table {quoted(table_id)}")
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        table = await self._revive(rows[0])
        if table is None:
            raise ProtocolError("no_table", f"table {quoted(table_id)} cannot be replayed")
        if since is not None:
            table.clock.carried = since
        table.resume()
        self.maybe_evict(table)
        return table

    async def adopt(self, table_id: str, since: float | None) -> None:
        """Cluster: a table just claimed (its owner died or handed it over), replayed from its
        log, its clock resumed ``since`` seconds into the running decision."""
        if table_id in self.tables:
            return
        rows = await self.store.read(queries.load_tables(ids=(table_id,)))
        if not rows or table_id in self.tables:
            return
        table = await self._revive(rows[0])
        if table is not None:
            table.clock.carried = since or 0.0
            table.resume()

    def drop(self, table: Table) -> None:
        """Cluster: stop serving a table another instance owns now; its people reconnect
        (code 4004) through the proxy to the new owner."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        table.close()
        for conn in table.connections():
            conn.close(4004, "moved")

    async def create(self, body: Any) -> tuple[Table, dict[int, str]]:
        row, state, tokens, spectator_chat = new_table(body, self.config.bot_time_limit, self.new_seed())
        ops = [queries.insert_table(row), *chat.rule_ops(row.id, spectator_chat)]
        if self.cluster is None or not tokens:  # owned here (cluster: a table of bots only)
            if self.cluster is not None:
                ops.append(self.cluster.own_op(row.id))
            await self.store.write(*ops)
            table = self.tables[row.id] = Table(row, state, self)
            table.resume()
            return table, tokens
        await self.store.write(*ops)  # cluster: owned by the instance its first client reaches
        return Table(row, state, self), tokens

    async def join(self, table_id: str, body: Any) -> tuple[Table, int, str]:
        """A seat open to anyone for a joiner (``free_seat``), with a new token (the creator's
        link for that open seat dies); a name another person at the table has is refused."""
        table = await self.get(table_id)
        seat, name = join_request(body, table.row.players)
        async with table.lock:
            seat = free_seat(table, seat)
            others = [s.name for i, s in enumerate(table.seats) if s.human and i != seat]
            if name is not None and same_name(name, others):
                raise ProtocolError(
                    "bad_request",
                    f"a person at table {table.id} is already named {quoted(name)}: choose another name",
                )
            token = new_token()
            await table.claim(seat, token_hash(token), name)
            table.changed()
        return table, seat, token

    async def rematch(self, table: Table) -> str:
        """The next game with the same seats, game and options (a new seed); made once, even
        when two instances of a cluster read the finished table and are asked at once (the
        table row takes the first rematch only: the other instance points at that one)."""
        async with table.lock:
            if table.row.rematch is not None:
                return table.row.rematch
            if not table.state.over:
                raise ProtocolError("not_over", "a rematch can be asked for once the game is over")
            row = rematch_row(table, self.new_seed())
            humans = any(s.human for s in table.seats)
            ops = [queries.set_rematch(table.id, row.id), queries.insert_table(row)]
            if self.cluster is not None and not humans:
                ops.append(self.cluster.own_op(row.id))
            try:
                await table.write(*ops)
            except queries.Taken:
                row.id = await self.store.read(queries.rematch_of(table.id))
            else:
                if self.cluster is None or not humans:  # cluster: its first client's instance owns it
                    state = get_game(row.game).new(row.players, row.options, row.seed)
                    self.tables[row.id] = Table(row, state, self)
                    self.tables[row.id].resume()
            table.row.rematch = row.id
            table.broadcast()
            for conn in table.connections():
                conn.send({"type": "rematch", "table": row.id})
        return row.id

    async def listing(
        self, status: str, offset: int = 0, limit: int = 50, ids: tuple[str, ...] | None = None
    ) -> tuple[list[dict[str, Any]], bool]:
        """One page of the stored tables' public info (``queries.list_tables``; a live table
        as it is now) and whether more follow: finished ones too, across restarts."""
        rows, more = await self.store.read(queries.list_tables(status, offset, limit, ids))
        return [self.public(row.id, row) for row in rows], more

    def public(self, table_id: str, row: TableRow | None = None) -> dict[str, Any]:
        """A table's public info, each seat saying whether a lobby join may take it (``open``)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table.public()
        assert row is not None
        return stored_public(row)

    def maybe_evict(self, table: Table) -> None:
        """Drop a finished table nobody watches from memory (after a while)."""
        if table.row.status not in LIVE and not table.connections() and table.id not in self._evictions:
            loop = asyncio.get_running_loop()
            self._evictions[table.id] = loop.call_later(self.config.evict_after, self._evict, table.id)

    def _evict(self, table_id: str) -> None:
        self._evictions.pop(table_id, None)
        table = self.tables.get(table_id)
        if table is not None and not table.connections() and table.row.status not in LIVE:
            table.close()
            del self.tables[table_id]

    def health(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for table in self.tables.values():
            counts[table.row.status] = counts.get(table.row.status, 0) + 1
        return {
            "ok": True,
            "tables": counts,
            "connections": self.connections,
            "accepted": self.accepted,
            "moves": self.moves,
            "uptime": round(time.time() - self.started, 1),
            **({} if self.cluster is None else {"ok": self.cluster.held, "cluster": self.cluster.health()}),
        }


def free_seat(table: Table, seat: int | None) -> int:
    """The seat a lobby join takes: a free one the creator left open to anyone (a seat made
    for a person opens only with its link, so a join never kills a link that was sent)."""
    free = [i for i, s in enumerate(table.seats) if s.human and not s.claimed]
    open_ = [i for i in free if table.row.seats[i].open]
    if seat is None:
        if not open_:
            raise ProtocolError("no_free_seat", f"table {table.id} has no seat open to anyone")
        return open_[0]
    if not table.seats[seat].human:
        raise ProtocolError("bad_request", f"seat {seat} is a bot seat")
    if seat not in free:
        raise ProtocolError("seat_taken", f"seat {seat} of table {table.id} is taken")
    if seat not in open_:
        raise ProtocolError(
            "seat_kept",
            f"seat {seat} of table {table.id} is kept for "
            f"{quoted(table.seats[seat].name)}: only the link of that seat opens it",
        )
    return seat


def stored_public(row: TableRow) -> dict[str, Any]:
    """The public info of a table not in memory, from its stored row (nobody connected)."""
    try:
        name = get_game(row.game).info.name
    except KitiError:
        name = row.game
    seats = [
        Seat(s.kind, s.name, s.token_hash, s.claimed, s.open).info(i, s.kind != "human")
        for i, s in enumerate(row.seats)
    ]
    return table_info(row, name, seats)


def rematch_row(table: Table, seed: int) -> TableRow:
    old = table.row
    seats = [SeatRow(s.kind, s.name, s.token_hash, not s.human) for s in table.seats]
    status = "waiting" if any(s.human for s in table.seats) else "playing"
    return TableRow(
        id=new_table_id(),
        game=old.game,
        version=old.version,
        players=old.players,
        options=dict(old.options),
        seed=seed,
        timer=old.timer,
        takeover=old.takeover,
        stand_in=old.stand_in,
        status=status,
        created=time.time(),
        rematch_of=old.id,
        seats=seats,
    )
