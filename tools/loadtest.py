"""Load test: N concurrent tables of scripted random clients over real WebSockets.

    python tools/loadtest.py --tables 1000 --serve        # starts its own kiti serve
    python tools/loadtest.py --tables 1000 --serve --postgres   # and its own PostgreSQL
    python tools/loadtest.py --tables 500 --url http://127.0.0.1:8000

Every human seat of every table is a client on its own WebSocket that, when its seat is to
act, "thinks" for a random time around ``--think`` seconds, then sends a random legal move
(walking a move's steps first in games with many moves, as a browser does).  What a player
feels is timed: the latency of a move is from its sending to its receipt by EVERY other
seat of the table (one figure per other seat: the server has checked the move, committed it
to the database and broadcast it); the mover's own answer is timed too.  A move that gets
no answer within ``--answer-timeout`` seconds, an other seat that never receives it, and
any error the server sends count as errors (the client then reconnects and plays on).

The tables follow ``--mix`` (e.g. ``miaui:3,mauw:4,motu:2``: game and seats, in turn);
``--bots K`` makes the last K seats of each table server-side bots; ``--spectators S``
adds S watchers per table on average; ``--storm-every T`` drops ``--storm-share`` of the
seats' connections at once every T seconds (a reconnect storm), each reconnecting with its
cursor as the web client does (docs/protocol.md, "Reconnecting": after half a second, spread
at random over 0.25 to 0.75 s; ``--storm-wait 0`` reconnects every one in the same instant).  Tables start at random times during ``--warmup`` (not measured); a
finished table asks for a rematch and plays on, until ``--duration`` more seconds have
passed.  Prints the figures; ``--json`` prints them as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import multiprocessing
import os
import pwd
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

try:  # the clients parse what they receive with orjson where installed (the [server] extra):
    # they share the machine with the server, so their own cost is kept as small as can be
    import orjson

    loads: Any = orjson.loads

    def _fingerprint_text(value: Any) -> Any:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)

except ImportError:  # pragma: no cover - the tests install it
    loads = json.loads

    def _fingerprint_text(value: Any) -> Any:
        return json.dumps(value, sort_keys=True)


@dataclass
class Plan:
    """What the clients do (the same for every client process)."""

    think: float = 2.0
    duration: float = 60.0
    warmup: float = 15.0
    answer_timeout: float = 10.0
    storm_every: float = 0.0
    storm_share: float = 0.1
    storm_wait: float = 0.5  # a dropped client's first wait (x 0.5 to 1.5), as connection.js


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)  # send to receipt by each other seat
    own: list[float] = field(default_factory=list)  # send to the mover's own answer
    errors: Counter[str] = field(default_factory=Counter)  # by kind: a server code, unanswered, unreceived
    moves: int = 0  # moves sent (after the warm-up)
    expected: int = 0  # receipts awaited: for each move, every other seat connected when it was sent
    received: int = 0
    games: int = 0
    connections: int = 0
    spectators: int = 0
    storms: int = 0
    warm: float = 0.0  # counting starts at this time.monotonic()


def fingerprint(m: dict[str, Any]) -> Any:
    """What every viewer's copy of one broadcast shares (each viewer's view differs), as
    bytes or text: compared, never shown."""
    return _fingerprint_text([m["table"], m["to_act"], m["over"], m["clock"]])


class Watch:
    """One table's seats in this client process: which of its moves each other seat has yet
    to receive.  A seat logs every state message it receives (time, fingerprint); a move,
    once its mover's answer gives the broadcast's fingerprint, is received by seat B at the
    first message B logged after the move was sent with that fingerprint."""

    def __init__(self, stats: Stats, timeout: float) -> None:
        self.stats, self.timeout = stats, timeout
        self.seats: dict[int, Seat] = {}
        self.open: list[tuple[float, float, str | None, set[int], bool]] = []  # t0, due, fp, waiting, counted

    def sent(self, mover: int) -> tuple[float, dict[int, int]]:
        """A move is sent: the other seats connected now (each with its connection's number)
        must receive it."""
        return time.perf_counter(), {
            s: seat.gen for s, seat in self.seats.items() if s != mover and seat.live
        }

    def answered(self, t0: float, fp: Any, others: dict[int, int], counted: bool) -> None:
        """The mover's answer came: the broadcast's fingerprint is known (a seat that
        reconnected meanwhile owes nothing)."""
        waiting = {s for s, gen in others.items() if self.seats[s].gen == gen and self.seats[s].live}
        if counted:
            self.stats.expected += len(waiting)
        for s in list(waiting):
            t = self.seats[s].first_since(t0, fp)
            if t is not None:
                waiting.discard(s)
                self._count(t - t0, counted)
        if waiting:
            self.open.append((t0, time.perf_counter() + self.timeout, fp, waiting, counted))

    def arrived(self, seat: int, t: float, fp: Any) -> None:
        for t0, _, f, waiting, counted in self.open:
            if seat in waiting and f == fp and t >= t0:
                waiting.discard(seat)
                self._count(t - t0, counted)
        self.expire(time.perf_counter())

    def left(self, seat: int) -> None:
        """A seat's connection closed: it no longer owes any receipt not yet due."""
        self.expire(time.perf_counter())
        for _, _, _, waiting, counted in self.open:
            if seat in waiting:
                waiting.discard(seat)
                if counted:
                    self.stats.expected -= 1

    def _count(self, latency: float, counted: bool) -> None:
        if counted:
            self.stats.received += 1
            self.stats.latencies.append(latency)

    def expire(self, now: float) -> None:
        """Receipts due before ``now`` and still missing count as errors."""
        keep = []
        for item in self.open:
            if item[3] and now > item[1]:
                if item[4]:
                    self.stats.errors["unreceived"] += len(item[3])
            elif item[3]:
                keep.append(item)
        self.open = keep


class Seat:
    """One scripted client: a seat of a table (a spectator without a token), moving at
    random after thinking, reconnecting after an error, a timeout or a storm."""

    def __init__(
        self,
        ws_url: str,
        table: str,
        token: str | None,
        seat: int,
        watch: Watch,
        plan: Plan,
        stats: Stats,
        end: float,
        delay: float = 0.0,
    ) -> None:
        self.ws_url, self.table, self.token, self.seat, self.delay = ws_url, table, token, seat, delay
        self.watch, self.plan, self.stats, self.end = watch, plan, stats, end
        self.rng = random.Random()
        self.ws: Any = None
        self.live = False  # connected and joined
        self.gen = 0  # this seat's connections so far
        self.cursor = 0
        self.log: list[tuple[float, Any]] = []  # the state messages received: time, fingerprint
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}  # answers awaited, by id
        self.n = 0
        self.mover: asyncio.Task[None] | None = None
        self.last: dict[str, Any] = {"your_turn": False}  # the newest state message
        self.stormed = False  # dropped by a storm: wait as the web client does before reconnecting

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        await asyncio.sleep(self.delay)  # tables start (and so finish) at different times
        while time.monotonic() < self.end:
            try:
                async with connect(
                    f"{self.ws_url}?table={self.table}",  # the table in the URL: a proxy routes by it
                    max_size=2**22,
                    ping_interval=None,
                    compression=None,
                    open_timeout=self.plan.answer_timeout,
                ) as ws:
                    next_table = await self.session(ws)
            except (OSError, TimeoutError) as exc:
                self.stats.errors["connect: " + type(exc).__name__] += 1
                next_table = self.table
                await asyncio.sleep(1.0)
            if next_table is None:
                return
            self.table = next_table
            if self.stormed:
                self.stormed = False
                await asyncio.sleep(self.plan.storm_wait * (0.5 + self.rng.random()))

    async def session(self, ws: Any) -> str | None:
        """One connection: join, play; the table to go on at (None: time is up)."""
        from websockets.exceptions import ConnectionClosed

        self.ws, self.log = ws, []
        self.gen += 1
        self.stats.connections += 1
        if self.token is not None:
            self.watch.seats[self.seat] = self
        hello = {"type": "hello", "v": 1, "table": self.table, "since": self.cursor}
        try:
            await ws.send(json.dumps(hello if self.token is None else {**hello, "token": self.token}))
            return await self.play(ws)
        except ConnectionClosed:
            return self.table
        finally:
            self.drop()

    def drop(self) -> None:
        self.live = False
        if self.mover is not None:
            self.mover.cancel()
        for future in self.waiting.values():
            future.cancel()
        self.waiting.clear()
        self.watch.left(self.seat)

    async def play(self, ws: Any) -> str | None:
        """Read this table's messages; the rematch's table id (None: time is up)."""
        async for frame in ws:
            m = loads(frame)
            kind = m["type"]
            if kind == "welcome":
                self.live = self.token is not None
            elif kind == "state":
                if not self.on_state(m):
                    await asyncio.sleep(0.2)
                    return self.table  # an error: a fresh connection, a fresh state
                if m["over"] and self.token is not None:
                    return await self.rematch(ws, m)
            elif kind == "rematch":
                self.cursor = 0
                return m["table"] if time.monotonic() < self.end else None
            elif not self.on_answer(m):
                await asyncio.sleep(0.2)
                return self.table
        return self.table

    def on_state(self, m: dict[str, Any]) -> bool:
        now, fp = time.perf_counter(), fingerprint(m)
        self.cursor = m["cursor"]
        if self.token is None:
            return True
        self.log.append((now, fp))
        if len(self.log) > 64:
            del self.log[:32]
        self.watch.arrived(self.seat, now, fp)
        if not self.on_answer(m):
            return False
        self.last = m
        if m["your_turn"] and not self.waiting and (self.mover is None or self.mover.done()):
            self.mover = asyncio.get_running_loop().create_task(self.move())
        return True

    def on_answer(self, m: dict[str, Any]) -> bool:
        """An answer to one of our messages resolves its wait; False for an error."""
        future = self.waiting.pop(m["re"], None) if isinstance(m.get("re"), int) else None
        if future is not None and not future.done():
            future.set_result(m)
        if m["type"] == "error":
            if time.monotonic() >= self.stats.warm:
                self.stats.errors[m.get("code", "error")] += 1
            return False
        return True

    def first_since(self, t0: float, fp: Any) -> float | None:
        return next((t for t, f in self.log if t >= t0 and f == fp), None)

    async def ask(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Send ``message`` with a new id; its answer (None: an error was counted, reconnect)."""
        self.n += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.n] = future
        await self.ws.send(json.dumps({**message, "id": self.n}))
        try:
            answer = await asyncio.wait_for(future, self.plan.answer_timeout)
        except TimeoutError:
            self.waiting.pop(self.n, None)
            if time.monotonic() >= self.stats.warm:
                self.stats.errors["unanswered"] += 1
            await self.ws.close()
            return None
        return answer if answer["type"] != "error" else None

    async def move(self) -> None:
        await asyncio.sleep(self.plan.think * self.rng.uniform(0.5, 1.5))
        m = self.last  # the newest state: the table may have changed while thinking
        if time.monotonic() >= self.end or not m["your_turn"]:
            return
        text = await self.choose(m)
        if text is None:
            return
        counted = time.monotonic() >= self.stats.warm
        t0, others = self.watch.sent(self.seat)
        answer = await self.ask({"type": "move", "move": text})
        if answer is None:
            return
        if counted:
            self.stats.moves += 1
            self.stats.own.append(time.perf_counter() - t0)
        self.watch.answered(t0, fingerprint(answer), others, counted)

    async def choose(self, m: dict[str, Any]) -> str | None:
        """A random legal move: from the list, or step by step (a ``steps`` request a token)."""
        if m["legal"]:
            return str(self.rng.choice(m["legal"]))
        steps, prefix = m["steps"], []
        while steps:
            step = self.rng.choice(steps)
            if step["move"] is not None and (step["count"] == 1 or self.rng.random() < 0.5):
                return str(step["move"])
            prefix.append(step["token"])
            answer = await self.ask({"type": "steps", "prefix": prefix})
            if answer is None:
                return None
            steps = answer["steps"]
        return None

    async def rematch(self, ws: Any, m: dict[str, Any]) -> str | None:
        if time.monotonic() >= self.end:
            return None
        if m["you"] == min(s["seat"] for s in m["table"]["seats"] if s["kind"] == "human"):
            self.stats.games += 1
            await ws.send(json.dumps({"type": "rematch"}))
        async for frame in ws:
            if (r := loads(frame))["type"] == "rematch":
                self.cursor = 0
                return str(r["table"])
        return None


def parse_mix(text: str) -> list[tuple[str, int]]:
    """``miaui:3,mauw:4,motu:2`` as (game, seats) pairs."""
    out = []
    for part in text.split(","):
        game, _, seats = part.strip().partition(":")
        if not game or not seats.isdigit():
            raise SystemExit(f"--mix: write game:seats, e.g. miaui:3,mauw:4, not {part.strip()[:40]!r}")
        out.append((game, int(seats)))
    return out


async def make_tables(url: str, n: int, mix: list[tuple[str, int]], bots: int) -> list[dict[str, Any]]:
    import httpx

    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as http:

        async def one(i: int) -> dict[str, Any]:
            game, players = mix[i % len(mix)]
            seats = ["human"] * (players - bots) + ["random"] * bots
            r = await http.post("/api/tables", json={"game": game, "seats": seats})
            r.raise_for_status()
            return dict(r.json())

        return list(await asyncio.gather(*(one(i) for i in range(n))))


def clients(
    ws_url: str, tables: list[dict[str, Any]], plan: Plan, stats: Stats, spectators: float, end: float
) -> list[Seat]:
    """Every seat's client, and the spectators, each table starting at a random time."""
    out = []
    for t in tables:
        delay, watch = random.uniform(0, plan.warmup), Watch(stats, plan.answer_timeout)
        tid = t["table"]["id"]
        out += [Seat(ws_url, tid, s["token"], s["seat"], watch, plan, stats, end, delay) for s in t["seats"]]
        watchers = int(spectators) + (random.random() < spectators % 1)
        out += [Seat(ws_url, tid, None, -1 - i, watch, plan, stats, end, delay) for i in range(watchers)]
        stats.spectators += watchers
    return out


async def storms(seats: list[Seat], plan: Plan, stats: Stats, end: float) -> None:
    """Every ``storm_every`` seconds, close a share of the seats' connections at once."""
    players = [s for s in seats if s.token is not None]
    while plan.storm_every > 0 and time.monotonic() + plan.storm_every < end:
        await asyncio.sleep(plan.storm_every)
        hit = [
            s
            for s in random.sample(players, int(len(players) * plan.storm_share))
            if s.live and not s.waiting
        ]
        stats.storms += 1
        for s in hit:
            s.stormed = True
        await asyncio.gather(*(s.ws.close() for s in hit), return_exceptions=True)


async def drive(url: str, tables: list[dict[str, Any]], plan: Plan, spectators: float = 0.0) -> Stats:
    stats = Stats(warm=time.monotonic() + plan.warmup)
    end = time.monotonic() + plan.warmup + plan.duration
    seats = clients(url.replace("http", "ws", 1) + "/ws", tables, plan, stats, spectators, end)
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(s.run()) for s in seats] + [loop.create_task(storms(seats, plan, stats, end))]
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    watches = list({id(s.watch): s.watch for s in seats}.values())
    settle = time.monotonic() + plan.answer_timeout + 0.5  # answers to the last moves
    while time.monotonic() < settle and (any(s.waiting for s in seats) or any(w.open for w in watches)):
        await asyncio.sleep(0.05)
        for watch in watches:
            watch.expire(time.perf_counter())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def worker(args: tuple[str, list[dict[str, Any]], Plan, float]) -> dict[str, Any]:
    try:
        import uvloop  # the clients' own overhead, as small as can be

        stats = uvloop.run(drive(*args))
    except ImportError:
        stats = asyncio.run(drive(*args))
    return {**asdict(stats), "errors": dict(stats.errors)}


