"""Issue 17, items 5-7 over the protocol: a time bank per person (presets, stored across a
restart), a timed-out decision played by the stand-in while the seat stays its person's (away
only after two in a row), the stand-ins' decisions credited in the standings, and forced moves
played at once with a notice.  Short custom timers keep the waits short; every limit is generous."""

from __future__ import annotations

import random
from typing import Any

import waits
from server_kit import client, create, hello, hub, recv, tokens, until

from kiti.core.records import replay
from kiti.core.turns import forced_move
from kiti.server.config import TIMER_PRESETS


def seat0(m: dict[str, Any]) -> dict[str, Any]:
    return m["table"]["seats"][0]


def test_timer_presets_give_a_bank_and_an_unknown_one_is_refused(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "random", "random"), timer="fast")
        fast = TIMER_PRESETS["fast"]
        assert made["table"]["timer"] == fast.move
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, made["table"]["id"], tokens(made)[0])
            clock = state["clock"]
            assert (clock["seconds"], clock["bank"], clock["cap"]) == (fast.move, fast.bank, fast.cap)
            assert clock["banks"] == {"0": fast.bank}
            assert fast.move < clock["left"]["0"] <= fast.move + fast.bank  # the decision's time and the bank
        r = c.post("/api/tables", json={"game": "miaui", "seats": ["human"] * 3, "timer": "blitz" * 40})
        assert r.status_code == 400
        message = r.json()["error"]["message"]
        assert "fast, normal, slow" in message and "..." in message and len(message) < 200


def test_unused_time_goes_to_the_bank_which_survives_a_restart(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "random", "random"), timer=5)  # bank 0, at most 20 s
        tid, token = made["table"]["id"], tokens(made)[0]
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid, token)
            assert state["clock"]["banks"]["0"] == 0 and state["clock"]["left"]["0"] <= 5
            ws.send_json({"type": "move", "move": state["legal"][0], "id": 1})
            until(ws, lambda m: m.get("re") == 1)
            nxt = until(ws, lambda m: m["type"] == "state" and m["your_turn"])
        bank = nxt["clock"]["banks"]["0"]
        assert 5 - waits.seconds(4) < bank <= 5, "the unused part of a quick decision is in the bank"
        assert nxt["clock"]["left"]["0"] > 5, "the next decision may draw on the bank"
    with client(tmp_path) as c:  # a new server on the same database
        with c.websocket_connect("/ws") as ws:
            again = hello(ws, tid, token)
        assert again["clock"]["banks"]["0"] == bank
        assert again["clock"]["left"]["0"] > 5


def test_a_timeout_has_the_stand_in_play_one_decision_and_the_seat_stays_its_persons(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "random", "random"), timer=3, takeover=True)  # 3 s: time to act
        tid = made["table"]["id"]
        with c.websocket_connect("/ws") as ws:
            hello(ws, tid, tokens(made)[0])
            told = until(ws, lambda m: m["type"] == "notice")
            assert told["code"] == "timed_out" and "seat stays yours" in told["message"]
            mine = until(ws, lambda m: m["type"] == "state" and m["your_turn"])  # the next decision
            assert not seat0(mine)["away"] and seat0(mine)["stand_in_moves"] == 1
            assert mine["view"]["round"] == 2, "the premise: the stand-in dived once for seat 0"
            assert 0 < mine["clock"]["left"]["0"] <= 3 and mine["clock"]["banks"]["0"] == 0, (
                "the bank was spent"
            )
            ws.send_json({"type": "move", "move": mine["legal"][0], "id": "own"})  # the person acts
            assert until(ws, lambda m: m.get("re") == "own")["type"] == "state", "the premise: acted in time"
            codes, states = [], []  # then misses two decisions in a row: away only after the second
            while not states or seat0(states[-1])["stand_in_moves"] < 3:
                message = recv(ws)
                if message["type"] == "notice":
                    codes.append(message["code"])
                elif message["type"] == "state":
                    states.append(message)
            assert codes == ["timed_out", "timed_out", "away"]
            assert [seat0(m)["away"] for m in states if seat0(m)["stand_in_moves"] == 2][-1] is False
            assert seat0(states[-1])["away"] and seat0(states[-1])["bot_plays"]
            ws.send_json({"type": "back", "id": "b"})
            back = until(ws, lambda m: m.get("re") == "b")
            assert not seat0(back)["away"] and not seat0(back)["bot_plays"]
            # read at once: the seat's next decision has 3 s before a stand-in makes it again
            mine0 = hub(c).tables[tid].clock.time(0)
            assert mine0.stand_ins >= 3 and mine0.streak == 0, "back: a new streak starts from none"


def test_the_standings_credit_the_stand_in_with_the_decisions_it_made(tmp_path) -> None:
    with client(tmp_path, leave_grace=0.0) as c:
        made = create(c, seats=("human", "human", "random"), takeover=True)
        tid, toks = made["table"]["id"], tokens(made)
        with c.websocket_connect("/ws") as ws1:
            with c.websocket_connect("/ws") as ws0:
                hello(ws0, tid, toks[0])
                state = hello(ws1, tid, toks[1])
            rng = random.Random(1)  # seat 0 left at once: the stand-in plays its whole game
            n = 0
            while not state["over"]:
                if state["your_turn"]:
                    n += 1
                    ws1.send_json({"type": "move", "move": rng.choice(state["legal"]), "id": n})
                state = until(ws1, lambda m: m["type"] == "state", timeout=waits.GAME)
        rows = {row["seats"][0]: row for row in state["standings"]}
        record = replay(c.get(f"/api/tables/{tid}/record").json())
        made0 = sum(1 for seat, _ in record.history if seat == 0)
        assert made0 > 0 and rows[0]["decisions"] == made0
        assert rows[0]["stand_in_moves"] == made0 and rows[0]["stand_in"]
        assert rows[1]["stand_in_moves"] == 0 and not rows[1]["stand_in"]
        assert rows[2]["stand_in_moves"] == 0 and not rows[2]["stand_in"], "a bot seat is nobody's stand-in"
        assert seat0(state)["stand_in_moves"] == made0


def test_a_forced_move_is_played_at_once_with_a_notice(tmp_path) -> None:
    """Mauw: a seat attacked with nothing to defend with can only decline; the server plays it."""
    with client(tmp_path) as c:
        made = create(c, game="mauw", seats=("human", "random"))
        tid = made["table"]["id"]
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid, tokens(made)[0])
            rng, n, notices, asked = random.Random(2), 0, [], []
            while not state["over"]:
                if state["your_turn"]:
                    n += 1
                    asked.append(state["legal"])
                    ws.send_json({"type": "move", "move": rng.choice(state["legal"]), "id": n})
                message = recv(ws, waits.GAME)
                if message["type"] == "notice":
                    notices.append(message)
                elif message["type"] == "state":
                    state = message
        assert all(len(legal) > 1 for legal in asked), "the person is never asked for a forced move"
        forced = [m for m in notices if m["code"] == "forced"]
        assert forced and all(
            m["message"] == f"Your only move, {m['move']}, was played for you." for m in forced
        )
        record = c.get(f"/api/tables/{tid}/record").json()
        game, only = replay({**record, "moves": []}), []
        for seat, move in record["moves"]:
            if seat == 0 and forced_move(game, 0) is not None:
                assert str(forced_move(game, 0)) == move
                only.append(move)
            game.play(seat, move)
        assert [m["move"] for m in forced] == only, "a notice for each forced move of seat 0, in order"
