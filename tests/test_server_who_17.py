"""Issue 17, "Who you are" and "A lobby that remembers", through the lobby's HTTP API and the
WebSocket: names that read as a seat and duplicate names are refused (the terminal's rule,
one place); a seat made for a person opens only with its link (a join cannot take it, the
open list does not offer it, a rematch keeps it); a party that is not a seat is named in the
standings; the lists come from the database, paged, and survive a restart."""

from __future__ import annotations

import random

import pytest
from server_kit import client, create, hello, hub, play_out, recv, tokens, until

from kiti.cli.saves import names_of
from kiti.core.words import name_refusal


def error_of(response) -> tuple[int, str, str]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["message"]


# ------------------------------------------------------------------ 3. names
@pytest.mark.parametrize("name", ["you", "You", "seat 2", "SEAT 0", "seat7", " Seat  3 "])
def test_a_name_that_reads_as_a_seat_is_refused_at_create_and_join_as_in_the_terminal(tmp_path, name) -> None:
    with pytest.raises(ValueError, match="seat") as cli:
        names_of(f"Ann,{name}", 3)
    reason = name_refusal(name.strip())  # both strip a name first
    assert reason is not None and reason in str(cli.value)  # the one rule, in the terminal
    with client(tmp_path) as c:
        refused = c.post(
            "/api/tables", json={"game": "miaui", "seats": ["human"] * 3, "names": ["Ann", name, None]}
        )
        status, code, message = error_of(refused)
        assert (status, code) == (400, "bad_request")
        assert "seat 1" in message and reason in message
        tid = create(c)["table"]["id"]
        status, code, message = error_of(c.post(f"/api/tables/{tid}/join", json={"name": name}))
        assert (status, code) == (400, "bad_request") and message.startswith("your name: ")
        assert all(not s["claimed"] for s in c.get(f"/api/tables/{tid}").json()["table"]["seats"])


def test_two_people_of_one_name_at_a_table_are_refused(tmp_path) -> None:
    with client(tmp_path) as c:
        refused = c.post(
            "/api/tables", json={"game": "miaui", "seats": ["human"] * 3, "names": ["Ann", "ann ", None]}
        )
        assert error_of(refused)[:2] == (400, "bad_request") and "'ann'" in error_of(refused)[2]
        tid = create(c, names=["Ann", None, None])["table"]["id"]
        assert c.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).status_code == 200
        status, code, message = error_of(c.post(f"/api/tables/{tid}/join", json={"name": "BO"}))
        assert (status, code) == (400, "bad_request") and "already named 'BO'" in message
        seats = c.get(f"/api/tables/{tid}").json()["table"]["seats"]
        assert [s["name"] for s in seats] == ["Ann", "Bo", "seat 2"] and not seats[2]["claimed"]
        bot = create(c, seats=("human", "heuristic", "heuristic"), names=["heuristic", None, None])
        assert bot["table"]["seats"][0]["name"] == "heuristic"  # bots' names are no people's names


# ------------------------------------------------------------------ 4. seats belong to their people
def test_a_seat_made_for_a_person_opens_only_with_its_link(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "human", "human"), names=["Ann", "Bob", None])
        tid = made["table"]["id"]
        assert [s["open"] for s in made["table"]["seats"]] == [False, False, True]
        status, code, message = error_of(c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Eve"}))
        assert (status, code) == (409, "seat_kept") and "'Bob'" in message and "link" in message
        cy = c.post(f"/api/tables/{tid}/join", json={"name": "Cy"}).json()
        assert cy["seat"] == 2
        status, code, _ = error_of(c.post(f"/api/tables/{tid}/join", json={"name": "Eve"}))
        assert (status, code) == (409, "no_free_seat")  # Ann's and Bob's seats are not offered
        assert c.get("/api/tables?status=open").json()["tables"] == []
        seats = c.get(f"/api/tables/{tid}").json()["table"]["seats"]
        assert [s["name"] for s in seats] == ["Ann", "Bob", "Cy"] and not seats[1]["claimed"]
        with c.websocket_connect("/ws") as ws:  # Bob's link still works
            assert hello(ws, tid, tokens(made)[1])["you"] == 1


def test_the_open_list_offers_only_tables_with_a_seat_open_to_anyone(tmp_path) -> None:
    with client(tmp_path) as c:
        kept = create(c, seats=("human", "human", "random"), names=["Ann", "Bob", None])["table"]["id"]
        unnamed_kept = create(c, seats=("human", "human", "random"), open=[False, False, False])["table"][
            "id"
        ]
        named_open = create(
            c, seats=("human", "human", "random"), names=["Ann", "Bob", None], open=[False, True, False]
        )["table"]["id"]
        listed = c.get("/api/tables?status=open").json()["tables"]
        assert [t["id"] for t in listed] == [named_open]
        assert [s["open"] for s in listed[0]["seats"]] == [False, True, False]
        assert c.post(f"/api/tables/{named_open}/join", json={"name": "Cy"}).json()["seat"] == 1
        for tid in (kept, unnamed_kept):
            assert error_of(c.post(f"/api/tables/{tid}/join"))[1] == "no_free_seat"
        bad = c.post(
            "/api/tables",
            json={"game": "miaui", "seats": ["human", "human", "random"], "open": [False, False, True]},
        )
        assert error_of(bad)[:2] == (400, "bad_request") and "seat 2 is a bot seat" in error_of(bad)[2]


def test_a_rematch_keeps_each_persons_seat_and_link(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "human", "random"), takeover=True)
        tid, keys = made["table"]["id"], tokens(made)
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid, keys[0])
            with c.websocket_connect("/ws") as bob:  # Bob comes and leaves: a bot plays his seat
                hello(bob, tid, keys[1])
            state = play_out(ws, random.Random(3), state)
            assert state["over"]
            ws.send_json({"type": "rematch"})
            new = until(ws, lambda m: m["type"] == "rematch")["table"]
        assert hub(c).tables[new].row.status == "waiting"  # the premise: its seats are not claimed yet
        assert c.get("/api/tables?status=open").json()["tables"] == []
        for body in ({}, {"seat": 0}, {"seat": 1}):
            assert error_of(c.post(f"/api/tables/{new}/join", json=body))[1] in ("no_free_seat", "seat_kept")
        with c.websocket_connect("/ws") as ws:
            assert hello(ws, new, keys[1])["you"] == 1
            ws.send_json({"type": "hello", "v": 1, "table": new})
            assert recv(ws)["code"] == "already_joined"


