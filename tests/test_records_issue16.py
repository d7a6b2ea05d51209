"""Issue 16, records: a bad move in a record is one clear line (never 1 MB, never a
traceback) in ``kiti replay`` and ``kiti play --load``; a record's lineup is checked like a
server's bot specs, budgets capped, the error naming the seat and the cap."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import waits

from kiti.bots.registry import BotSpecError, check_lineup
from kiti.games import get_game

LONGEST = 400  # characters: the longest error line a user may be shown
BIG_ITERS = "ismcts:iters=100000000000"


def kiti(*args: str, stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kiti", *args], capture_output=True, text=True, timeout=timeout, input=stdin
    )


def record_file(tmp_path: Path, **fields: Any) -> str:
    record = {"game": "miaui", "players": 3, "seed": 1, "moves": [], **fields}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    return str(path)


def assert_one_clear_line(result: subprocess.CompletedProcess, *words: str) -> str:
    out = (result.stdout + result.stderr).strip()
    assert result.returncode != 0, out[:300]
    assert "Traceback" not in out
    assert len(out) <= LONGEST and "\n" not in out, out[:600]
    for word in words:
        assert word in out, out
    return out


BAD_MOVES = {
    "a 1 MB move": [[0, "dive " + "9" * 1_000_000]],
    "a huge number": [[0, 10**4000]],
    "a huge seat": [[10**4000, "dive 3"]],
    "a list": [[0, ["dive", 3]]],
    "null": [[0, None]],
    "a bare number": [10**4000],
}


@pytest.mark.parametrize("command", [["replay"], ["play", "--load"]])
@pytest.mark.parametrize("what", sorted(BAD_MOVES))
def test_a_bad_move_in_a_record_is_one_clear_line(tmp_path: Path, command: list[str], what: str) -> None:
    path = record_file(tmp_path, moves=BAD_MOVES[what])
    assert_one_clear_line(kiti(*command, path), "invalid record", "move 1")


def test_replay_step_quotes_a_long_key_briefly(tmp_path: Path) -> None:
    path = record_file(tmp_path, moves=[[0, "dive 3"]])
    result = kiti("replay", path, "--step", stdin="k" * 100_000 + "\nq\n")
    assert result.returncode == 0 and "Not a key here" in result.stdout  # the premise
    assert "k" * 200 not in result.stdout and len(result.stdout) < 20_000


def test_replay_quotes_a_huge_seat_briefly(tmp_path: Path) -> None:
    path = record_file(tmp_path)
    assert_one_clear_line(kiti("replay", path, "--seat", "9" * 3000), "no seat")


# ------------------------------------------------------------------ lineups
@pytest.mark.parametrize(
    ("lineup", "words"),
    [
        (["human", BIG_ITERS, "random"], ["seat 1's bot " + BIG_ITERS, "at most 100000"]),
        (["random", "random", "ismcts:time=100000000000"], ["seat 2's bot", "time must be at most 120"]),
        (["human", "alphazero", "random"], ["seat 1's bot alphazero", "unknown bot 'alphazero'"]),
        (["human", "random", "ismcts:" + "x" * 1_000_000], ["seat 2", "..."]),
    ],
)
def test_a_record_lineup_is_checked_like_a_servers_bot_specs(
    tmp_path: Path, lineup: list[str], words: list[str]
) -> None:
    path = record_file(tmp_path, lineup=lineup)
    for command in (["play", "--load"], ["replay"]):
        try:
            result = kiti(*command, path, timeout=waits.COMMAND)
        except subprocess.TimeoutExpired:
            pytest.fail(f"kiti {' '.join(command)} took the lineup {lineup[:3]!r:.80} and kept thinking")
        assert_one_clear_line(result, "invalid record", "'lineup'", *words)


def test_a_lineup_within_the_caps_still_loads(tmp_path: Path) -> None:
    path = record_file(tmp_path, lineup=["ismcts:iters=100000", "heuristic", "random"])
    result = kiti("replay", path)
    assert result.returncode == 0, result.stderr
    check_lineup(["human", "ismcts:iters=100000,time=120", "random"], get_game("miaui"))


def test_check_lineup_names_the_seat_and_the_cap() -> None:
    with pytest.raises(BotSpecError) as info:
        check_lineup(["human", "random", BIG_ITERS], get_game("miaui"))
    assert str(info.value) == (
        f"seat 2's bot {BIG_ITERS}: bot ismcts parameter iters must be at most 100000, not 100000000000"
    )


def test_the_server_refuses_a_budget_over_the_caps(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("sqlalchemy")
    from server_kit import client

    with client(tmp_path) as c:
        for spec, words in (
            (BIG_ITERS, "iters must be at most 100000"),
            ("ismcts:time=999", "over this server's limit"),
            ("ismcts:time=1e400", "over this server's limit"),
        ):
            r = c.post("/api/tables", json={"game": "miaui", "seats": ["human", "human", spec]})
            error = r.json()["error"]
            assert r.status_code == 400 and error["code"] == "bad_request" and words in error["message"], (
                error
            )
