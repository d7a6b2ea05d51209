"""`kiti bench`: the figures it reports, how it measures them, and the reference it names."""

from __future__ import annotations

import json
import random
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import pytest
from typer.testing import CliRunner

from kiti.cli.main import app
from kiti.core.registry import game_ids, get_game
from kiti.core.turns import play_random_actions, play_random_game
from kiti.sim import bench

SPREADS = (
    "games_per_s_spread",
    "actions_games_per_s_spread",
    "int_over_object",
    "reference_games_per_s_spread",
    "ratio_spread",
    "actions_ratio_spread",
    "legal_games_per_s_spread",
    "legal_ratio_spread",
    "moves_ratio_spread",
    "legal_moves_ratio_spread",
)


def _installed_open_spiel() -> str | None:
    """The open-spiel version the bench can measure against (None if pyspiel won't import)."""
    try:
        import pyspiel  # noqa: F401

        return version("open_spiel")
    except (ImportError, PackageNotFoundError):
        return None


def _fake_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for OpenSpiel: exactly 10,000 games (and 100,000 moves) a second, version "9.9"."""

    def runner(players: int) -> bench.Runner:
        return lambda first, games: (games / 10_000, games * 10)

    monkeypatch.setattr(bench, "goofspiel_runner", runner)
    monkeypatch.setattr(bench, "reference_version", lambda: "9.9")


def _check_spreads(row: dict[str, Any]) -> None:
    for key in SPREADS:
        figure = row[key]
        if figure is not None:
            assert figure["low"] <= figure["median"] <= figure["high"], (key, figure)
    for key in (*bench.RATES, "legal_games_per_s", "legal_ratio", "moves_ratio", "legal_moves_ratio"):
        spread = row[f"{key}_spread"]
        assert row[key] == (None if spread is None else spread["median"]), key


def test_bench_json_names_the_reference_and_its_version() -> None:
    out = CliRunner().invoke(app, ["bench", "miaui", "--json", "--seconds", "0.02"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.output)
    assert [r["players"] for r in rows] == [3, 4, 6]  # smallest, 4, largest
    assert all(r["games_per_s"] > 0 and r["actions_games_per_s"] > 0 for r in rows)
    assert all(r["legal_games_per_s"] > 0 and r["legal_moves_per_s"] > 0 for r in rows)
    assert rows[1]["ismcts_iterations_per_s"] > 0  # the middle row holds ISMCTS
    expected = _installed_open_spiel()
    for r in rows:
        assert r["rounds"] >= 3 and r["int_over_object"]["median"] > 0
        _check_spreads(r)
        # A ratio means nothing without the reference's version (1.5 is ~1.5x slower than 2.0).
        assert r["reference_version"] == expected
        batch = r["batch"]  # Miaui's batch simulator against goofspiel's C++ loop
        assert batch["games_per_batch"] == 10_000 and batch["games_per_s"] > 0
        if expected is None:
            assert r["ratio"] is None and r["reference_games_per_s"] is None
            assert r["ratio_spread"] is None and r["reference_games_per_s_spread"] is None
            assert r["moves_ratio"] is None and batch["ratio"] is None
        else:
            assert r["reference_moves_per_s"] > 0 and r["moves_ratio"] > 0 and r["legal_ratio"] > 0
            assert batch["ratio"] == pytest.approx(
                batch["games_per_s"] / batch["reference_games_per_s"], rel=0.5
            )


def test_the_ratios_are_same_round_medians_with_their_spread(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_reference(monkeypatch)
    rows = bench.run_bench(
        get_game("miaui"), seconds=0.02, progress=False, ismcts=False, rounds=5, batch=False
    )
    for r in rows:
        assert r["rounds"] == 5 and r["reference_version"] == "9.9"
        assert r["reference_games_per_s"] == pytest.approx(10_000, rel=1e-6)
        assert r["reference_moves_per_s"] == pytest.approx(100_000, rel=1e-6)
        _check_spreads(r)
        # Against a steady reference the median ratio is the median rate's ratio.
        assert r["ratio"] == pytest.approx(r["games_per_s"] / 10_000, abs=0.001)
        assert r["actions_ratio"] == pytest.approx(r["actions_games_per_s"] / 10_000, abs=0.001)
        assert r["legal_ratio"] == pytest.approx(r["legal_games_per_s"] / 10_000, abs=0.001)
        # Per move: the moves/s over the reference's (Miaui plays 11 dives a seat a game).
        assert r["moves_ratio"] == pytest.approx(r["moves_per_s"] / 100_000, rel=0.01)
        assert r["moves_per_s"] == pytest.approx(r["games_per_s"] * 11 * r["players"], rel=0.01)


def test_bench_table_says_which_open_spiel_it_measured() -> None:
    out = CliRunner().invoke(app, ["bench", "miaui", "--seconds", "0.02"])
    assert out.exit_code == 0, out.output
    expected = _installed_open_spiel()
    if expected is None:
        assert "pip install 'kiti[bench]'" in out.output
    else:
        assert f"open-spiel {expected}" in out.output


def test_bench_table_shows_int_over_object_and_explains_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _fake_reference(monkeypatch)
    rows = bench.run_bench(get_game("miaui"), seconds=0.02, ismcts=False, rounds=3, batch=False)
    out = capsys.readouterr().out
    assert "int/object" in out and "open-spiel 9.9" in out
    assert "Medians of 3 rounds" in out and "interquartile" in out
    assert "int/object: the int path's games/s over the object path's" in out
    ratio = rows[0]["int_over_object"]
    assert f"{ratio['median']:.2f} ±" in out  # the ratio column, with its spread


def test_rounds_alternate_the_paths_and_give_equal_paths_the_same_games() -> None:
    calls: list[tuple[str, int, int]] = []

    def runner(name: str) -> bench.Runner:
        def run(first: int, games: int) -> tuple[float, int]:
            calls.append((name, first, games))
            return 0.001 * games, 10 * games

        return run

    rates = bench.interleaved({"a": (runner("a"), 4), "b": (runner("b"), 4), "c": (runner("c"), 2)}, 3)
    firsts = [calls[k * 3][0] for k in range(3)]
    assert firsts == ["a", "b", "c"]  # a different path opens each round
    for k in range(3):
        round_calls = {name: first for name, first, _ in calls[k * 3 : k * 3 + 3]}
        assert round_calls["a"] == round_calls["b"]  # the same games for the same count
    assert rates["a"] == [(1000.0, 10000.0)] * 3


def test_spread_is_the_median_and_interquartile_range() -> None:
    assert bench.spread([5.0, 1.0, 3.0, 2.0, 4.0]) == {"median": 3.0, "low": 2.0, "high": 4.0}
    assert bench.spread([7.0]) == {"median": 7.0, "low": 7.0, "high": 7.0}


@pytest.mark.parametrize("game", game_ids())
def test_both_paths_play_the_same_games(game: str) -> None:
    """The integer path draws as the object path does, so the bench compares equal work."""
    cls = get_game(game)
    for players in bench.bench_seat_counts(cls):
        for seed in range(3):
            a = play_random_game(cls.new(players, None, seed), random.Random(seed))
            b = play_random_actions(cls.new(players, None, seed), random.Random(seed))
            assert a.history == b.history, (players, seed)


def test_a_fresh_states_codec_is_that_of_its_seats_and_options() -> None:
    """``State.codec`` finds the codec by the state's own options (the integer path asks it
    once a game): another option value or seat count gets another codec."""
    from kiti.core.game import codec_for

    cls = get_game("miaui")
    for players in (3, 6):
        for options in ({}, {"no_fighting": True, "taker_chooses_order": True}):
            for _ in range(2):  # built, then found again
                state = cls.new(players, options, 1)
                assert state.codec() is codec_for(cls, players, options)


def test_no_goofspiel_is_measured_for_fewer_seats_than_it_has() -> None:
    """pyspiel loads a 1-player goofspiel; the bench does not compare a 1-seat MOTU with it."""
    pytest.importorskip("pyspiel")
    from kiti.sim.batch.bench import cpp_runner

    assert bench.goofspiel_runner(1) is None and cpp_runner(1) is None
    assert bench.goofspiel_runner(2) is not None and cpp_runner(2) is not None
    took, moves = bench.goofspiel_runner(3)(0, 2)  # two games: 11 bids a seat each (the
    assert moves == 2 * 11 * 3 and took > 0  # 12th card plays itself, as Miaui's 12th diver)
    assert cpp_runner(3)(0, 2)[1] == 2 * 11 * 3


def test_the_legal_loop_plays_whole_games_through_the_checked_api() -> None:
    """The like-for-like loop plays the same kind of games (every seat's dives, whole games)."""
    took, moves = bench.legal_runner(get_game("miaui"), 4)(7, 3)
    assert moves == 3 * 11 * 4 and took > 0
    took, moves = bench.legal_runner(
        get_game("miaui"), 4, {"no_fighting": True, "taker_chooses_order": True}
    )(7, 3)
    assert moves >= 3 * 11 * 4


def test_the_batch_line_is_the_same_round_ratio_against_the_cpp_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``kiti bench miaui``'s batch figures: 10,000 games a batch against a (here steady)
    C++ loop, the median of the rounds' ratios, printed in its own table."""
    from kiti.sim.batch import bench as batch_bench

    _fake_reference(monkeypatch)
    monkeypatch.setattr(
        batch_bench, "cpp_runner", lambda players: lambda first, games: (games / 20_000, games)
    )
    monkeypatch.setattr(bench, "bench_seat_counts", lambda cls: [4])
    rows = bench.run_bench(get_game("miaui"), seconds=0.02, ismcts=False, rounds=3)
    batch = rows[0]["batch"]
    assert batch["reference_games_per_s"] == pytest.approx(20_000, rel=1e-6)
    assert batch["ratio"] == pytest.approx(batch["games_per_s"] / 20_000, rel=0.01)
    assert batch["moves_per_s"] == pytest.approx(batch["games_per_s"] * 44, rel=0.01)  # 11 dives x 4 seats
    out = capsys.readouterr().out
    assert "batch simulator against goofspiel's C++ loop" in out
    assert f"{batch['ratio_spread']['median']:.2f} ±" in out
    assert "10,000 random games at once" in out
    assert batch_bench.batch_comparison("mauw", 4, 0.01, 3) is None  # Miaui's alone
