"""The terminal as players found it: forced moves played for them, seeded bots, record paths.

Each test drives ``kiti play`` as a person would (a pseudo-terminal at 80x24, or a pipe).
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from play_helpers import dive_and_reveal, finish, kiti, plain, spawn
from rich.console import Console

from kiti.cli.screen import Screen
from kiti.core.game import State
from kiti.core.turns import forced_move
from kiti.games import get_game

PROMPT = r"\(\? for help\) > "  # any move prompt of any game


def mauw_forced_record(tmp_path: Path) -> tuple[Path, State]:
    """A 3-seat Mauw game stopped where seat 0 (a person) has one legal move only:
    ``decline`` (attacked, with nothing to defend with).  Seats 1 and 2 are random bots."""
    state = get_game("mauw").new(3, None, 0)
    rng = random.Random(0)
    while not (state.to_act() == {0} and len(state.history) > 3 and forced_move(state, 0)):
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    assert [str(m) for m in state.legal_moves(0)] == ["decline"]  # the premise
    path = tmp_path / "forced.json"
    path.write_text(json.dumps({**state.record(), "lineup": ["human", "random", "random"]}))
    return path, state


def test_a_forced_move_is_played_for_the_person_after_a_notice(tmp_path: Path) -> None:
    path, state = mauw_forced_record(tmp_path)
    out = tmp_path / "out.json"
    child = spawn("--load", str(path), "--save", str(out), cwd=tmp_path)
    child.expect("Your only move, decline, is played for you.")
    child.expect(PROMPT)  # the game went on to this person's next real choice
    child.sendline("quit")
    finish(child)
    moves = json.loads(out.read_text())["moves"]
    assert moves[len(state.history)] == [0, "decline"]


def test_no_auto_lets_the_person_type_the_forced_move(tmp_path: Path) -> None:
    path, state = mauw_forced_record(tmp_path)
    out = tmp_path / "out.json"
    child = spawn("--load", str(path), "--save", str(out), "--no-auto", cwd=tmp_path)
    child.expect(PROMPT)
    screen = plain(child.before)
    assert "only move" not in screen
    # The long defence prompt is broken between words, never scrolled or cut mid-word
    # (readline scrolls a prompt wider than the screen and shows "<" where it cut).
    last = screen.splitlines()[-2:]
    assert "<" not in "".join(last) and all(len(line) <= 80 for line in last), last
    assert "defend with" in " ".join(last), last
    child.sendline("decline")
    child.expect(PROMPT)
    child.sendline("quit")
    finish(child)
    assert json.loads(out.read_text())["moves"][len(state.history)] == [0, "decline"]


def test_bots_never_see_the_notice_and_help_says_no_auto(tmp_path: Path) -> None:
    out = kiti("play", "--help", cwd=tmp_path, COLUMNS="200")
    assert "--no-auto" in out.stdout and "forced" in out.stdout


def test_a_seeded_game_of_bots_is_the_same_every_time(tmp_path: Path) -> None:
    """``--seed`` seeds the bots too: three runs give byte-identical records and screens."""
    bots = ",".join(["random"] * 7)
    runs = []
    for i in range(3):
        save = tmp_path / f"f{i}.json"
        res = kiti(
            "play",
            "mauw",
            "--players",
            "7",
            "--seats",
            bots,
            "--seed",
            "49",
            "--save",
            str(save),
            cwd=tmp_path,
        )
        assert res.returncode == 0, res.stderr
        runs.append((save.read_bytes(), res.stdout.replace(str(save), "FILE")))
    assert runs[0] == runs[1] == runs[2]
    other = tmp_path / "other.json"
    kiti(
        "play", "mauw", "--players", "7", "--seats", bots, "--seed", "50", "--save", str(other), cwd=tmp_path
    )
    assert other.read_bytes() != runs[0][0]  # the premise: the seed does decide the game
    help_text = kiti("play", "--help", cwd=tmp_path, COLUMNS="200").stdout
    assert "every bot" in " ".join(help_text.split())


def test_seeded_heuristic_and_search_bots_replay_identically(tmp_path: Path) -> None:
    saves = []
    for i in range(2):
        save = tmp_path / f"g{i}.json"
        res = kiti(
            "play",
            "miaui",
            "--seats",
            "heuristic:temp=2,ismcts:iters=30,random",
            "--players",
            "3",
            "--seed",
            "5",
            "--save",
            str(save),
            cwd=tmp_path,
        )
        assert res.returncode == 0, res.stderr
        saves.append(save.read_bytes())
    assert saves[0] == saves[1]


def test_the_record_path_is_on_a_line_of_its_own_never_wrapped(tmp_path: Path) -> None:
    deep = tmp_path / ("a-rather-long-folder-name-for-games-" * 3)
    deep.mkdir()
    save = deep / "bots-only-game-record-with-a-long-name.json"
    child = spawn(
        "miaui",
        "--seats",
        "random,random,random",
        "--players",
        "3",
        "--seed",
        "3",
        "--save",
        str(save),
        cwd=tmp_path,
    )
    finish(child)
    lines = [line.strip() for line in plain(child.before or "").splitlines()]
    assert len(str(save)) > 80  # the premise: the path is longer than the screen is wide
    assert str(save) in lines, lines[-5:]


def test_a_long_why_answer_keeps_the_table_header_on_an_80x24_screen(tmp_path: Path) -> None:
    """``why`` for a legal move may take several lines: the table drawn again above it
    leaves room for them, so that its header stays on the 24-line screen."""
    child = spawn("miaui", "--players", "6", "--seed", "4", cwd=tmp_path)
    seen = io.StringIO()
    child.logfile_read = seen
    for diver in (12, 11, 10, 9):  # a few rounds, so that the table fills its room with events
        dive_and_reveal(child, f"dive {diver}")
    for _ in range(2):
        child.expect(PROMPT)
        child.sendline("why dive 5")
    child.expect(PROMPT)
    screen = plain(seen.getvalue().rsplit("\x1b[2J", 1)[-1])  # what the last clear left
    lines = screen.split("\n")
    assert "dive 5 is legal now" in screen  # the premise: the answer is on screen
    assert sum(max(1, -(-len(line) // 80)) for line in lines) <= 24, lines
    assert lines[0].startswith("Miaui"), lines[:3]
    child.sendline("quit")
    child.sendline("")
    finish(child)


@pytest.mark.parametrize("width", [40, 60, 80, 100])
def test_a_long_prompt_is_folded_between_words(width: int) -> None:
    words = "Seat 2 attacked your column D with R8: defend with G3, B3, Y3 or a Joker, or decline"
    prompt = f"{words} (? for help) > "
    screen = Screen(Console(width=width, file=io.StringIO(), markup=False))
    last = screen._fold_prompt(prompt)
    shown = [*screen.console.file.getvalue().splitlines(), last]
    assert len(shown) > 1  # the premise: the prompt is wider than the screen
    assert all(len(line) <= width for line in shown), shown
    assert " ".join(line.strip() for line in shown) == prompt.strip()  # every word whole, in order
    assert last.endswith("(? for help) > ") and len(last) < width  # room to type
