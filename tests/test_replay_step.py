"""``kiti replay FILE --step``: a record move by move, as the referee or as one seat."""

from __future__ import annotations

import json
import re
from pathlib import Path

from miaui_helpers import G, play_round
from play_helpers import kiti


def record_file(tmp_path: Path) -> Path:
    state = G.new(3, None, 21)
    play_round(state, [12, 5, 1])
    play_round(state, [11, 6, 2])
    state.play(2, "dive 9")
    path = tmp_path / "g.json"
    path.write_text(
        json.dumps(
            {**state.record(), "lineup": ["human", "random", "heuristic"], "names": ["Ann", None, None]}
        )
    )
    return path


def steps(out: str) -> list[str]:
    return re.findall(r"Replay: (.*)", out)


def test_step_move_by_move_as_the_referee(tmp_path: Path) -> None:
    record_file(tmp_path)
    out = kiti("replay", "g.json", "--step", cwd=tmp_path, stdin="\n\nr\nr\n\n")
    assert out.returncode == 0, out.stderr
    assert steps(out.stdout) == [
        "the start, before any move",
        "move 1 of 7: Ann played dive 12",
        "move 2 of 7: seat 1 played dive 5",
        "move 3 of 7: seat 2 played dive 1",  # r: the rest of round 1 (one move)
        "moves 4-6 of 7",  # r: round 2
        "move 7 of 7: seat 2 played dive 9 (the end of the record)",
    ]
    assert "whole table" in out.stdout and "Round 2 revealed" in out.stdout


def test_step_by_round_as_one_seat_and_quit(tmp_path: Path) -> None:
    record_file(tmp_path)
    out = kiti("replay", "g.json", "--step", "--seat", "1", cwd=tmp_path, stdin="r\n\nq\n")
    assert out.returncode == 0, out.stderr
    said = steps(out.stdout)
    assert said[0] == "the start, before any move"
    assert said[1] == "moves 1-3 of 7"  # r: the whole of round 1
    assert said[2] == "move 4 of 7: Ann moved"  # another seat's secret dive is not shown
    assert len(said) == 3  # q
    assert "you are seat 1" in out.stdout and "whole table" not in out.stdout
    assert "dive 11" not in out.stdout


def test_step_runs_to_the_end_of_input(tmp_path: Path) -> None:
    record_file(tmp_path)
    out = kiti("replay", "g.json", "--step", "--seat", "2", cwd=tmp_path, stdin="")
    assert out.returncode == 0 and steps(out.stdout) == ["the start, before any move"]
    bad = kiti("replay", "g.json", "--step", "--json", cwd=tmp_path)
    assert bad.returncode == 2 and "--json and --step" in bad.stderr


def test_an_unknown_key_is_named_and_does_not_step(tmp_path: Path) -> None:
    record_file(tmp_path)
    out = kiti("replay", "g.json", "--step", cwd=tmp_path, stdin="x\n\nq\n")
    assert out.returncode == 0, out.stderr
    assert "Not a key here: 'x'" in out.stdout
    assert steps(out.stdout) == ["the start, before any move", "move 1 of 7: Ann played dive 12"]
