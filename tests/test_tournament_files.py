"""Tournaments on file: games.csv, length and margin, --resume, --shard with
kiti tournament-merge, and the ray backend giving the local pool's games byte for byte."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import kiti.games  # noqa: F401
from kiti.cli.main import app
from kiti.sim.tournament import (
    TournamentConfig,
    TournamentError,
    parse_shard,
    run_tournament,
    winners_margin,
)
from kiti.sim.tournament_file import DEALS

BOTS = "heuristic,random,random"
ARGS = ["tournament", "miaui", "--bots", BOTS, "--games", "30", "--seed", "4", "--jobs", "1"]
#: What two runs of the same tournament must write identically (run.json holds timings).
FIGURES = ("results.json", "results.csv", "games.csv", DEALS)


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def same_files(a: Path, b: Path) -> None:
    for name in FIGURES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One uninterrupted, unsharded run (10 deals of 3 games)."""
    pytest.importorskip("matplotlib")
    out = tmp_path_factory.mktemp("whole")
    result = cli(*ARGS, "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((out / "games.csv").read_text())))


def test_games_csv_has_a_row_per_game_and_seat_with_length_and_margin(whole: Path) -> None:
    table = rows(whole)
    assert list(table[0]) == [
        "options",
        "deal",
        "game_seed",
        "rotation",
        "seat",
        "turn_order",
        "bot",
        "score",
        "rank",
        "share",
        "moves",
        "length",
        "truncated",
        "margin",
    ]
    assert len(table) == 30 * 3
    summary = json.loads((whole / "results.json").read_text())
    for deal in range(10):  # every contestant plays every deal from every seat
        block = [r for r in table if r["deal"] == str(deal)]
        assert {(r["seat"], r["bot"]) for r in block} == {
            (s, b) for s in "012" for b in summary_bots(summary)
        }
    for game in {(r["deal"], r["rotation"]) for r in table}:
        seats = [r for r in table if (r["deal"], r["rotation"]) == game]
        scores = sorted((float(r["score"]) for r in seats), reverse=True)
        assert float(seats[0]["margin"]) == scores[0] - scores[1]  # the winner's lead
        assert sum(float(r["share"]) for r in seats) == pytest.approx(1.0)
        assert sorted(r["turn_order"] for r in seats) == ["1", "2", "3"]
    heuristic = [float(r["share"]) for r in table if r["bot"] == "heuristic"]
    assert sum(heuristic) == summary["bots"][0]["wins"]
    moves = [int(r["moves"]) for r in table if r["seat"] == "0"]
    assert summary["moves"]["mean"] == pytest.approx(sum(moves) / len(moves))
    assert summary["moves"]["min"] == min(moves) and summary["moves"]["max"] == max(moves)
    margins = sorted(float(r["margin"]) for r in table if r["seat"] == "0")
    assert summary["margin"]["median"] == pytest.approx((margins[14] + margins[15]) / 2)
    assert summary["length"]["unit"] == "rounds" and summary["length"]["mean"] > 0


def summary_bots(summary: dict[str, Any]) -> list[str]:
    return [b["bot"] for b in summary["bots"]]


def test_margin_is_the_lead_over_the_best_party_behind() -> None:
    def party(score: float, rank: float) -> dict[str, float]:
        return {"score": score, "rank": rank}

    assert winners_margin([party(5, 2), party(9, 1), party(7, 3)], False) == 2
    assert winners_margin([party(9, 1.5), party(9, 1.5), party(2, 3)], False) == 7
    assert winners_margin([party(4, 1.5), party(4, 1.5)], False) == 0  # all share first
    assert winners_margin([party(9, 1), party(7, 2)], True) is None  # stopped at the move limit
    # MOTU solo: the Opponent is a party and has a row of its own, its seat empty.
    res = run_tournament(TournamentConfig("motu", ["random"], players=1, games=2, jobs=1, seed=1))
    from kiti.sim.tournament import games_csv

    table = list(csv.DictReader(io.StringIO(games_csv(res["games"], res["summary"]["config"]))))
    assert [(r["seat"], r["bot"]) for r in table[:2]] == [("0", "random"), ("", "Opponent")]
    assert table[1]["turn_order"] == ""


def test_a_stopped_run_resumes_to_the_figures_of_an_uninterrupted_one(
    whole: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kiti.sim.tournament as tournament

    play = tournament._play_deal

    out = tmp_path / "stopped"
    on_disk = []  # whole lines in the file (as kill -9 would leave it) when each deal starts

    def stopped_at_deal_4(args: Any) -> Any:
        on_disk.append((out / DEALS).read_bytes().count(b"\n"))
        if args[5] == 4:  # the deal: Ctrl-C while it is played
            raise KeyboardInterrupt
        return play(args)

    with monkeypatch.context() as patch:
        patch.setattr(tournament, "_play_deal", stopped_at_deal_4)
        result = cli(*ARGS, "--out", str(out))
    assert result.exit_code == 130
    assert on_disk == [1, 2, 3, 4, 5]  # the header, then each deal as soon as it is done
    assert "run the same command with --resume" in " ".join(result.output.split())
    deals = out / DEALS
    lines = deals.read_bytes().splitlines(keepends=True)
    assert len(lines) == 1 + 4  # the header, then the 4 deals finished, each whole
    torn = (whole / DEALS).read_bytes().splitlines(keepends=True)[5][:100]
    deals.write_bytes(b"".join(lines) + torn)  # as if killed while writing deal 4
    result = cli(*ARGS, "--out", str(out), "--resume")
    assert result.exit_code == 0, result.output
    assert "4 deal(s) resumed from the file, 6 played now" in result.output
    same_files(whole, out)
    again = cli(*ARGS, "--out", str(out), "--resume")  # a finished run resumes to itself
    assert again.exit_code == 0 and "10 deal(s) resumed from the file, 0 played now" in again.output
    same_files(whole, out)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (["--seed", "5"], "--seed: 4 there, 5 now"),
        (
            ["--bots", "random,heuristic,random"],
            "--bots: 'heuristic,random,random' there, 'random,heuristic,random' now",
        ),
        (["-o", "open_baskets=true"], "--option: none there, 'open_baskets=true' now"),
        (["--games", "60"], "--games: 30 there, 60 now"),
        (["--shard", "1/2"], "--shard: none there, 1/2 now"),
    ],
)
def test_a_resume_with_other_arguments_is_refused_and_changes_nothing(
    whole: Path, tmp_path: Path, change: list[str], words: str
) -> None:
    out = tmp_path / "copy"
    out.mkdir()
    (out / DEALS).write_bytes((whole / DEALS).read_bytes())
    args = ARGS.copy()
    for flag, value in zip(change[::2], change[1::2]):
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    result = cli(*args, "--out", str(out), "--resume")
    assert result.exit_code == 2, result.output
    assert "other arguments" in result.output and words in " ".join(result.output.split())
    assert "Traceback" not in result.output
    assert (out / DEALS).read_bytes() == (whole / DEALS).read_bytes()
    assert sorted(p.name for p in out.iterdir()) == [DEALS]


