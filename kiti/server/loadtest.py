"""Load test: N concurrent tables of scripted random clients over real WebSockets.

    python -m kiti.server.loadtest --tables 500 --serve        # starts its own kiti serve
    python -m kiti.server.loadtest --tables 500 --url http://127.0.0.1:8000

Every human seat of every table is a client on its own WebSocket that, when its seat is to
act, "thinks" for a random time around ``--think`` seconds, then sends a uniform legal move
and measures the time until the state message answering it arrives: the server has
checked the move, committed it to the database and broadcast it (move-to-broadcast
latency).  ``--bots K`` makes the last K seats of each table server-side bots.  Tables start
at random times during ``--warmup`` (not measured); a finished table asks for a rematch and
plays on, until ``--duration`` more seconds have passed.  Prints the tables, connections,
moves per second (from the server's /api/health, bot moves included), the p50/p90/p99/max
latencies and, with ``--serve``, the server's CPU time per move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    games: int = 0
    connections: int = 0
    warm: float = 0.0  # latencies count from this time.monotonic() on


class Seat:
    """One scripted client: a seat of a table, moving at random after thinking."""

    def __init__(self, ws_url: str, table: str, token: str, think: float, stats: Stats, end: float,
                 delay: float = 0.0) -> None:
        self.ws_url, self.table, self.token, self.delay = ws_url, table, token, delay
        self.think, self.stats, self.end = think, stats, end
        self.rng = random.Random()
        self.sent: dict[int, float] = {}
        self.n = 0

    async def run(self) -> None:
        from websockets.asyncio.client import connect

        await asyncio.sleep(self.delay)  # tables start (and so finish) at different times
        while time.monotonic() < self.end:
            async with connect(self.ws_url, max_size=2**22, ping_interval=None, compression=None) as ws:
                self.stats.connections += 1
                await ws.send(json.dumps({"type": "hello", "v": 1, "table": self.table, "token": self.token}))
                next_table = await self.play(ws)
            if next_table is None:
                return
            self.table = next_table

    async def play(self, ws: Any) -> str | None:
        """Play this table; return the rematch's table id (None: time is up)."""
        mover: asyncio.Task[None] | None = None
        async for frame in ws:
            m = json.loads(frame)
            self.answered(m)
            if m["type"] == "rematch":
                return m["table"] if time.monotonic() < self.end else None
            if m["type"] != "state":
                continue
            if m["over"]:
                return await self.rematch(ws, m)
            if m["your_turn"] and not self.sent and (mover is None or mover.done()):
                mover = asyncio.get_running_loop().create_task(self.move(ws, m["legal"]))
        return None

    def answered(self, m: dict[str, Any]) -> None:
        t0 = self.sent.pop(m.get("re", -1), None) if isinstance(m.get("re"), int) else None
        if t0 is not None and time.monotonic() >= self.stats.warm:
            self.stats.latencies.append(time.perf_counter() - t0)
        if m["type"] == "error":
            self.stats.errors += 1

    async def move(self, ws: Any, legal: list[str]) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        if time.monotonic() >= self.end:
            return
        self.n += 1
        self.sent[self.n] = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "move": self.rng.choice(legal), "id": self.n}))

    async def rematch(self, ws: Any, m: dict[str, Any]) -> str | None:
        if time.monotonic() >= self.end:
            return None
        if m["you"] == min(s["seat"] for s in m["table"]["seats"] if s["kind"] == "human"):
            self.stats.games += 1
            await ws.send(json.dumps({"type": "rematch"}))
        return await self._wait_rematch(ws)

    async def _wait_rematch(self, ws: Any) -> str | None:
        async for frame in ws:
            m = json.loads(frame)
            if m["type"] == "rematch":
                return m["table"]
        return None


async def make_tables(url: str, n: int, game: str, players: int, bots: int) -> list[dict[str, Any]]:
    import httpx

    seats = ["human"] * (players - bots) + ["random"] * bots
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as http:
        async def one() -> dict[str, Any]:
            r = await http.post("/api/tables", json={"game": game, "seats": seats})
            r.raise_for_status()
            return r.json()
        return list(await asyncio.gather(*(one() for _ in range(n))))


async def drive(url: str, tables: list[dict[str, Any]], think: float, duration: float,
                warmup: float) -> Stats:
    stats = Stats(warm=time.monotonic() + warmup)
    end = time.monotonic() + warmup + duration
    ws_url = url.replace("http", "ws", 1) + "/ws"
    delays = [random.uniform(0, warmup) for _ in tables]
    seats = [Seat(ws_url, t["table"]["id"], s["token"], think, stats, end, d)
             for t, d in zip(tables, delays) for s in t["seats"]]
    loop = asyncio.get_running_loop()
    tasks = [loop.create_task(s.run()) for s in seats]
    await asyncio.wait(tasks, timeout=warmup + duration + 2.0)  # time up, and answers to the last moves
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return stats


