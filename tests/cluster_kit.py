"""A Kiti cluster on loopback for tests (issue 22): a real PostgreSQL (pg_kit), N ``kiti serve
--cluster`` processes and HAProxy in front of them (its configuration from
``kiti.server.cluster.haproxy_config``, as ``kiti serve --print-haproxy`` prints it), plus
scripted players that play through the proxy and remember every move the server
acknowledged, and the database's view of the tables (moves, owners) to check them against.
Skips with a clear reason where HAProxy is missing (.ci/run installs it)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import waits
from serve_kit import ROOT, free_port

pytest.importorskip("websockets", reason="the cluster tests need the [server] extra")
pytest.importorskip("psycopg", reason="the cluster tests need the [server] extra")

from sqlalchemy import create_engine, text

from kiti.server.cluster import haproxy_config
from kiti.server.store import engine_url

LEASE = 2.0  # seconds: short, so that failover tests run fast
CLAIM_DELAY = 0.5
CHECK = 0.3  # HAProxy's health check interval (seconds)


def get_json(url: str, timeout: float = 5.0) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url, timeout=waits.seconds(timeout)) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def post_json(url: str, body: Any) -> tuple[int, Any]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=waits.seconds(10)) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


class Instance:
    """``kiti serve --cluster`` on a free loopback port (started at once, ready later)."""

    def __init__(self, db: str, log: Path, lease: float = LEASE) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.base = f"http://{self.address}"
        self.log_path = log
        self.log = log.open("ab")
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        args = ["--port", str(self.port), "--db", db, "--cluster", "--lease", str(lease)]
        args += ["--claim-delay", str(CLAIM_DELAY), "--bot-threads", "--bot-workers", "1"]
        args += ["--conns-per-address", "0", "--tables-per-minute", "0", "--log-level", "warning"]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "kiti.cli.main", "serve", *args],
            env=env,
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def health(self) -> dict[str, Any] | None:
        try:
            return get_json(self.base + "/api/health", 2.0)[1]  # type: ignore[no-any-return]
        except OSError:
            return None

    def ready(self, timeout: float = waits.START) -> None:
        end = time.monotonic() + timeout
        while True:
            h = self.health()
            if h is not None and h.get("ok"):
                return
            if self.proc.poll() is not None or time.monotonic() > end:
                pytest.fail("kiti serve --cluster did not start:\n" + self.tail())
            time.sleep(0.1)

    def tail(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def signal(self, sig: int) -> None:
        os.kill(self.proc.pid, sig)

    def kill9(self) -> None:
        self.signal(signal.SIGKILL)
        self.proc.wait(waits.seconds(30))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(waits.seconds(30))
            except subprocess.TimeoutExpired:
                self.kill9()
        self.log.close()


class Proxy:
    """HAProxy in the foreground with the generated configuration."""

    def __init__(self, servers: list[str], folder: Path) -> None:
        binary = shutil.which("haproxy")
        if binary is None:
            pytest.skip("HAProxy is not installed: apt-get install -y haproxy")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.config = haproxy_config(servers, f"127.0.0.1:{self.port}", CHECK)
        path = folder / "haproxy.cfg"
        path.write_text(self.config)
        self.log = (folder / "haproxy.log").open("ab")
        self.proc = subprocess.Popen(
            [binary, "-f", str(path), "-db"], stdout=self.log, stderr=subprocess.STDOUT
        )
        end = time.monotonic() + waits.START
        while True:
            try:
                if get_json(self.base + "/api/health", 2.0)[0] == 200:
                    return
            except OSError:
                pass
            if self.proc.poll() is not None or time.monotonic() > end:
                pytest.fail("haproxy did not start: " + (folder / "haproxy.log").read_text()[-2000:])
            time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(waits.seconds(10))
        self.log.close()


def new_database(server_url: str, name: str) -> str:
    """A fresh, empty database on the test's PostgreSQL server; its URL."""
    engine = create_engine(engine_url(server_url), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(text(f"CREATE DATABASE {name}"))
    engine.dispose()
    return server_url.replace("@/postgres?", f"@/{name}?")


class Kit:
    """A PostgreSQL database, ``n`` instances (started together) and the proxy."""

    def __init__(self, db: str, folder: Path, n: int, lease: float = LEASE) -> None:
        self.db, self.folder, self.lease = db, folder, lease
        self.instances = [Instance(db, folder / f"kiti{i + 1}.log", lease) for i in range(n)]
        self.proxy: Proxy | None = None
        self.engine = create_engine(engine_url(db))
        try:
            for instance in self.instances:
                instance.ready()
            self.proxy = Proxy([i.address for i in self.instances], folder)
        except BaseException:
            self.close()
            raise

    def by_address(self, address: str) -> Instance:
        return next(i for i in self.instances if i.address == address)

    def create(self, game: str = "mauw", seats: int | list[str] = 4, **extra: Any) -> dict[str, Any]:
        """A table through the proxy: ``seats`` people, or a list of seat kinds (bot specs)."""
        assert self.proxy is not None
        kinds = ["human"] * seats if isinstance(seats, int) else seats
        status, body = post_json(self.proxy.base + "/api/tables", {"game": game, "seats": kinds, **extra})
        assert status == 201, body
        return body  # type: ignore[no-any-return]

    def query(self, sql: str, **params: Any) -> list[Any]:
        with self.engine.connect() as conn:
            return list(conn.execute(text(sql), params))

    def owner(self, table: str) -> str | None:
        rows = self.query("SELECT owner FROM kiti_tables WHERE id = :t", t=table)
        return rows[0].owner if rows else None

    def moves(self, table: str) -> list[tuple[int, str]]:
        rows = self.query("SELECT seat, move FROM kiti_moves WHERE table_id = :t ORDER BY idx", t=table)
        return [(r.seat, r.move) for r in rows]

    def record(self, table: str) -> dict[str, Any]:
        (row,) = self.query("SELECT * FROM kiti_tables WHERE id = :t", t=table)
        return {
            "game": row.game,
            "version": row.version,
            "players": row.players,
            "options": json.loads(row.options),
            "seed": row.seed,
            "moves": [list(m) for m in self.moves(table)],
        }

    def close(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for instance in self.instances:
            instance.stop()
        self.engine.dispose()


@dataclass
class Player:
    """A seat played at random through ``ws`` (the proxy, or one instance), reconnecting
    with its cursor after any drop; it remembers what the server acknowledged."""

    ws: str
    table: str
    token: str | None
    think: float = 0.05
    rng: random.Random = field(default_factory=random.Random)
    acked: list[str] = field(default_factory=list)  # its moves the server answered with a state
    sent: int = 0
    unanswered: int = 0  # moves sent whose answer never came (the connection dropped)
    acked_at: list[float] = field(default_factory=list)  # when each move was acknowledged
    cursor: int = 0
    over: bool = False
    connections: int = 0
    closes: Counter[int] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)

    async def run(self, until: float) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake

        while not self.over and time.monotonic() < until:
            try:
                async with connect(
                    f"{self.ws}/ws?table={self.table}", open_timeout=5, compression=None
                ) as ws:
                    self.connections += 1
                    await self.session(ws, until)
            except ConnectionClosed as exc:
                self.closes[exc.rcvd.code if exc.rcvd else 1006] += 1
            except (OSError, TimeoutError, InvalidHandshake) as exc:  # e.g. HTTP 502: none up yet
                self.errors["connect " + type(exc).__name__] += 1
            if not self.over:
                await asyncio.sleep(0.1 + 0.2 * self.rng.random())

    async def session(self, ws: Any, until: float) -> None:
        hello: dict[str, Any] = {"type": "hello", "v": 1, "table": self.table, "since": self.cursor}
        if self.token:
            hello["token"] = self.token
        await ws.send(json.dumps(hello))
        pending: tuple[int, str] | None = None
        try:
            while time.monotonic() < until:
                try:
                    m = json.loads(await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic())))
                except TimeoutError:
                    return
                if m["type"] == "error":
                    self.errors[m["code"]] += 1
                    if pending is not None and m.get("re") == pending[0]:
                        pending = None
                if m["type"] != "state":
                    continue
                self.cursor = m["cursor"]
                if pending is not None and m.get("re") == pending[0]:
                    self.acked.append(pending[1])
                    self.acked_at.append(time.monotonic())
                    pending = None
                if m["over"]:
                    self.over = True
                    return
                if m["your_turn"] and pending is None and m.get("legal") and self.token:
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                    self.sent += 1
                    pending = (self.sent, self.rng.choice(m["legal"]))
                    await ws.send(json.dumps({"type": "move", "move": pending[1], "id": pending[0]}))
        finally:
            if pending is not None:
                self.unanswered += 1


