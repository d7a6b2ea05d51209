"""Issue 20: the rules' answer to "may the card in hand go there?" (what ISMCTS's widening
asks of every edge) is read from legal boards the state keeps for the island and card in
hand; it must be :func:`is_legal_placement`'s answer everywhere, beyond the boards' frame on
every side too, in every position of random games, on copies, and after the card or the
island changed."""

from __future__ import annotations

import random

import pytest

from kiti.core.load import load
from kiti.games.motu import island as I
from kiti.games.motu.cards import ISLAND_IDS
from kiti.games.motu.rules import MotuState, Place


def _window(state: MotuState, seat: int) -> list[Place]:
    """Placements around the legal boards' frame, a few cells beyond it on each side."""
    holding = state.holding
    assert holding is not None
    _, x0, y0, width = I.legal_boards(state.islands[seat], holding)
    return [
        Place(r, x, y)
        for r in (*I.ROTATIONS, 45)
        for y in range(y0 - 3, y0 + 20)
        for x in (
            *range(x0 - width, x0 + 3, 3),
            *range(x0 + 8, x0 + width - 8, 3),
            *range(x0 + width - 3, x0 + 2 * width, 3),
        )
    ] + [Place(r, x, y) for r, x, y in I.legal_placements(state.islands[seat], holding)]


@pytest.mark.parametrize("players", [1, 2, 4, 6])
def test_a_placement_is_legal_exactly_where_the_placement_rule_says(players: int) -> None:
    game = load("motu", players=players)
    rng = random.Random(players)
    asked = legal = 0
    for seed in range(2 if players < 3 else 1):
        state = game.new_state(seed)
        while not state.over:
            seat = min(state.to_act())
            assert isinstance(state, MotuState)
            if state.phase == "place":
                copy = state.clone()  # a copy shares the state's kept boards
                island, card = state.islands[seat], state.holding or ""
                for move in _window(state, seat):
                    rule = I.is_legal_placement(island, card, move.rotation, move.x, move.y)
                    assert (state.illegal_reason(seat, move) is None) == rule, move
                    assert (copy._illegal_reason(seat, move) is None) == rule, move
                    asked, legal = asked + 1, legal + rule
                copy.holding = other = rng.choice([c for c in ISLAND_IDS if c != card])  # another card
                for move in _window(copy, seat):
                    rule = I.is_legal_placement(island, other, move.rotation, move.x, move.y)
                    assert (copy._illegal_reason(seat, move) is None) == rule, move
            state.apply(seat, state.random_move(seat, rng))
    assert legal > 100 and asked > 10 * legal  # the premise: both answers are asked often
