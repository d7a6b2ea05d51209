"""The table and the commands of ``kiti play``, at 80x24, as a person meets them (pexpect)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from miaui_helpers import new, play_round, rounds_deck  # noqa: E402
from play_helpers import (  # noqa: E402
    CONFIRM,
    HOTSEAT_CONFIRM,
    MOVE,
    READY,
    dive_and_reveal,
    finish,
    kiti,
    plain,
    saved_games,
    spawn,
)
from test_miaui_scenarios import FULL_ROUNDS  # noqa: E402

HEADER = r"Miaui · round \d+ of 12"
BACK = "Enter: back to the table."


def test_board_log_help_and_rules_come_back_to_the_table(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "human,random,random", "--seed", "6", cwd=tmp_path)
    for n in (3, 8, 12, 1):
        dive_and_reveal(child, str(n))
    child.expect(MOVE)
    child.sendline("?")
    child.expect(r"Legal moves: ([^\n]*\n[^\n]*)\n")
    listed = re.findall(r"dive \d+", child.match.group(1))
    assert listed == [f"dive {n}" for n in (2, 4, 5, 6, 7, 9, 10, 11)]  # each once, in order
    child.expect(BACK)
    child.expect(MOVE)
    child.sendline("")  # Enter: the table again
    child.expect(HEADER)
    child.expect(MOVE)
    child.sendline("log")
    child.expect("What you have seen, oldest first:")
    child.expect(r"Round 1: the divers are revealed: you \(3\)")
    child.expect(r"page 1 of \d+: Enter for more, q to stop")
    child.sendline("")
    child.expect(r"Round 4: the divers are revealed: you \(1\)")
    child.expect(BACK)
    child.expect(MOVE)
    child.sendline("")
    child.expect(HEADER)
    child.expect(MOVE)
    child.sendline("rules")
    child.expect("This game's options")
    child.expect("Enter for more, q to stop")
    child.sendline("q")
    child.expect(BACK)
    child.expect(MOVE)
    child.sendline("board")
    child.expect(HEADER)
    child.expect(MOVE)
    child.sendcontrol("l")  # Ctrl-L: the board command
    child.expect(HEADER)
    child.expect(MOVE)
    child.sendintr()
    assert finish(child) == 130


def test_the_header_never_scrolls_away(tmp_path: Path) -> None:
    child = spawn(
        "miaui",
        "--seats",
        "human,random,random,random,random,random",
        "--seed",
        "2",
        "--option",
        "no_fighting=true",
        cwd=tmp_path,
    )
    child.expect(HEADER)
    child.expect(MOVE)
    redraws = 0
    for i in range(12):
        child.sendline(f"swim {i}")
        index = child.expect([HEADER, MOVE])
        if index == 0:
            redraws += 1
            child.expect(MOVE)
        assert "Not a move" in plain(child.before) or index == 0
    assert redraws >= 3  # the table (its header) came back as messages piled up
    child.sendintr()
    assert finish(child) == 130


def test_names_played_divers_and_you(tmp_path: Path) -> None:
    child = spawn(
        "miaui",
        "--seats",
        "human,random,random,random",
        "--seed",
        "9",
        "--names",
        "Ann,Bob,,Dee",
        cwd=tmp_path,
    )
    dive_and_reveal(child, "7")
    child.expect(MOVE)
    screen = plain(child.before)
    assert "you are Ann (seat 0)" in screen
    assert re.search(r"^1 Bob .*$", screen, re.M) and re.search(r"^2 random .*$", screen, re.M)
    assert re.search(r"Round 1 revealed: you:7 · Bob:\d+ · seat 2:\d+ · Dee:\d+", screen)
    played = {
        int(m.group(1)): m.group(2) for m in re.finditer(r"^(\d) \S+ .* choosing… (\d+)\s*$", screen, re.M)
    }
    assert played[0] == "7" and set(played) == {0, 1, 2, 3}  # everyone's played divers
    assert "seat 0" not in screen.replace("(seat 0)", "")  # 'you', never 'seat 0'
    child.sendline("dive 7")
    child.expect("dive 7 is not allowed: you have already played diver 7")
    child.expect(MOVE)
    child.sendintr()
    assert finish(child) == 130


def finished_record(tmp_path: Path, lineup: list[str], names: list[str | None] | None = None) -> Path:
    state = new(3, rounds_deck("K2", FULL_ROUNDS), kiti=0)
    for r in range(1, 12):
        play_round(state, [r, r, r])
    record = {**state.record(), "lineup": lineup}
    if names:
        record["names"] = names
    record["moves"] = record.pop("moves")
    path = tmp_path / "done.json"
    path.write_text(json.dumps(record))
    return path


def test_game_over_screen_loaded_writes_nothing(tmp_path: Path) -> None:
    finished_record(tmp_path, ["human", "random", "random"], ["Ann", "Bob", None])
    child = spawn("--load", "done.json", cwd=tmp_path)
    child.expect(r"Play again with the same seats\? \[y/N\] ")
    screen = plain(child.before)
    child.sendline("")
    assert finish(child) == 0
    assert "Miaui · game over · you are Ann (seat 0)" in screen
    assert "Kiti between" not in screen and "ties →" not in screen  # no Kiti or tie orders above
    assert "▒▒" not in screen  # every pile revealed
    lines = screen.splitlines()
    at = next(i for i, line in enumerate(lines) if re.match(r"\s*Place\s+Player\s+Score", line))
    table = [line.split() for line in lines[at + 1 : at + 4]]
    assert table[0][:3] == ["=1", "you", "96"] and "shared" in lines[at + 1]
    assert table[1][:3] == ["=1", "Bob", "96"]
    assert table[2][:3] == ["3", "seat", "2"] and table[2][3] == "3"
    assert re.search(r"Game record:\s+done\.json", screen)
    assert saved_games(tmp_path) == []  # loading a finished game writes nothing new


def test_game_over_in_hotseat_shows_the_public_table(tmp_path: Path) -> None:
    finished_record(tmp_path, ["human", "human", "random"])
    child = spawn("--load", "done.json", cwd=tmp_path)
    child.expect(r"Play again with the same seats\? \[y/N\] ")
    screen = plain(child.before)
    child.sendline("n")
    assert finish(child) == 0
    assert "game over · spectator" in screen and "you" not in screen.lower().split("place")[0]
    assert "=1  seat 0" in screen and "=1  seat 1" in screen and "▒▒" not in screen


def test_rematch_resume_and_lineup(tmp_path: Path) -> None:
    child = spawn(
        "miaui", "--seats", "human,heuristic,random", "--names", "Ann,,Cy", "--seed", "3", cwd=tmp_path
    )
    for r in range(1, 12):
        dive_and_reveal(child, str(r))
    child.expect(r"Play again with the same seats\? \[y/N\] ")
    child.sendline("y")
    child.expect("round 1 of 12")
    child.expect(MOVE)
    screen = plain(child.before)
    assert "you are Ann (seat 0)" in screen and "1 heuristic" in screen and "2 Cy" in screen
    child.sendline("5")
    child.expect(CONFIRM)
    child.sendline("")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"The game is kept in:\s+(\S+)\s+Resume")
    second = Path(child.match.group(1))
    child.sendline("")
    assert finish(child) == 0
    games = saved_games(tmp_path)
    assert len(games) == 2 and second in games
    first = next(g for g in games if g != second)
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert a["lineup"] == b["lineup"] == ["human", "heuristic", "random"]
    assert a["names"] == b["names"] == ["Ann", None, "Cy"]
    assert a["options"] == b["options"] and a["seed"] == 3 and b["seed"] != 3
    assert b["moves"][0] == [0, "dive 5"]
    # --load keeps the seats: the bots play on, the human is asked.
    child = spawn("--load", str(second), cwd=tmp_path)
    child.expect(MOVE)
    screen = plain(child.before)
    assert "round 2 of 12" in screen and "1 heuristic" in screen and "you are Ann" in screen
    child.sendintr()
    assert finish(child) == 130


def test_confirmations_only_where_they_protect_and_can_be_switched_off(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "human,random,random", "--seed", "5", "--no-confirm", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline("4")
    child.expect(MOVE)  # straight to the next round: no 'Enter to reveal'
    assert "Round 1 revealed" in plain(child.before) and "Enter to" not in plain(child.before)
    child.sendintr()
    assert finish(child) == 130
    child = spawn("miaui", "--seats", "human,human,random", "--seed", "5", cwd=tmp_path)
    child.expect(READY)
    child.sendline("")
    child.expect(MOVE)
    child.sendline("4")
    child.expect(HOTSEAT_CONFIRM)
    child.sendline("5")  # another move instead
    child.expect(HOTSEAT_CONFIRM)
    child.sendline("")
    child.expect(READY)
    child.sendline("")
    child.expect(MOVE)
    child.sendintr()
    child.expect(r"Game record saved to:\s+(\S+)")
    kept = child.match.group(1)
    assert finish(child) == 130
    child = spawn("--load", kept, "--no-confirm", cwd=tmp_path)
    child.expect(READY)
    child.sendline("")
    child.expect(MOVE)
    child.sendline("6")
    child.expect(READY)  # no confirmation: the keyboard goes to the next person
    child.sendintr()
    assert finish(child) == 130


def test_bad_arguments_are_refused_before_anything_happens(tmp_path: Path) -> None:
    for args, words in [
        (["miaui", "--names", "Ann,Bob,Cy,Dee,Eve"], "5 names for 4 seats"),
        (["miaui", "--names", "Ann,ann"], "different"),
        (["miaui", "--names", "seat 2"], "read as a seat"),
        (["miaui", "--delay", "2"], "--delay only applies with --watch"),
        (["--load", "nope.json", "--seed", "3"], "--seed cannot be used with --load"),
        (["miaui", "--save", "no/such/dir/g.json"], "cannot write --save"),
        (["miaui", "--seats", "human,wizard,random"], "unknown bot 'wizard'"),
    ]:
        out = kiti("play", *args, cwd=tmp_path)
        assert out.returncode == 2, (args, out.stderr)
        assert words in out.stderr and "Traceback" not in out.stderr
    assert saved_games(tmp_path) == [] and list(tmp_path.iterdir()) == []