def seat_players(kit: Kit, created: dict[str, Any], ws: str, think: float = 0.05) -> list[Player]:
    table = created["table"]["id"]
    return [
        Player(ws, table, s["token"], think, random.Random(f"{table}{s['seat']}")) for s in created["seats"]
    ]


def check_moves(kit: Kit, table: str, players: list[Player], seats: list[int]) -> tuple[int, int]:
    """Moves lost (acknowledged but not stored, in order) and doubled (stored beyond what the
    seat sent) for one table, whose record must replay.  A stored move that was its seat's
    only legal move is the server's (a forced move, played for whoever was connected; its
    notice may die with a killed instance) and is not counted as sent."""
    from kiti.core.records import apply_entry, start
    from kiti.core.turns import forced_move

    record = kit.record(table)
    state, sent_by = start(record), []
    for index, (seat, move) in enumerate(record["moves"]):
        sent_by.append(forced_move(state, seat) is None)
        apply_entry(state, index, [seat, move])
    stored = kit.moves(table)
    lost = doubled = 0
    for player, seat in zip(players, seats):
        mine = [m for (s, m), own in zip(stored, sent_by) if s == seat and own]
        rest = iter(mine)
        lost += sum(1 for move in player.acked if move not in rest)  # a subsequence, in order
        doubled += max(0, len(mine) - (len(player.acked) + player.unanswered))
    return lost, doubled