def worker(args: tuple[str, list[dict[str, Any]], float, float, float]) -> dict[str, Any]:
    try:
        import uvloop  # the clients' own overhead, as small as can be
        stats = uvloop.run(drive(*args))
    except ImportError:
        stats = asyncio.run(drive(*args))
    return {"latencies": stats.latencies, "errors": stats.errors, "games": stats.games,
            "connections": stats.connections}


def health(url: str) -> dict[str, Any]:
    import httpx

    return httpx.get(url + "/api/health", timeout=30).json()


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), None elsewhere."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def run(opts: argparse.Namespace, url: str, server_pid: int | None = None) -> dict[str, Any]:
    tables = asyncio.run(make_tables(url, opts.tables, opts.game, opts.players, opts.bots))
    chunks = [(url, tables[i::opts.procs], opts.think, opts.duration, opts.warmup) for i in range(opts.procs)]
    with multiprocessing.get_context("spawn").Pool(opts.procs) as pool:
        job = pool.map_async(worker, chunks)
        time.sleep(opts.warmup)  # connecting, first moves
        before = health(url)["moves"]
        cpu0 = None if server_pid is None else cpu_seconds(server_pid)
        time.sleep(opts.duration)
        moves = health(url)["moves"] - before
        cpu1 = None if server_pid is None else cpu_seconds(server_pid)
        results = job.get()
    client_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_s = client_cpu.ru_utime + client_cpu.ru_stime
    lat = [x for r in results for x in r["latencies"]]
    cpu = None if cpu0 is None or cpu1 is None else round(1000 * (cpu1 - cpu0) / max(1, moves), 3)
    return {"server_cpu_ms_per_move": cpu,
            "client_cpu_ms_per_move": round(1000 * client_s / max(1, moves), 3), "tables": opts.tables, "connections": sum(r["connections"] for r in results),
            "seconds": opts.duration, "moves": moves, "moves_per_s": round(moves / opts.duration, 1),
            "client_moves": len(lat), "games_finished": sum(r["games"] for r in results),
            "errors": sum(r["errors"] for r in results),
            **{f"p{p}_ms": round(1000 * percentile(lat, p), 2) for p in (50, 90, 99)},
            "max_ms": round(1000 * max(lat, default=float("nan")), 2)}


def start_server(opts: argparse.Namespace, folder: str) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    db = opts.db or f"sqlite:///{folder}/kiti.db"
    cmd = [sys.executable, "-m", "kiti", "serve", "--port", str(port), "--db", db,
           "--log-level", "warning", "--bot-workers", str(opts.bot_workers),
           "--conns-per-address", "0", "--tables-per-minute", "0", "--max-connections", "100000"]
    proc = subprocess.Popen(cmd)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            health(url)
            return proc, url
        except Exception:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("kiti serve did not start")


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m kiti.server.loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument("--url", default="http://127.0.0.1:8000", help="a running server (see --serve)")
    p.add_argument("--serve", action="store_true", help="start a kiti serve of its own (temporary SQLite)")
    p.add_argument("--db", default="", help="with --serve: the database URL")
    p.add_argument("--bot-workers", type=int, default=1, help="with --serve: bot worker processes")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--game", default="miaui")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--bots", type=int, default=0, help="server-side random bots per table (the last seats)")
    p.add_argument("--think", type=float, default=2.0, help="mean seconds a client thinks before moving")
    p.add_argument("--duration", type=float, default=60.0, help="seconds measured")
    p.add_argument("--warmup", type=float, default=15.0,
                   help="seconds before measuring: each table connects and starts at a random time in it")
    p.add_argument("--procs", type=int, default=1, help="client processes")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    opts = parse(argv)
    with tempfile.TemporaryDirectory(prefix="kiti-load-") as folder:
        proc, url = start_server(opts, folder) if opts.serve else (None, opts.url.rstrip("/"))
        try:
            out = run(opts, url, None if proc is None else proc.pid)
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(30)
    if opts.json:
        print(json.dumps(out))
        return
    print(f"{out['tables']} tables, {out['connections']} client connections, {out['seconds']} s, "
          f"cpu count {os.cpu_count()}")
    print(f"{out['moves']} moves ({out['moves_per_s']}/s; {out['client_moves']} timed client moves), "
          f"{out['games_finished']} games finished, {out['errors']} errors")
    print(f"move-to-broadcast latency: p50 {out['p50_ms']} ms, p90 {out['p90_ms']} ms, "
          f"p99 {out['p99_ms']} ms, max {out['max_ms']} ms")
    if out["server_cpu_ms_per_move"] is not None:
        print(f"server CPU per move: {out['server_cpu_ms_per_move']} ms")
    print(f"client CPU per move: {out['client_cpu_ms_per_move']} ms (whole run, connecting included)")


if __name__ == "__main__":
    main()
