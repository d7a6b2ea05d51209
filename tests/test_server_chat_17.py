"""The chat at each table (issue 17, item 9), over the WebSocket protocol: seats write, spectators
read (and write only where the creator allowed it), messages are stored with the game and sent
again on reconnecting from a chat cursor, with limits on length and rate."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from server_kit import client, create, hello, play_out, quiet, recv, tokens, until


def join(
    c: Any,
    stack: contextlib.ExitStack,
    tid: str,
    token: str | None,
    since: int = 0,
    states: list[dict[str, Any]] | None = None,
) -> tuple[Any, dict]:
    """A connection that shows the chat: its first ``chat`` message (after the state, kept in
    ``states`` when given)."""
    ws = stack.enter_context(c.websocket_connect("/ws"))
    message: dict[str, Any] = {"type": "hello", "v": 1, "table": tid, "chat_since": since}
    if token is not None:
        message["token"] = token
    ws.send_json(message)
    state = until(ws, lambda m: m["type"] == "state")
    if states is not None:
        states.append(state)
    return ws, until(ws, lambda m: m["type"] == "chat")


def say(ws: Any, text: str, ident: str) -> dict[str, Any]:
    ws.send_json({"type": "chat", "text": text, "id": ident})
    return until(ws, lambda m: m.get("re") == ident)


def test_seats_chat_spectators_read_and_a_reconnect_gets_what_it_missed(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "human", "heuristic"), names=["Ann", "Bob", None])
        tid, toks = made["table"]["id"], tokens(made)
        with contextlib.ExitStack() as stack:
            ann, first = join(c, stack, tid, toks[0])
            assert first["messages"] == [] and first["can_write"] and "good game" in first["phrases"]
            bob, _ = join(c, stack, tid, toks[1])
            watcher, seen = join(c, stack, tid, None)
            assert seen["can_write"] is False  # the default: spectators read only
            answer = say(ann, "<script>alert(1)</script> hi\x07 Bob", "a1")
            assert answer["type"] == "chat", answer
            line = answer["messages"][0]
            assert line == {
                **line,
                "n": 1,
                "seat": 0,
                "name": "Ann",
                "text": "<script>alert(1)</script> hi Bob",
            }
            for ws in (bob, watcher):
                heard = until(ws, lambda m: m["type"] == "chat")
                assert heard["messages"] == [line] and heard["cursor"] == 1 and "re" not in heard
            refused = say(watcher, "me too", "w1")
            assert refused["type"] == "error" and refused["code"] == "chat_closed", refused
            assert say(bob, "good game", "b1")["cursor"] == 2
        with contextlib.ExitStack() as stack:  # Bob comes back having seen message 1 only
            _, again = join(c, stack, tid, toks[1], since=1)
            assert [m["text"] for m in again["messages"]] == ["good game"] and again["cursor"] == 2


def test_the_chat_survives_a_restart_and_a_creator_may_let_spectators_write(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "human", "heuristic"), spectator_chat=True)
        tid, toks = made["table"]["id"], tokens(made)
        with contextlib.ExitStack() as stack:
            watcher, seen = join(c, stack, tid, None)
            assert seen["can_write"] is True
            line = say(watcher, "nice dive", "w1")["messages"][0]
            assert (line["seat"], line["name"]) == (None, "spectator")
            seat, _ = join(c, stack, tid, toks[0])
            say(seat, "thanks", "s1")
        bad = c.post("/api/tables", json={"game": "miaui", "seats": ["human"] * 3, "spectator_chat": "yes"})
        assert bad.status_code == 400 and "spectator_chat" in bad.json()["error"]["message"]
    with client(tmp_path) as c, contextlib.ExitStack() as stack:  # a new server on the same database
        _, seen = join(c, stack, tid, None)
        assert [m["text"] for m in seen["messages"]] == ["nice dive", "thanks"]
        assert seen["can_write"] is True and seen["cursor"] == 2


def test_long_empty_and_rapid_messages_are_refused_clearly(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "human", "heuristic"))
        tid, toks = made["table"]["id"], tokens(made)
        with contextlib.ExitStack() as stack:
            ann, _ = join(c, stack, tid, toks[0])
            long = say(ann, "x" * 201, "l")
            assert long["code"] == "bad_message" and "at most 200 characters" in long["message"], long
            assert say(ann, " \n\t ", "e")["code"] == "bad_message"
            codes = [say(ann, f"message {i}", f"r{i}").get("code") for i in range(7)]
            assert codes[:5] == [None] * 5 and codes[5:] == ["rate_limited"] * 2, codes
            assert "not sent" in say(ann, "again", "x")["message"]
        with contextlib.ExitStack() as stack:  # only the five sent were stored
            _, seen = join(c, stack, tid, toks[0])
            assert [m["text"] for m in seen["messages"]] == [f"message {i}" for i in range(5)]


def test_a_client_that_does_not_ask_for_the_chat_gets_the_same_messages_as_before(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "human", "heuristic"))
        tid, toks = made["table"]["id"], tokens(made)
        with c.websocket_connect("/ws") as ws:
            hello(ws, tid, toks[0])
            assert [m["type"] for m in quiet(ws)] == []
            ws.send_json({"type": "chat", "text": "hi", "id": 1})
            assert recv(ws)["type"] == "chat"  # it may still write (and hears its own line)


def test_a_rematch_keeps_the_creator_s_choice_and_starts_a_chat_of_its_own(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "random", "random"), spectator_chat=True)
        tid, toks = made["table"]["id"], tokens(made)
        with contextlib.ExitStack() as stack:
            states: list[dict[str, Any]] = []
            ann, _ = join(c, stack, tid, toks[0], states=states)
            play_out(ann, random.Random(1), states[0])
            say(ann, "good game", "gg")  # after the end too
            ann.send_json({"type": "rematch"})
            again = until(ann, lambda m: m["type"] == "rematch")["table"]
        with contextlib.ExitStack() as stack:
            watcher, seen = join(c, stack, again, None)
            assert seen["can_write"] is True and seen["messages"] == []
            assert say(watcher, "another!", "w")["messages"][0]["n"] == 1
