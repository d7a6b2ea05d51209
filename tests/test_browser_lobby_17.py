"""Issue 17 in the browser (Debian's Chromium): the creator's own seat in "Your tables" and
the "table is ready" panel in the first screen at 1280x800; names refused in the lobby with a
clear error; a solo MOTU game won and one lost to the Opponent, each winner named in the
banner and the standings; "Your tables" kept across restarts of the server and the browser,
with the replays of finished games.  Screenshots under tests/artifacts/browser/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import serve_kit
from browser_kit import Server, chromium_missing, shot, sync_api

import kiti.games  # noqa: F401  (registers the games)
from kiti.bots.registry import make_bot
from kiti.core.game import MAX_SEED
from kiti.core.registry import get_game
from kiti.core.seatview import seat_view
from kiti.core.turns import forced_move

expect = sync_api.expect
pytest_plugins = ("browser_fixtures",)  # one server and one Chromium per module
pytestmark = pytest.mark.skipif(chromium_missing(), reason="Chromium is missing (apt-get install chromium)")
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path)
    yield srv
    srv.stop()


def restart(srv: Server, tmp: Path, monkeypatch: pytest.MonkeyPatch, seed: int = 7) -> Server:
    """The same server (database, port: the browser's storage is per address) started again."""
    srv.stop()
    monkeypatch.setattr(serve_kit, "free_port", lambda: srv.port)
    return Server(tmp, seed=seed)


def expected_refusal(errors: list[str]) -> None:
    """The browser logs a refused request (HTTP 400) as a console error: this one was meant."""
    assert any("status of 400" in e for e in errors), errors
    errors[:] = [e for e in errors if "status of 400" not in e]


# ------------------------------------------------------------------ 1 and 3: the lobby
def test_the_creator_gets_their_own_seat_and_the_others_links_only_to_share(server, browser, errors) -> None:
    ann = browser.page(viewport=LAPTOP)
    ann.goto(server.url(""))
    ann.get_by_label("Miaui").check()
    ann.locator("#seat-count").select_option("3")
    for seat, kind in enumerate(["human", "human", "heuristic"]):
        ann.get_by_label(f"Seat {seat}: who plays").select_option(kind)
    ann.get_by_label("Seat 0: name").fill("Ann")
    ann.get_by_label("Seat 1: name").fill("you")  # read as a seat: refused, said in the lobby
    ann.get_by_role("button", name="Create table").click()
    expect(ann.get_by_role("alert")).to_contain_text("'you' would be read as a seat")
    expected_refusal(errors)
    ann.get_by_label("Seat 1: name").fill("Bob")
    ann.get_by_role("button", name="Create table").click()
    sit = ann.get_by_role("link", name="Sit at seat 0")
    expect(sit).to_be_in_viewport()  # the panel is in the first screen: no scrolling
    assert ann.evaluate("window.scrollY") == 0
    shot(ann, "lobby-created-1280x800", full=False)
    bob_link = ann.get_by_label("Link of seat 1", exact=True).input_value()
    table = bob_link.split("table=")[1].split("&")[0]
    mine = ann.locator(f'.table-item[data-table="{table}"]')
    expect(mine.get_by_role("link", name="Open your seat 0")).to_be_visible()
    own = mine.get_by_role("link", name="Open your seat 0").get_attribute("href")
    assert own == sit.get_attribute("href") and bob_link.split("#")[1] not in own
    assert mine.get_by_role("link", name="Open seat 1").count() == 0
    mine.locator("summary", has_text="Links to share").click()
    assert mine.get_by_label("Seat 1's link to share").input_value() == bob_link  # to share, not to open
    assert ann.locator(".table-list").first.locator("a[href*='token=']").count() == 1
    assert server.api("/api/tables?status=open")["tables"] == []  # Bob's seat is not offered

    ann.get_by_role("link", name="Sit at seat 0").click()
    ann.locator(".table-screen").wait_for()
    cy = browser.page()
    cy.goto(server.url(""))
    cy.get_by_label("Your name (to join a table)").fill("Cy")
    made = server.api(
        "/api/tables",
        {
            "game": "miaui",
            "seats": ["human", "human", "random"],
            "names": [None, "Cy", None],
            "open": [True, False, False],
        },
    )
    item = cy.locator(f'.table-item[data-table="{made["table"]["id"]}"]')
    cy.get_by_role("button", name="Refresh").click()
    item.get_by_role("button", name="Join").click()  # Cy is that table's seat 1 already: refused
    expect(cy.get_by_role("alert")).to_contain_text("already named 'Cy'")
    expected_refusal(errors)
    shot(cy, "lobby-join-refused", full=False)
    for page in (ann, cy):
        page.context.close()  # no page left asking a stopped server


# ------------------------------------------------------------------ 2 and 8: solo games, remembered
PLAY = """async ({table, token, moves}) => {
  const ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/ws");
  const inbox = [];
  let wake = () => {};
  ws.onmessage = (e) => { inbox.push(JSON.parse(e.data)); wake(); };
  await new Promise((ok) => { ws.onopen = ok; });
  const next = async (pred) => {
    for (;;) {
      const i = inbox.findIndex(pred);
      if (i >= 0) return inbox.splice(i, 1)[0];
      await new Promise((ok) => { wake = ok; });
    }
  };
  ws.send(JSON.stringify({type: "hello", v: 1, table, token}));
  await next((m) => m.type === "state");
  for (let i = 0; i < moves.length; i++) {
    ws.send(JSON.stringify({type: "move", move: moves[i], id: i}));
    const answer = await next((m) => m.re === i);
    if (answer.type === "error") return `${moves[i]}: ${answer.message}`;
    await new Promise((ok) => setTimeout(ok, 60));  // within the server's message rate
  }
  ws.close();
  return null;
}"""


def solo_moves(seed: int, policy: str) -> tuple[list[str], list[int]]:
    """A whole solo MOTU game from ``seed``: the first legal move each time, or the heuristic
    bot's; the moves a person makes (the server plays a forced one itself) and the winners."""
    cls = get_game("motu")
    state = cls.new(1, {}, seed)
    bot = make_bot("heuristic", cls, 1)
    moves = []
    while not state.over:
        move = str(bot.choose(seat_view(state, 0))) if policy == "heuristic" else first_legal(state)
        if forced_move(state, 0) is None:
            moves.append(move)
        state.play(0, move)
    return moves, list(state.result().winners)


def first_legal(state: Any) -> str:
    if not state.many_moves(0):
        return next(str(m) for m in state.legal_moves(0))
    prefix: tuple[str, ...] = ()
    while True:
        step = state.move_steps(0, prefix)[0]
        if step.move is not None:
            return str(step.move)
        prefix += (step.token,)


def test_solo_games_won_and_lost_name_every_winner_and_stay_in_your_tables(
    tmp_path, browser, errors, monkeypatch
) -> None:
    seeds = random.Random(2)  # kiti serve --seed 2 draws each new game's seed from this
    srv = Server(tmp_path, seed=2)
    try:
        games = []
        for policy in ("first", "heuristic"):
            seed = seeds.randrange(MAX_SEED)
            moves, winners = solo_moves(seed, policy)
            made = srv.api("/api/tables", {"game": "motu", "seats": ["human"], "names": ["Ann"]})
            games.append((made, moves, winners, seed))
        assert [g[2] for g in games] == [[1], [0]]  # the premise: the Opponent (party 1) wins, then Ann
        ann = browser.page(viewport=LAPTOP)
        ann.goto(srv.url(""))
        banners = []
        for made, moves, _, seed in games:
            tid, token = made["table"]["id"], made["seats"][0]["token"]
            assert ann.evaluate(PLAY, {"table": tid, "token": token, "moves": moves}) is None
            assert srv.api(f"/api/tables/{tid}/record")["seed"] == seed  # the premise: the game we played
            ann.goto(srv.url(f"table={tid}&token={token}"))
            ann.locator(".end-panel").wait_for()
            banners.append(ann.locator(".turnbar .turn-text").inner_text())
            rows = ann.locator(".standings tbody tr")
            expect(rows).to_have_count(2)
            winner = ann.locator(".standings tbody tr.winner td").nth(1).inner_text()
            assert winner == ("Opponent" if len(banners) == 1 else "Ann (you)"), winner
            shot(ann, f"motu-solo-{'lost' if len(banners) == 1 else 'won'}", full=False)
        assert banners == ["Game over: Opponent wins", "Game over: you win"], banners
        ann.context.storage_state(path=str(tmp_path / "storage.json"))
        ann.context.close()
        srv = restart(srv, tmp_path, monkeypatch, seed=2)  # the server, then the browser, restart
        again = browser.page(
            viewport=LAPTOP,
            context=browser.browser.new_context(
                viewport=LAPTOP, storage_state=str(tmp_path / "storage.json")
            ),
        )
        again.goto(srv.url(""))
        for made, *_ in games:
            item = again.locator(".table-list").first.locator(
                f'.table-item[data-table="{made["table"]["id"]}"]'
            )
            expect(item.get_by_role("link", name="Replay")).to_be_visible()
        finished = again.locator(".table-list").nth(4)
        expect(finished.locator(".table-item")).to_have_count(2)  # the Finished list, from the database
        shot(again, "lobby-your-tables-after-restarts", full=False)
        again.locator(".table-list").first.get_by_role("link", name="Replay").first.click()
        again.locator(".replay-step").wait_for()
        again.context.close()
    finally:
        srv.stop()
