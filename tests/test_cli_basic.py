"""The ``kiti`` command line: replay (referee and seat views) and rules."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import waits
from miaui_helpers import G, make_deck, new, play_round, rounds_deck
from test_miaui_scenarios import FULL_ROUNDS

ROOT = Path(__file__).resolve().parents[1]


def kiti(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "200"
    return subprocess.run(
        [sys.executable, "-m", "kiti.cli.main", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=waits.COMMAND,
    )


DECK = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4"), ("E13", "T7", "K5")])


def mid_record(tmp_path: Path) -> Path:
    s = new(3, DECK, kiti=0)
    play_round(s, [12, 6, 1])  # E15 / T9 / K3
    play_round(s, [11, 5, 2])  # E14 / T8 / K4
    s.play(0, "dive 3")  # round 3, face down
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(s.record()), encoding="utf-8")
    return path


KEYS = {"over", "round", "scores", "winners", "kiti", "lagoon", "piles", "hands"}


def test_replay_json_referee_view(tmp_path):
    path = mid_record(tmp_path)
    out = kiti("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert set(view) >= KEYS
    assert view["over"] is False
    assert view["round"] == 3
    assert view["kiti"] == 2
    assert view["scores"] == [29, 17, 7]
    assert view["winners"] == []
    assert view["lagoon"] == [["E13"], ["T7"], ["K5"]]
    assert view["piles"] == [["E15", "E14"], ["T9", "T8"], ["K3", "K4"]]
    assert view["hands"][0] == [1, 2, 4, 5, 6, 7, 8, 9, 10]
    assert view["hands"][1] == [1, 2, 3, 4, 7, 8, 9, 10, 11, 12]
    assert view["hands"][2] == [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    assert "?" not in json.dumps(view)


def test_replay_json_seat_view_masks(tmp_path):
    path = mid_record(tmp_path)
    out = kiti("replay", str(path), "--seat", "1", "--json")
    assert out.returncode == 0, out.stderr
    view = json.loads(out.stdout)
    assert set(view) >= KEYS
    assert view["round"] == 3
    assert view["piles"] == [["?", "E14"], ["T9", "T8"], ["?", "K4"]]
    assert view["scores"] == [None, 17, None]
    assert view["hands"][0] == ["?"] * 9
    assert view["hands"][1] == [1, 2, 3, 4, 7, 8, 9, 10, 11, 12]
    assert view["hands"][2] == ["?"] * 10
    # Seat 0's face-down dive (3) is not shown.
    assert view["committed"][0] == "?"
    # No card of the deck and not the burned card.
    text = json.dumps(view)
    assert "K1" not in text
    shown = ["E15", "T9", "K3", "E14", "T8", "K4", "E13", "T7", "K5"]
    for card in make_deck(["K1", *shown])[10:]:
        if card not in shown:
            assert f'"{card}"' not in text
    assert view["deck"] == 27  # only its size

    own = json.loads(kiti("replay", str(path), "--seat", "0", "--json").stdout)
    assert own["committed"][0] == 3
    assert own["piles"][0] == ["E15", "E14"]
    assert own["piles"][1] == ["?", "T8"]


def test_replay_json_finished_game(tmp_path):
    s = new(3, rounds_deck("K2", FULL_ROUNDS), kiti=0)
    for r in range(1, 12):
        play_round(s, [r, r, r])
    path = tmp_path / "full.json"
    path.write_text(json.dumps(s.record()), encoding="utf-8")
    view = json.loads(kiti("replay", str(path), "--json").stdout)
    assert view["over"] is True
    assert view["round"] == 12
    assert view["scores"] == [96, 96, 3]
    assert view["winners"] == [0, 1]
    assert view["lagoon"] == [[], [], []]
    assert view["hands"] == [[], [], []]
    seat = json.loads(kiti("replay", str(path), "--seat", "2", "--json").stdout)
    assert seat["winners"] == [0, 1]
    # Totals are compared openly once the game is over.
    assert seat["scores"] == [96, 96, 3]


def test_replay_invalid_record_names_the_move(tmp_path):
    s = G.new(3, seed=5)
    play_round(s, [4, 5, 6])
    rec = s.record()
    rec["moves"].append([1, "dive 5"])  # seat 1 already played diver 5
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    out = kiti("replay", str(path), "--json")
    assert out.returncode != 0
    assert "move 4" in out.stderr
    assert "dive 5" in out.stderr
    assert "already played diver 5" in out.stderr
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[1, 2]",
        '{"game": "miaui", "players": 3}',
        '{"game": "miaui", "players": 3, "moves": [[0, "dive 13"]]}',
    ],
)
def test_replay_other_invalid_files(tmp_path, content):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    out = kiti("replay", str(path), "--json")
    assert out.returncode != 0
    assert out.stderr.strip()


def test_replay_missing_file_and_bad_seat(tmp_path):
    out = kiti("replay", str(tmp_path / "nope.json"), "--json")
    assert out.returncode != 0
    assert "nope.json" in out.stderr
    path = mid_record(tmp_path)
    out = kiti("replay", str(path), "--seat", "3", "--json")
    assert out.returncode != 0
    assert "3" in out.stderr


def test_rules_lists_every_option_with_its_default():
    out = kiti("rules", "miaui")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for name, default in [
        ("open_baskets", "false"),
        ("no_fighting", "false"),
        ("taker_chooses_order", "false"),
        ("kiti_start", "0"),
    ]:
        assert re.search(rf"\b{name}\b\s*[=:]\s*{default}\b", text, re.IGNORECASE), name
    assert "dive" in text


def test_rules_unknown_game():
    out = kiti("rules", "chess")
    assert out.returncode != 0
    assert "chess" in out.stderr
