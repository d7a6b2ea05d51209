"""Issue 16, Miaui: ``why`` for a legal move says what it would do now (``explain_move``),
worded from the rules and from the seat's own view only."""

from __future__ import annotations

import random

import pytest
from miaui_helpers import OPTION_SETS, G, new, play_round, rounds_deck

from kiti.core.events import REFEREE
from kiti.games.miaui.rules import SPACE_NAMES, Dive, Take


def why(state, seat, text):
    move = state.parse_move(text)
    assert state.illegal_reason(seat, move) is None, "the scenario must make the move legal"
    return state.explain_move(seat, move)


def test_a_dive_names_each_depth_its_catch_and_kitis_tie_orders():
    # 4 seats, Kiti at k = 1: the tie orders are docs/rules/miaui.md's table row for k = 1.
    s = new(4, rounds_deck("K1", [("E13", "T7", "K2"), ("S", "J10", "L5")]), kiti=1)
    said = why(s, 0, "dive 9")
    assert said != s.describe_move(0, Dive(9))  # no longer "dive with diver 9"
    assert "Deepest (highest diver wins): E13, +13 for seat 0" in said
    assert "Deep (next highest wins): T7, +7;" in said
    assert "Shallow (lowest diver wins): K2, +2." in said
    assert "at most" in said  # one catch a seat
    assert (
        "A tie goes to the first in Kiti's order, at Deepest/Deep: seat 1, seat 0, seat 3, seat 2 "
        "(counterclockwise); at Shallow: seat 2, seat 3, seat 0, seat 1 (clockwise)"
    ) in said
    assert "Every other seat may still dive higher, a 9 or lower" in said

    play_round(s, [12, 1, 5, 6])  # seat 0 takes E13, seat 3 T7, seat 1 K2; Kiti moves to 2
    assert s.piles[0] == ["E13"] and s.kiti == 2
    said = why(s, 0, "dive 1")
    assert "Deepest (highest diver wins): a Seagull, -13 for seat 0, the Seagull eats E13, both leave" in said
    assert "Deep (next highest wins): J10, -10;" in said
    assert "Shallow (lowest diver wins): L5, +5, the next card there comes face down, for seat 0 only" in said
    assert "Deepest/Deep: seat 2, seat 1, seat 0, seat 3" in said  # Kiti at k = 2 now
    assert "Shallow: seat 3, seat 0, seat 1, seat 2" in said
    # Seat 1 has played its 1: nobody else can go lower; seats 2 and 3 still hold a 1.
    assert (
        "Every other seat may still dive higher; seat 2 and seat 3 may still dive a 1; "
        "no other seat can dive lower" in said
    )


def test_a_dive_tells_a_jellyfish_triple_from_the_pile_rules():
    s = new(3, rounds_deck("K1", [("J10", "K2", "K3"), ("J15", "K4", "K5"), ("J10", "T6", "T7")]), kiti=0)
    play_round(s, [12, 1, 2])
    play_round(s, [11, 3, 4])
    assert s.piles[0] == ["J10", "J15"]
    assert "Deepest (highest diver wins): J10, +25 for seat 0, J10 J15 J10 leave the pile together" in why(
        s, 0, "dive 10"
    )


def test_a_face_down_card_stays_face_down_in_the_explanation():
    # Seat 0 catches the Lantern L3 at Deepest: the next Deepest card, E15, is seat 0's secret.
    s = new(3, rounds_deck("K1", [("L3", "K2", "K3"), ("E15", "T6", "T7")]), kiti=0)
    play_round(s, [12, 5, 1])
    assert s.lagoon[0] == ["E15"]
    assert "Deepest (highest diver wins): E15, +15 for seat 0" in why(s, 0, "dive 11")
    for seat in (1, 2):
        said = why(s, seat, "dive 11")
        assert "a face-down card, unknown to seat" in said and "E15" not in said


def test_no_fighting_piled_spaces_and_no_kiti():
    # A tie at Deepest (two 9s) knocks both out; seat 2 alone is left and takes Deep; nobody
    # is left for Shallow.  Round 2 stocks a Seagull on top of the T8 still at Deepest.
    s = new(3, rounds_deck("K4", [("T8", "K1", "K2"), ("S", "T6", "K3")]), no_fighting=True)
    play_round(s, [9, 9, 3])
    assert s.lagoon[0] == ["T8", "S"] and s.lagoon[2] == ["K2", "K3"]
    said = why(s, 0, "dive 12")
    assert "Deepest (highest diver wins): T8, a Seagull, +0 for seat 0, the Seagull eats T8" in said
    assert "Shallow (lowest diver wins): K2, K3, +5." in said
    assert "No Fighting: a tie catches nothing" in said and "Kiti" not in said
    assert "No other seat can dive higher; every other seat may still dive a 12 or lower" in said


def test_taker_orders_a_catch_and_each_take_is_explained():
    s = new(
        3,
        rounds_deck("K4", [("T8", "K1", "K2"), ("S", "T6", "K3")]),
        no_fighting=True,
        taker_chooses_order=True,
    )
    play_round(s, [9, 9, 3])
    assert "Deepest (highest diver wins): T8, a Seagull, in the order seat 0 would choose" in why(
        s, 0, "dive 12"
    )
    play_round(s, [12, 5, 4])
    assert s.observation(REFEREE)["pending_take"]["cards"] == ["T8", "S"] and s.to_act() == {0}
    assert why(s, 0, "take S") == (
        "a Seagull joins seat 0's pile next: +0 for seat 0, the Seagull "
        "flies off from an empty pile; then T8 joins on its own: +8"
    )
    assert why(s, 0, "take T8") == (
        "T8 joins seat 0's pile next: +8 for seat 0; then a Seagull joins "
        "on its own: -8, the Seagull eats T8, both leave the game"
    )
    assert s.explain_move(0, Take("T8")) != s.describe_move(0, Take("T8"))


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "base")
def test_every_legal_move_is_explained_from_the_seats_view_only(options):
    """Every variant: each legal move of each seat to act gets its own explanation; for a dive
    it names all three depths; and a state that differs only in what the seat cannot see
    (a resample for that seat) gives the very same words."""
    explained = {"dive": 0, "take": 0, "hidden": 0}
    for seed in range(4):
        s = G.new(4, options, seed)
        rng = random.Random(seed)
        while not s.over:
            if s.observation(REFEREE)["pending_take"] or rng.random() < 0.1:
                explained_here = check_explanations(s, options, rng)
                for kind, count in explained_here.items():
                    explained[kind] += count
            seat = min(s.to_act())
            s.apply(seat, rng.choice(s.legal_moves(seat)))
    assert explained["dive"] > 50
    assert explained["hidden"] > 0  # some resamples did change what the seat cannot see
    assert explained["take"] > 0 or not options.get("taker_chooses_order"), explained


def check_explanations(s, options, rng):
    counts = {"dive": 0, "take": 0, "hidden": 0}
    for seat in sorted(s.to_act()):
        other = s.resample(seat, random.Random(rng.random()))
        counts["hidden"] += other.observation(REFEREE) != s.observation(REFEREE)
        for move in s.legal_moves(seat):
            said = s.explain_move(seat, move)
            assert said == other.explain_move(seat, move), (seat, str(move))
            assert said != s.describe_move(seat, move)
            kind = str(move).split()[0]
            counts[kind] += 1
            if kind == "dive":
                assert all(f"{name} (" in said for name in SPACE_NAMES), said
                assert ("No Fighting" in said) == bool(options.get("no_fighting"))
    return counts
