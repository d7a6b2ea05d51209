"""Issue 16, what an audit found left: ``kiti replay --step`` of MOTU folds its log lines
between words (piped, at 80 columns) and shows the step's own lines on an 80x24 screen; an
invalid record gets the same exit status from ``kiti replay`` and ``kiti play --load``."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pexpect
import pytest
import waits
from play_helpers import Terminal, data_dir, env, kiti, plain

from kiti.core.events import REFEREE
from kiti.core.records import apply_entry, start
from kiti.games import get_game

STEP = r"q: quit > "  # the end of the step prompt


def motu_record(tmp_path: Path) -> Path:
    """A seeded game of three heuristic bots, saved as a user would save it."""
    path = tmp_path / "motu.json"
    seats = "heuristic,heuristic,heuristic"
    out = kiti(
        "play", "motu", "--players", "3", "--seats", seats, "--seed", "5", "--save", str(path), cwd=tmp_path
    )
    assert out.returncode == 0, out.stderr
    return path


def moves_telling(path: Path, kind: str) -> list[int]:
    """The moves (counted from 1) after which an event of ``kind`` is logged."""
    record = json.loads(path.read_text())
    state = start(record, get_game)
    out = []
    for i, entry in enumerate(record["moves"]):
        before = len(state.events(REFEREE))
        apply_entry(state, i, entry)
        out += [i + 1 for event in state.events(REFEREE)[before:] if event["type"] == kind]
    return out


def test_stepping_piped_folds_motu_log_lines_between_words(tmp_path: Path) -> None:
    path = motu_record(tmp_path)
    moves = len(json.loads(path.read_text())["moves"])
    out = kiti("replay", str(path), "--step", cwd=tmp_path, stdin="\n" * (moves + 2))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "(the end of the record)" in out.stdout  # the premise: every move was shown
    assert max(len(line) for line in lines) <= 80
    assert "…" not in out.stdout  # nothing cut short
    text = " ".join(line.strip() for line in lines)
    totals = re.findall(r"Interim total [ABC]: (.*?)\.(?: |$)", text)
    assert any(len(t) > 70 for t in totals)  # the premise: some total cannot fit one line
    for total in totals:
        assert [f"seat {s}" for s in range(3)] == re.findall(r"seat \d", total), total


def test_stepping_at_80x24_shows_the_steps_own_motu_log_lines(tmp_path: Path) -> None:
    path = motu_record(tmp_path)
    interim = moves_telling(path, "interim")[0]  # the move that completes the first interim total
    child = Terminal(
        sys.executable,
        ["-m", "kiti.cli.main", "replay", str(path), "--step"],
        cwd=str(tmp_path),
        env=env(data_dir(tmp_path)),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=waits.SCREEN,
    )
    seen = io.StringIO()
    child.logfile_read = seen
    for _ in range(interim):
        child.expect(STEP)
        child.sendline("")
    child.expect(STEP)
    screen = plain(seen.getvalue().rsplit("\x1b[2J", 1)[-1])  # what the last clear left
    assert f"move {interim} of" in screen  # the premise: this is the interim's step
    assert "Interim total A:" in screen and "chose" in screen, screen
    assert len(screen.rstrip("\n").split("\n")) <= 24, screen
    child.sendline("q")
    child.expect(pexpect.EOF)


BAD = {"game": "miaui", "players": 3, "seed": 1, "moves": [[0, "dive 99"]]}


@pytest.mark.parametrize(
    "command", [["replay"], ["replay", "--step"], ["replay", "--json"], ["play", "--load"]]
)
def test_an_invalid_record_exits_with_the_status_of_bad_input(tmp_path: Path, command: list[str]) -> None:
    """Bad input is status 2 everywhere in the CLI (typer's usage errors are 2 as well)."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(BAD))
    out = kiti(*command, str(path), cwd=tmp_path, stdin="")
    assert "invalid record" in out.stderr and "Traceback" not in out.stderr
    assert out.returncode == 2, out.stderr
