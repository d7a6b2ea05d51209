"""The MOTU island model: rotations, what stays visible, and each placement rule, legal and not,
on small hand-built islands; then the fast searches against the plain rule, and a property."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiti.games.motu import cards as C
from kiti.games.motu import island as I
from kiti.games.motu.cards import make_card
from kiti.games.motu.sources import longest_beach

# A coastal village: land on top, a beach across row 2 (leaving by the left and right edges),
# sea below.  At (0, 0) it stands on the grid cells x 0..2, y 0..3.
VILLAGE = make_card(
    "V",
    ["LLL", "LLL", "BBB", "SSS"],
    {(0, 0): "hunter", (1, 1): "star", (2, 1): "palm", (2, 3): "fish"},
    village=True,
)
LAND = make_card("L", ["LLL"] * 4, {(0, 0): "bird", (2, 3): "totem1"})
SEA = make_card("S", ["SSS"] * 4, {(0, 1): "fish", (1, 2): "canoe", (2, 2): "fish"})
VOLCANO = make_card("VO", ["LLL"] * 4, {(0, 3): "volcano", (2, 0): "hunter"})
COAST = make_card("C", ["LLL", "LLL", "BBB", "SSS"], {(1, 0): "totem2"})  # beach row 2, like VILLAGE
CAPE = make_card("CA", ["SSS", "SSS", "BBS", "LBS"], {(0, 0): "fish"})  # beach leaves left and bottom
TEE = make_card("T", ["LBL", "BBB", "SSS", "SSS"], {(0, 0): "palm"})  # beach leaves up, left, right


def village() -> I.Island:
    isl = I.new_island(VILLAGE)
    assert I.terrain_problem(isl) is None
    return isl


def with_sea_below() -> I.Island:
    """The village with a sea card over its bottom row: sea on x 0..2, y 3..6."""
    isl = I.place_card(village(), SEA, 0, 0, 3)
    assert {isl.cells[(x, y)].terrain for x in range(3) for y in range(3, 7)} == {"S"}
    return isl


# ------------------------------------------------------------------ rotations
ODD = make_card("X", ["LLB", "LBS", "BSS", "SSS"], {(0, 0): "hunter", (2, 3): "fish"})


def test_four_rotations_of_an_asymmetric_card():
    assert I.rotated(ODD, 0) == ODD
    r90 = I.rotated(ODD, 90)
    assert r90.rows == ("SBLL", "SSBL", "SSSB") and r90.symbol_at == {(3, 0): "hunter", (0, 2): "fish"}
    r180 = I.rotated(ODD, 180)
    assert r180.rows == ("SSS", "SSB", "SBL", "BLL") and r180.symbol_at == {(2, 3): "hunter", (0, 0): "fish"}
    r270 = I.rotated(ODD, 270)
    assert r270.rows == ("BSSS", "LBSS", "LLBS") and r270.symbol_at == {(0, 2): "hunter", (3, 0): "fish"}


def test_four_quarter_turns_give_the_card_back():
    for card in [ODD, *C.CARDS.values()]:
        turned = card
        for _ in range(4):
            turned = I.rotated(turned, 90)
        assert turned == card
        assert I.rotated(I.rotated(card, 90), 270) == card


def test_a_quarter_turn_swaps_width_and_height():
    assert (I.rotated(ODD, 90).width, I.rotated(ODD, 90).height) == (4, 3)
    with pytest.raises(ValueError, match="0, 90, 180 or 270"):
        I.rotated(ODD, 45)


# ------------------------------------------------------------------ visibility
def test_an_island_starts_with_its_village_at_the_origin():
    isl = village()
    assert isl.placements == (I.Placement("V", 0, 0, 0),)
    assert set(isl.cells) == {(x, y) for x in range(3) for y in range(4)}
    assert I.star_position(isl) == (1, 1)


def test_the_top_card_shows_and_hides_what_it_covers():
    isl = I.place_card(village(), LAND, 0, -2, -3)  # covers the village's hunter at (0, 0)
    top = isl.cells[(0, 0)]
    assert (top.terrain, top.symbol, top.card, top.layer) == ("L", "totem1", "L", 1)
    assert "hunter" not in isl.symbols.values()
    assert isl.cells[(-2, -3)].symbol == "bird"
    assert isl.cells[(1, 0)].card == "V" and isl.cells[(2, 1)].symbol == "palm"
    assert sorted(isl.symbols.values()) == ["bird", "fish", "palm", "star", "totem1"]


def test_a_later_card_lies_on_an_earlier_one():
    isl = I.place_card(village(), LAND, 0, -2, -3)
    isl = I.place_card(isl, VOLCANO, 0, -2, -4)  # covers the land card's bird at (-2, -3)
    assert isl.cells[(-2, -3)].card == "VO" and isl.cells[(-2, -1)].symbol == "volcano"
    assert isl.cells[(0, 0)].card == "L", "the land card still shows where the new one does not reach"


# ------------------------------------------------------------------ covering symbols
def test_covering_a_symbol_is_legal():
    assert I.placement_problem(village(), LAND, 0, -2, -3) is None


def test_covering_no_symbol_is_not():
    isl = village()
    assert {isl.cells[(1, 0)].symbol, isl.cells[(2, 0)].symbol} == {None}  # premise: plain land
    assert "covers no symbol" in I.placement_problem(isl, LAND, 0, 1, -3)
    assert "covers no symbol" in I.placement_problem(isl, LAND, 0, 10, 10)


def test_the_village_star_is_never_covered():
    problem = I.placement_problem(village(), LAND, 0, 0, 0)
    assert "Village star at (1, 1)" in problem


def test_a_volcano_is_never_covered():
    isl = I.place_card(village(), VOLCANO, 0, 0, -3)  # its volcano lands on (0, 0)
    assert isl.symbols[(0, 0)] == "volcano"
    problem = I.placement_problem(isl, LAND, 0, -2, -3)
    assert "Volcano at (0, 0)" in problem
    with pytest.raises(I.IllegalPlacement, match="Volcano"):
        I.place_card(isl, LAND, 0, -2, -3)


# ------------------------------------------------------------------ terrain
def test_sea_may_lie_against_beach():
    isl = with_sea_below()
    assert isl.cells[(1, 2)].terrain == "B" and isl.cells[(1, 3)].card == "S"


def test_sea_may_not_touch_land():
    problem = I.placement_problem(village(), SEA, 0, 2, 0)  # covers the palm at (2, 1)
    assert "Sea at (2, 0) would touch Land at (1, 0)" in problem


def test_a_beach_may_not_run_into_land():
    # The T's beach leaves its card upwards at (1, 2), straight into the village at (1, 1).
    problem = I.placement_problem(village(), TEE, 0, 0, 2)
    assert "beach at (1, 2) would run into Land at (1, 1)" in problem


def test_a_beach_may_not_run_into_sea():
    isl = with_sea_below()
    # The cape's beach leaves by its left edge at (1, 6) into the sea card at (0, 6).
    problem = I.placement_problem(isl, CAPE, 0, 1, 4)
    assert "beach at (1, 6) would run into Sea at (0, 6)" in problem


def test_an_old_beach_may_not_be_cut_short():
    # Land over (2, 2) would stop the village beach, which runs on from (1, 2) to the right.
    problem = I.placement_problem(village(), LAND, 0, 2, 0)
    assert "beach of V at (1, 2) would run into this card's Land at (2, 2)" in problem


def test_a_beach_may_run_off_the_island():
    # Turned round, the cape's beach leaves upwards at (3, 4) and rightwards at (4, 5), both into
    # open space; its sea covers the fish at (2, 5).
    isl = I.place_card(with_sea_below(), CAPE, 180, 2, 4)
    assert isl.cells[(3, 4)].terrain == "B" and (3, 3) not in isl.cells
    assert isl.cells[(4, 5)].terrain == "B" and (5, 5) not in isl.cells


def test_a_beach_may_carry_on_into_another_cards_beach():
    isl = I.place_card(village(), COAST, 0, 2, 0)  # its beach row meets the village's at (2, 2)
    assert [isl.cells[(x, 2)].card for x in range(5)] == ["V", "V", "C", "C", "C"]
    assert longest_beach(isl) == 2
    assert I.terrain_problem(isl) is None


# ------------------------------------------------------------------ the searches
def random_island(seed: int, cards: int) -> I.Island:
    rng = random.Random(seed)
    isl = I.new_island(rng.choice(C.VILLAGE_IDS))
    deck = list(C.ISLAND_IDS)
    rng.shuffle(deck)
    for card_id in deck[:cards]:
        spot = I.random_legal_placement(isl, card_id, rng)
        if spot:
            isl = I.lay_card(isl, card_id, *spot)
    return isl


def every_offset(isl: I.Island) -> list[tuple[int, int, int]]:
    x0, y0, x1, y1 = I.bounds(isl)
    return [(r, x, y) for r in I.ROTATIONS for x in range(x0 - 5, x1 + 2) for y in range(y0 - 5, y1 + 2)]


@pytest.mark.parametrize("seed", range(6))
def test_legal_placements_agree_with_placement_problem(seed):
    isl = random_island(seed, 5)
    assert len(isl.placements) >= 4, "premise: a grown island"
    for card_id in random.Random(seed).sample(C.ISLAND_IDS, 4):
        by_rule = {p for p in every_offset(isl) if I.placement_problem(isl, card_id, *p) is None}
        assert set(I.legal_placements(isl, card_id)) == by_rule
        assert I.has_legal_placement(isl, card_id) == bool(by_rule)


@pytest.mark.parametrize("seed", range(3))
def test_only_the_cells_around_the_new_card_need_checking(seed):
    """placement_problem reads only the new card's rim; the whole island agrees with it."""
    isl = random_island(seed, 4)
    card_id = C.ISLAND_IDS[seed * 7]
    for spot in every_offset(isl):
        problem = I.placement_problem(isl, card_id, *spot)
        if problem is None or "cover" not in problem:
            after = I.terrain_problem(I.lay_card(isl, card_id, *spot))
            assert (after is None) == (problem is None), (spot, problem, after)


