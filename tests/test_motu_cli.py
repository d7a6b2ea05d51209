"""MOTU through the command line: replay's JSON views, rules, cards, bench, bots-only play, the
terminal screen (80x24), the placement dialogue, and tournaments (solo: one bot and the Opponent)."""

from __future__ import annotations

import io
import json
import random

import pytest
from motu_helpers import G, play_until
from rich.console import Console
from typer.testing import CliRunner

from kiti.cli.main import app
from kiti.cli.render import dialogue, move_menu
from kiti.games.motu.terminal import render_view
from kiti.sim.tournament import TournamentConfig, run_tournament

RUN = CliRunner()
KEYS = {
    "over",
    "to_act",
    "scores",
    "winners",
    "coconuts",
    "row",
    "piles",
    "islands",
    "interims",
    "travelers",
    "destinies",
    "phase",
    "turn",
    "round",
    "holding",
    "sources",
    "beach",
    "final",
    "solo_table",
    "supply",
}


def record_file(tmp_path, players: int = 3, stop=lambda s: s.phase == "interim" and len(s.to_act()) == 2):  # type: ignore[no-untyped-def]
    state = play_until(G.new(players, None, 9), lambda s: s.phase == "interim", seed=2)
    state.play(0, "score totem")
    assert stop(state)
    path = tmp_path / "motu.json"
    path.write_text(json.dumps(state.record()))
    return path, state


