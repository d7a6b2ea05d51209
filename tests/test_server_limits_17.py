"""Issue 17, item 13: the server's connection limits (docs/protocol.md, "Limits").

A WebSocket that sends no hello is closed; an HTTP connection that sends its headers too
slowly is dropped (a real uvicorn server, raw sockets); an address over its limits of open
connections or of tables created per minute gets HTTP 429 with the error JSON; the limits
are ``kiti serve`` options.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import server_kit
import waits
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from kiti.server.app import create_app, uvicorn_options


# ------------------------------------------------------------------ a real uvicorn server
class Uvicorn:
    """``create_app`` served by uvicorn, with ``kiti serve``'s options, in a thread."""

    def __init__(self, tmp_path: Path, **overrides: Any) -> None:
        import uvicorn

        config = server_kit.config(tmp_path, **overrides)
        options = uvicorn_options(config)
        options.pop("lifespan")
        self.server = uvicorn.Server(
            uvicorn.Config(
                create_app(config), host="127.0.0.1", port=0, log_level="warning", lifespan="on", **options
            )
        )
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)
        self.thread.start()
        end = time.monotonic() + waits.START
        while not self.server.started:
            assert time.monotonic() < end, "uvicorn did not start"
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(waits.seconds(30))


@pytest.fixture
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Any:
    server = Uvicorn(tmp_path, **getattr(request, "param", {}))
    yield server
    server.stop()


def seconds_until_closed(
    sock: socket.socket, trickle: bytes = b"", every: float = 0.2, limit: float = 8.0
) -> float:
    """Seconds until the server closes ``sock`` (sending ``trickle`` a byte at a time meanwhile),
    or ``limit`` if it is still open then."""
    start = time.monotonic()
    sock.settimeout(every)
    sent = 0
    while time.monotonic() - start < limit:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            pass
        except ConnectionResetError:
            return time.monotonic() - start
        if sent < len(trickle):
            sock.sendall(trickle[sent : sent + 1])
            sent += 1
    return limit


PARTIAL = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


@pytest.mark.parametrize("served", [{"header_timeout": 1.0}], indirect=True)
def test_partial_headers_are_dropped_within_the_header_timeout(served: Uvicorn) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as sock:
        sock.sendall(PARTIAL)
        took = seconds_until_closed(sock)
    assert 0.8 <= took < 3.0, f"a connection with partial headers stayed open {took:.1f} s"


@pytest.mark.parametrize("served", [{"header_timeout": 1.0}], indirect=True)
def test_headers_sent_a_byte_at_a_time_are_dropped_too(served: Uvicorn) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as sock:
        took = seconds_until_closed(sock, trickle=PARTIAL * 10, every=0.1)
    assert took < 3.0, f"a slowloris sending a byte every 0.1 s stayed open {took:.1f} s"


@pytest.mark.parametrize("served", [{"header_timeout": 1.0, "keep_alive": 30.0}], indirect=True)
def test_a_complete_request_is_answered_and_a_websocket_outlives_the_header_timeout(served: Uvicorn) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as sock:  # the premise: a whole request works
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        sock.settimeout(waits.MESSAGE)
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        assert seconds_until_closed(sock, limit=3.0) < 3.0  # then idle with partial nothing: dropped
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{served.port}/ws") as ws:
        created = json.loads(_post(served.port, "/api/tables", {"game": "miaui", "seats": ["human"] * 3}))
        ws.send(json.dumps({"type": "hello", "v": 1, "table": created["table"]["id"]}))
        assert json.loads(ws.recv(timeout=waits.MESSAGE))["type"] == "welcome"
        time.sleep(1.6)  # past the header deadline: the WebSocket is not dropped
        ws.send(json.dumps({"type": "ping", "id": 7}))
        assert _next_of_type(ws, "pong")["re"] == 7


@pytest.mark.parametrize("served", [{"max_header_bytes": 2048}], indirect=True)
def test_headers_over_the_size_limit_are_refused(served: Uvicorn) -> None:
    with socket.create_connection(("127.0.0.1", served.port)) as sock:
        # h11 counts a head still incomplete: a flood of header bytes never gets buffered
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 4000)
        sock.settimeout(waits.MESSAGE)
        assert sock.recv(4096).startswith(b"HTTP/1.1 400")


def _post(port: int, path: str, body: Any) -> str:
    import urllib.request

    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=waits.MESSAGE) as r:
        return r.read().decode()


def _next_of_type(ws: Any, kind: str) -> dict[str, Any]:
    end = time.monotonic() + waits.MESSAGE
    while time.monotonic() < end:
        m = json.loads(ws.recv(timeout=waits.MESSAGE))
        if m["type"] == kind:
            return m
    pytest.fail(f"no {kind} message")