def test_random_legal_placement_is_legal_or_none():
    rng = random.Random(5)
    isl = random_island(11, 6)
    for card_id in C.ISLAND_IDS:
        spot = I.random_legal_placement(isl, card_id, rng)
        if spot is None:
            assert I.legal_placements(isl, card_id) == []
        else:
            assert I.placement_problem(isl, card_id, *spot) is None


def test_no_placement_when_only_stars_and_volcanoes_show():
    isl = I.new_island(make_card("VV", ["LLL"] * 4, {(1, 1): "star", (0, 0): "volcano"}, village=True))
    assert I.legal_placements(isl, LAND) == []
    assert not I.has_legal_placement(isl, LAND)
    assert I.random_legal_placement(isl, LAND, random.Random(1)) is None


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(C.VILLAGE_IDS),
    st.lists(st.sampled_from(C.ISLAND_IDS), min_size=1, max_size=12),
    st.randoms(use_true_random=False),
)
def test_legal_placements_keep_every_terrain_rule(village_id, deck, rng):
    isl = I.new_island(village_id)
    volcanoes = 0
    for card_id in deck:
        spot = I.random_legal_placement(isl, card_id, rng)
        if spot is None:
            continue
        isl = I.place_card(isl, card_id, *spot)
        assert I.terrain_problem(isl) is None
        assert I.star_position(isl) == (1, 1)
        shown = sum(1 for kind in isl.symbols.values() if kind == "volcano")
        assert shown >= volcanoes, "a volcano was covered"
        volcanoes = shown
