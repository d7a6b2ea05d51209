"""The ASGI application (Starlette) and how ``kiti serve`` runs it (uvicorn), with the
connection limits of docs/protocol.md ("Limits"): per client address, open connections
and tables created per minute (:class:`Limits`); per connection, a deadline for a
request's headers (:func:`http_protocol`) and uvicorn's own limits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from ..core.errors import quoted
from .config import ServerConfig
from .lobby import Hub
from .ratelimit import OpenCount, Window
from .routes import ROUTES

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def create_app(config: ServerConfig | None = None) -> Starlette:
    """The server: the lobby API, the WebSocket at /ws, and the static client at /, behind
    the per-address limits."""
    config = config or ServerConfig()
    hub = Hub(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.close()

    static = str(resources.files("kiti.server") / "static")
    app = Starlette(routes=[*ROUTES, Mount("/", StaticFiles(directory=static, html=True))], lifespan=lifespan)
    app.state.hub = hub
    app.add_middleware(Limits, config=config)
    return app


class Limits:
    """Refuses, with HTTP 429 and the error JSON, a client address that already has
    ``conns_per_address`` WebSockets and requests open, or that has created
    ``tables_per_minute`` tables in the last minute."""

    def __init__(self, app: ASGIApp, config: ServerConfig) -> None:
        self.app, self.config = app, config
        self.open = OpenCount()
        self.created = Window(config.tables_per_minute, 60.0)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or ("unknown",))[0]
        creating = scope["type"] == "http" and scope["method"] == "POST" and scope["path"] == "/api/tables"
        wait = self.created.wait(address) if creating else 0.0
        if wait:
            limit = self.config.tables_per_minute
            await deny(
                scope,
                receive,
                send,
                "too_many_tables",
                f"this address has created {limit} tables in the last minute (the limit): "
                f"try again in {math.ceil(wait)} s",
                math.ceil(wait),
            )
            return
        if not self.open.enter(address, self.config.conns_per_address):
            await deny(
                scope,
                receive,
                send,
                "too_many_connections",
                f"this address already has {self.config.conns_per_address} connections open "
                "(the limit): close one first",
                5,
            )
            return
        try:
            await self.app(scope, receive, self._counting(send, address) if creating else send)
        finally:
            self.open.leave(address)

    def _counting(self, send: Send, address: str) -> Send:
        """``send``, counting a table created when the answer is 201."""

        async def wrapped(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start" and message["status"] == 201:
                self.created.add(address)
            await send(message)

        return wrapped


async def deny(scope: Scope, receive: Receive, send: Send, code: str, message: str, retry: int) -> None:
    """Answer HTTP 429 with ``{"error": {"code", "message"}}`` (a WebSocket before it opens)."""
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry).encode()),
    ]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": 429, "headers": headers})
        await send({"type": "http.response.body", "body": body})
        return
    await receive()  # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:  # a server without denial responses: refuse the handshake (HTTP 403)
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})


def http_protocol(header_timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's h11 protocol that drops a connection whose request headers have not all
    arrived ``header_timeout`` seconds after it opened or after its last answer (a slowloris
    sending a byte at a time). uvicorn has no such deadline of its own: its keep-alive timer
    waits only between requests and restarts at every byte."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class HeaderDeadline(H11Protocol):
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
            self.deadline = self.loop.call_later(header_timeout, self._expire, self.cycle)

        def _expire(self, cycle: Any) -> None:
            """No new request since the deadline was set: close (unless it became a WebSocket)."""
            transport = self.transport
            if self.cycle is cycle and transport.get_protocol() is self and not transport.is_closing():
                transport.close()

    return HeaderDeadline


class StartError(Exception):
    """The server cannot start: its database is unreachable, or (cluster) its name is taken."""


def preflight(config: ServerConfig) -> None:
    """Before serving: reach the database (the schema is brought up to date once, when the
    server starts), and in a cluster check that no live instance elsewhere holds this
    instance's name (two instances under one name would take each other's lease in turns).
    Raises :class:`StartError`, in one line."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from .store import make_engine

    engine = make_engine(config.db_url(), False)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
            leases = config.cluster and conn.execute(text("SELECT to_regclass('kiti_leases')")).scalar()
            row = (
                conn.execute(
                    text(
                        "SELECT address, ceil(extract(epoch from expires - clock_timestamp())) AS left "
                        "FROM kiti_leases WHERE instance = :i AND address <> :a AND expires > clock_timestamp()"
                    ),
                    {"i": config.instance or config.advertise, "a": config.advertise},
                ).first()
                if leases
                else None
            )
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise StartError(f"cannot use the database: {reason[:200]}") from None
    finally:
        engine.dispose()
    if row is not None:
        raise StartError(
            f"the instance name {quoted(config.instance or config.advertise)} is held by a live instance at "
            f"{quoted(row.address)}: give this one another --instance (or wait {int(row.left)} s for that lease to end)"
        )


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Run the server until interrupted."""
    import uvicorn

    uvicorn.run(create_app(config), host=host, port=port, log_level=log_level, **uvicorn_options(config))


def uvicorn_options(config: ServerConfig) -> dict[str, Any]:
    """uvicorn's settings for ``config``: its limits, and WebSocket settings."""
    return {
        "http": http_protocol(config.header_timeout),
        "timeout_keep_alive": config.keep_alive,
        "h11_max_incomplete_event_size": config.max_header_bytes,
        "limit_concurrency": config.max_connections or None,
        "ws_max_size": config.hard_frame,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
        "ws_per_message_deflate": False,  # small JSON frames: compressing costs more than it saves
        "lifespan": "on",
    }
