"""Optional record metadata: who sat where (lineup) and the players' names."""

from __future__ import annotations

import json

import pytest

from kiti.core.errors import RecordError
from kiti.core.events import REFEREE
from kiti.core.records import apply_entry, replay, save_record, start
from kiti.games import get_game

BASE = {"game": "miaui", "players": 3, "seed": 4, "moves": [[0, "dive 3"], [1, "dive 4"]]}


def test_names_and_lineup_round_trip(tmp_path):
    state = replay(BASE)
    path = save_record(state, tmp_path / "r.json", ["human", "random", "random"], ["Ann", None, "[b]Cy"])
    record = json.loads(path.read_text())
    assert record["lineup"] == ["human", "random", "random"]
    assert record["names"] == ["Ann", None, "[b]Cy"]
    assert replay(record).observation(REFEREE) == state.observation(REFEREE)


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ("Ann", "'names' must be a list"),
        (["Ann", ""], "'names' must be a list"),
        (["Ann", "x" * 41], "'names' must be a list"),
        (["Ann", "a\x1bb", None], "'names' must be a list"),
        (["Ann", None], "'names' has 2 entries for a 3-player game"),
    ],
)
def test_bad_names_are_refused(names, words):
    with pytest.raises(RecordError, match=words):
        replay({**BASE, "names": names})


def test_start_and_apply_entry_number_moves_from_one():
    state = start(BASE, get_game)
    assert state.history == []
    apply_entry(state, 0, [0, "dive 3"])
    with pytest.raises(RecordError, match=r"move 2 \('dive 3'\)"):
        apply_entry(state, 1, [0, "dive 3"])
