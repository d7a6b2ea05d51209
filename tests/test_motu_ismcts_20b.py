"""Issue 20: MOTU's rules answer "may this card go there?" from the legal bit boards
(``is_legal_placement``), so a search asking of many placements (ISMCTS's widening) does not
work out a refusal's words for each; the answer must be the placement rule's own."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_motu_speed_20 import grown

from kiti.core.load import load
from kiti.games.motu import island as I
from kiti.games.motu.cards import ISLAND_IDS
from kiti.games.motu.rules import Place


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), cards=st.integers(0, 9))
def test_is_legal_placement_is_the_placement_rule(seed: int, cards: int) -> None:
    island = grown(cards, seed)
    card = random.Random(seed).choice(ISLAND_IDS)
    xs, ys = [x for x, _ in island.cells], [y for _, y in island.cells]
    legal = 0
    for r in I.ROTATIONS:
        for y in range(min(ys) - 7, max(ys) + 4):
            for x in range(min(xs) - 7, max(xs) + 4):  # beyond the frame on every side too
                rule = I.placement_problem(island, card, r, x, y) is None
                assert I.is_legal_placement(island, card, r, x, y) == rule, (r, x, y)
                legal += rule
    assert legal or not island.coverable or not I.has_legal_placement(island, card)  # the premise
    assert not I.is_legal_placement(island, card, 45, min(xs), min(ys))


def test_the_rules_refuse_and_accept_placements_as_before() -> None:
    state = load("motu", players=2).new_state(4)
    rng = random.Random(4)
    asked = 0
    while not state.over and asked < 6:
        seat = min(state.to_act())
        if state.phase == "place":
            island, card = state.islands[seat], state.holding
            for r in I.ROTATIONS:
                for x in range(-6, 7):
                    for y in range(-6, 7):
                        why = state.illegal_reason(seat, Place(r, x, y))
                        rule = I.placement_problem(island, card, r, x, y)
                        assert (why is None) == (rule is None)
                        if rule is not None and why is not None and "covers no symbol" not in why:
                            assert why == rule  # the refusal's words are the rule's own
            asked += 1
        state.apply(seat, state.random_move(seat, rng))
    assert asked == 6


def test_a_malformed_placement_is_refused_even_where_its_values_would_fit() -> None:
    state = load("motu", players=2).new_state(4)
    rng = random.Random(4)
    while state.phase != "place":
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    seat = min(state.to_act())
    r, x, y = I.legal_placements(state.islands[seat], state.holding)[0]
    assert state.illegal_reason(seat, Place(r, x, y)) is None  # the premise
    for bad in (Place(float(r), x, y), Place(r, float(x), y), Place(r, x, True if y == 1 else y + 0.0)):
        assert state.illegal_reason(seat, bad) is not None
