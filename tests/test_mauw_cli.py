"""Mauw through the command line: replay's JSON views, rules, bots-only play, team tournaments."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

from kiti.cli.main import app
from kiti.games import get_game
from kiti.sim.tournament import TournamentConfig, run_tournament

RUN = CliRunner()


def record_file(tmp_path, teams: bool = False):  # type: ignore[no-untyped-def]
    state = get_game("mauw").new(4, {"teams": teams, "tuatura": 2}, 9)
    rng = random.Random(2)
    for _ in range(80):
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    path = tmp_path / "mauw.json"
    path.write_text(json.dumps(state.record()))
    return path, state


def test_replay_json_has_the_documented_keys(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path, state = record_file(tmp_path, teams=True)
    out = RUN.invoke(app, ["replay", str(path), "--json"])
    assert out.exit_code == 0, out.output
    ref = json.loads(out.output)
    for key in (
        "over",
        "to_act",
        "scores",
        "team_scores",
        "winners",
        "columns",
        "hands",
        "draw_pile",
        "discard",
        "attack",
    ):
        assert key in ref, key
    assert ref["team_scores"] == [ref["scores"][0] + ref["scores"][2], ref["scores"][1] + ref["scores"][3]]
    assert all(len(area) == 4 for area in ref["columns"])
    assert all(set(col) >= {"nines", "top", "nine_cards"} for area in ref["columns"] for col in area)
    assert isinstance(ref["draw_pile"], list)
    seat = json.loads(RUN.invoke(app, ["replay", str(path), "--json", "--seat", "1"]).output)
    assert seat["hands"][1] == ref["hands"][1]
    assert all(set(h) <= {"?", *state.known[s]} for s, h in enumerate(seat["hands"]) if s != 1)
    assert all("nine_cards" not in col for area in seat["columns"] for col in area)
    assert seat["draw_pile"] == len(ref["draw_pile"])


def test_rules_and_a_bots_only_game(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = RUN.invoke(app, ["rules", "mauw"])
    assert out.exit_code == 0 and "Tuatura" in out.output and "open_slot_block" in out.output
    out = RUN.invoke(
        app,
        [
            "play",
            "mauw",
            "--seats",
            "heuristic,random,random",
            "--seed",
            "4",
            "--save",
            str(tmp_path / "g.json"),
        ],
    )
    assert out.exit_code == 0, out.output
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["game"] == "mauw" and record["moves"]


def test_team_tournaments_rotate_teams_not_seats() -> None:
    res = run_tournament(
        TournamentConfig(
            "mauw", ["heuristic", "random"], games=4, players=4, options={"teams": True}, jobs=1, seed=1
        )
    )
    games = res["games"]
    assert res["summary"]["config"]["teams"] == [[0, 2], [1, 3]]
    assert {tuple(g["lineup"]) for g in games} == {(0, 1), (1, 0)}  # each bot in each team's seats
    for g in games:
        parties = g["parties"]
        assert [p["seats"] for p in parties] == [[0, 2], [1, 3]]
        assert abs(sum(p["share"] for p in parties) - 1.0) < 1e-9
    assert [b["games"] for b in res["summary"]["bots"]] == [4, 4]
