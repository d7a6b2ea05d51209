"""ISMCTS sped up (issue 20): the same choices and statistics as the search before (the
frozen reference in tests/ismcts_reference.py), for the same seed, in every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ismcts_reference import ReferenceISMCTS

from kiti.bots.ismcts import ISMCTSBot
from kiti.core.registry import get_game
from kiti.core.seatview import SeatView, seat_view
from kiti.core.turns import turns

# (game, seats, bot parameters, iterations): random and heuristic rollouts, wide positions
# (MOTU), margins, open-loop keys, heuristic priors off.
CASES = [
    ("miaui", 4, {}, 60),
    ("miaui", 3, {"rollout": "random", "keys": "own"}, 60),
    ("mauw", 2, {"rollout": "random"}, 30),
    ("mauw", 4, {"reward": "margin", "prior": 0.0}, 30),
    ("motu", 2, {"depth": 6}, 25),
    ("motu", 1, {"rollout": "random", "depth": 6}, 25),
]


def _positions(game_id: str, players: int, count: int = 3) -> list[SeatView]:
    """A few decisions from one random game: its start and positions further on."""
    rng = random.Random(7)
    state = get_game(game_id).new(players, None, 11)
    found: list[SeatView] = []
    for n, seat in enumerate(turns(state)):
        if n % 9 == 0 and len(found) < count:
            found.append(seat_view(state, seat))
        if len(found) == count:
            break
        state.step(seat, state.random_action(seat, rng))
    return found


@pytest.mark.parametrize(("game_id", "players", "params", "iters"), CASES)
def test_ismcts_chooses_as_the_search_before_it(
    game_id: str, players: int, params: dict[str, Any], iters: int
) -> None:
    for k, view in enumerate(_positions(game_id, players)):
        new, old = ISMCTSBot(k, iters=iters, **params), ReferenceISMCTS(k, iters=iters, **params)
        assert new.root_statistics(view, iters) == old.root_statistics(view, iters), (game_id, k)
        assert new.choose(view) == old.choose(view), (game_id, k)


def test_bench_compares_ismcts_with_openspiels_mcts_round_by_round(monkeypatch: pytest.MonkeyPatch) -> None:
    from kiti.sim import bench

    def reference(players: int, seed: int = bench.SEED) -> bench.Runner:
        return lambda first, searches: (searches * bench.SEARCH_ITERS / 1000, searches * bench.SEARCH_ITERS)

    monkeypatch.setattr(bench, "mcts_reference_runner", reference)  # exactly 1,000 iterations a second
    row = bench.ismcts_comparison(get_game("miaui"), 3, 0.03, 3)
    assert row["ismcts_reference_iterations_per_s"] == 1000
    assert row["ismcts_ratio"] == pytest.approx(row["ismcts_iterations_per_s"] / 1000, abs=0.002)
    spread = row["ismcts_ratio_spread"]
    assert spread["low"] <= spread["median"] == row["ismcts_ratio"] <= spread["high"]
    assert "MCTSBot" in row["ismcts_reference"]


def test_bench_runs_openspiels_mcts_when_installed() -> None:
    pytest.importorskip("pyspiel")
    from kiti.sim import bench

    run = bench.mcts_reference_runner(4)
    assert run is not None
    took, iterations = run(0, 1)
    assert took > 0 and iterations == bench.SEARCH_ITERS
