"""Issue 20 item 7: ISMCTS pauses Python's cyclic garbage collector while it searches
(reference counting frees what a search makes). That is only sound while a search makes no
reference cycles, in every game, with either rollout; and the collector must be running again
after a search (and stay off where the caller had turned it off)."""

from __future__ import annotations

import gc

import pytest

from kiti.bots.ismcts import ISMCTSBot
from kiti.core.registry import game_ids, get_game
from kiti.core.seatview import seat_view


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_a_search_makes_no_reference_cycles(rollout: str) -> None:
    for game_id in game_ids():
        cls = get_game(game_id)
        players = max(2, cls.info.min_seats)
        state = cls.new(players, None, 3)
        bot = ISMCTSBot(1, iters=30, rollout=rollout)
        bot.choose(seat_view(state, min(state.to_act())))  # warm: codecs, tables, kept facts
        gc.collect()
        gc.disable()
        try:
            for seed in range(3):
                state = cls.new(players, None, seed)
                bot.choose(seat_view(state, min(state.to_act())))
            left = gc.collect()
        finally:
            gc.enable()
        assert left == 0, f"{cls.info.id}: {left} objects in reference cycles after three searches"


def test_the_collector_runs_again_after_a_search() -> None:
    state = get_game("motu").new(2, None, 1)
    view = seat_view(state, min(state.to_act()))
    ISMCTSBot(1, iters=20).root_statistics(view, 20)
    assert gc.isenabled()
    gc.disable()
    try:
        ISMCTSBot(1, iters=20).root_statistics(view, 20)
        assert not gc.isenabled()  # the caller's choice stands
    finally:
        gc.enable()