# ------------------------------------------------------------------ 2. every winner named
def test_a_solo_game_the_opponent_wins_names_it_in_the_result_and_the_standings(tmp_path) -> None:
    with client(tmp_path, seed=2, rate=1000.0, burst=1000) as c:  # seed 2: the first legal move loses
        made = create(c, game="motu", seats=("human",), names=["Ann"])
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, made["table"]["id"], tokens(made)[0])
            while not state["over"]:
                ws.send_json({"type": "move", "move": first_move(ws, state), "id": "m"})
                state = until(ws, lambda m: m.get("re") == "m")
        parties = state["result"]["parties"]
        winners = [parties[i]["name"] for i in state["result"]["winners"]]
        assert winners == ["Opponent"] and parties[state["result"]["winners"][0]]["seats"] == []
        top = state["standings"][0]
        assert top["winner"] and top["party"] == "Opponent" and top["names"] == ["Opponent"]
        assert state["standings"][1]["names"] == ["Ann"]


def first_move(ws, state) -> str:
    """The first legal move (walking the steps of a game with many moves)."""
    if state["legal"]:
        return state["legal"][0]
    steps, prefix = state["steps"], []
    while steps[0]["move"] is None:
        prefix.append(steps[0]["token"])
        ws.send_json({"type": "steps", "prefix": prefix, "id": "s"})
        steps = until(ws, lambda m: m.get("re") == "s")["steps"]
    return steps[0]["move"]


# ------------------------------------------------------------------ 8. a lobby that remembers
def test_the_lists_come_from_the_database_paged_and_survive_a_restart(tmp_path) -> None:
    with client(tmp_path) as c:
        done = [create(c, seats=("random",) * 3)["table"]["id"] for _ in range(3)]
        waiting = create(c, seats=("human", "human", "random"))["table"]["id"]
        for tid in done:
            until_over(c, tid)
        hub(c)._evict(done[0])  # what happens to a finished table nobody watches, after a while
        assert done[0] not in hub(c).tables  # the premise
        over = c.get("/api/tables?status=over").json()
        assert sorted(t["id"] for t in over["tables"]) == sorted(done) and not over["more"]
    with client(tmp_path) as c:  # a restart
        assert not set(done) & set(hub(c).tables)  # the premise: finished tables are not in memory
        assert [t["id"] for t in c.get("/api/tables?status=open").json()["tables"]] == [waiting]
        first = c.get("/api/tables?status=over&limit=2").json()
        assert len(first["tables"]) == 2 and first["more"] and first["next"] == 2
        rest = c.get("/api/tables?status=over&limit=2&offset=2").json()
        assert len(rest["tables"]) == 1 and not rest["more"] and rest["next"] is None
        assert {t["id"] for t in first["tables"] + rest["tables"]} == set(done)
        assert all(t["status"] == "over" and t["name"] == "Miaui" for t in rest["tables"])
        mine = c.get(f"/api/tables?status=all&ids={done[0]},{waiting},nosuch").json()["tables"]
        assert sorted(t["id"] for t in mine) == sorted([done[0], waiting])
        for query, word in (
            ("status=over&limit=0", "limit"),
            ("status=over&offset=-1", "offset"),
            ("status=lost", "'lost'"),
            ("ids=" + ",".join(["x"] * 101), "ids"),
        ):
            status, code, message = error_of(c.get(f"/api/tables?{query}"))
            assert (status, code) == (400, "bad_request") and word in message


def until_over(c, tid: str) -> None:
    assert wait_for(lambda: c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over"), tid


def wait_for(pred, timeout: float = 60.0) -> bool:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False