def health(url: str) -> dict[str, Any]:
    import httpx

    return dict(httpx.get(url + "/api/health", timeout=30).json())


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def run(
    opts: argparse.Namespace, url: str, server_pid: int | None = None, cluster: list[Server] | None = None
) -> dict[str, Any]:
    """One measured run against ``url``; with ``cluster`` (the instances behind a proxy at
    ``url``) the moves and CPU are summed over the instances, and the tables each owns and
    the connections relayed are reported."""
    servers = cluster or [Server(url, server_pid)]

    def sample() -> tuple[int, float | None]:
        moves = sum(health(s.url)["moves"] for s in servers)
        cpus = [None if s.pid is None else cpu_seconds(s.pid) for s in servers]
        return moves, None if None in cpus else sum(c for c in cpus if c is not None)

    out = measure(opts, url, sample)
    if cluster:
        out.update(spread([health(s.url) for s in cluster]))
    return out


@dataclass
class Server:
    url: str
    pid: int | None = None


def spread(healths: list[dict[str, Any]]) -> dict[str, Any]:
    """How a cluster shared the work: tables owned per instance, their spread (most / fewest)
    and the share of connections relayed between instances."""
    owned = [h["cluster"]["owned"] for h in healths]
    relayed = sum(h["cluster"]["relayed"] for h in healths)
    connections = sum(h["accepted"] for h in healths)
    return {
        "instances": len(healths),
        "owned": owned,
        "spread": round(max(owned) / max(1, min(owned)), 2),
        "relayed": relayed,
        "relayed_share": round(relayed / max(1, connections), 4),
    }


