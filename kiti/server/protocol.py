"""The wire protocol (version 1): what clients may send, and the errors they get back.

Every frame is one JSON object with a ``type``.  A client message may carry an ``id`` (a
string or integer of its choosing); the server's answer to it (the ``state`` after a move,
a ``steps`` list, or an ``error``) carries it back as ``re``.  See docs/protocol.md.
"""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import quoted

VERSION = 1

#: Client message type -> {key: (types accepted, required)}.
CLIENT: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {
        "v": ((int,), True),
        "table": ((str,), True),
        "token": ((str,), False),
        "since": ((int,), False),
        "chat_since": ((int,), False),
    },
    "move": {"move": ((str,), True)},
    "steps": {"prefix": ((list,), False)},
    "undo": {},
    "back": {},
    "rematch": {},
    "ping": {},
    "chat": {"text": ((str,), True)},
}
COMMON = {"type": ((str,), True), "id": ((str, int), False)}

#: Error codes and what they mean (docs/protocol.md lists them too).
ERRORS = {
    "bad_json": "the frame is not a JSON object",
    "too_large": "the frame is larger than the server accepts",
    "bad_message": "a key is missing, unknown or of the wrong type",
    "unknown_type": "no such message type",
    "bad_version": "the server speaks another protocol version",
    "rate_limited": "too many messages: slow down",
    "not_joined": "send hello first",
    "already_joined": "this connection has already joined a table",
    "no_table": "no such table",
    "bad_token": "the token is not a seat of this table",
    "seat_taken": "the seat has been claimed by somebody else",
    "seat_kept": "the seat is kept for the person it was made for: only its link opens it",
    "no_free_seat": "the table has no free seat",
    "not_seated": "spectators cannot do that",
    "not_started": "the table is waiting for players",
    "not_your_turn": "the seat is not to act now",
    "away": "a bot is playing this seat (send back to take it)",
    "game_over": "the game is over",
    "bad_move": "the text is not a move of this game",
    "illegal_move": "the rules do not allow this move now",
    "undo_refused": "the engine does not allow taking the move back",
    "not_over": "only after the end of the game",
    "bad_request": "a lobby request with a bad value",
    "replaced": "the seat was opened on another connection",
    "too_slow": "the connection does not read its messages",
    "storage": "the database refused the change; nothing changed",
    "moved": "this server no longer plays the table (cluster): reconnect",
    "chat_closed": "spectators may read this table's chat but not write in it",
}


class ProtocolError(Exception):
    """A request refused with an error ``code`` (a key of :data:`ERRORS`) and a message."""

    def __init__(self, code: str, message: str | None = None) -> None:
        assert code in ERRORS, code
        self.code = code
        self.message = message or ERRORS[code]
        super().__init__(f"{code}: {self.message}")


def error(code: str, message: str | None = None, re: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message or ERRORS[code]}
    if re is not None:
        out["re"] = re
    return out


def parse_frame(text: str, limit: int) -> dict[str, Any]:
    """A client frame as a checked message; ProtocolError naming what is wrong."""
    if len(text) > limit:
        raise ProtocolError("too_large", f"the frame has {len(text):,} characters (the limit is {limit:,})")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "the frame is not valid JSON") from None
    if not isinstance(message, dict):
        raise ProtocolError("bad_json", "the frame is JSON but not an object")
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("bad_message", 'the message has no "type" string')
    if kind not in CLIENT:
        raise ProtocolError(
            "unknown_type", f"unknown message type {quoted(kind)} (known: {', '.join(CLIENT)})"
        )
    check_keys(message, {**COMMON, **CLIENT[kind]}, kind)
    ident = message.get("id")
    if (isinstance(ident, str) and len(ident) > 64) or (isinstance(ident, int) and abs(ident) >= 2**53):
        raise ProtocolError("bad_message", f"{kind}: 'id' must be at most 64 characters or below 2**53")
    return message


def check_keys(message: dict[str, Any], schema: dict[str, tuple[tuple[type, ...], bool]], kind: str) -> None:
    extra = sorted(set(message) - set(schema))
    if extra:
        shown = ", ".join(quoted(key, 40) for key in extra[:5]) + (", ..." if len(extra) > 5 else "")
        raise ProtocolError("bad_message", f"{kind}: unknown key(s) {shown}")
    for key, (types, required) in schema.items():
        if key not in message:
            if required:
                raise ProtocolError("bad_message", f"{kind}: the key {key!r} is missing")
            continue
        value = message[key]
        if isinstance(value, bool) or not isinstance(value, types):
            names = " or ".join(t.__name__.replace("str", "string").replace("int", "integer") for t in types)
            raise ProtocolError("bad_message", f"{kind}: {key!r} must be a {names}")


def message_id(message: dict[str, Any]) -> Any:
    return message.get("id")
