"""Turn timers, bots taking over seats (and humans taking them back), the bot pool."""

from __future__ import annotations

import time

import waits
from server_kit import client, create, hello, hub, recv, tokens, until

from kiti.core.events import REFEREE
from kiti.core.records import replay


def seat0(m: dict) -> dict:
    return m["table"]["seats"][0]


def test_a_timed_out_human_is_replaced_by_a_bot_until_back(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "human", "random"), timer=0.3, takeover=True)
        tid, toks = made["table"]["id"], tokens(made)
        with c.websocket_connect("/ws") as ws0, c.websocket_connect("/ws") as ws1:
            hello(ws0, tid, toks[0])
            first = hello(ws1, tid, toks[1])
            assert first["clock"]["seconds"] == 0.3 and 0 < first["clock"]["left"]["0"] <= 0.3
            away = until(ws0, lambda m: m["type"] == "state" and seat0(m)["away"])
            assert seat0(away)["bot_plays"] and not away["your_turn"]
            table = hub(c).tables[tid]
            deadline = time.monotonic() + waits.MESSAGE
            while not any(s == 0 for s, _ in table.state.history):  # the bot moves for seat 0
                assert time.monotonic() < deadline
                recv(ws0)
            ws0.send_json({"type": "move", "move": "dive 1", "id": "late"})
            assert until(ws0, lambda m: m.get("re") == "late")["code"] == "away"
            ws0.send_json({"type": "back", "id": "b"})
            back = until(ws0, lambda m: m.get("re") == "b")
            assert not seat0(back)["away"] and not seat0(back)["bot_plays"]
            assert until(ws1, lambda m: m["type"] == "state" and not seat0(m)["away"])


def test_without_takeover_a_timeout_plays_one_move_for_the_seat(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "random", "random"), timer=0.2, takeover=False)
        tid = made["table"]["id"]
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid, tokens(made)[0])
            assert state["your_turn"]
            forced = until(ws, lambda m: m["type"] == "state" and seat0(m)["bot_plays"])
            assert not seat0(forced)["away"] and not forced["your_turn"]
            again = until(ws, lambda m: m["type"] == "state" and m["your_turn"])
            assert not seat0(again)["bot_plays"] and 0 < again["clock"]["left"]["0"] <= 0.2
        assert [s for s, _ in hub(c).tables[tid].state.history].count(0) == 1


def test_a_human_who_leaves_is_played_by_a_bot_and_takes_the_seat_back(tmp_path) -> None:
    with client(tmp_path, leave_grace=0.0) as c:
        made = create(c, seats=("human", "human", "random"), takeover=True)
        tid, toks = made["table"]["id"], tokens(made)
        with c.websocket_connect("/ws") as ws1:
            with c.websocket_connect("/ws") as ws0:
                hello(ws0, tid, toks[0])
                hello(ws1, tid, toks[1])
            left = until(ws1, lambda m: m["type"] == "state" and seat0(m)["away"])
            assert not seat0(left)["connected"] and seat0(left)["bot_plays"]
            state = until(ws1, lambda m: m["type"] == "state" and m["your_turn"])
            ws1.send_json({"type": "move", "move": state["legal"][0], "id": 1})
            until(ws1, lambda m: m.get("re") == 1)
            table = hub(c).tables[tid]
            deadline = time.monotonic() + waits.MESSAGE
            while not any(s == 0 for s, _ in table.state.history):
                assert time.monotonic() < deadline
                recv(ws1)
            with c.websocket_connect("/ws") as ws0:
                state = hello(ws0, tid, toks[0])
                assert not seat0(state)["away"] and seat0(state)["connected"]
                assert not seat0(state)["bot_plays"]
                seen = until(ws1, lambda m: m["type"] == "presence" and seat0(m)["connected"])
                assert not seat0(seen)["away"] and set(seen) == {"type", "table", "clock"}


def test_bots_think_in_worker_processes_and_play_a_whole_game(tmp_path) -> None:
    with client(tmp_path, bot_mode="process", bot_workers=1) as c:
        made = create(c, seats=("random", "heuristic", "random", "random"))
        tid = made["table"]["id"]
        assert made["seats"] == [] and made["table"]["status"] == "playing"
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid)
            while not state["over"]:
                state = until(ws, lambda m: m["type"] == "state", timeout=waits.GAME)
        record = c.get(f"/api/tables/{tid}/record").json()
        assert replay(record).observation(REFEREE) == state["reveal"]


def test_a_bot_over_its_time_is_replaced_by_a_legal_move(tmp_path) -> None:
    with client(tmp_path, bot_time_limit=0.01) as c:
        made = create(c, seats=("ismcts:iters=1500", "random", "random"))
        tid = made["table"]["id"]
        table = hub(c).tables[tid]
        deadline = time.monotonic() + waits.MESSAGE
        while not any(s == 0 for s, _ in table.state.history):
            assert time.monotonic() < deadline
            time.sleep(0.02)
