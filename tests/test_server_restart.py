"""``kill -9`` mid-game loses nothing: a real ``kiti serve`` subprocess, real WebSockets,
on SQLite and on a real PostgreSQL server started for the test."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import server_kit  # noqa: F401  (skips without the [server] extra)
import waits
from pg_kit import postgres_server
from serve_kit import ServeProcess

from kiti.core.events import REFEREE
from kiti.core.records import replay
from kiti.server import queries, store

httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")
REPO = Path(__file__).resolve().parents[1]


class Server(ServeProcess):
    """``kiti serve`` as a subprocess of this checkout, on ``db``."""

    def __init__(self, db: str, log: Path) -> None:
        super().__init__(["--db", db, "--bot-threads", "--log-level", "warning"], log)
        self.url = self.base


class Player:
    """A seat's client: keeps every event it receives and the moves acknowledged."""

    def __init__(self, seat: int, token: str) -> None:
        self.seat, self.token = seat, token
        self.events: list[dict[str, Any]] = []
        self.cursor = 0
        self.acked: list[tuple[int, str]] = []
        self.pending: tuple[int, str] | None = None
        self.state: dict[str, Any] | None = None
        self.ws: Any = None
        self.n = 0
        self.sockets = contextlib.ExitStack()

    def connect(self, url: str, table: str) -> None:
        self.ws = self.sockets.enter_context(
            ws_client.connect(url.replace("http", "ws") + "/ws", open_timeout=waits.MESSAGE)
        )
        self.ws.send(
            json.dumps({"type": "hello", "v": 1, "table": table, "token": self.token, "since": self.cursor})
        )
        self.pending = None  # a move in flight when the server died may or may not be stored

    def take(self, message: dict[str, Any]) -> None:
        if message["type"] == "error":
            assert message["code"] in ("not_your_turn", "illegal_move"), message
            self.pending = None
        if message["type"] != "state":
            return
        self.events = message["events"] if message["reset"] else self.events + message["events"]
        self.cursor, self.state = message["cursor"], message
        if self.pending is not None and message.get("re") == self.pending[0]:
            self.acked.append((self.seat, self.pending[1]))
            self.pending = None

    def poll(self, rng: random.Random) -> None:
        """Read what has come; move if it is this seat's turn and no move is in flight."""
        try:
            while True:
                self.take(json.loads(self.ws.recv(timeout=0.02)))
        except TimeoutError:
            pass
        state = self.state
        if state and state["your_turn"] and self.pending is None and not state["over"]:
            self.n += 1
            move = rng.choice(state["legal"])
            self.pending = (self.n, move)
            self.ws.send(json.dumps({"type": "move", "move": move, "id": self.n}))


def play(players: list[Player], rng: random.Random, until: Any, timeout: float = waits.GAME) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, "the game stalled"
        for p in players:
            p.poll(rng)


def test_kill_9_on_sqlite_resumes_with_nothing_lost(tmp_path) -> None:
    kill_and_resume(f"sqlite:///{tmp_path}/kiti.db", tmp_path)


def test_kill_9_on_postgresql_resumes_with_nothing_lost(tmp_path) -> None:
    with postgres_server() as url:
        kill_and_resume(url, tmp_path)


def kill_and_resume(db: str, tmp_path: Path) -> None:
    rng = random.Random(11)
    log = tmp_path / "serve.log"
    server = Server(db, log)
    try:
        made = httpx.post(
            server.url + "/api/tables",
            timeout=waits.MESSAGE,
            json={"game": "miaui", "seats": ["human", "human", "random"]},
        ).json()
        tid = made["table"]["id"]
        players = [Player(s["seat"], s["token"]) for s in made["seats"]]
        for p in players:
            p.connect(server.url, tid)
        play(players, rng, lambda: sum(len(p.acked) for p in players) >= 10)
        players[0].poll(rng)  # often a move in flight as the server dies
        server.kill9()
        server = Server(db, log)
        for p in players:
            p.connect(server.url, tid)
        play(players, rng, lambda: all(p.state and p.state["over"] for p in players))
        record = httpx.get(f"{server.url}/api/tables/{tid}/record", timeout=waits.MESSAGE).json()
        for p in players:
            p.sockets.close()
    finally:
        server.stop()
    check_nothing_lost(db, tid, record, players)


def check_nothing_lost(db: str, tid: str, record: dict[str, Any], players: list[Player]) -> None:
    stored = store.Store(db)
    try:
        row = stored.read_now(queries.load_tables(ids=(tid,)))[0]
    finally:
        stored.close()
    assert row.status == "over" and [list(m) for m in row.moves] == record["moves"]
    final = replay(record)  # the uninterrupted replay of the stored record
    assert final.over and final.record() == {k: v for k, v in record.items() if k != "lineup"}
    for p in players:
        assert subsequence(p.acked, [tuple(m) for m in record["moves"]]), "an acknowledged move was lost"
        assert p.events == final.events(p.seat), f"seat {p.seat} missed or repeated events"
        assert p.state is not None and p.state["reveal"] == final.observation(REFEREE)
        assert p.state["result"] == final.result().to_dict()


def subsequence(short: list[Any], long: list[Any]) -> bool:
    it: Iterator[Any] = iter(long)
    return all(any(x == y for y in it) for x in short)
