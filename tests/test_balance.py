"""kiti balance: paired deals, reproducible files, the figures, the games' hooks and the command."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kiti.cli.main import app
from kiti.core.registry import game_part, get_game
from kiti.core.turns import play_random_game
from kiti.sim.balance import (
    BalanceConfig,
    BalanceError,
    parse_grid,
    parse_players,
    plan_balance,
    run_balance,
    summarize,
)
from kiti.sim.balance_report import games_csv, write_outputs


def study(game: str = "miaui", jobs: int = 1, **kw: object) -> BalanceConfig:
    cls = get_game(game)
    base = {"bots": ["random"], "players": parse_players("3..4", cls), "games": 4, "seed": 7, "jobs": jobs}
    base.update(kw)
    if "grid" not in base:
        base["grid"] = parse_grid(["open_baskets=false,true"], cls)
    return BalanceConfig(game, **base)  # type: ignore[arg-type]


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_same_seed_gives_the_same_games_csv_whatever_the_jobs() -> None:
    plan = plan_balance(study())
    one = games_csv(plan, run_balance(plan))
    plan2 = plan_balance(study(jobs=2))
    assert games_csv(plan2, run_balance(plan2)) == one
    other = plan_balance(study(seed=8))
    assert games_csv(other, run_balance(other)) != one


def test_every_cell_plays_the_same_deals_and_an_option_bots_ignore_changes_nothing() -> None:
    # Random bots do not read the piles, so Open Baskets cannot change their games: paired on
    # the same deals, every figure's difference is exactly 0.
    plan = plan_balance(study())
    games = run_balance(plan)
    table = rows(games_csv(plan, games))
    seeds: dict[tuple[str, str], set[str]] = {}
    for r in table:
        seeds.setdefault((r["players"], r["deal"]), set()).add(r["game_seed"])
    assert all(len(s) == 1 for s in seeds.values())
    assert {r["open_baskets"] for r in table} == {"false", "true"}
    effects = summarize(plan, games)["effects"]
    assert effects, "open_baskets was varied: its effects are reported"
    for e in effects:
        assert e["difference"]["mean"] == 0.0 and e["difference"]["low"] == 0.0, e


def test_figures_agree_with_games_csv() -> None:
    plan = plan_balance(study(bots=["heuristic", "random"], grid={}, players=[3], games=6))
    games = run_balance(plan)
    summary = summarize(plan, games)
    table = rows(games_csv(plan, games))
    cell = summary["cells"][0]
    assert cell["games"] == len(games) == len(table) // 3 == 6  # 2 deals x 3 rotations
    for seat in range(3):
        shares = [float(r["share"]) for r in table if r["seat"] == str(seat)]
        assert cell["win_share_by_seat"][seat]["mean"] == pytest.approx(sum(shares) / len(shares))
    # Each deal seats each bot in each place once per rotation; shares add up to one a game.
    assert Counter((r["deal"], r["seat"], r["bot"]) for r in table).most_common(1)[0][1] <= 2
    for deal_rot in {(r["deal"], r["rotation"]) for r in table}:
        total = sum(float(r["share"]) for r in table if (r["deal"], r["rotation"]) == deal_rot)
        assert total == pytest.approx(1.0)
    by_bot = {b["bot"]: b["win_share"]["mean"] for b in cell["bots"]["by_bot"]}
    assert set(by_bot) == {"heuristic", "random"}
    lengths = [int(r["length"]) for r in table]
    assert cell["length"]["min"] == min(lengths) and cell["length"]["max"] == max(lengths)


def test_bad_players_grid_and_refused_cells_are_named() -> None:
    miaui, mauw = get_game("miaui"), get_game("mauw")
    with pytest.raises(BalanceError, match="Miaui is for 3-6 players, not 2"):
        parse_players("2..4", miaui)
    with pytest.raises(BalanceError, match=r"the range must go up \(5\.\.3 is empty\)"):
        parse_players("5..3", miaui)
    with pytest.raises(BalanceError, match="Miaui has no option 'kiwi'"):
        parse_grid(["kiwi=0,2"], miaui)
    with pytest.raises(BalanceError, match="a value is repeated"):
        parse_grid(["no_fighting=true,yes"], miaui)
    with pytest.raises(BalanceError, match="must be written option=value1,value2"):
        parse_grid(["no_fighting"], miaui)
    assert parse_players("3,5", miaui) == [3, 5] and parse_grid(["kiwi=0,4"], mauw) == {"kiwi": [0, 4]}
    plan = plan_balance(study("mauw", players=[3, 4], grid=parse_grid(["teams=false,true"], mauw), games=1))
    assert [(c.players, c.options["teams"]) for c in plan.cells] == [(3, False), (4, False), (4, True)]
    assert plan.refused == ["teams=true with 3 players: option teams needs 4 or more players, not 3"]


@pytest.mark.parametrize("game", ["miaui", "mauw", "motu"])
def test_card_points_are_what_the_rules_score(game: str) -> None:
    cls = get_game(game)
    hook = game_part(cls, "balance")
    state = cls.new(4, {"kiwi": 2, "ninox": 2, "tuatura": 2} if game == "mauw" else {}, 11)
    play_random_game(state, random.Random(11))
    facts = hook.card_facts(state)
    if game == "miaui":  # every fish of a pile was caught: their points are the score
        assert [sum(p for p in f.values() if p) for f in facts] == state.scores()
    elif game == "motu":  # a Destiny's points are what the end scoring gave it
        assert [sum(p or 0 for c, p in f.items() if c.startswith("D")) for f in facts] == [
            row["destinies"] for row in state.final
        ]
    else:  # the special cards each seat played, from its own moves
        played = [set() for _ in range(4)]
        for seat, move in state.history:
            code = getattr(move, "card", None) or str(move)[:2]
            if code in ("JK", "SP", "KI", "NI", "TU"):
                played[seat].add(code)
        assert [set(f) for f in facts] == played and any(played)


def test_turn_order_follows_kiti_and_the_first_player() -> None:
    miaui = get_game("miaui")
    hook = game_part(miaui, "balance")
    # Kiti between seats 2 and 3: seat 2 wins the first deep tie, then 1, 0, 3.
    assert hook.turn_order(miaui.new(4, {"kiti_start": 2}, 1)) == [2, 1, 0, 3]
    assert hook.turn_order(miaui.new(4, {"no_fighting": True}, 1)) == [0, 1, 2, 3]
    motu = get_game("motu")
    assert game_part(motu, "balance").turn_order(motu.new(3, {}, 1, {"first": 1})) == [2, 0, 1]


def test_command_writes_a_report_that_reads_alone(tmp_path: Path) -> None:
    out = tmp_path / "study"
    args = ["balance", "mauw", "--players", "3", "--grid", "kiwi=0,2", "--games", "3", "--seed", "5"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    names = {p.name for p in out.iterdir()}
    assert {"games.csv", "summary.json", "report.md", "seats.png", "length.png", "margin.png"} <= names
    report = (out / "report.md").read_text("utf-8")
    assert "6 games played by bots (heuristic) with seed 5" in report
    assert "`kiwi` = 0, 2: Kiwi cards in the deck" in report
    assert "place in turn order" in report and "Card value" in report
    summary = json.loads((out / "summary.json").read_text("utf-8"))
    assert summary["config"]["seed"] == 5 and summary["config"]["unit"] == "turns"
    bad = CliRunner().invoke(app, ["balance", "mauw", "--players", "1..3", "--out", str(out)])
    assert bad.exit_code == 2 and "Mauw is for 2-7 players, not 1" in bad.output
    assert "Traceback" not in bad.output


def test_outputs_are_written_even_for_one_combination(tmp_path: Path) -> None:
    plan = plan_balance(study(grid={}, players=[3], games=2))
    games = run_balance(plan)
    written = write_outputs(plan, games, summarize(plan, games), tmp_path)
    assert {p.name for p in written} >= {"games.csv", "report.md", "cards.png"}
    assert "No option was varied" in (tmp_path / "report.md").read_text("utf-8")
