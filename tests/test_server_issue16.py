"""Issue 16 at the server: a move frame with a very long move text is answered by one short
error that quotes a readable part of it, and the table is unchanged."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from server_kit import client, config, create, hello, hub, quiet, recv, tokens

LONG = 15_000  # characters of move text: under the server's frame limit
LONGEST_MESSAGE = 200  # characters an error message may take
LONGEST_QUOTE = 80  # characters of the move it may repeat


@pytest.mark.parametrize(
    "move", ["dive " + "9" * LONG, "9" * LONG, "dive 3 " + "9" * LONG], ids=["number", "word", "trailing"]
)
def test_a_long_move_gets_one_short_error_and_changes_nothing(tmp_path, move: str) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        wss = []
        for _seat, token in sorted(tokens(made).items()):
            ws = stack.enter_context(c.websocket_connect("/ws"))
            hello(ws, tid, token)
            wss.append(ws)
        for ws in wss:
            quiet(ws, 0.2)  # the others' arrivals
        table = hub(c).tables[tid]
        before = json.dumps(table.state.record())
        frame = json.dumps({"type": "move", "move": move, "id": "long"})
        assert len(frame) < config(tmp_path).max_frame  # the premise: the frame itself is accepted
        wss[0].send_text(frame)
        answer = recv(wss[0])
        assert answer["type"] == "error" and answer["re"] == "long", answer
        assert answer["code"] in ("bad_move", "illegal_move"), answer
        message = answer["message"]
        assert len(message) <= LONGEST_MESSAGE, message[:300]
        assert max(len(run) for run in re.findall(r"9+", message) or [""]) <= LONGEST_QUOTE, message
        assert quiet(wss[0], 0.2) == []  # one answer, nothing after it
        assert json.dumps(table.state.record()) == before
        for ws in wss[1:]:
            assert quiet(ws, 0.1) == []
