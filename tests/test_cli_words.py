"""What a person reads: --help, --version, the rules text, messages in the second person."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from play_helpers import kiti

from kiti.cli.main import app
from kiti.cli.render import speak, standings
from kiti.cli.screen import Screen
from kiti.core.registry import game_part
from kiti.core.results import make_result, seat_parties
from kiti.games import get_game

#: Every sub-command the ``kiti`` app registers (a new one is covered without an edit here).
COMMANDS = sorted(c.name or c.callback.__name__ for c in app.registered_commands if c.callback)


@pytest.mark.parametrize("args", [["--help"], ["-h"], *([c, "-h"] for c in COMMANDS)])
def test_help_has_real_names_and_no_fake_types(tmp_path: Path, args: list[str]) -> None:
    out = kiti(*args, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "<bool>" not in out.stdout and "Usage: kiti" in out.stdout
    assert not re.search(r"--(watch|json|step|no-confirm|save-records)\s+<", out.stdout)
    assert "-h, --help" in out.stdout


def test_play_help_names_its_arguments(tmp_path: Path) -> None:
    out = kiti("play", "--help", cwd=tmp_path).stdout
    for name in (
        "[GAME]",
        "--players N",
        "--seats SEAT,SEAT,...",
        "--names NAME,NAME,...",
        "--seed SEED",
        "--option NAME=VALUE",
        "--save FILE",
        "--load FILE",
        "--delay SECONDS",
        "--no-confirm",
    ):
        assert name in out, name
    assert "FILE" in kiti("replay", "-h", cwd=tmp_path).stdout


def test_version(tmp_path: Path) -> None:
    out = kiti("--version", cwd=tmp_path)
    assert out.returncode == 0 and re.fullmatch(r"kiti \d+\.\d+\.\d+\n", out.stdout)


def test_rules_text_is_for_players():
    text = game_part(get_game("miaui"), "summary")
    for word in (
        "information state",
        "unverified",
        "cards.json",
        "docs/",
        ".md",
        "rules.py",
        "RULINGS",
        "observation",
        "view",
    ):
        assert word.lower() not in text.lower(), word
    assert all(len(line) < 80 for line in text.splitlines())
    for needed in (
        "Deepest",
        "Shallow",
        "Kiti",
        "Seagull",
        "Jellyfish",
        "Lantern",
        "Open Baskets",
        "No Fighting",
        "dive",
    ):
        assert needed in text


def test_engine_messages_say_you_and_names():
    assert speak("seat 0 has already played diver 4", 0) == "you have already played diver 4"
    assert (
        speak("it is not seat 2's turn (waiting for seat 0 and seat 1)", 2, ["Ann", "Bob"])
        == "it is not your turn (waiting for Ann and Bob)"
    )
    assert (
        speak("T7 is not among the cards seat 1 is taking", 1) == "T7 is not among the cards you are taking"
    )
    assert speak("seat 10 has moved since", 1) == "seat 10 has moved since"
    assert speak("seat 3 has moved since", None, [None, None, None, "Dee"]) == "Dee has moved since"


def test_standings_mark_shared_places():
    result = make_result(seat_parties(((0,), (1,), (2,), (3,))), [20, 31, 31, 5])
    lines = [line.plain.split() for line in standings(result, 2, ["Ann", "Bob", None, None])]
    assert lines[0] == ["Place", "Player", "Score"]
    assert lines[1][:3] == ["=1", "Bob", "31"] and "shared" in lines[1]
    assert lines[2][:3] == ["=1", "you", "31"]
    assert lines[3][:3] == ["3", "Ann", "20"] and lines[4][:4] == ["4", "seat", "3", "5"]


def test_tab_lists_moves_in_numeric_order():
    screen = Screen()
    screen.completions = lambda: ["dive 2", "dive 9", "dive 10", "dive 12", "?", "help", "dive 9"]
    assert screen.matches("dive") == ["dive 2", "dive 9", "dive 10", "dive 12"]
    assert screen.matches("dive 1") == ["dive 10", "dive 12"]
    printed: list[str] = []
    screen.console.file.write = printed.append  # type: ignore[method-assign]
    screen._show_matches("dive ", ["dive 10", "dive 12", "dive 2", "dive 9"], 7)
    assert printed[0].split("\n")[1].split("  ") == ["dive 2", "dive 9", "dive 10", "dive 12"]
