"""``kiti replay`` as the checks found it: the whole table never says "you", and a finished
game's seat view shows what the end reveals to everyone."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from play_helpers import kiti

from kiti.core.events import REFEREE
from kiti.core.game import State
from kiti.games import game_ids, get_game

SEATS = {"miaui": 4, "mauw": 4, "motu": 3}
#: What the end of Miaui shows to everyone (its burned and boxed cards were never in play).
MIAUI_IN_PLAY = ("lagoon", "piles", "scores", "hands", "discards", "committed")


def random_game(game: str, seed: int, moves: int | None = None) -> State:
    state = get_game(game).new(SEATS.get(game, get_game(game).info.min_seats), None, seed)
    rng = random.Random(seed)
    while not state.over and (moves is None or len(state.history) < moves):
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    return state


def saved(tmp_path: Path, state: State) -> Path:
    path = tmp_path / f"{state.info.id}.json"
    path.write_text(json.dumps(state.record()))
    return path


@pytest.mark.parametrize("game", sorted(SEATS))
def test_stepping_through_the_whole_table_never_says_you(tmp_path: Path, game: str) -> None:
    state = random_game(game, 11)
    path = saved(tmp_path, state)
    out = kiti("replay", str(path), "--step", cwd=tmp_path, stdin="\n" * (len(state.history) + 2))
    assert out.returncode == 0, out.stderr
    assert "(the end of the record)" in out.stdout  # the premise: every move was shown
    said = [line for line in out.stdout.splitlines() if re.search(r"\b(you|your|yours)\b", line, re.I)]
    assert said == []


def test_a_peek_is_named_by_its_seat_for_the_referee(tmp_path: Path) -> None:
    """Miaui: a face-down card someone peeked at says whose peek it is."""
    state = random_game("miaui", 11)
    peekers = {e["to"][0] for e in state.events(REFEREE) if e["type"] == "peek"}
    assert peekers  # the premise: somebody peeked
    path = saved(tmp_path, state)
    out = kiti("replay", str(path), "--step", cwd=tmp_path, stdin="\n" * (len(state.history) + 2))
    named = set(map(int, re.findall(r"face down; only seat (\d) sees it", out.stdout)))
    assert named and named <= peekers


def test_every_registered_game_is_covered() -> None:
    assert set(SEATS) == set(game_ids())


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_finished_games_seat_view_shows_what_the_end_reveals(tmp_path: Path, game: str) -> None:
    """``kiti replay --seat N --json`` of a finished game: the whole table (every fish pile,
    every discard, every hand), as the end screen and the server's reveal show it; before
    the end the same seat still sees "?" for what it may not see."""
    state = random_game(game, 11)
    assert state.over
    path = saved(tmp_path, state)
    out = kiti("replay", str(path), "--seat", "1", "--json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    table = state.observation(REFEREE)
    if game == "miaui":
        assert {key: view[key] for key in MIAUI_IN_PLAY} == {key: table[key] for key in MIAUI_IN_PLAY}
        assert "burned" not in view and view["box"] == len(table["box"])  # never in play
    else:
        assert view == {**table, "viewer": 1}
    assert view["viewer"] == 1 and '"?"' not in json.dumps(view)
    during = random_game(game, 11, moves=len(state.history) // 2)
    mid = kiti("replay", str(saved(tmp_path, during)), "--seat", "1", "--json", cwd=tmp_path)
    assert json.loads(mid.stdout) == during.observation(1) != {**during.observation(REFEREE), "viewer": 1}
