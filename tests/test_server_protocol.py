"""The WebSocket protocol over Starlette's TestClient: play, reconnect, spectate, undo,
steps, rematch, and every error (each answered with an error message, changing nothing)."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from server_kit import client, create, hello, hub, play_move, play_out, quiet, recv, tokens, until

from kiti.core.events import REFEREE
from kiti.core.records import replay


def seat_all(
    c: Any, stack: contextlib.ExitStack, tid: str, toks: dict[int, str], spectators: int = 0
) -> tuple[dict[Any, Any], dict[Any, dict[str, Any]]]:
    """Open a connection per seat (and spectators, keyed ``s0``...); their latest states."""
    wss: dict[Any, Any] = {}
    states: dict[Any, dict[str, Any]] = {}
    keys = list(toks) + [f"s{i}" for i in range(spectators)]
    for key in keys:
        ws = stack.enter_context(c.websocket_connect("/ws"))
        states[key] = hello(ws, tid, toks.get(key) if isinstance(key, int) else None)
        if isinstance(key, int):  # the others hear that this seat is connected
            for other in wss:
                states[other] = recv(ws=wss[other])
        wss[key] = ws
    return wss, states


def step(
    wss: dict[Any, Any], states: dict[Any, dict[str, Any]], seat: int, rng: random.Random, ident: Any
) -> None:
    """``seat`` plays a random legal move; every connection gets exactly one state for it."""
    states[seat] = play_move(wss[seat], states[seat], rng, ident)
    for key, ws in wss.items():
        if key != seat:
            states[key] = recv(ws)
            assert states[key]["type"] == "state" and "re" not in states[key]


def to_move(states: dict[Any, dict[str, Any]]) -> int | None:
    seats = [k for k, s in states.items() if isinstance(k, int) and s["your_turn"]]
    return min(seats) if seats else None


def test_three_humans_and_a_spectator_play_a_whole_game(tmp_path) -> None:
    rng = random.Random(1)
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        wss, states = seat_all(c, stack, tid, tokens(made), spectators=1)
        true = hub(c).tables[tid]
        assert states[0]["table"]["status"] == "playing" and states[0]["your_turn"]
        assert states["s0"]["you"] is None and states["s0"]["legal"] is None
        n = 0
        while (seat := to_move(states)) is not None:
            for key in wss:
                viewer = key if isinstance(key, int) else None
                assert states[key]["view"] == true.state.observation(viewer)
            assert states[seat]["legal"] == [str(m) for m in true.state.legal_moves(seat)]
            assert states[seat]["prompt"]
            step(wss, states, seat, rng, n)
            n += 1
        assert true.state.over
        for state in states.values():
            assert state["over"] and state["reveal"] == true.state.observation(REFEREE)
            assert state["result"] == true.state.result().to_dict()
            assert [row["rank"] for row in state["standings"]] == sorted(
                row["rank"] for row in state["standings"]
            )
        record = c.get(f"/api/tables/{tid}/record").json()
        assert len(record["moves"]) == n
        assert replay(record).observation(REFEREE) == true.state.observation(REFEREE)


def test_events_come_with_sentences_and_a_cursor(tmp_path) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        _wss, _states = seat_all(c, stack, tid, tokens(made))
        true = hub(c).tables[tid].state
        with c.websocket_connect("/ws") as ws:
            first = hello(ws, tid, tokens(made)[0])
        assert first["events"] == true.events(0) and first["cursor"] == true.event_count(0)
        assert len(first["lines"]) == len(first["events"]) > 0
        assert all(isinstance(line, str) and line for line in first["lines"])


def test_a_reconnecting_seat_gets_the_events_it_missed_exactly_once(tmp_path) -> None:
    rng = random.Random(3)
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        toks = tokens(made)
        wss, states = seat_all(c, stack, tid, toks)
        seen = {s: list(states[s]["events"]) for s in wss}
        step(wss, states, 2, rng, "x")
        seen[2] += states[2]["events"]
        cursor = states[2]["cursor"]
        wss.pop(2).close()
        del states[2]
        for ws in wss.values():  # a presence message, no state: no view is rebuilt for a seat leaving
            gone = recv(ws)
            assert gone["type"] == "presence" and gone["table"]["seats"][2]["connected"] is False
        for ident, seat in enumerate((0, 1)):  # the round is revealed while seat 2 is away
            step(wss, states, seat, rng, ident)
        true = hub(c).tables[tid].state
        assert true.event_count(2) > cursor
        with c.websocket_connect("/ws") as ws:
            back = hello(ws, tid, toks[2], since=cursor)
            assert back["events"] == true.events(2, since=cursor) and not back["reset"]
            assert seen[2] + back["events"] == true.events(2)
            assert back["cursor"] == true.event_count(2)
            assert back["table"]["seats"][2]["connected"]


def test_a_spectator_sees_the_spectator_view_and_cannot_act(tmp_path) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        wss, states = seat_all(c, stack, tid, tokens(made), spectators=1)
        step(wss, states, 0, random.Random(4), 1)
        true = hub(c).tables[tid].state
        spectator = states["s0"]
        assert spectator["view"] == true.observation(None)
        assert spectator["cursor"] == true.event_count(None) and spectator["your_turn"] is False
        for message in ({"type": "move", "move": "dive 1"}, {"type": "undo"}, {"type": "rematch"}):
            wss["s0"].send_json(message)
            assert recv(wss["s0"])["code"] == "not_seated"


def test_undo_exactly_when_the_engine_allows_it(tmp_path) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        wss, states = seat_all(c, stack, tid, tokens(made))
        table = hub(c).tables[tid]
        wss[0].send_json({"type": "undo", "id": "u0"})
        refused = recv(wss[0])
        assert refused["code"] == "undo_refused" and "no move has been made yet" in refused["message"]
        step(wss, states, 0, random.Random(5), "m0")
        wss[0].send_json({"type": "undo", "id": "u1"})
        undone = until(wss[0], lambda m: m.get("re") == "u1")
        assert undone["type"] == "state" and undone["your_turn"] and table.state.history == []
        assert undone["cursor"] == table.state.event_count(0)
        assert c.get(f"/api/tables/{tid}").json()["table"]["status"] == "playing"
        states[0] = undone
        for seat in (1, 2):
            states[seat] = recv(wss[seat])
        for ident, seat in enumerate((0, 1, 2)):  # the round's dives are revealed
            step(wss, states, seat, random.Random(6), f"d{ident}")
        wss[2].send_json({"type": "undo", "id": "u2"})
        refused = recv(wss[2])
        assert refused["code"] == "undo_refused" and refused["re"] == "u2"
        assert refused["message"] == "cannot take back: " + table.state.undo_refusal(2)
        assert len(table.state.history) == 3


def test_steps_offer_a_move_token_by_token(tmp_path) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        wss, states = seat_all(c, stack, made["table"]["id"], tokens(made))
        wss[0].send_json({"type": "steps", "prefix": [], "id": 9})
        steps = recv(wss[0])
        assert steps["type"] == "steps" and steps["re"] == 9
        assert [s["move"] for s in steps["steps"]] == states[0]["legal"]


def test_every_bad_message_gets_an_error_and_changes_nothing(tmp_path) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        other = create(c)
        tid = made["table"]["id"]
        toks = tokens(made)
        with c.websocket_connect("/ws") as ws:
            for frame, code in [
                ({"type": "move", "move": "dive 1"}, "not_joined"),
                ({"type": "hello", "v": 1, "table": "nope"}, "no_table"),
                ({"type": "hello", "v": 1, "table": tid, "token": "x" * 32}, "bad_token"),
                ({"type": "hello", "v": 1, "table": tid, "token": tokens(other)[0]}, "bad_token"),
                ({"type": "hello", "v": 2, "table": tid}, "bad_version"),
            ]:
                ws.send_json(frame)
                assert recv(ws)["code"] == code, frame
        wss, states = seat_all(c, stack, tid, toks)
        table = hub(c).tables[tid]
        step(wss, states, 0, random.Random(7), 0)
        before = json.dumps(table.state.record())
        ws = wss[0]
        cases = [
            ("{oops", "bad_json"),
            ("[1, 2]", "bad_json"),
            ("x" * 20_000, "too_large"),
            (json.dumps({"type": 3}), "bad_message"),
            (json.dumps({"type": "dance"}), "unknown_type"),
            (json.dumps({"type": "move"}), "bad_message"),
            (json.dumps({"type": "move", "move": "dive 1", "extra": 1}), "bad_message"),
            (json.dumps({"type": "move", "move": 7}), "bad_message"),
            (json.dumps({"type": "hello", "v": 1, "table": tid}), "already_joined"),
            (json.dumps({"type": "move", "move": "dive 3"}), "not_your_turn"),
        ]
        for frame, code in cases:
            ws.send_text(frame)
            assert recv(ws)["code"] == code, frame
        ws.send_bytes(b"{}")
        assert recv(ws)["code"] == "bad_json"
        state = table.state
        wrong = type(state).parse_move("take 1")  # only a No Fighting taker orders a catch
        wss[1].send_json({"type": "move", "move": str(wrong), "id": "i"})
        illegal = recv(wss[1])
        assert illegal["code"] == "illegal_move" and illegal["re"] == "i"
        assert illegal["message"] == state.illegal_reason(1, wrong)
        wss[1].send_json({"type": "move", "move": "dive 99"})
        assert recv(wss[1])["code"] in ("bad_move", "illegal_move")
        assert json.dumps(table.state.record()) == before
        for key in (1, 2):
            assert quiet(wss[key], 0.1) == []


def test_a_flood_is_answered_with_rate_limit_errors_not_a_disconnect(tmp_path) -> None:
    with client(tmp_path, rate=2.0, burst=3) as c, c.websocket_connect("/ws") as ws:
        for i in range(10):
            ws.send_json({"type": "ping", "id": i})
        replies = [recv(ws) for _ in range(10)]
        assert [r["type"] for r in replies].count("pong") == 3
        assert all(r["code"] == "rate_limited" for r in replies if r["type"] == "error")
        quiet(ws, 0.6)
        ws.send_json({"type": "ping", "id": "later"})
        assert recv(ws) == {"type": "pong", "re": "later"}


def test_only_the_token_acts_as_its_seat_and_a_new_connection_replaces_the_old(tmp_path) -> None:
    with client(tmp_path) as c, contextlib.ExitStack() as stack:
        made = create(c)
        tid = made["table"]["id"]
        toks = tokens(made)
        wss, states = seat_all(c, stack, tid, toks)
        assert [states[s]["you"] for s in (0, 1, 2)] == [0, 1, 2]
        with c.websocket_connect("/ws") as second:
            assert hello(second, tid, toks[0])["you"] == 0
            kicked = recv(wss[0])
            assert kicked["code"] == "replaced"
            with pytest.raises(Exception):  # noqa: B017, PT011  (the socket is closed: any error)
                recv(wss[0])


def test_rematch_keeps_the_seats_and_tokens_with_a_new_seed(tmp_path) -> None:
    rng = random.Random(8)
    with client(tmp_path) as c:
        made = create(c, seats=("human", "random", "random"))
        tid = made["table"]["id"]
        token = tokens(made)[0]
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid, token)
            ws.send_json({"type": "rematch", "id": "early"})
            assert until(ws, lambda m: m.get("re") == "early")["code"] == "not_over"
            state = play_out(ws, rng, state)
            ws.send_json({"type": "rematch"})
            note = until(ws, lambda m: m["type"] == "rematch")
        new = hub(c).tables[note["table"]]
        assert new.row.rematch_of == tid and hub(c).tables[tid].row.rematch == new.id
        assert new.row.seed != hub(c).tables[tid].row.seed
        assert [s.kind for s in new.seats] == ["human", "random", "random"]
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, new.id, token)["table"]["status"] == "playing"


def test_every_game_gets_first_steps_and_games_with_few_moves_the_list_too(monkeypatch) -> None:
    from kiti.core.registry import get_game
    from kiti.server.messages import state_message

    cls = get_game("miaui")
    state = cls.new(3, None, 5)
    table = {
        "id": "t",
        "game": "miaui",
        "status": "playing",
        "seats": [{"name": f"seat {i}", "kind": "human", "bot_plays": False} for i in range(3)],
    }
    plain, _ = state_message(state, table, 0, 0, None)
    assert plain["legal"] == [str(m) for m in state.legal_moves(0)]
    assert [s["move"] for s in plain["steps"]] == [
        str(m) for m in state.legal_moves(0)
    ]  # clients choose through steps
    monkeypatch.setattr(cls, "many_moves", lambda self, seat: True)
    wide, _ = state_message(state, table, 0, 0, None)
    assert wide["legal"] is None
    assert [s["move"] for s in wide["steps"]] == [str(m) for m in state.legal_moves(0)]
    assert all(s["count"] == 1 for s in wide["steps"])
