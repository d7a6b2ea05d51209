"""``kiti play`` driven through a pseudo-terminal, as a person would use it (pexpect)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")

from play_helpers import (  # noqa: E402
    CONFIRM,
    HOTSEAT_CONFIRM,
    MOVE,
    data_dir,
    dive_and_reveal,
    finish,
    kiti,
    plain,
    spawn,
)

from kiti.cli.saves import open_game  # noqa: E402
from kiti.core.events import REFEREE  # noqa: E402
from kiti.core.records import replay  # noqa: E402


def test_full_game_against_random_bots(tmp_path: Path) -> None:
    child = spawn(
        "miaui", "--seats", "human,random,random,random", "--seed", "3", "--save", "game.json", cwd=tmp_path
    )
    for rnd in range(1, 12):  # round 12 plays itself
        screen = dive_and_reveal(child, str(rnd) if rnd % 2 else f"dive {rnd}")  # both notations
        assert f"round {rnd} of 12" in plain(screen)
    child.expect("Place +Player +Score")
    child.expect(r"Game record:\s+(\S+)")
    assert Path(tmp_path, child.match.group(1)).resolve() == (tmp_path / "game.json").resolve()
    child.expect(r"Play again with the same seats\? \[y/N\] ")
    child.sendline("n")
    assert finish(child) == 0
    record = json.loads((tmp_path / "game.json").read_text())
    assert [m for s, m in record["moves"] if s == 0] == [f"dive {n}" for n in range(1, 12)]
    assert record["lineup"] == ["human", "random", "random", "random"]
    out = kiti("replay", "game.json", "--json", cwd=tmp_path)
    assert out.returncode == 0 and json.loads(out.stdout)["over"] is True


def test_illegal_move_is_explained_and_asked_again(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "human,random,random", "--seed", "5", cwd=tmp_path)
    dive_and_reveal(child, "dive 4")
    child.expect(MOVE)
    child.sendline("dive 4")
    child.expect("dive 4 is not allowed: you have already played diver 4")
    child.expect(MOVE)
    child.sendline("why 13")
    child.expect("divers are numbered 1 to 12")
    child.expect(MOVE)
    child.sendline("why dive 5")
    child.expect("dive 5 is legal now")
    child.expect(MOVE)
    child.sendline("swim deep")
    child.expect("Not a move: .*not a Miaui move")
    child.expect(MOVE)
    child.sendline("?")
    child.expect("Legal moves:")
    child.expect("dive 12")
    child.expect(MOVE)
    child.sendline("rules")
    child.expect("This game's options: open_baskets=false")
    child.expect("Enter for more, q to stop")
    child.sendline("q")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"The game is kept in:\s+(\S+)\s+Resume")
    kept = Path(child.match.group(1))
    assert kept.exists()
    child.expect("or n to leave and delete it")
    child.sendline("n")
    child.expect("Left without saving")
    assert finish(child) == 0
    assert not kept.exists()


def test_hotseat_hides_each_hand_until_the_handover(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "human,human,random,random", "--seed", "2", cwd=tmp_path)
    child.expect("seat 0, take the keyboard")
    child.expect("press Enter")
    child.sendline("")
    child.expect(MOVE)
    assert "you are seat 0" in plain(child.before)
    child.sendline("undo")
    child.expect("Cannot undo: undo is only for games against bots")
    child.expect(MOVE)
    child.sendline("dive 12")
    child.expect(HOTSEAT_CONFIRM)  # nothing is final before the keyboard changes hands
    child.sendline("")
    child.expect("Seat 0 has played")
    assert "\x1b[2J\x1b[3J" in child.before  # seat 0's cards left the screen at once
    child.expect("seat 1, take the keyboard")
    # The screen (and its scrollback) was wiped before the handover, and nothing of seat 1 showed.
    assert "\x1b[2J\x1b[3J" in child.before
    assert "you are seat 1" not in plain(child.before)
    child.expect("press Enter")
    child.sendline("")
    child.expect(MOVE)
    screen = plain(child.before)
    assert "you are seat 1" in screen
    assert "12 (secret)" not in screen and "chosen" in screen  # seat 0's dive stays secret
    child.sendline("dive 1")
    child.expect(HOTSEAT_CONFIRM)
    child.sendline("")
    # Round 2: seat 0 first, then seat 1; each hand appears only after its own handover.
    child.expect("seat 0, take the keyboard")
    before_handover = plain(child.before)
    child.expect("press Enter")
    child.sendline("")
    child.expect(MOVE)
    seat0 = plain(child.before)
    assert re.search(r"Your divers: 1 2 3 4 5 6 7 8 9 10 11\s*\n", seat0)
    assert "Your divers: 2 3 4" not in before_handover + seat0
    child.sendline("dive 11")
    child.expect(HOTSEAT_CONFIRM)
    child.sendline("")
    child.expect("seat 1, take the keyboard")
    assert "Your divers: 2 3 4" not in plain(child.before)
    child.expect("press Enter")
    child.sendline("")
    child.expect(MOVE)
    assert "Your divers: 2 3 4 5 6 7 8 9 10 11 12" in plain(child.before)
    child.sendeof()
    child.expect(r"Game record saved to:\s+(\S+)")
    assert finish(child) == 0


def test_undo_only_before_the_reveal(tmp_path: Path) -> None:
    child = spawn("miaui", "--seats", "human,random,random,random", "--seed", "7", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline("undo")
    child.expect("Cannot undo: no move has been made yet")
    child.expect(MOVE)
    child.sendline("dive 5")
    child.expect(CONFIRM)
    child.sendline("undo")
    child.expect("Your divers: 1 2 3 4 5 6")  # the table again, diver 5 back in hand
    child.expect("Took back dive 5")
    child.expect(MOVE)
    child.sendline("dive 7")
    child.expect(CONFIRM)
    child.sendline("")
    child.expect(MOVE)
    assert "Round 1 revealed" in plain(child.before)
    child.sendline("undo")
    child.expect("Cannot undo: seat 3 has moved since")
    child.expect(MOVE)
    child.sendline("save mid.json")
    child.expect(r"Saved to:\s+mid.json")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect("or n to leave and delete it")
    child.sendline("n")
    assert finish(child) == 0
    record = json.loads((tmp_path / "mid.json").read_text())
    assert [m for s, m in record["moves"] if s == 0] == ["dive 7"]
    assert len(record["moves"]) == 4


def test_save_then_resume_gives_the_identical_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    child = spawn(
        "miaui",
        "--seats",
        "human,random,random,random",
        "--seed",
        "4",
        "--option",
        "open_baskets=true",
        cwd=tmp_path,
    )
    for n in (3, 9, 1):
        dive_and_reveal(child, str(n))
    child.expect(MOVE)
    child.sendline("dive 6")  # a secret choice made before saving is kept too
    child.expect(CONFIRM)
    child.sendline("save saved.json")
    child.expect(r"Saved to:\s+saved.json")
    child.expect(CONFIRM)
    child.sendline("quit")
    child.expect("or n to leave and delete it")
    child.sendline("n")
    assert finish(child) == 0

    child = spawn("--load", "saved.json", "--save", "resumed.json", cwd=tmp_path)
    child.expect(MOVE)  # seat 0 has chosen already; the bots answer, round 5 begins
    assert "round 5 of 12" in plain(child.before)
    child.sendline("quit")
    child.expect(r"Game record saved to:\s+(\S+)")
    assert finish(child) == 0
    saved = json.loads((tmp_path / "saved.json").read_text())
    resumed = json.loads((tmp_path / "resumed.json").read_text())
    assert resumed["moves"][: len(saved["moves"])] == saved["moves"]
    # Resuming with nothing played gives the identical state; with four people at the table
    # the kept record is sealed, and it opens on this machine.
    child = spawn(
        "--load", "saved.json", "--save", "same.json", "--seats", "human,human,human,human", cwd=tmp_path
    )
    child.expect("take the keyboard")
    child.sendline("")
    child.expect(MOVE)
    child.sendline("quit")
    child.expect(r"Game record saved to")
    assert finish(child) == 0
    monkeypatch.setenv("KITI_DATA_DIR", str(data_dir(tmp_path)))
    same = open_game(tmp_path / "same.json")
    assert same.sealed and same.record["moves"] == saved["moves"]
    assert replay(same.record).observation(REFEREE) == replay(saved).observation(REFEREE)
    assert replay(saved).observation(REFEREE)["round"] == 4


def test_ctrl_c_keeps_the_record(tmp_path: Path) -> None:
    child = spawn("miaui", "--seed", "8", "--seats", "human,random,random,random", cwd=tmp_path)
    dive_and_reveal(child, "2")
    child.expect(MOVE)
    child.sendintr()
    child.expect(r"Game record saved to:\s+(\S+)")
    path = Path(child.match.group(1))
    child.expect(r"Resume it with:\s+kiti play --load")
    assert finish(child) == 130
    assert path.parent == data_dir(tmp_path) / "games"  # Kiti's data folder, not /tmp
    record = json.loads(path.read_text())
    assert [0, "dive 2"] in record["moves"]
    assert len(record["moves"]) == 4


def test_all_bots_play_without_input(tmp_path: Path) -> None:
    out = kiti(
        "play",
        "miaui",
        "--seats",
        "random,random,random,random",
        "--seed",
        "1",
        "--save",
        "bots.json",
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr
    assert "Place  Player" in out.stdout
    assert "★ wins" in out.stdout or "★ shared victory" in out.stdout  # bots have fresh seeds
    assert "bots.json" in out.stdout
    again = kiti("play", "miaui", "--seats", "random,random,random,random", "--seed", "1", cwd=tmp_path)
    assert again.returncode == 0 and "★" in again.stdout
    watch = kiti("play", "miaui", "--players", "3", "--watch", "--delay", "0", "--seed", "2", cwd=tmp_path)
    assert watch.returncode == 0 and "★" in watch.stdout


def test_bad_seats_and_options_fail_clearly(tmp_path: Path) -> None:
    out = kiti("play", "miaui", "--seats", "random,wizard,random", cwd=tmp_path)
    assert out.returncode != 0 and "unknown bot 'wizard'" in out.stderr
    out = kiti("play", "miaui", "--option", "fog=1", "--seats", "random,random,random", cwd=tmp_path)
    assert out.returncode != 0 and "unknown option 'fog'" in out.stderr
    out = kiti("play", "miaui", "--players", "3", "--seats", "random,random,random,random", cwd=tmp_path)
    assert out.returncode != 0 and "4 seats" in out.stderr


def test_replay_text_mode(tmp_path: Path) -> None:
    assert (
        kiti(
            "play",
            "miaui",
            "--seats",
            "random,random,random",
            "--seed",
            "9",
            "--save",
            "g.json",
            cwd=tmp_path,
        ).returncode
        == 0
    )
    record = json.loads((tmp_path / "g.json").read_text())
    record["moves"] = record["moves"][:13]  # rounds 1-4 and one dive of round 5
    (tmp_path / "part.json").write_text(json.dumps(record))
    whole = kiti("replay", "part.json", cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr
    assert "round 5 of 12" in whole.stdout and "whole table" in whole.stdout
    assert "Round 4 revealed" in whole.stdout
    seat = kiti("replay", "part.json", "--seat", "1", cwd=tmp_path)
    assert seat.returncode == 0 and "you are seat 1" in seat.stdout and "Your divers:" in seat.stdout
    assert "▒▒" in seat.stdout or "?" in seat.stdout
    done = kiti("replay", "g.json", cwd=tmp_path)
    assert done.returncode == 0 and "game over" in done.stdout and "★" in done.stdout


def test_a_closed_output_still_saves_the_game_and_says_so(tmp_path: Path) -> None:
    # `kiti play miaui | head -3`: the reader leaves; the game must be saved all the same,
    # with one line on stderr and no traceback.
    import subprocess
    import sys

    import waits
    from play_helpers import env

    data = data_dir(tmp_path)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kiti.cli.main", "play", "miaui", "--seed", "2"],
        cwd=str(tmp_path),
        env=env(data),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
    first = proc.stdout.readline()
    assert first is not None  # the premise: the table started
    proc.stdout.close()  # the reader goes away
    proc.stdin.write("5\n\n9\n\nquit\n\n")
    proc.stdin.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=waits.COMMAND) == 1
    assert "Traceback" not in err
    assert "the output was closed; the game is saved" in err
    saved = list((data / "games").glob("miaui-*.json"))
    assert len(saved) == 1


def test_a_resumed_game_is_kept_in_its_own_file_and_quit_says_where_once(tmp_path: Path) -> None:
    from play_helpers import kiti

    games = data_dir(tmp_path) / "games"
    first = kiti("play", "miaui", "--seed", "4", cwd=tmp_path, stdin="5\n\nquit\n\n")
    saved = list(games.glob("miaui-*.json"))
    assert len(saved) == 1, first.stdout + first.stderr  # the premise: quitting kept the game
    assert first.stdout.count(str(saved[0])) == 2  # "kept in X. Resume it with: kiti play --load X"
    assert "Game record saved to" not in first.stdout
    before = json.loads(saved[0].read_text())["moves"]
    again = kiti("play", "--load", str(saved[0]), cwd=tmp_path, stdin="7\n\nquit\n\n")
    assert again.returncode == 0, again.stdout + again.stderr
    assert list(games.glob("miaui-*.json")) == saved  # no new file
    after = json.loads(saved[0].read_text())["moves"]
    assert len(after) > len(before)  # the resumed game's moves are in its own file
