"""Turn timers, bots taking over seats (and humans taking them back), the bot pool."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
import waits
from server_kit import client, create, hello, hub, recv, tokens, until

from kiti.core.events import REFEREE
from kiti.core.records import replay
from kiti.server import queries
from kiti.server.store import Closed

#: a table's seconds per decision that no test here reaches (a seat's time runs out when the
#: test runs it out: ``run_out``)
LONG = 3600.0


def seat0(m: dict) -> dict:
    return m["table"]["seats"][0]


def in_round(m: dict, round_: int) -> bool:
    """A state of Miaui's round ``round_``."""
    return m["type"] == "state" and m["view"]["round"] == round_


def run_out(c: Any, table: Any, seat: int) -> None:
    """The seat's time runs out now: what the table's clock does at a deadline (in the server's
    event loop).  With a clock no decision reaches by itself (``LONG``), only the seat the test
    names times out, when the test says so: however slow the machine, the other seats keep
    their person and the game waits for them."""

    def fire() -> None:
        table.clock.timed_out(seat)
        table.timed_out(seat)

    c.portal.call(fire)


def test_a_timed_out_human_is_replaced_by_a_bot_until_back(tmp_path) -> None:
    """Miaui's seats decide at once: seat 0's time runs out in two rounds in a row, so a bot
    plays it until its person is back; seat 1 plays each round itself (the game waits for it)."""
    with client(tmp_path) as c:
        made = create(c, seats=("human", "human", "random"), timer=LONG, takeover=True)
        tid, toks = made["table"]["id"], tokens(made)
        table = hub(c).tables[tid]
        with c.websocket_connect("/ws") as ws0, c.websocket_connect("/ws") as ws1:
            hello(ws0, tid, toks[0])
            state1 = hello(ws1, tid, toks[1])
            assert state1["clock"]["seconds"] == LONG and 0 < state1["clock"]["left"]["0"] <= LONG
            for decision in (1, 2):  # seat 0 is asked (in seat 1's round), its time runs out
                until(ws0, lambda m, r=state1["view"]["round"]: in_round(m, r) and m["your_turn"])
                run_out(c, table, 0)
                ws1.send_json({"type": "move", "move": state1["legal"][0], "id": decision})
                until(ws1, lambda m, d=decision: m.get("re") == d)
                state1 = until(ws1, lambda m: m["type"] == "state" and m["your_turn"])  # next round
            away = until(ws0, lambda m: m["type"] == "state" and seat0(m)["away"])
            assert seat0(away)["bot_plays"] and not away["your_turn"] and seat0(state1)["away"]
            # the bot decides for seat 0 in the new round: then the game waits for seat 1 alone
            until(ws0, lambda m: in_round(m, state1["view"]["round"]) and m["to_act"] == [1])
            assert [s for s, _ in table.state.history].count(0) == 3
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
            # asked in the next round: the stand-in made the one decision (later ones, once the
            # test has its answer, may time out too: the clock runs on)
            assert again["view"]["round"] == state["view"]["round"] + 1


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


def test_a_change_asked_once_the_server_stopped_is_refused(tmp_path) -> None:
    """The server stops while bots play: the store closes in its event loop (the changes still
    pending first), and a change asked afterwards is refused, not written on a connection
    opened anew beside the close (in a thread, the close freed SQLite's connection under a
    bot's commit in the loop: the process crashed)."""
    with client(tmp_path) as c:
        create(c, seats=("random", "random", "random"))
        store = hub(c).store
    with pytest.raises(Closed):
        asyncio.run(store.write(queries.update_table("nowhere", status="over")))
