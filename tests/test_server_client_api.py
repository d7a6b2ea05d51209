"""What the browser client needs from the server besides the protocol's core: the games' card
catalogs, a finished game's step-by-step replay, names in event sentences, reproducible seeds."""

from __future__ import annotations

import time

import waits
from server_kit import client, create, hello, tokens

from kiti.core.events import REFEREE
from kiti.core.records import replay, start
from kiti.games import get_game
from kiti.server.replays import MAX_FRAMES


def wait_over(c, tid: str, limit: float = waits.GAME) -> None:
    end = time.monotonic() + limit
    while c.get(f"/api/tables/{tid}").json()["table"]["status"] != "over":
        assert time.monotonic() < end, "the bots did not finish"
        time.sleep(0.05)


def test_every_game_has_a_catalog_naming_the_cards_its_views_use(tmp_path) -> None:
    with client(tmp_path) as c:
        games = [g["id"] for g in c.get("/api/games").json()["games"]]
        cats = {g: c.get(f"/api/games/{g}/catalog").json() for g in games}
        assert c.get("/api/games/chess/catalog").json()["error"]["code"] == "bad_request"
    assert {"miaui", "mauw", "motu"} <= set(cats)
    assert set(cats["miaui"]["catalog"]["cards"]) >= {"K1", "E15", "L7", "J15", "S"}
    assert cats["miaui"]["catalog"]["cards"]["J15"]["value"] == -15
    mauw = cats["mauw"]["catalog"]["cards"]
    assert mauw["Y7"] == {"name": "Yellow 7", "kind": "warrior", "value": 7, "colour": "Y"}
    assert {mauw[c]["kind"] for c in ("JK", "SP", "KI")} == {"joker", "spirit", "animal"}
    motu = cats["motu"]["catalog"]
    state = get_game("motu").new(3, {}, 1)
    view = state.observation(REFEREE)
    for placement in view["islands"][0]["placements"]:  # the village, as the view names it
        assert placement[0] in motu["cards"]
    turned = motu["cards"]["I19"]["rotations"]
    assert [len(turned["0"]["rows"]), len(turned["0"]["rows"][0])] == [4, 3]
    assert [len(turned["90"]["rows"]), len(turned["90"]["rows"][0])] == [3, 4]
    assert set(motu["travelers"]) == {f"T{i}" for i in range(1, 7)} and "D01" in motu["destinies"]


def test_a_catalog_cell_is_the_cell_the_island_model_lays(tmp_path) -> None:
    """The client draws a placed card from the catalog: it must match the view's visible cells."""
    from kiti.games.motu.catalog import catalog

    cards = catalog()["cards"]
    state = get_game("motu").new(1, {}, 3)
    rng = __import__("random").Random(3)
    while not state.over and len(state.observation(0)["islands"][0]["placements"]) < 4:
        state.apply(0, state.random_move(0, rng))
    island = state.observation(0)["islands"][0]
    card, rotation, x, y = island["placements"][-1]  # the top card: every cell visible
    turned = cards[card]["rotations"][str(rotation)]
    cells = {(c["x"], c["y"]): c for c in island["cells"]}
    for dy, row in enumerate(turned["rows"]):
        for dx, terrain in enumerate(row):
            assert cells[(x + dx, y + dy)]["terrain"] == terrain and cells[(x + dx, y + dy)]["card"] == card
    for dx, dy, kind in turned["symbols"]:
        assert cells[(x + dx, y + dy)]["symbol"] == kind


def test_replay_frames_are_the_engine_s_tables_after_each_move_and_only_after_the_end(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "random", "random"), names=["Ana", None, None])
        tid = made["table"]["id"]
        refused = c.get(f"/api/tables/{tid}/replay")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_over"
        bots = create(c, "mauw", ("random", "random"))["table"]["id"]
        wait_over(c, bots)
        record = c.get(f"/api/tables/{bots}/record").json()
        total = len(record["moves"])
        got = c.get(f"/api/tables/{bots}/replay?from=0&count={MAX_FRAMES}").json()
        assert got["steps"] == total and [f["step"] for f in got["frames"]] == list(
            range(min(total + 1, MAX_FRAMES))
        )
        state = start(record, get_game)
        assert got["frames"][0]["view"] == state.observation(REFEREE) and got["frames"][0]["move"] is None
        for frame in got["frames"][1:]:
            since = state.event_count("referee")
            seat, move = record["moves"][frame["step"] - 1]
            state.play(seat, move)
            assert frame["move"] == [seat, move] and frame["view"] == state.observation(REFEREE)
            assert frame["events"] == state.events("referee", since)
            assert len(frame["lines"]) == len(frame["events"])
        last = c.get(f"/api/tables/{bots}/replay?from={total}&count=5").json()["frames"]
        assert [f["step"] for f in last] == [total] and last[0]["over"]
        assert last[0]["view"] == replay(record).observation(REFEREE)
        for bad in ("from=-1", "count=0", f"count={MAX_FRAMES + 1}", "from=x", "from=%D9%A3"):  # ٣
            assert c.get(f"/api/tables/{bots}/replay?{bad}").json()["error"]["code"] == "bad_request"


def test_sentences_name_human_seats_by_their_names(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, "miaui", ("human", "human", "random"), names=["Ana", "Bo", None])
        tid = made["table"]["id"]
        with c.websocket_connect("/ws") as a, c.websocket_connect("/ws") as b:
            hello(a, tid, tokens(made)[0])
            state = hello(b, tid, tokens(made)[1])
            a.send_json({"type": "move", "move": "dive 12", "id": 1})
            b.send_json({"type": "move", "move": "dive 1", "id": 2})
            from server_kit import until

            state = until(
                b, lambda m: m["type"] == "state" and any(e["type"] == "reveal" for e in m["events"])
            )
    line = state["lines"][[e["type"] for e in state["events"]].index("reveal")]
    assert "Ana (12)" in line and "you (1)" in line and "seat 2" in line


def test_a_server_seed_makes_tables_repeat(tmp_path) -> None:
    views = []
    for run in range(2):
        (tmp_path / str(run)).mkdir()
        with client(tmp_path / str(run), seed=11) as c:
            made = create(c, "miaui", ("human", "human", "human"))
            with c.websocket_connect("/ws") as ws:
                views.append(hello(ws, made["table"]["id"])["view"]["lagoon"])
    assert views[0] == views[1]
