"""Issue 17, item 14: the load test counts what players feel.

Small and fast: a few tables for a few seconds against a real server (every other seat's
receipt of every move counted, no error, with Mauw and MOTU tables, spectators and a
reconnect storm), and a scripted fake server whose silences must count as errors (an
unanswered move, a move another seat never receives).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from pathlib import Path
from typing import Any

import waits
from loadtest import Plan, Stats, drive, make_tables, parse_mix
from test_server_limits_17 import Uvicorn


def test_every_other_seat_receives_every_move_in_a_mixed_run(tmp_path: Path) -> None:
    server = Uvicorn(tmp_path, leave_grace=5.0)
    try:
        url = f"http://127.0.0.1:{server.port}"
        tables = asyncio.run(make_tables(url, 3, parse_mix("miaui:3,mauw:2,motu:2"), 0))
        assert [t["table"]["game"] for t in tables] == ["miaui", "mauw", "motu"]
        plan = Plan(think=0.1, duration=4.0, warmup=0.5, answer_timeout=5.0, storm_every=1.5, storm_share=0.5)
        stats = asyncio.run(drive(url, tables, plan, spectators=1.0))
    finally:
        server.stop()
    assert dict(stats.errors) == {}
    assert stats.moves > 10 and stats.storms >= 1 and stats.spectators == 3
    assert stats.connections > 7 + 3, "the storm made seats reconnect"
    assert stats.expected >= stats.moves, "each move awaited by at least one other seat"
    assert stats.received == stats.expected == len(stats.latencies)
    assert len(stats.own) == stats.moves


# ------------------------------------------------------------------ a scripted server
def state(seat: int, turn: bool, to_act: list[int], re: int | None = None) -> str:
    m: dict[str, Any] = {
        "type": "state",
        "table": {"id": "fake", "seats": []},
        "you": seat,
        "to_act": to_act,
        "over": False,
        "clock": None,
        "cursor": 0,
        "your_turn": turn,
        "legal": ["pass"] if turn else None,
        "steps": None,
    }
    if re is not None:
        m["re"] = re
    return json.dumps(m)


async def fake_table(answer: bool, tell_others: bool, plan: Plan) -> Stats:
    """Seat 0 (token a) is to move; the server answers its move (or not) and tells seat 1
    (token b) of it (or not)."""
    from websockets.asyncio.server import serve

    conns: dict[int, Any] = {}

    async def handler(ws: Any) -> None:
        async for frame in ws:
            m = json.loads(frame)
            if m["type"] == "hello":
                seat = {"a": 0, "b": 1}[m["token"]]
                conns[seat] = ws
                await ws.send(json.dumps({"type": "welcome", "you": seat}))
                await ws.send(state(seat, False, [0]))
                if len(conns) == 2:  # both are here: seat 0 may move
                    await conns[0].send(state(0, True, [0]))
            elif m["type"] == "move" and answer:
                await ws.send(state(0, False, [1], re=m["id"]))
                if tell_others:
                    await conns[1].send(state(1, False, [1]))

    async with serve(handler, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        tables = [{"table": {"id": "fake"}, "seats": [{"seat": 0, "token": "a"}, {"seat": 1, "token": "b"}]}]
        return await drive(f"http://127.0.0.1:{port}", tables, plan)


PLAN = Plan(think=0.05, duration=1.0, warmup=0.0, answer_timeout=0.5)  # the unanswered move's wait
ANSWERED = Plan(think=0.05, duration=1.0, warmup=0.0, answer_timeout=waits.seconds(5))  # a busy machine


def test_a_move_received_by_the_other_seat_is_counted_once() -> None:
    stats = asyncio.run(fake_table(answer=True, tell_others=True, plan=ANSWERED))
    assert (stats.moves, stats.expected, stats.received, dict(stats.errors)) == (1, 1, 1, {})


def test_a_move_the_other_seat_never_receives_is_an_error() -> None:
    stats = asyncio.run(fake_table(answer=True, tell_others=False, plan=ANSWERED))
    assert (stats.moves, stats.expected, stats.received) == (1, 1, 0)
    assert dict(stats.errors) == {"unreceived": 1}


def test_an_unanswered_move_is_an_error() -> None:
    stats = asyncio.run(fake_table(answer=False, tell_others=False, plan=PLAN))
    assert stats.moves == 0
    assert stats.errors["unanswered"] >= 1, stats.errors


# ------------------------------------------------------------------ PostgreSQL commits
def test_postgres_commits_wait_for_the_disk_only_with_fsync() -> None:
    """What the load test measures with --postgres: kiti serve's own sessions commit without
    waiting for the disk (like SQLite's default), unless --fsync."""
    from pg_kit import postgres_server
    from sqlalchemy import text

    from kiti.server.store import make_engine

    with postgres_server() as url:
        for fsync, expected in ((False, "off"), (True, "on")):
            engine = make_engine(url, fsync)
            with engine.connect() as conn:
                assert conn.execute(text("SHOW synchronous_commit")).scalar() == expected
            engine.dispose()


def test_the_writer_keeps_its_connection_and_survives_losing_it() -> None:
    """The store's writer commits on a connection of its own that it keeps (no pool checkout
    and ping per commit; reads never share it), in its writer thread; a connection PostgreSQL
    dropped (a restart) is replaced, the move not lost."""
    from pg_kit import postgres_server
    from sqlalchemy import text

    from kiti.server.store import Store

    def pid(conn: Any) -> None:
        seen.append(conn.execute(text("SELECT pg_backend_pid()")).scalar())
        threads.add(threading.current_thread().name)
        waits.add(conn.execute(text("SHOW synchronous_commit")).scalar())

    threads: set[str] = set()
    waits: set[str] = set()

    seen: list[int] = []
    with postgres_server() as url:
        store = Store(url)
        store.start()
        try:

            async def writes() -> None:
                await store.write(pid)
                await store.write(pid)
                assert seen[0] == seen[1], "the writer kept its connection"
                store.read_now(lambda c: c.execute(text("SELECT pg_terminate_backend(:p)"), {"p": seen[1]}))
                await store.write(pid)

            asyncio.run(writes())
        finally:
            store.close()
    assert len(seen) == 3 and seen[2] != seen[1]
    assert threads == {"kiti-store"}, "commits run in the writer thread, not in the event loop"
    assert waits == {"off"}, "without fsync the writer's commits do not wait for the disk"


def test_postgres_commits_a_batch_of_row_inserts_in_one_pipeline() -> None:
    """The moves' hot path on PostgreSQL: a batch of row inserts goes to the server with its
    COMMIT in psycopg's pipeline mode (one round trip); a batch with any other operation (which
    may read what it runs) does not; both are stored."""
    from pg_kit import postgres_server
    from sqlalchemy import select, text
    from test_server_store import row

    from kiti.server import models, queries
    from kiti.server.store import Rows, Store

    used: list[str] = []
    with postgres_server() as url:
        store = Store(url)
        store.migrate()
        real = store._pipeline

        def spy(conn: Any, ops: Any) -> Any:
            ctx = real(conn, ops)
            used.append("plain" if isinstance(ctx, contextlib.nullcontext) else "pipeline")
            return ctx

        store._pipeline = spy  # type: ignore[method-assign]
        store.start()
        try:

            async def writes() -> None:
                await store.write(queries.insert_table(row("p1")))
                await store.write(
                    queries.append_move("p1", 0, 0, "dive 3"), queries.append_move("p1", 1, 1, "dive 4")
                )
                await store.write(lambda c: c.execute(text("SELECT 1")).scalar())

            asyncio.run(writes())
            moves = store.read_now(lambda c: c.execute(select(models.moves.c.move)).scalars().all())
        finally:
            store.close()
    assert isinstance(queries.append_move("x", 0, 0, "m"), Rows)
    assert used == ["plain", "pipeline", "plain"], used
    assert sorted(moves) == ["dive 3", "dive 4"]