def test_replay_json_has_the_documented_keys(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path, state = record_file(tmp_path)
    out = RUN.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    ref = json.loads(out.output)
    assert set(ref) >= KEYS and "box" in ref
    assert ref["to_act"] == [1, 2] and ref["coconuts"] == state.banks
    assert all(set(c) == {"card", "coconuts", "cost", "step"} for c in ref["row"]) and len(ref["row"]) == 4
    assert ref["piles"]["B"] == state.piles[1][::-1]
    island = ref["islands"][0]
    assert island["origin"] == [0, 0] and island["placements"][0][0] == state.villages[0]
    assert all(set(c) == {"x", "y", "terrain", "symbol", "card"} for c in island["cells"])
    assert {(c["x"], c["y"]) for c in island["cells"]} == set(state.islands[0].cells)
    assert ref["interims"][0] == [{"pile": "A", "sources": ["totem"], "points": "?", "total": "?"}]
    seat = json.loads(RUN.invoke(app, ["replay", str(path), "--json", "--seat", "1"]).output)
    assert seat["interims"][0][0]["sources"] == "?"
    assert seat["piles"]["B"] == ["?"] * len(state.piles[1]) and seat["box"] is None
    assert [t["card"] for t in seat["travelers"]][1] == state.travelers[1]
    assert all(t["card"] in ("?", state.travelers[s]) for s, t in enumerate(seat["travelers"]) if s != 1)


def test_rules_cards_and_bench(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = RUN.invoke(app, ["rules", "motu"])
    assert out.exit_code == 0
    for word in ("Destiny", "Traveler", "Beach Hut", "interim", "solo_piles", "difficulty", "place 90 2 -1"):
        assert word in out.output, word
    out = RUN.invoke(app, ["cards", "motu", "I23"])
    assert out.exit_code == 0 and "I23 turned 270" in out.output
    assert "Destiny D01" in RUN.invoke(app, ["cards", "motu", "d01"]).output
    assert RUN.invoke(app, ["cards", "motu"]).output.count("Traveler T") == 6
    bad = RUN.invoke(app, ["cards", "motu", "I99"])
    assert bad.exit_code == 2 and "no card 'I99'" in bad.output
    none = RUN.invoke(app, ["cards", "miaui"])
    assert (
        none.exit_code == 2
        and "draws the cards of MOTU; Miaui's cards are described by: kiti rules miaui" in none.output
    )


def test_bench_reports_legal_placement_enumeration() -> None:
    from kiti.games.motu.bench import bench_extras

    figures = bench_extras(0.05)
    assert figures[0]["unit"] == "calls/s" and float(figures[0]["value"]) > 0
    assert "legal placements" in str(figures[1]["name"])


@pytest.mark.parametrize("seats", ["heuristic,random,random", "heuristic"])
def test_a_bots_only_game(tmp_path, seats: str) -> None:  # type: ignore[no-untyped-def]
    out = RUN.invoke(
        app, ["play", "motu", "--seats", seats, "--seed", "4", "--save", str(tmp_path / "g.json")]
    )
    assert out.exit_code == 0, out.output
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["game"] == "motu" and record["moves"]
    assert "Place  Player" in out.output and "★" in out.output  # the standings
    if seats == "heuristic":
        assert "Opponent" in out.output


def test_solo_tournaments_have_one_bot_and_the_opponent() -> None:
    res = run_tournament(
        TournamentConfig(
            "motu", ["heuristic"], games=2, players=1, options={"solo_piles": "short"}, jobs=1, seed=1
        )
    )
    for g in res["games"]:
        assert [p["name"] for p in g["parties"]] == ["seat 0", "Opponent"]
        assert abs(sum(p["share"] for p in g["parties"]) - 1.0) < 1e-9
    assert res["summary"]["bots"][0]["games"] == 2


def test_the_heuristic_beats_random_play() -> None:
    res = run_tournament(
        TournamentConfig("motu", ["heuristic", "random", "random"], games=3, players=3, jobs=1, seed=2)
    )
    bots = res["summary"]["bots"]
    assert bots[0]["win_share"]["mean"] > 0.6
    assert bots[0]["mean_score"]["mean"] > bots[1]["mean_score"]["mean"] + 15


# ------------------------------------------------------------------ the screen
def screen(view, events) -> str:  # type: ignore[no-untyped-def]
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(view, events))
    return console.file.getvalue()  # type: ignore[no-any-return,attr-defined]


@pytest.mark.parametrize(("players", "options"), [(1, {}), (2, {}), (4, {"destinies": False}), (6, {})])
def test_every_view_fits_80x24(players: int, options: dict) -> None:  # type: ignore[type-arg]
    rng = random.Random(players)
    for seed in range(2):
        s = G.new(players, options, seed)
        while not s.over:
            seat = min(s.to_act())
            s.apply(seat, s.random_move(seat, rng))
            if rng.random() < 0.25 or s.over:
                for viewer in {seat, min(s.to_act(), default=seat), None}:
                    text = screen(s.view(viewer), s.events(viewer))
                    assert text.count("\n") <= 23 and max(map(len, text.splitlines())) <= 80, text


def test_the_screen_names_what_is_asked() -> None:
    s = G.new(2, None, 3)
    assert "Take a card" in screen(s.view(0), s.events(0))
    s.play(0, "take 1")
    text = screen(s.view(0), s.events(0))
    assert f"Place {s.holding}" in text and "Your island" in text
    play_until(s, lambda st: st.phase == "interim")
    text = screen(s.view(1), s.events(1))
    assert "Interim total, pile A" in text and "Sources now:" in text


def answer(state, seat: int, line: str) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    console = Console(width=80, file=io.StringIO(), color_system=None)
    rest = dialogue(state, seat, line, console)
    return rest, console.file.getvalue()  # type: ignore[attr-defined]


def test_the_placement_dialogue() -> None:
    s = G.new(2, None, 3)
    assert answer(s, 0, "take 1") == ("take 1", ""), "lines that are moves go on"
    assert "I" in answer(s, 0, "card I05")[1]
    s.play(0, "take 1")
    rest, text = answer(s, 0, "90")
    legal = [m for m in s.legal_moves(0) if m.rotation == 90]  # type: ignore[attr-defined]
    assert rest is None and f"{len(legal)} place(s)" in text and "+" in text
    spot = legal[0]
    rest, text = answer(s, 0, f"aim 90 {spot.x} {spot.y}")  # type: ignore[attr-defined]
    assert rest is None and "Allowed" in text and any(ch in text for ch in "lbs")
    rest, text = answer(s, 0, "aim 0 40 40")
    assert "Not allowed: it covers no symbol" in text
    assert answer(s, 0, "map 1")[1].startswith("Seat 1's island")
    assert answer(s, 0, "90 1 2")[0] == "90 1 2", "a full placement goes on to the move parser"
    menu = move_menu(s, 0)
    assert [m[0] for m in menu] == ["place 0 …", "place 90 …", "place 180 …", "place 270 …"]
    assert sum(int(m[1].split()[0]) for m in menu) == len(s.legal_moves(0))


def test_a_person_places_a_card_at_the_terminal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pexpect")
    from test_play import MOVE, finish, plain, spawn

    s = G.new(2, None, 3)
    s.play(0, "take 1")
    spot = s.legal_moves(0)[0]
    child = spawn("motu", "--seed", "3", "-n", "2", "--seats", "human,random", cwd=tmp_path)
    child.expect(MOVE)
    assert "Take a card" in plain(child.before)
    child.sendline("1")  # shorthand for take 1
    child.expect(MOVE)
    assert f"Place {s.holding}" in plain(child.before)
    child.sendline("?")
    child.expect(MOVE)
    assert "place 90 …" in plain(child.before)
    child.sendline(str(spot.rotation))  # type: ignore[attr-defined]
    child.expect(MOVE)
    assert "marked +" in plain(child.before).replace("\n", " ")
    child.sendline("aim 0 40 40")
    child.expect(MOVE)
    assert "Not allowed: it covers no symbol" in plain(child.before).replace("\n", " ")
    child.sendline(f"{spot.rotation} {spot.x} {spot.y}")  # type: ignore[attr-defined]
    child.expect(MOVE)
    assert f"You placed {s.holding}" in plain(child.before)
    child.sendline("quit")
    child.expect("Enter to leave")
    child.sendline("n")
    assert finish(child) == 0


@pytest.mark.parametrize("players", [1, 3])
def test_ismcts_plays_motu(players: int) -> None:
    from kiti.bots.registry import make_bot
    from kiti.core.seatview import seat_view

    s = G.new(players, None, 8)
    bot = make_bot("ismcts:iters=12,depth=20", G, 1)
    for _ in range(3 if players == 1 else 4):  # take, place, and on
        seat = min(s.to_act())
        move = bot.choose(seat_view(s, seat))
        assert s.illegal_reason(seat, move) is None
        s.apply(seat, move)
    assert len(s.islands[0].placements) == 2