def test_three_shards_merge_into_one_run(whole: Path, tmp_path: Path) -> None:
    shards = []
    for k in (1, 2, 3):
        out = tmp_path / f"shard{k}"
        result = cli(*ARGS, "--shard", f"{k}/3", "--out", str(out))
        assert result.exit_code == 0, result.output
        assert f"shard {k}/3" in result.output
        assert not (out / "results.json").exists()  # a shard's figures are not the tournament's
        shards.append(str(out))
    played = [
        [json.loads(line)["deal"] for line in Path(s, DEALS).read_text().splitlines()[1:]] for s in shards
    ]
    assert played == [[0, 3, 6, 9], [1, 4, 7], [2, 5, 8]]
    merged = tmp_path / "merged"
    result = cli("tournament-merge", shards[2], shards[0], shards[1], "--out", str(merged))
    assert result.exit_code == 0, result.output
    same_files(whole, merged)
    # Shards that do not make one tournament, each refused with what is wrong.
    other = tmp_path / "other"
    assert cli(*ARGS, "--seed", "5", "--shard", "3/3", "--out", str(other)).exit_code == 0
    for folders, words in (
        ([shards[0], shards[1]], "3 deal(s) are in none of the folders (2, 5, 8): shard(s) 3/3 missing"),
        ([*shards, shards[1]], "deal 1 is in both"),
        ([shards[0], shards[1], str(other)], "is not a shard of the tournament in"),
        ([str(tmp_path / "nowhere")], "holds no deals.jsonl"),
        ([shards[0], str(merged)], "deal 0 is in both"),
    ):
        bad = cli("tournament-merge", *folders, "--out", str(tmp_path / "bad"))
        assert bad.exit_code == 2, bad.output
        assert words in " ".join(bad.output.split()), bad.output
    unfinished = tmp_path / "unfinished"
    unfinished.mkdir()
    text = Path(shards[2], DEALS).read_text().splitlines(keepends=True)
    (unfinished / DEALS).write_text("".join(text[:2]))
    bad = cli("tournament-merge", shards[0], shards[1], str(unfinished), "--out", str(tmp_path / "bad"))
    assert bad.exit_code == 2 and "holds 1 of the 3 deals of shard 3/3" in " ".join(bad.output.split())


@pytest.mark.parametrize(
    ("text", "words"),
    [("0/3", "1 <= K <= N"), ("4/3", "1 <= K <= N"), ("x", "must be K/N"), ("1/0", "1 <= K <= N")],
)
def test_bad_shards_are_refused(text: str, words: str, tmp_path: Path) -> None:
    with pytest.raises(TournamentError, match=words):
        parse_shard(text)
    result = cli(*ARGS, "--shard", text, "--out", str(tmp_path / "x"))
    assert result.exit_code == 2 and words in result.output and repr(text) in result.output
    assert not (tmp_path / "x").exists()
    assert "needs --out" in cli(*ARGS, "--shard", "1/3").output
    assert "needs --out" in cli(*ARGS, "--resume").output
    assert "only 10 deal(s)" in cli(*ARGS, "--shard", "11/11", "--out", str(tmp_path / "x")).output


def test_backend_choices_are_checked_before_playing() -> None:
    assert "unknown backend 'dask'" in cli(*ARGS, "--backend", "dask").output
    assert "--address is for --backend ray only" in cli(*ARGS, "--address", "auto").output
    help_text = cli("tournament-merge", "-h")
    assert help_text.exit_code == 0 and "--out DIR" in help_text.output and "--shard K/N" in help_text.output


def test_the_ray_backend_plays_the_same_games(whole: Path, tmp_path: Path) -> None:
    ray = pytest.importorskip("ray", reason="the ray backend's tests need: pip install 'kiti[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        out = tmp_path / "ray"
        result = cli(*ARGS, "--backend", "ray", "--out", str(out))
    finally:
        ray.shutdown()
    assert result.exit_code == 0, result.output
    same_files(whole, out)
    assert json.loads((out / "run.json").read_text())["backend"] == "ray"
