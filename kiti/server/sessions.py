"""One WebSocket connection: a seat or a spectator of one table.

Frames are read one at a time, each checked (size, rate, JSON, message schema) before it
reaches the table; any problem is answered with an ``error`` message and changes nothing.
Outgoing messages wait in a bounded queue that a writer task drains, so a slow client
never holds a table up (a client that stops reading is dropped as too slow).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.contract import dumps
from ..core.errors import quoted
from . import chat
from .cluster import Elsewhere
from .lobby import Hub
from .messages import steps_message
from .protocol import VERSION, ProtocolError, error, message_id, parse_frame
from .ratelimit import TokenBucket
from .tables import Table

log = logging.getLogger("kiti.server")
CLOSE = object()  # the writer's signal to close the socket


class Session:
    def __init__(self, ws: WebSocket, hub: Hub) -> None:
        self.ws = ws
        self.hub = hub
        self.viewer: int | None = None
        self.cursor = 0
        self.table: Table | None = None
        self.outbox: asyncio.Queue[Any] = asyncio.Queue(hub.config.outbox)
        self.bucket = TokenBucket(hub.config.rate, hub.config.burst)
        self.closing: tuple[int, str] | None = None
        self.busy = False  # a frame is being answered
        self.deadline: asyncio.TimerHandle | None = None  # for a hello (see _no_hello)
        self.upstream: Any = None  # cluster: the owner's WebSocket this one is relayed to
        self.pump: asyncio.Task[None] | None = None  # its frames to this client

    # ------------------------------------------------------------ out
    def send(self, message: dict[str, Any]) -> None:
        """Queue a message, as text: the dict dies at once (the garbage collector never
        has thousands of queued views to scan)."""
        if self.closing is not None:
            return
        self.send_text(dumps(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (one text shared by many connections)."""
        if self.closing is not None:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.close(4002, "too slow: messages were not read")

    def close(self, code: int, reason: str) -> None:
        """Close after the messages already queued (at once if the queue is full)."""
        if self.closing is not None:
            return
        self.closing = (code, reason)
        if self.outbox.full():
            self.outbox = asyncio.Queue(1)
        self.outbox.put_nowait(CLOSE)

    async def _write(self) -> None:
        try:
            while True:
                item = await self.outbox.get()
                if item is CLOSE:
                    code, reason = self.closing or (1000, "")
                    await self.ws.close(code, reason)
                    return
                await self.ws.send_text(item)
        except Exception:  # the socket went away: the reader sees the disconnect
            self.closing = self.closing or (1006, "gone")

    # ------------------------------------------------------------ in
    async def run(self) -> None:
        await self.ws.accept()
        self.hub.connections += 1
        self.hub.accepted += 1
        writer = asyncio.get_running_loop().create_task(self._write())
        self.deadline = asyncio.get_running_loop().call_later(self.hub.config.hello_timeout, self._no_hello)
        try:
            await self._read()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            self.deadline.cancel()
            await self._finish(writer)
            self.hub.connections -= 1
            if self.upstream is not None:
                await self._unrelay()
            if self.table is not None:  # a task of its own: it runs even if this one is cancelled
                self.table.spawn(self.table.detach(self))

    async def _finish(self, writer: asyncio.Task[None]) -> None:
        """Stop the writer; a connection closed by the server (a refused frame, ``moved``)
        first gets what was queued for it and its close frame (up to a second), which the
        reader leaving its loop must not cut off."""
        if self.closing is not None and not writer.done():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), 1.0)
        writer.cancel()

    def _no_hello(self) -> None:
        """No table joined within ``hello_timeout`` seconds: close (code 4003); a hello still
        being answered (a busy server, a table loaded from the database) gets another second."""
        if self.busy:
            self.deadline = asyncio.get_running_loop().call_later(1.0, self._no_hello)
        elif self.table is None and self.upstream is None:
            seconds = self.hub.config.hello_timeout
            self.send(error("no_hello", f"no hello joined a table within {seconds:g} s: closing"))
            self.close(4003, "no hello")

    async def _read(self) -> None:
        while self.closing is None:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            text = frame.get("text")
            if text is None:
                self.send(error("bad_json", "send text frames holding JSON, not binary frames"))
                continue
            if self.upstream is not None:  # relayed: the owner checks and answers it
                try:
                    await self.upstream.send(text)
                except Exception:  # the owner went away: the client reconnects
                    self.close(4004, "moved")
                    return
                continue
            self.busy = True
            await self.handle(text)
            self.busy = False

    async def handle(self, text: str) -> None:
        """One client frame: checked, then dispatched; every problem answered with an error."""
        if not self.bucket.take():
            self.send(
                error(
                    "rate_limited",
                    f"more than {self.hub.config.rate:g} messages a second: this one was ignored",
                )
            )
            return
        message: dict[str, Any] = {}
        try:
            message = parse_frame(text, self.hub.config.max_frame)
            await getattr(self, "on_" + message["type"])(message)
        except ProtocolError as exc:
            self.send(error(exc.code, exc.message, message_id(message)))
            if exc.code == "moved":  # cluster: the table is another server's: reconnect
                self.close(4004, "moved")

    # ------------------------------------------------------------ handlers
    async def on_hello(self, m: dict[str, Any]) -> None:
        if self.table is not None:
            raise ProtocolError("already_joined", f"this connection is already at table {self.table.id}")
        if m["v"] != VERSION:
            raise ProtocolError(
                "bad_version", f"this server speaks protocol version {VERSION}, not {quoted(m['v'])}"
            )
        since = m.get("since")
        for key in ("since", "chat_since"):
            if m.get(key, 0) < 0:
                raise ProtocolError("bad_message", f"hello: {key!r} must be 0 or more")
        wanted = self.ws.query_params.get("table")
        if wanted is not None and wanted != m["table"]:
            raise ProtocolError(
                "bad_message",
                f"hello: the table {quoted(m['table'])} is not the URL's table {quoted(wanted)} (/ws?table=ID)",
            )
        try:
            table = await self.hub.get(m["table"])
        except Elsewhere as owner:
            await self._relay(owner.address, m)
            return
        room = await chat.room(table) if "chat_since" in m else None
        await table.attach(self, m.get("token"), since)
        self.table = table
        if room is not None:  # a client that shows the chat (chat_since 0: it has no message yet)
            self.send(room.history(self, m["chat_since"]))

    async def _relay(self, address: str, hello: dict[str, Any]) -> None:
        """Cluster: the table is owned by the instance at ``address``: this connection is
        relayed there (the hello, then every frame each way) until either side closes.  A
        connection that was relayed already is not relayed again (it reconnects)."""
        import websockets

        cluster = self.hub.cluster
        assert cluster is not None
        if "x-kiti-relay" in self.ws.headers:
            raise ProtocolError("moved", "the table is changing servers: reconnect in a moment")
        client = (self.ws.client.host if self.ws.client else "") or "unknown"
        try:
            self.upstream = await websockets.connect(
                f"ws://{address}/ws?table={hello['table']}",
                additional_headers={"x-kiti-relay": cluster.instance, "x-forwarded-for": client},
                max_size=self.hub.config.hard_frame,
                open_timeout=5,
                compression=None,
            )
        except Exception:
            raise ProtocolError(
                "moved", "the table's server cannot be reached: reconnect in a moment"
            ) from None
        cluster.relaying += 1
        cluster.relayed += 1
        await self.upstream.send(dumps(hello))
        self.pump = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        """The owner's frames to the client, then its close code."""
        upstream = self.upstream
        try:
            async for text in upstream:
                self.send_text(text if isinstance(text, str) else text.decode())
        except Exception:
            pass
        code = upstream.close_code or 1011
        self.close(4004 if code in (1000, 1001, 1006, 1011, 1012) else code, upstream.close_reason or "")

    async def _unrelay(self) -> None:
        assert self.hub.cluster is not None
        self.hub.cluster.relaying -= 1
        upstream, self.upstream = self.upstream, None
        with contextlib.suppress(Exception):
            await upstream.close()

    def _seated(self) -> tuple[Table, int]:
        if self.table is None:
            raise ProtocolError("not_joined", "send hello (with the table and your seat's token) first")
        if self.viewer is None:
            raise ProtocolError("not_seated", "spectators watch: only a seat can do that")
        return self.table, self.viewer

    async def on_move(self, m: dict[str, Any]) -> None:
        table, seat = self._seated()
        await table.submit(seat, m["move"], self, message_id(m))

    async def on_steps(self, m: dict[str, Any]) -> None:
        table, seat = self._seated()
        prefix = m.get("prefix", [])
        if len(prefix) > 16 or not all(isinstance(t, str) and len(t) <= 64 for t in prefix):
            raise ProtocolError("bad_message", "steps: 'prefix' must be a list of at most 16 short strings")
        async with table.lock:
            self.send(steps_message(table.state, seat, tuple(prefix), message_id(m)))

    async def on_undo(self, m: dict[str, Any]) -> None:
        table, seat = self._seated()
        await table.undo(seat, self, message_id(m))

    async def on_back(self, m: dict[str, Any]) -> None:
        table, seat = self._seated()
        await table.back(seat, self, message_id(m))

    async def on_rematch(self, m: dict[str, Any]) -> None:
        table, _ = self._seated()
        await self.hub.rematch(table)

    async def on_chat(self, m: dict[str, Any]) -> None:
        if self.table is None:
            raise ProtocolError("not_joined", "send hello (with the table and your seat's token) first")
        room = await chat.room(self.table)
        await room.say(self, m["text"], message_id(m))

    async def on_ping(self, m: dict[str, Any]) -> None:
        out = {"type": "pong"}
        if message_id(m) is not None:
            out["re"] = message_id(m)
        self.send(out)
