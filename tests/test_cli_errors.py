"""Bad input to the command line: a clear `kiti: ...` message, a non-zero exit, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import waits


def kiti(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kiti", *args],
        capture_output=True,
        text=True,
        timeout=waits.COMMAND,
        stdin=subprocess.DEVNULL,
        **kw,
    )


def assert_clean_failure(result: subprocess.CompletedProcess, *words: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    for word in words:
        assert word in result.stderr + result.stdout


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ({"game": [], "players": 3, "moves": []}, ["'game'"]),
        ({"game": "miaui", "players": 3, "seed": "x", "moves": []}, ["'seed'"]),
        ({"game": "chess", "players": 3, "moves": []}, ["unknown game 'chess'"]),
        (
            {"game": "miaui", "players": 3, "moves": [[0, "dive 3"], [0, "dive 4"]]},
            ["move 2", "dive 4", "already chosen"],
        ),
    ],
)
def test_bad_records(tmp_path, record, words):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    assert_clean_failure(kiti("replay", str(path), "--json"), *words)


def test_null_seed_replays_like_seed_zero(tmp_path):
    moves = [[s, f"dive {12 - s}"] for s in range(3)]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps({"game": "miaui", "players": 3, "seed": None, "moves": moves}))
    b.write_text(json.dumps({"game": "miaui", "players": 3, "seed": 0, "moves": moves}))
    out_a, out_b = kiti("replay", str(a), "--json"), kiti("replay", str(b), "--json")
    assert out_a.returncode == 0 and out_a.stdout == out_b.stdout


def test_empty_seat_entry_is_refused():
    assert_clean_failure(kiti("play", "miaui", "--seats", "random,,random"), "--seats entry 2 is empty")


def test_unwritable_save_is_refused_before_play(tmp_path):
    target = tmp_path / "missing-dir" / "game.json"
    assert_clean_failure(
        kiti("play", "miaui", "--seats", "random,random,random", "--save", str(target)), "cannot write --save"
    )


def test_unwritable_tournament_out_is_refused_before_play(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert_clean_failure(
        kiti(
            "tournament",
            "miaui",
            "--bots",
            "random,random,random",
            "--games",
            "3",
            "--jobs",
            "1",
            "--out",
            str(blocker / "sub"),
        ),
        "cannot write to --out",
    )


def test_negative_watch_delay_is_refused():
    assert_clean_failure(
        kiti("play", "miaui", "--seats", "random,random,random", "--watch", "--delay", "-1"), "--delay"
    )


def test_play_load_numbers_bad_moves_from_one(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(
        json.dumps(
            {
                "game": "miaui",
                "players": 3,
                "seed": 1,
                "moves": [[0, "dive 3"], [1, "dive 4"], [2, "dive 5"], [0, "dive 3"]],
            }
        )
    )
    assert_clean_failure(
        kiti("play", "--load", str(path)), "invalid record", "move 4 ('dive 3')", "already played diver 3"
    )


def test_no_game_given_is_refused_with_the_games_known() -> None:
    """No command plays or times a game nobody named: `kiti play` lists the registry's games,
    `kiti bench` asks for its GAME argument (the generic CLI has no default game)."""
    from typer.testing import CliRunner

    from kiti.cli.main import app
    from kiti.games import game_ids

    play = CliRunner().invoke(app, ["play"])
    assert play.exit_code != 0 and f"one of {', '.join(game_ids())}" in play.output
    bench = CliRunner().invoke(app, ["bench", "--json", "--seconds", "0.01"])
    assert bench.exit_code == 2 and "Missing argument 'GAME'" in bench.output