# ------------------------------------------------------------------ hello timeout
def test_a_websocket_without_hello_is_closed(tmp_path: Path) -> None:
    with server_kit.client(tmp_path, hello_timeout=0.5) as c, c.websocket_connect("/ws") as ws:
        start = time.monotonic()
        m = server_kit.recv(ws, timeout=waits.seconds(10))
        assert m["type"] == "error" and m["code"] == "no_hello", m
        assert "0.5 s" in m["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
        assert closed.value.code == 4003
        assert time.monotonic() - start < 5


def test_a_bad_hello_does_not_keep_the_connection_and_a_good_one_does(tmp_path: Path) -> None:
    with server_kit.client(tmp_path, hello_timeout=0.5) as c:
        table = server_kit.create(c)["table"]["id"]
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "v": 1, "table": "nosuchtb"})
            assert server_kit.recv(ws)["code"] == "no_table"
            assert server_kit.recv(ws, timeout=waits.seconds(10))["code"] == "no_hello"
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "v": 1, "table": table})
            assert server_kit.recv(ws)["type"] == "welcome"
            time.sleep(0.8)
            ws.send_json({"type": "ping", "id": 1})
            assert [m["type"] for m in server_kit.quiet(ws, 0.5) if m["type"] != "state"] == ["pong"]


def test_a_hello_still_being_answered_is_not_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy server (here: a table that takes 2.5 s to load) answers a hello sent in time."""
    with server_kit.client(tmp_path, hello_timeout=1.0) as c:
        table = server_kit.create(c)["table"]["id"]
        hub = server_kit.hub(c)
        load = hub.get

        async def slow_get(table_id: str) -> Any:
            await asyncio.sleep(2.5)  # well past the deadline: only the hello in progress keeps it
            return await load(table_id)

        monkeypatch.setattr(hub, "get", slow_get)
        with c.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "v": 1, "table": table})
            assert server_kit.recv(ws)["type"] == "welcome"
            ws.send_json({"type": "ping", "id": 1})
            assert "no_hello" not in [m.get("code") for m in server_kit.quiet(ws, 0.8)]


# ------------------------------------------------------------------ per-address limits
def _refusal(status: int, body: bytes | str, code: str) -> str:
    assert status == 429
    error = json.loads(body)["error"]
    assert error["code"] == code, error
    return str(error["message"])


def test_open_connections_per_address_are_limited(tmp_path: Path) -> None:
    with server_kit.client(tmp_path, conns_per_address=2) as c:
        table = server_kit.create(c)["table"]["id"]
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            for ws in (a, b):
                ws.send_json({"type": "hello", "v": 1, "table": table})
                assert server_kit.recv(ws)["type"] == "welcome"
            with pytest.raises(WebSocketDenialResponse) as denied, c.websocket_connect("/ws"):
                pass
            message = _refusal(denied.value.status_code, denied.value.content, "too_many_connections")
            assert "2 connections" in message
            r = c.get("/api/health")
            assert "2 connections" in _refusal(r.status_code, r.content, "too_many_connections")
        assert c.get("/api/health").status_code == 200  # closed ones no longer count


def test_tables_created_per_address_per_minute_are_limited(tmp_path: Path) -> None:
    with server_kit.client(tmp_path, tables_per_minute=2) as c:
        r = c.post("/api/tables", json={"game": "nosuchgame", "seats": ["human"]})
        assert r.status_code == 400  # a refused table does not count
        server_kit.create(c)
        server_kit.create(c)
        r = c.post("/api/tables", json={"game": "miaui", "seats": ["human"] * 3})
        message = _refusal(r.status_code, r.content, "too_many_tables")
        assert "2 tables in the last minute" in message and "try again in" in message
        assert 0 < int(r.headers["retry-after"]) <= 60
        assert c.get("/api/tables").status_code == 200  # other requests are not limited


def test_no_limit_when_the_limits_are_zero(tmp_path: Path) -> None:
    with server_kit.client(tmp_path, tables_per_minute=0, conns_per_address=0) as c:
        for _ in range(25):
            server_kit.create(c)


# ------------------------------------------------------------------ kiti serve options
def test_kiti_serve_passes_the_limits_to_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import kiti.server.app as server_app
    from kiti.cli.main import app

    seen: dict[str, Any] = {}
    monkeypatch.setattr(server_app, "serve", lambda config, **kw: seen.update(config=config))
    monkeypatch.setattr(server_app, "preflight", lambda config: None)  # no database made in the cwd
    result = CliRunner().invoke(
        app,
        [
            "serve",
            "--db",
            "sqlite:///x.db",
            "--hello-timeout",
            "2.5",
            "--header-timeout",
            "3",
            "--keep-alive",
            "4",
            "--max-header-bytes",
            "8192",
            "--max-connections",
            "900",
            "--conns-per-address",
            "7",
            "--tables-per-minute",
            "0",
        ],
    )
    assert result.exit_code == 0, result.output
    config = seen["config"]
    assert (
        config.hello_timeout,
        config.header_timeout,
        config.keep_alive,
        config.max_header_bytes,
        config.max_connections,
        config.conns_per_address,
        config.tables_per_minute,
    ) == (2.5, 3.0, 4.0, 8192, 900, 7, 0)
    options = server_app.uvicorn_options(config)
    assert (
        options["timeout_keep_alive"],
        options["h11_max_incomplete_event_size"],
        options["limit_concurrency"],
    ) == (4.0, 8192, 900)
