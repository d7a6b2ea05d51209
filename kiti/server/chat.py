"""The chat at each table: short text messages from its seats (and its spectators, if the
table's creator allowed it), stored with the game and sent again on reconnecting.

A message is plain text (control characters dropped, at most :data:`MAX_TEXT` characters);
clients show it as text, never as markup.  Each connection may write :data:`BURST` messages
at once and one every :data:`EVERY` seconds after that.  Messages are numbered from 1 per
table; a client that shows the chat passes the number of the last one it has (its chat
``cursor``, 0 at first) as ``chat_since`` in its ``hello`` and gets only the later ones (at
most :data:`HISTORY`).
See docs/protocol.md, "Chat".
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from sqlalchemy import Connection, insert, select

from . import models
from .protocol import ProtocolError
from .ratelimit import TokenBucket
from .store import Op

if TYPE_CHECKING:
    from .tables import Conn, Table

MAX_TEXT = 200  # characters in one message
BURST = 5  # messages a connection may write at once
EVERY = 2.0  # then one per this many seconds
HISTORY = 100  # most messages sent on joining
KEPT = 200  # messages a live table keeps in memory
#: One-click phrases the client offers (plain messages when sent).
PHRASES = ("hello", "good luck", "thinking…", "well played", "good game", "thanks")
SPECTATOR = "spectator"  # the name a spectator writes under


@dataclass
class Line:
    n: int
    seat: int | None
    name: str
    text: str
    at: float

    def public(self) -> dict[str, Any]:
        return {"n": self.n, "seat": self.seat, "name": self.name, "text": self.text, "at": round(self.at, 3)}


def spectator_flag(value: Any) -> bool:
    """The create request's ``spectator_chat`` (default false), checked."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise ProtocolError("bad_request", "spectator_chat must be true or false")
    return value


def rule_ops(table_id: str, spectators: bool) -> list[Op]:
    """The operation that stores a new table's chat rule, with the table (none for the
    default: seats only)."""
    return _rule_op(table_id) if spectators else []


def _rule_op(table_id: str) -> list[Op]:
    return [lambda conn: conn.execute(insert(models.chat_rules).values(table_id=table_id, spectators=True))]


def clean(text: str) -> str:
    """A message as stored: printable characters only, spaces trimmed; a clear error otherwise."""
    out = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not out:
        raise ProtocolError("bad_message", "chat: the message is empty")
    if len(out) > MAX_TEXT:
        raise ProtocolError(
            "bad_message", f"chat: a message has at most {MAX_TEXT} characters, not {len(out):,}"
        )
    return out


class Room:
    """One table's chat: its messages (the last :data:`KEPT`), its rule, who has written."""

    def __init__(self, table: Table, lines: list[Line], spectators: bool) -> None:
        self.table = table
        self.lines = lines[-KEPT:]
        self.count = lines[-1].n if lines else 0
        self.spectators = spectators
        self.buckets: WeakKeyDictionary[Any, TokenBucket] = WeakKeyDictionary()

    def may_write(self, viewer: int | None) -> bool:
        return viewer is not None or self.spectators

    def history(self, conn: Conn, since: int) -> dict[str, Any]:
        """The ``chat`` message a joining connection gets: the rule, the phrases, the messages
        after ``since`` (its last chat cursor)."""
        later = [line.public() for line in self.lines if line.n > since][-HISTORY:]
        return {
            "type": "chat",
            "messages": later,
            "cursor": self.count,
            "can_write": self.may_write(conn.viewer),
            "phrases": list(PHRASES),
        }

    async def say(self, conn: Conn, text: str, re: Any = None) -> None:
        """Store a message from ``conn``, then send it to everybody at the table."""
        if not self.may_write(conn.viewer):
            raise ProtocolError("chat_closed", "spectators may read this table's chat but not write in it")
        text = clean(text)
        bucket = self.buckets.setdefault(conn, TokenBucket(1 / EVERY, BURST))
        if not bucket.take():
            raise ProtocolError(
                "rate_limited",
                f"chat: at most {BURST} messages at once, then one every {EVERY:g} s: this one was not sent",
            )
        seat = conn.viewer
        name = SPECTATOR if seat is None else self.table.seats[seat].name
        line = Line(self.count + 1, seat, name, text, time.time())
        await self.table.write(store_line(self.table.id, line))
        self.count = line.n
        self.lines = [*self.lines[-(KEPT - 1) :], line]
        for other in self.table.connections():
            out = {"type": "chat", "messages": [line.public()], "cursor": self.count}
            if other is conn and re is not None:
                out["re"] = re
            other.send(out)


_rooms: WeakKeyDictionary[Table, Room] = WeakKeyDictionary()


async def room(table: Table) -> Room:
    """The table's chat, loaded from the database the first time it is asked for."""
    found = _rooms.get(table)
    if found is not None:
        return found
    lines, own, inherited = await table.services.store.read(load(table.id, table.row.rematch_of))
    found = _rooms.get(table)
    if found is not None:  # loaded meanwhile
        return found
    spectators = own if own is not None else inherited  # a rematch keeps its game's rule
    made = _rooms[table] = Room(table, lines, spectators)
    if own is None and spectators:
        await table.write(*_rule_op(table.id))
    return made


def store_line(table_id: str, line: Line) -> Op:
    def op(conn: Connection) -> None:
        conn.execute(
            insert(models.chat).values(
                table_id=table_id, idx=line.n, seat=line.seat, name=line.name, text=line.text, at=line.at
            )
        )

    return op


def load(table_id: str, rematch_of: str | None) -> Op:
    """A table's last messages, its own stored rule (None: not stored) and the rule of the game
    it is a rematch of (a rematch keeps it)."""

    def op(conn: Connection) -> tuple[list[Line], bool | None, bool]:
        c = models.chat.c
        rows = conn.execute(
            select(models.chat).where(c.table_id == table_id).order_by(c.idx.desc()).limit(KEPT)
        ).all()
        lines = [Line(r.idx, r.seat, r.name, r.text, r.at) for r in reversed(rows)]
        rules = spectators_rules(conn, [table_id] if rematch_of is None else [table_id, rematch_of])
        return lines, rules.get(table_id), bool(rematch_of and rules.get(rematch_of))

    return op


def spectators_rules(conn: Connection, ids: Sequence[str]) -> dict[str, bool]:
    r = models.chat_rules.c
    return {
        row.table_id: row.spectators
        for row in conn.execute(select(models.chat_rules).where(r.table_id.in_(ids)))
    }
