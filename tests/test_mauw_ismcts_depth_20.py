"""Mauw's heuristic scores a position for a search that stops early, so ISMCTS cuts its
rollouts after two turns of each seat (measured stronger at equal iterations than 120-move
random rollouts, and about 4x cheaper: docs/rules/mauw.md)."""

from __future__ import annotations

import random

import pytest

from kiti.bots.ismcts import ISMCTSBot
from kiti.core.load import load
from kiti.core.seatview import seat_view
from kiti.core.turns import play_random_game
from kiti.games.mauw.heuristic import MauwHeuristic


@pytest.mark.parametrize(("players", "options"), [(2, {}), (4, {}), (4, {"teams": True})])
def test_a_cut_game_is_scored_by_each_partys_points_as_they_stand(players, options):
    game = load("mauw", players=players, **options)
    state = game.new_state(3)
    rng = random.Random(3)
    for _ in range(40):  # part of a game: points on the table, not over
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    assert not state.over and any(state.scores())  # the premise
    assert MauwHeuristic().evaluate(state) == list(state.party_scores())
    finished = play_random_game(game.new_state(4), rng)
    assert MauwHeuristic().evaluate(finished) == list(finished.party_scores())


@pytest.mark.parametrize("players", [2, 4])
def test_ismcts_cuts_mauw_rollouts_after_two_turns_of_each_seat(players):
    state = load("mauw", players=players).new_state(5)
    bot = ISMCTSBot(1, iters=20)
    bot.choose(seat_view(state, min(state.to_act())))
    assert bot._depth == 2 * players
    assert ISMCTSBot(1, iters=20, depth=50)._depth == 50  # a depth given is kept
