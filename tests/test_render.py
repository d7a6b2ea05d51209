"""The Miaui table fits an 80x24 terminal (23 lines + the prompt) in every variant."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from kiti.games import get_game
from kiti.games.miaui.render import render_view

G = get_game("miaui")
VARIANTS = [{}, {"open_baskets": True}, {"no_fighting": True},
            {"no_fighting": True, "taker_chooses_order": True, "open_baskets": True}]


def height(view, events) -> int:
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(view, events))
    return console.file.getvalue().count("\n")


@pytest.mark.parametrize("options", VARIANTS)
def test_every_seat_view_fits_80x24(options):
    tallest = 0
    for seed in range(4):
        for players in (3, 4, 6):
            state = G.new(players, options, seed)
            rng = random.Random(seed)
            while not state.is_over():
                seat = min(state.to_act())
                state.apply(seat, rng.choice(state.legal_moves(seat)))
                if rng.random() < 0.35:  # a sample of positions keeps the test quick
                    tallest = max(tallest,
                                  height(state.observation(seat), state.events(seat)))
    assert tallest <= 23


def test_face_down_card_is_drawn_as_a_back_for_others():
    # Seat 0 catches a Lantern from the Deepest space in round 1: the next Deepest card is
    # face down, seen by seat 0 only.
    deck = ["K1", "L3", "T6", "K2", "E15"]
    from collections import Counter

    from kiti.games.miaui.cards import COUNT

    rest = list((COUNT - Counter(deck)).elements())
    rest = [c for c in rest if c != "S"] + ["S"] * 6
    state = G.new(3, None, 1, {"deck": deck + rest, "kiti": 0})
    for seat, n in ((0, 12), (1, 5), (2, 1)):
        state.apply(seat, f"dive {n}")
    assert state.table()["lagoon"][0] == ["E15"]
    mine = height(state.observation(0), state.events(0))
    assert mine <= 23
    for viewer in (1, 2):
        console = Console(width=80, file=io.StringIO(), color_system=None)
        console.print(render_view(state.observation(viewer), state.events(viewer)))
        assert "E15" not in console.file.getvalue()
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(state.observation(0), state.events(0)))
    assert "E15" in console.file.getvalue()


def test_kiti_tie_is_told_in_words():
    # The rulebook's example round: three 9s and a 7, Kiti between seats 0 and 1.
    # Deepest: seats 0, 1, 2 tie and Kiti favours 0; Deep: 1 and 2 tie and Kiti favours 2.
    state = G.new(4, None, 1, {"kiti": 0})
    for seat, n in enumerate((9, 9, 9, 7)):
        state.apply(seat, f"dive {n}")
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(state.observation(1), state.events(1)))
    text = " ".join(console.file.getvalue().split())
    assert "Deepest: seat 0 (9) caught" in text
    assert "tied 9s with you and seat 2: Kiti's counterclockwise order 0>3>2>1" in text
    assert "Deep: seat 2 (9) caught" in text
    assert "tied 9s with you: Kiti's counterclockwise order 0>3>2>1" in text
    assert "Shallow: seat 3 (7) caught" in text