def measure(opts: argparse.Namespace, url: str, sample: Any) -> dict[str, Any]:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)  # earlier runs' processes (--compare)
    tables = asyncio.run(make_tables(url, opts.tables, parse_mix(opts.mix), opts.bots))
    plan = Plan(
        opts.think,
        opts.duration,
        opts.warmup,
        opts.answer_timeout,
        opts.storm_every,
        opts.storm_share,
        opts.storm_wait,
    )
    chunks = [(url, tables[i :: opts.procs], plan, opts.spectators) for i in range(opts.procs)]
    with multiprocessing.get_context("spawn").Pool(opts.procs) as pool:
        job = pool.map_async(worker, chunks)
        time.sleep(opts.warmup)  # connecting, first moves
        moves0, cpu0 = sample()
        time.sleep(opts.duration)
        moves1, cpu1 = sample()
        moves = moves1 - moves0
        results = job.get()
    client_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    clients = client_cpu.ru_utime + client_cpu.ru_stime - used.ru_utime - used.ru_stime
    return figures(opts, results, moves, None if cpu0 is None or cpu1 is None else cpu1 - cpu0, clients)


def figures(
    opts: argparse.Namespace,
    results: list[dict[str, Any]],
    moves: int,
    server_cpu: float | None,
    client_cpu: float,
) -> dict[str, Any]:
    lat = [x for r in results for x in r["latencies"]]
    own = [x for r in results for x in r["own"]]
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
    total = {
        k: sum(r[k] for r in results)
        for k in ("moves", "expected", "received", "games", "connections", "spectators", "storms")
    }
    return {
        "tables": opts.tables,
        "mix": opts.mix,
        "think": opts.think,
        "seconds": opts.duration,
        "server_moves": moves,
        "moves_per_s": round(moves / opts.duration, 1),
        **total,
        "storms": total["storms"] // max(1, opts.procs),
        "errors": sum(errors.values()),
        "error_kinds": dict(errors),
        **{f"p{p}_ms": round(1000 * percentile(lat, p), 2) for p in (50, 90, 99)},
        "max_ms": round(1000 * max(lat, default=float("nan")), 2),
        "own_p99_ms": round(1000 * percentile(own, 99), 2),
        "server_cpu_ms_per_move": None if server_cpu is None else round(1000 * server_cpu / max(1, moves), 3),
        "client_cpu_ms_per_move": round(1000 * client_cpu / max(1, moves), 3),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_cluster(
    opts: argparse.Namespace, folder: str
) -> tuple[list[subprocess.Popen[bytes]], list[Server], str]:
    """``--instances`` kiti serve --cluster on the PostgreSQL of ``opts.db`` and HAProxy in
    front (its configuration printed by kiti serve --print-haproxy); the processes
    (the proxy last), the instances and the proxy's URL."""
    haproxy = shutil.which("haproxy")
    if haproxy is None or not opts.db.startswith("postgres"):
        raise SystemExit(
            "--instances needs HAProxy (apt-get install haproxy) and --postgres or --db postgresql://"
        )
    procs, servers = [], []
    for _ in range(opts.instances):
        proc, url = start_server(opts, folder, ["--cluster", "--lease", str(opts.lease)], wait=False)
        procs.append(proc)
        servers.append(Server(url, proc.pid))
    for server in servers:
        ready(server.url, procs)
    port = free_port()
    config = Path(folder) / "haproxy.cfg"
    addresses = [s.url.split("//", 1)[1] for s in servers]
    printed = subprocess.run(
        [sys.executable, "-m", "kiti", "serve", "--print-haproxy", ",".join(addresses), "--port", str(port)],
        check=True,
        capture_output=True,
        text=True,
    )
    config.write_text(printed.stdout)
    procs.append(subprocess.Popen([haproxy, "-f", str(config), "-db"], stdout=subprocess.DEVNULL))
    url = f"http://127.0.0.1:{port}"
    ready(url, procs)
    return procs, servers, url


def ready(url: str, procs: list[subprocess.Popen[bytes]]) -> None:
    for _ in range(300):
        try:
            if health(url).get("ok", True):
                return
        except Exception:
            pass
        time.sleep(0.1)
    for proc in procs:
        proc.kill()
    raise SystemExit(f"the server at {url} did not start")


def start_server(
    opts: argparse.Namespace, folder: str, extra: tuple[str, ...] | list[str] = (), wait: bool = True
) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    db = opts.db or f"sqlite:///{folder}/kiti.db"
    cmd = [
        sys.executable,
        "-m",
        "kiti",
        "serve",
        "--port",
        str(port),
        "--db",
        db,
        "--log-level",
        "warning",
        "--bot-workers",
        str(opts.bot_workers),
        "--conns-per-address",
        "0",
        "--tables-per-minute",
        "0",
        "--max-connections",
        "100000",
        *extra,
    ]
    proc = subprocess.Popen(cmd)
    url = f"http://127.0.0.1:{port}"
    if wait:
        ready(url, [proc])
    return proc, url


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A throw-away PostgreSQL (initdb and pg_ctl on PATH or in /usr/lib/postgresql/*/bin,
    as the postgres user when run as root), its socket in a temporary folder; its URL."""
    found = shutil.which("initdb")
    bins = [os.path.dirname(found)] if found else sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    if not bins:
        raise SystemExit("--postgres needs PostgreSQL's initdb and pg_ctl (apt-get install postgresql)")
    folder = tempfile.mkdtemp(prefix="kiti-load-pg-")
    os.chmod(folder, 0o755)
    sudo: list[str] = []
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        sudo = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--clear-groups", "--"]
    data = f"{folder}/data"
    ctl = [*sudo, f"{bins[0]}/pg_ctl", "-D", data, "-w"]
    try:
        subprocess.run(
            [*sudo, f"{bins[0]}/initdb", "-D", data, "-U", "kiti", "--auth=trust", "-E", "UTF8"],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            [
                *ctl,
                "-l",
                f"{folder}/log",
                "-o",
                f"-k {folder} -c listen_addresses='' -c max_connections=50",
                "start",
            ],
            check=True,
            capture_output=True,
        )
        try:
            yield f"postgresql://kiti@/postgres?host={folder}"
        finally:
            subprocess.run([*ctl, "-m", "fast", "stop"], capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python tools/loadtest.py", description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8000", help="a running server (see --serve)")
    p.add_argument("--serve", action="store_true", help="start a kiti serve of its own (temporary SQLite)")
    p.add_argument("--db", default="", help="with --serve: the database URL")
    p.add_argument(
        "--postgres",
        action="store_true",
        help="with --serve: a throw-away PostgreSQL server of its own (default settings)",
    )
    p.add_argument("--bot-workers", type=int, default=1, help="with --serve: bot worker processes")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--mix", default="miaui:3,mauw:4,motu:2", help="game:seats of the tables, in turn")
    p.add_argument("--bots", type=int, default=0, help="server-side random bots per table (the last seats)")
    p.add_argument("--spectators", type=float, default=0.2, help="spectators per table, on average")
    p.add_argument(
        "--storm-every", type=float, default=20.0, help="seconds between reconnect storms (0: none)"
    )
    p.add_argument("--storm-share", type=float, default=0.1, help="share of the seats a storm disconnects")
    p.add_argument(
        "--storm-wait",
        type=float,
        default=0.5,
        help="a dropped seat's wait before reconnecting, spread over 0.5-1.5 times it as the web client does "
        "(0: all at once)",
    )
    p.add_argument("--think", type=float, default=2.0, help="mean seconds a client thinks before moving")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    p.add_argument(
        "--warmup",
        type=float,
        default=15.0,
        help="seconds before measuring: each table connects and starts at a random time in it",
    )
    p.add_argument(
        "--answer-timeout",
        type=float,
        default=10.0,
        help="seconds after which an unanswered move or an unreceived one is an error",
    )
    p.add_argument("--procs", type=int, default=1, help="client processes")
    p.add_argument(
        "--instances",
        type=int,
        default=1,
        help="with --serve and PostgreSQL: N kiti serve --cluster behind HAProxy (docs/deploy.md)",
    )
    p.add_argument("--lease", type=float, default=10.0, help="with --instances: the instances' lease (s)")
    p.add_argument(
        "--compare",
        type=int,
        default=0,
        metavar="ROUNDS",
        help="with --instances: ROUNDS pairs of runs, one instance alone then the cluster, "
        "each on a fresh PostgreSQL, and the differences",
    )
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    return p.parse_args(argv)


def report(out: dict[str, Any]) -> None:
    print(
        f"{out['tables']} tables ({out['mix']}), {out['connections']} client connections "
        f"({out['spectators']} spectators, {out['storms']} reconnect storms), think {out['think']} s, "
        f"{out['seconds']} s measured, cpu count {os.cpu_count()}"
    )
    print(
        f"{out['server_moves']} moves on the server ({out['moves_per_s']}/s); {out['moves']} client moves, "
        f"{out['received']} of {out['expected']} receipts by the other seats; "
        f"{out['games']} games finished; {out['errors']} errors {out['error_kinds'] or ''}"
    )
    print(
        f"move to every other seat: p50 {out['p50_ms']} ms, p90 {out['p90_ms']} ms, "
        f"p99 {out['p99_ms']} ms, max {out['max_ms']} ms (the mover's own answer: p99 {out['own_p99_ms']} ms)"
    )
    if "instances" in out:
        print(
            f"{out['instances']} instances: tables owned {out['owned']} (spread {out['spread']}), "
            f"{out['relayed']} connections relayed ({100 * out['relayed_share']:.2f}%)"
        )
    if out["server_cpu_ms_per_move"] is not None:
        print(f"server CPU per move: {out['server_cpu_ms_per_move']} ms")
    print(f"client CPU per move: {out['client_cpu_ms_per_move']} ms (whole run, connecting included)")


def one_run(opts: argparse.Namespace, instances: int) -> dict[str, Any]:
    """One run: a server of its own (``instances`` of them behind a proxy), or ``--url``."""
    with contextlib.ExitStack() as stack:
        folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="kiti-load-"))
        if opts.postgres:
            opts.db = stack.enter_context(postgres())
        if opts.serve and instances > 1:
            procs, servers, url = start_cluster(opts, folder)
            stack.callback(stop, procs)
            return run(opts, url, cluster=servers)
        proc, url = start_server(opts, folder) if opts.serve else (None, opts.url.rstrip("/"))
        if proc is not None:
            stack.callback(stop, [proc])
        return run(opts, url, None if proc is None else proc.pid)


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in reversed(procs):
        proc.terminate()
    for proc in procs:
        proc.wait(30)


def compare(opts: argparse.Namespace) -> list[dict[str, Any]]:
    """``--compare`` rounds: one instance alone, then the cluster, each round in turn."""
    rounds = []
    for i in range(opts.compare):
        single = one_run(opts, 1)
        cluster = one_run(opts, opts.instances)
        rounds.append({"round": i + 1, "single": single, "cluster": cluster})
        if not opts.json:
            print(f"round {i + 1}: one instance")
            report(single)
            print(f"round {i + 1}: {opts.instances} instances through HAProxy")
            report(cluster)
            print(
                f"p99 difference {cluster['p99_ms'] - single['p99_ms']:+.2f} ms; tables per instance "
                f"{cluster['owned']} (spread {cluster['spread']}); {cluster['relayed']} connections "
                f"relayed ({100 * cluster['relayed_share']:.2f}%)\n",
                flush=True,
            )
    return rounds


def main(argv: list[str] | None = None) -> None:
    opts = parse(argv)
    if opts.compare:
        rounds = compare(opts)
        if opts.json:
            print(json.dumps(rounds))
        return
    out = one_run(opts, opts.instances)
    if opts.json:
        print(json.dumps(out))
    else:
        report(out)


if __name__ == "__main__":
    main()
