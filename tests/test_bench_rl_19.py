"""``kiti bench GAME --rl``: the tensors' cost and the PettingZoo AEC env's speed against the
engine's random play, in the same run as the engine's own figures (structure only: no test
depends on the machine's speed)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

pytest.importorskip("numpy", reason="kiti bench --rl needs the [rl] extra")
pytest.importorskip("pettingzoo", reason="kiti bench --rl needs the [rl] extra")

from kiti.cli.main import app


@pytest.mark.parametrize("game", ["miaui", "mauw", "motu"])
def test_bench_rl_reports_tensors_and_the_aec_ratio_for_every_seat_count(game: str) -> None:
    result = CliRunner().invoke(app, ["bench", game, "--rl", "--seconds", "0.05", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    engine, rl = out["engine"], out["rl"]
    assert [r["players"] for r in rl] == [r["players"] for r in engine]  # the same seat counts
    for row in rl:
        assert row["observation_us"] > 0 and row["tracker_us"] > 0 and row["observation_size"] > 0
        assert row["aec_steps_per_s"] > 0 and row["engine_moves_per_s"] > 0
        assert row["ratio"] == pytest.approx(row["ratio"]) and 0 < row["ratio"] < 10


def test_bench_rl_prints_its_table() -> None:
    result = CliRunner().invoke(app, ["bench", "miaui", "--rl", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    assert "tensors and the PettingZoo AEC env" in result.output and "tracker µs" in result.output
