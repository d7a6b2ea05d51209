"""Tournaments: duplicate rotations, reproducibility, statistics, outputs and the CLI."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import kiti.games  # noqa: F401
from kiti.bots.registry import split_bot_specs
from kiti.core.events import REFEREE
from kiti.core.records import replay
from kiti.core.results import rank
from kiti.sim import stats
from kiti.sim.tournament import (
    TournamentConfig,
    TournamentError,
    contestant_labels,
    lineups,
    run_tournament,
    write_outputs,
)


def _seat_counts(lines: list[tuple[int, ...]], n: int) -> Counter[tuple[int, int]]:
    return Counter((seat, c) for line in lines for seat, c in enumerate(line))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cyclic_rotation_puts_every_bot_in_every_seat_once(n: int) -> None:
    lines = lineups(n, "cyclic")
    assert len(lines) == n
    assert all(sorted(line) == list(range(n)) for line in lines)
    assert set(_seat_counts(lines, n).values()) == {1}
    assert len(_seat_counts(lines, n)) == n * n


@pytest.mark.parametrize(
    "labels",
    [
        ["a", "b", "c", "d"],
        ["a", "b", "b", "b"],
        ["a", "b", "c", "c"],
        ["a", "a", "b", "b", "c"],
    ],
)
def test_all_permutations_cover_every_class_and_seat_equally(labels: list[str]) -> None:
    n = len(labels)
    lines = lineups(n, "all", labels)
    counts = _seat_counts(lines, n)
    assert len(counts) == n * n and len(set(counts.values())) == 1
    # Every distinct arrangement of the specs over the seats (permutation class) is played.
    import itertools

    classes = {tuple(labels[c] for c in line) for line in lines}
    assert classes == set(itertools.permutations(labels))


def test_rotation_errors() -> None:
    with pytest.raises(TournamentError, match="cyclic or all"):
        lineups(4, "shuffle")


def test_tournament_seats_every_bot_everywhere_and_replays_the_deal() -> None:
    res = run_tournament(
        TournamentConfig(
            "miaui", ["heuristic", "random", "random"], games=12, jobs=1, seed=3, save_records=True
        )
    )
    games = res["games"]
    assert len(games) == 12 and res["summary"]["config"]["deals"] == 4
    counts = Counter((seat, c) for g in games for seat, c in enumerate(g["lineup"]))
    assert set(counts.values()) == {4} and len(counts) == 9
    for deal in range(4):
        block = [g for g in games if g["deal"] == deal]
        assert len({g["seed"] for g in block}) == 1  # the same deal for every rotation
        decks = {tuple(replay(dict(g["record"], moves=[])).observation(REFEREE)["deck"]) for g in block}
        assert len(decks) == 1
    for g in games:  # records replay to the reported scores
        assert replay(g["record"]).scores() == g["scores"]


def test_tournament_reproducible_regardless_of_jobs() -> None:
    cfg = {"game": "miaui", "bots": ["ismcts:iters=15", "heuristic", "random"], "games": 12, "seed": 5}
    one = run_tournament(TournamentConfig(**cfg, jobs=1))
    two = run_tournament(TournamentConfig(**cfg, jobs=2))
    again = run_tournament(TournamentConfig(**cfg, jobs=2))
    assert one["games"] == two["games"] == again["games"]
    assert one["summary"] == two["summary"]  # the figures, config included (timing is in "run")
    assert one["run"]["jobs"] == 1 and two["run"]["jobs"] == 2
    other = run_tournament(TournamentConfig(**dict(cfg, seed=6), jobs=1))
    assert other["games"] != one["games"]


def test_heuristic_beats_random_significantly() -> None:
    res = run_tournament(
        TournamentConfig("miaui", ["heuristic", "random", "random", "random"], games=200, jobs=2, seed=11)
    )
    bots = res["summary"]["bots"]
    assert bots[0]["beats_fair_share"]
    assert all(b["below_fair_share"] or not b["beats_fair_share"] for b in bots[1:])
    pairs = [p for p in res["summary"]["pairs"] if p["a"] == "heuristic"]
    assert all(p["significant"] and p["win_share_difference"]["mean"] > 0 for p in pairs)
    ratings = {r["bot"]: r for r in res["summary"]["ratings"]}
    assert all(ratings["heuristic"]["low"] > ratings[b]["high"] for b in ratings if b != "heuristic")


def test_identical_random_bots_not_declared_different() -> None:
    res = run_tournament(TournamentConfig("miaui", ["random", "random", "random"], games=600, jobs=2, seed=0))
    s = res["summary"]
    assert not any(p["significant"] for p in s["pairs"])
    assert not any(b["beats_fair_share"] or b["below_fair_share"] for b in s["bots"])
    assert sum(b["wins"] for b in s["bots"]) == pytest.approx(600)


def test_paired_test_false_positive_rate_and_power_on_synthetic_data() -> None:
    rng = random.Random(1)
    trials, deals = 300, 400
    false_pos = 0
    for _ in range(trials):
        # Two identical bots: per-deal win shares of 4 rotated games, with shared deal luck.
        a, b = [], []
        for _ in range(deals):
            luck = rng.random() * 0.2
            a.append(sum(rng.random() < 0.25 + luck for _ in range(4)) / 4)
            b.append(sum(rng.random() < 0.25 + luck for _ in range(4)) / 4)
        false_pos += stats.different(a, b)
    assert 0.01 <= false_pos / trials <= 0.10  # about 5% at the 95% level
    # An always-worse bot: 5 points of win share lower on every deal's odds.
    detected = 0
    for _ in range(50):
        a = [sum(rng.random() < 0.30 for _ in range(4)) / 4 for _ in range(deals)]
        b = [sum(rng.random() < 0.20 for _ in range(4)) / 4 for _ in range(deals)]
        detected += stats.different(a, b) and stats.paired_difference(a, b).mean > 0
    assert detected >= 45


def test_mean_ci_coverage_and_t_quantiles() -> None:
    rng = random.Random(2)
    cover = sum(
        stats.mean_ci([rng.gauss(3.0, 2.0) for _ in range(10)]).excludes(3.0) is False for _ in range(2000)
    )
    assert 0.93 <= cover / 2000 <= 0.97
    assert stats.t_quantile(10) == pytest.approx(2.228)
    assert stats.t_quantile(1000) == pytest.approx(1.962, abs=1e-3)
    assert rank([5, 9, 5, 1]) == [2.5, 1.0, 2.5, 4.0]
    assert stats.block_means([1, 0, 1, 1], [0, 0, 1, 1]) == [0.5, 1.0]


def test_labels_and_bot_list_splitting() -> None:
    assert split_bot_specs("ismcts:iters=500,rollout=heuristic,heuristic, random") == [
        "ismcts:iters=500,rollout=heuristic",
        "heuristic",
        "random",
    ]
    assert contestant_labels(["heuristic", "random", "random"]) == ["heuristic", "random#1", "random#2"]


@pytest.mark.parametrize(
    ("bots", "players", "words"),
    [
        (["random", "random"], None, "3-6 players"),
        (["random", "random", "random"], 4, "one bot per seat"),
        (["random", "random", "ismcts:iters=x"], None, "iters must be an integer"),
    ],
)
def test_tournament_errors(bots: list[str], players: int | None, words: str) -> None:
    with pytest.raises(TournamentError, match=words):
        run_tournament(TournamentConfig("miaui", bots, games=3, players=players, jobs=1))


def test_outputs_and_cli(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    pytest.importorskip("openskill")
    from typer.testing import CliRunner

    from kiti.cli.main import app

    out = tmp_path / "res"
    result = CliRunner().invoke(
        app,
        [
            "tournament",
            "miaui",
            "--bots",
            "heuristic,random,random",
            "--games",
            "6",
            "--jobs",
            "1",
            "--seed",
            "4",
            "--option",
            "open_baskets=true",
            "--out",
            str(out),
            "--save-records",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "heuristic" in result.output
    for name in ("results.json", "results.csv", "scores.png", "seats.png", "ratings.png"):
        assert (out / name).stat().st_size > 0
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["options"] == {"open_baskets": "true"}
    assert [b["games"] for b in data["bots"]] == [6, 6, 6]
    assert len(list((out / "records").glob("*.json"))) == 6
    assert (out / "results.csv").read_text().splitlines()[0].startswith("bot,games,wins")
    bad = CliRunner().invoke(app, ["tournament", "miaui", "--bots", "random,random,nobot", "--games", "3"])
    assert bad.exit_code == 2 and "unknown bot" in bad.output
    res = run_tournament(TournamentConfig("miaui", ["random"] * 3, games=3, jobs=1))
    assert write_outputs(res, tmp_path / "again")


def test_win_share_intervals_stay_possible_and_json_stays_valid() -> None:
    # A bot that always wins, one that never does, on few deals: the t interval would leave
    # [0, 1]; the Wilson interval on the deals' effective size does not.
    for values in ([1.0] * 12, [0.0] * 12, [1.0, 0.0, 1.0, 1.0, 1.0, 1.0], [0.25, 0.0, 0.0]):
        blocks = list(range(len(values)))
        ci = stats.share_ci(values, blocks)
        assert ci.low is not None and ci.high is not None
        assert 0.0 <= ci.low <= ci.mean <= ci.high <= 1.0, (values, ci)
    assert stats.share_ci([1.0], [0]).to_dict() == {"mean": 1.0, "low": None, "high": None, "n": 1}
    res = run_tournament(TournamentConfig("miaui", ["random"] * 3, games=3, jobs=1))
    text = json.dumps(res["summary"], allow_nan=False, default=str)  # no Infinity, no NaN
    assert "Infinity" not in text and "NaN" not in text
    assert any("too few games" in w for w in res["summary"]["warnings"])


def test_cli_checks_everything_before_playing_and_creates_no_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from kiti.cli.main import app

    out = tmp_path / "never" / "made"
    for args in (
        ["--bots", "random,random,nobot"],
        ["--bots", "random,random", "--players", "4"],
        ["--bots", "random,random,random", "-o", "no_fighting=perhaps"],
    ):
        result = CliRunner().invoke(app, ["tournament", "miaui", *args, "--games", "3", "--out", str(out)])
        assert result.exit_code == 2, result.output
        assert "games/s" not in result.output and "ETA" not in result.output
        assert not (tmp_path / "never").exists()
