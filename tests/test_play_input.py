"""Whatever a person types at ``kiti play`` is shown as typed and never crashes the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from play_helpers import MOVE, data_dir, finish, plain, spawn  # noqa: E402

from kiti.games import get_game  # noqa: E402
from kiti.games.miaui import words as RENDERER  # noqa: E402


def test_square_brackets_are_shown_as_typed_never_as_markup(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    child = spawn("miaui", "--seats", "human,random,random", "--seed", "1", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline("[/]")
    child.expect(r"Not a move: '\[/\]' is not a Miaui move")
    child.expect(MOVE)
    child.sendline("why [/]")
    child.expect(r"Not a move: '\[/\]' is not a Miaui move")
    child.expect(MOVE)
    child.sendline("[bold]x[/]")
    child.expect(r"Not a move: '\[bold\]x\[/\]' is not a Miaui move")
    child.expect(MOVE)
    child.sendline("a\\b :smile:")
    child.expect(r"Not a move: 'a\\b :smile:' is not a Miaui move")
    child.expect(MOVE)
    child.sendline("save a/[red]x.json")
    child.expect(r"Saved to:\s+a/\[red\]x\.json\s+Resume it with:\s+kiti play --load a/\[red\]x\.json")
    child.expect(MOVE)
    child.sendline("save a/[red]x.json")  # exists now: asks first
    child.expect(r"a/\[red\]x\.json exists\. Replace it\? \[y/N\] ")
    child.sendline("")
    child.expect("Not saved.")
    child.expect(MOVE)
    child.sendintr()
    child.expect("Resume it with")
    assert finish(child) == 130
    assert json.loads((tmp_path / "a" / "[red]x.json").read_text())["game"] == "miaui"
    assert not (tmp_path / "a" / "x.json").exists()


def test_player_names_are_shown_as_given(tmp_path: Path) -> None:
    child = spawn(
        "miaui",
        "--seats",
        "human,random,random",
        "--seed",
        "1",
        "--names",
        "[b]Zoe[/b],:smile:",
        cwd=tmp_path,
    )
    child.expect(MOVE)
    screen = plain(child.before)
    assert "you are [b]Zoe[/b] (seat 0)" in screen and "1 :smile:" in screen
    child.sendintr()
    assert finish(child) == 130


@pytest.mark.parametrize("typed", ["9" * 5000, "dive " + "9" * 5000, "²", "dive ²", "9" * 150, "٣"])
def test_numbers_of_any_length_are_not_moves(tmp_path: Path, typed: str) -> None:
    child = spawn("miaui", "--seats", "human,random,random", "--seed", "1", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline(typed)
    child.expect("Not a move: ")
    child.expect(MOVE)
    child.sendline("why " + typed)
    child.expect("Not a move: ")
    child.expect(MOVE)
    child.sendline("12")  # still playing
    child.expect("Enter to reveal, or undo")
    child.sendintr()
    assert finish(child) == 130
    assert "Traceback" not in plain(child.before)


def test_shorthand_expansion_never_fails():
    game = get_game("miaui")
    for typed in ("9" * 5000, "²", "٣", "0" * 4400 + "9", "  12 ", "t7", "T7", "", "dive"):
        out = RENDERER.expand_input(typed)
        assert out is None or isinstance(out, str)
    assert RENDERER.expand_input("0009") == "dive 9"
    assert str(game.parse_move(RENDERER.expand_input(" 12 ") or "")) == "dive 12"


CRASH = """
import kiti.bots.random_bot as r
def boom(self, view):
    raise RuntimeError("the bot fell into the lagoon")
r.RandomBot.choose = boom
"""


def test_an_unexpected_error_saves_the_game_and_exits_briefly(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "human,random,random", "--seed", "4", cwd=tmp_path, code=CRASH)
    child.expect(MOVE)
    child.sendline("7")
    child.expect("Enter to reveal, or undo")
    child.sendline("")
    child.expect(r"kiti: unexpected error: RuntimeError: the bot fell into the lagoon")
    child.expect(r"The game is saved: (\S+) \(resume with: kiti play --load")
    path = Path(child.match.group(1))
    assert finish(child) == 1
    tail = plain(child.before)
    assert "Traceback" not in tail
    assert path.parent == data_dir(tmp_path) / "games"
    record = json.loads(path.read_text())
    assert record["moves"] == [[0, "dive 7"]] and record["lineup"] == ["human", "random", "random"]
    reports = list((data_dir(tmp_path) / "crashes").glob("*.txt"))
    assert reports and "RuntimeError" in reports[0].read_text()


def test_an_unexpected_error_in_a_bots_only_game_is_brief_too(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "random,random,random", "--seed", "4", cwd=tmp_path, code=CRASH)
    child.expect(r"kiti: unexpected error: RuntimeError")
    child.expect(r"The game is saved: (\S+)")
    assert finish(child) == 1
    assert "Traceback" not in plain(child.before)


CRASH_AT_END = """
import kiti.cli.session as s
def boom(*args, **kwargs):
    raise KeyError("standings")
s.standings = boom
"""


def test_an_unexpected_error_on_the_end_screen_is_brief_too(tmp_path: Path) -> None:
    child = spawn(
        "miaui",
        "--seats",
        "random,random,random",
        "--seed",
        "4",
        "--save",
        "g.json",
        cwd=tmp_path,
        code=CRASH_AT_END,
    )
    child.expect(r"kiti: unexpected error: KeyError: 'standings'")
    child.expect(r"The game is saved: g\.json")
    assert finish(child) == 1
    assert "Traceback" not in plain(child.before)
    assert json.loads((tmp_path / "g.json").read_text())["moves"]
