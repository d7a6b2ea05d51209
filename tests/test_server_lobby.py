"""The lobby's HTTP API: games, creating tables, listing, joining, tokens, records."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import waits
from server_kit import client, create, hello, hub, recv, tokens

from kiti.server.tokens import token_hash


def test_games_lists_every_registered_game_with_options_and_bots(tmp_path) -> None:
    with client(tmp_path) as c:
        games = {g["id"]: g for g in c.get("/api/games").json()["games"]}
    assert {"miaui", "mauw"} <= set(games)
    assert games["miaui"]["min_seats"] == 3 and "heuristic" in games["miaui"]["bots"]
    assert any(o["name"] == "no_fighting" for o in games["miaui"]["options"])


def test_create_gives_each_human_seat_a_token_and_lists_the_table_as_open(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(
            c, seats=("human", "heuristic", "human"), names=["Ana", None, "Bo"], timer=30, takeover=True
        )
        table = made["table"]
        assert table["status"] == "waiting" and table["timer"] == 30.0 and table["takeover"]
        assert [s["kind"] for s in table["seats"]] == ["human", "bot", "human"]
        assert [s["name"] for s in table["seats"]] == ["Ana", "heuristic", "Bo"]
        assert sorted(tokens(made)) == [0, 2]
        assert all(len(t) >= 32 for t in tokens(made).values())
        assert all(s["link"].endswith(f"#table={table['id']}&token={s['token']}") for s in made["seats"])
        listed = c.get("/api/tables?status=waiting").json()["tables"]  # both seats kept for their people
        assert [t["id"] for t in listed] == [table["id"]]
        assert c.get(f"/api/tables/{table['id']}").json()["table"]["seats"][1]["bot"] == "heuristic"


def test_join_takes_a_free_seat_with_a_new_token_and_the_table_starts_when_full(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "human", "random"))
        tid = made["table"]["id"]
        first = c.post(f"/api/tables/{tid}/join", json={"seat": 1, "name": "Cy"}).json()
        assert first["seat"] == 1 and first["table"]["seats"][1]["name"] == "Cy"
        assert first["token"] != tokens(made)[1]
        taken = c.post(f"/api/tables/{tid}/join", json={"seat": 1})
        assert taken.status_code == 409 and taken.json()["error"]["code"] == "seat_taken"
        bot = c.post(f"/api/tables/{tid}/join", json={"seat": 2})
        assert bot.json()["error"]["code"] == "bad_request"
        second = c.post(f"/api/tables/{tid}/join").json()
        assert second["seat"] == 0 and second["table"]["status"] == "playing"
        full = c.post(f"/api/tables/{tid}/join")
        assert full.status_code == 409 and full.json()["error"]["code"] == "no_free_seat"
        assert c.get("/api/tables").json()["tables"] == []
        assert [t["id"] for t in c.get("/api/tables?status=playing").json()["tables"]] == [tid]
        with c.websocket_connect("/ws") as ws:  # the creator's link for seat 1 died
            ws.send_json({"type": "hello", "v": 1, "table": tid, "token": tokens(made)[1]})
            assert recv(ws)["code"] == "bad_token"
            assert hello(ws, tid, first["token"])["you"] == 1


def test_a_join_without_a_seat_leaves_a_named_seat_to_its_person(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("human", "human", "human"), names=["Ana", None, None])
        tid = made["table"]["id"]
        assert made["table"]["seats"][0]["name"] == "Ana"  # the premise: seat 0 is kept for Ana
        bo = c.post(f"/api/tables/{tid}/join", json={"name": "Bo"}).json()
        cy = c.post(f"/api/tables/{tid}/join", json={"name": "Cy"}).json()
        assert (bo["seat"], cy["seat"]) == (1, 2)
        last = c.post(f"/api/tables/{tid}/join", json={"name": "Di"})
        assert (
            last.status_code == 409 and last.json()["error"]["code"] == "no_free_seat"
        )  # Ana's, by link only


def test_bad_create_requests_are_refused_naming_the_problem(tmp_path) -> None:
    cases = [
        ({"game": "chess", "seats": ["human"] * 3}, "unknown game 'chess'"),
        ({"game": "miaui", "seats": ["human"] * 2}, "3-6 players, not 2"),
        ({"game": "miaui", "seats": ["human", "human", "alphazero"]}, "unknown bot 'alphazero'"),
        ({"game": "miaui", "seats": ["human", "human", "ismcts:iters=abc"]}, "iters"),
        ({"game": "miaui", "seats": ["human", "human", "ismcts:time=999"]}, "over this server's limit"),
        ({"game": "miaui", "seats": ["human"] * 3, "options": {"no_such": True}}, "no_such"),
        ({"game": "miaui", "seats": ["human"] * 3, "timer": 0}, "timer must be"),
        ({"game": "miaui", "seats": ["human"] * 3, "takeover": "yes"}, "takeover must be"),
        ({"game": "miaui", "seats": ["human"] * 3, "players": 4}, "players is 4"),
        ({"game": "miaui", "seats": ["human"] * 3, "colour": "red"}, "unknown key(s): colour"),
        ({"game": "miaui", "seats": ["human"] * 3, "names": ["a"]}, "names must be a list of 3"),
    ]
    with client(tmp_path) as c:
        for body, words in cases:
            r = c.post("/api/tables", json=body)
            assert r.status_code == 400, body
            assert r.json()["error"]["code"] == "bad_request" and words in r.json()["error"]["message"], (
                r.json()
            )
        r = c.post("/api/tables", content=b"{not json")
        assert r.json()["error"]["code"] == "bad_json"
        r = c.post("/api/tables", content=b" " * 70_000)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
        assert c.get("/api/tables/nope").json()["error"]["code"] == "no_table"
        assert c.get("/api/tables?status=odd").json()["error"]["code"] == "bad_request"
        assert c.get("/api/tables?status=all").json()["tables"] == []


def test_tokens_are_stored_only_as_hashes(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c)
        tid = made["table"]["id"]
    db = sqlite3.connect(tmp_path / "kiti.db")
    stored = dict(db.execute("SELECT seat, token_hash FROM kiti_seats WHERE table_id = ?", (tid,)).fetchall())
    dump = "\n".join(db.iterdump())
    db.close()
    for seat, token in tokens(made).items():
        assert stored[seat] == token_hash(token)
        assert token not in dump


def test_the_record_is_published_only_after_the_end(tmp_path) -> None:
    with client(tmp_path) as c:
        made = create(c, seats=("random", "random", "random"))
        tid = made["table"]["id"]
        table = hub(c).tables[tid]
        early = c.get(f"/api/tables/{tid}/record")
        if not table.state.over:
            assert early.status_code == 403 and early.json()["error"]["code"] == "not_over"
        with c.websocket_connect("/ws") as ws:
            state = hello(ws, tid)
            while not state["over"]:
                state = recv(ws)
        record = c.get(f"/api/tables/{tid}/record").json()
        assert record["lineup"] == ["random"] * 3
        assert record == {**table.state.record(), "lineup": ["random"] * 3}
        assert c.get(f"/api/tables/{tid}").json()["table"]["status"] == "over"


def test_the_page_at_the_root_is_a_client_of_the_protocol(tmp_path) -> None:
    """The page and every module it imports (followed from main.js) are served, as JavaScript;
    nothing comes from another site."""
    import re

    from kiti.core.registry import game_ids

    with client(tmp_path) as c:
        page = c.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert 'src="js/main.js"' in page.text and "http" not in page.text.replace("http://www.w3.org", "")
        seen: dict[str, str] = {}
        todo = ["js/main.js"]
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            r = c.get("/" + path)
            assert r.status_code == 200 and "javascript" in r.headers["content-type"], path
            seen[path] = r.text
            folder = path.rsplit("/", 1)[0]
            if "`./games/${" in r.text:  # a game's module, loaded by its id
                todo += [f"js/games/{g}.js" for g in game_ids()]
            for target in re.findall(r'["`](\.\.?/[\w/.-]+\.js)["`]', r.text):
                todo.append(_join(folder, target))
        assert c.get("/kiti.css").status_code == 200
    code = "\n".join(seen.values())
    assert '"/ws"' in code and "/api/tables" in code and 'type: "hello"' in code
    assert not re.search(r"https?://(?!www\.w3\.org)", code), "the client fetches nothing from elsewhere"
    assert len(seen) >= 12


def _join(folder: str, relative: str) -> str:
    parts = folder.split("/")
    for piece in relative.split("/"):
        if piece == "..":
            parts.pop()
        elif piece not in (".", ""):
            parts.append(piece)
    return "/".join(parts)


def test_kiti_serve_refuses_a_database_it_cannot_use() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    out = subprocess.run(
        [sys.executable, "-m", "kiti", "serve", "--db", "mysql://x/y"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=waits.COMMAND,
    )
    assert (
        out.returncode == 2
        and "--db must be a file path, an sqlite:/// URL or a postgresql:// URL" in out.stderr
    )


def test_kiti_serve_takes_a_plain_path_as_an_sqlite_file(tmp_path: Path) -> None:
    from kiti.cli.serve import database_url

    path = tmp_path / "games.db"
    assert database_url(str(path)) == f"sqlite:///{path}"
    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url("postgresql://kiti@db/kiti") == "postgresql://kiti@db/kiti"
