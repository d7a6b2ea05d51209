"""Helpers for the server tests: an app on a temporary SQLite file, lobby calls, WebSocket
reads with a timeout (a test never hangs on a message that does not come: ``waits.MESSAGE``
seconds by default, returning as soon as the message is there)."""

from __future__ import annotations

import json
import random
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
import waits

pytest.importorskip("starlette", reason="the server tests need the [server] extra")
pytest.importorskip("sqlalchemy", reason="the server tests need the [server] extra")
warnings.filterwarnings("ignore", message=".*httpx.*starlette.testclient.*")

import anyio  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from kiti.server.app import create_app  # noqa: E402
from kiti.server.config import ServerConfig  # noqa: E402
from kiti.server.lobby import Hub  # noqa: E402


def config(tmp_path: Path, **overrides: Any) -> ServerConfig:
    values: dict[str, Any] = {"db": f"sqlite:///{tmp_path}/kiti.db", "bot_mode": "thread", "leave_grace": 0.0}
    values.update(overrides)
    return ServerConfig(**values)


def client(tmp_path: Path, **overrides: Any) -> TestClient:
    return TestClient(create_app(config(tmp_path, **overrides)))


def hub(c: TestClient) -> Hub:
    return c.app.state.hub  # type: ignore[attr-defined]


def create(
    c: TestClient, game: str = "miaui", seats: tuple[str, ...] = ("human",) * 3, **extra: Any
) -> dict[str, Any]:
    r = c.post("/api/tables", json={"game": game, "seats": list(seats), **extra})
    assert r.status_code == 201, r.text
    return r.json()


def tokens(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"]}


def recv(ws: Any, timeout: float = waits.MESSAGE) -> dict[str, Any]:
    """The next message, or a test failure after ``timeout`` seconds."""

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(get)
    except TimeoutError:
        pytest.fail(f"no message within {timeout:.0f} s")
    ws._raise_on_close(message)
    return json.loads(message["text"])


def quiet(ws: Any, wait: float = 0.3) -> list[dict[str, Any]]:
    """Every message that arrives until none has for ``wait`` seconds."""
    out = []
    while True:

        async def get() -> Any:
            with anyio.move_on_after(wait):
                return await ws._send_rx.receive()
            return None

        message = ws.portal.call(get)
        if message is None:
            return out
        ws._raise_on_close(message)
        out.append(json.loads(message["text"]))


def until(ws: Any, pred: Any, timeout: float = waits.MESSAGE) -> dict[str, Any]:
    """The first message satisfying ``pred`` (the others are skipped)."""
    end = time.monotonic() + timeout
    while True:
        message = recv(ws, max(0.01, end - time.monotonic()))
        if pred(message):
            return message


def hello(ws: Any, table: str, token: str | None = None, since: int | None = None) -> dict[str, Any]:
    """Join; return the first state message (after checking the welcome)."""
    message: dict[str, Any] = {"type": "hello", "v": 1, "table": table}
    if token is not None:
        message["token"] = token
    if since is not None:
        message["since"] = since
    ws.send_json(message)
    welcome = recv(ws)
    assert welcome["type"] == "welcome", welcome
    return until(ws, lambda m: m["type"] == "state")


def latest_state(ws: Any, first: dict[str, Any] | None = None, wait: float = 0.15) -> dict[str, Any] | None:
    states = [m for m in quiet(ws, wait) if m["type"] == "state"]
    return states[-1] if states else first


def play_move(ws: Any, state: dict[str, Any], rng: random.Random, ident: Any) -> dict[str, Any]:
    """Send a random legal move from ``state``; return the state that answers it."""
    ws.send_json({"type": "move", "move": rng.choice(state["legal"]), "id": ident})
    return until(ws, lambda m: m.get("re") == ident)


def play_out(ws: Any, rng: random.Random, state: dict[str, Any]) -> dict[str, Any]:
    """Play random legal moves for this connection's seat until the game is over (bots or
    other connections play the other seats); return the last state."""
    n = 0
    while not state["over"]:
        if not state["your_turn"]:
            state = until(ws, lambda m: m["type"] == "state", timeout=waits.GAME)
            continue
        ident = f"p{n}"
        n += 1
        ws.send_json({"type": "move", "move": rng.choice(state["legal"]), "id": ident})
        while True:  # every state until the answer; an error means ours was stale
            message = recv(ws)
            if message["type"] == "state":
                state = message
            if message.get("re") == ident:
                break
    return state
