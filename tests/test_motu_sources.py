"""The six Sources of harmony, the longest beach and the solo Opponent's variants, with known values."""

from __future__ import annotations

from collections import Counter

import pytest

from kiti.games.motu import cards as C
from kiti.games.motu import island as I
from kiti.games.motu import sources as S
from kiti.games.motu.cards import make_card

PLAIN_VILLAGE = make_card("V", ["LLL"] * 4, {(1, 1): "star", (0, 0): "hunter", (2, 3): "bird"}, village=True)


def counts(**kinds: int) -> Counter[str]:
    return Counter(kinds)


# ------------------------------------------------------------------ the pair Sources
@pytest.mark.parametrize(
    ("leader", "partner", "each"), [("fisherman", "fish", 2), ("hunter", "bird", 3), ("canoe", "palm", 4)]
)
def test_a_pair_scores_each_leader_unless_they_outnumber_their_partner(leader, partner, each):
    assert S.pair_points(counts(**{leader: 3, partner: 3}), leader) == 3 * each
    assert S.pair_points(counts(**{leader: 3, partner: 9}), leader) == 3 * each
    assert S.pair_points(counts(**{leader: 3, partner: 2}), leader) == 0
    assert S.pair_points(counts(**{partner: 4}), leader) == 0


def test_the_rulebook_values_of_each_pair():
    assert S.pair_points(counts(fisherman=4, fish=5), "fisherman") == 8
    assert S.pair_points(counts(hunter=2, bird=2), "hunter") == 6
    assert S.pair_points(counts(canoe=2, palm=3), "canoe") == 8


def test_coconuts_score_one_each():
    assert S.coconut_points(0) == 0 and S.coconut_points(7) == 7


# ------------------------------------------------------------------ totems
def test_totems_score_the_kinds_seen_exactly_once():
    assert S.totem_points(counts()) == 0
    assert S.totem_points(counts(totem1=1)) == 1
    assert S.totem_points(counts(totem1=1, totem2=1, totem3=1)) == 4
    assert S.totem_points(Counter(dict.fromkeys(C.TOTEMS, 1))) == 22


def test_a_repeated_totem_kind_counts_for_nothing():
    assert S.totem_points(counts(totem1=2)) == 0
    assert S.totem_points(counts(totem1=1, totem2=1, totem3=2)) == 2
    assert S.totem_points(counts(totem1=1, totem2=3, totem4=1, totem5=1, totem6=1)) == 7


# ------------------------------------------------------------------ volcanoes
def test_the_ruler_scores_each_band_and_nothing_past_its_end():
    previous = 0.0
    for up_to, points in C.RULER_BANDS:
        assert S.ruler_points(previous + 0.01) == points
        assert S.ruler_points(up_to) == points
        previous = up_to
    assert S.ruler_points(previous + 0.01) == 0
    assert [S.ruler_points(d) for d in (1, 3, 5, 7, 9, 11)] == [1, 2, 3, 4, 5, 0]  # the shipped ruler


def volcano_island(*spots: tuple[int, int]) -> I.Island:
    isl = I.new_island(PLAIN_VILLAGE)
    for n, (x, y) in enumerate(spots):
        isl = I.lay_card(isl, make_card(f"VO{n}", ["LLL"] * 4, {(0, 0): "volcano"}), 0, x, y)
    return isl


def test_a_volcano_is_measured_from_centre_to_centre():
    isl = volcano_island((4, 5))  # 3 cells right of the star at (1, 1) and 4 down
    assert I.star_position(isl) == (1, 1) and isl.symbols[(4, 5)] == "volcano"
    assert S.volcano_distance(isl, (4, 5)) == 5.0
    assert S.volcano_points(isl) == S.ruler_points(5.0) == 3


def test_every_volcano_adds_its_band():
    isl = volcano_island((2, 1), (4, 5), (1, 12))  # 1, 5 and 11 cells from the star
    assert sorted(S.volcano_distance(isl, p) for p, k in isl.symbols.items() if k == "volcano") == [1, 5, 11]
    assert S.volcano_points(isl) == 1 + 3 + 0
    assert S.source_points("volcano", isl) == 4


# ------------------------------------------------------------------ counting an island
def test_symbol_counts_read_only_what_shows_plus_a_travelers_symbols():
    isl = I.new_island(PLAIN_VILLAGE)
    assert S.symbol_counts(isl) == counts(hunter=1, bird=1)
    covered = I.lay_card(isl, make_card("H", ["LLL"] * 4, {(0, 0): "hunter"}), 0, 0, -3)  # over (0, 0)
    assert S.symbol_counts(covered) == counts(hunter=1, bird=1), "the old hunter is hidden"
    traveler = C.TRAVELERS["T4"]
    assert dict(traveler.adds) == {"bird": 2}
    assert S.symbol_counts(isl, traveler.adds) == counts(hunter=1, bird=3)


def test_source_points_for_every_source():
    isl = I.new_island(PLAIN_VILLAGE)  # one hunter, one bird
    assert S.source_points("hunter", isl) == 3
    assert S.source_points("fisherman", isl, {"fisherman": 1}) == 0  # no fish for him
    assert S.source_points("fisherman", isl, {"fisherman": 1, "fish": 1}) == 2
    assert S.source_points("canoe", isl) == 0
    assert S.source_points("coconut", isl, coconuts=6) == 6
    assert S.source_points("totem", isl, {"totem3": 1}) == 1
    assert S.source_points("volcano", isl) == 0
    assert set(S.SOURCES) == set(S.SOURCE_NAME)
    with pytest.raises(ValueError, match="no Source 'sharks'"):
        S.source_points("sharks", isl)


# ------------------------------------------------------------------ the longest beach
COAST_VILLAGE = make_card("V", ["LLL", "LLL", "BBB", "SSS"], {(1, 1): "star", (2, 1): "palm"}, village=True)
COAST = make_card("C", ["LLL", "LLL", "BBB", "SSS"], {(2, 0): "totem1"})


def test_the_longest_beach_counts_the_cards_it_crosses():
    isl = I.new_island(COAST_VILLAGE)
    assert S.longest_beach(isl) == 1
    isl = I.place_card(isl, COAST, 0, 2, 0)  # over the palm; the beach row carries on
    isl = I.place_card(isl, COAST, 0, 4, 0)  # over the first coast card's totem at (4, 0)
    assert [isl.cells[(x, 2)].layer for x in range(7)] == [0, 0, 1, 1, 2, 2, 2]
    assert len(S.beaches(isl)) == 1
    assert S.longest_beach(isl) == 3, "seven cells, but three cards"
    assert S.beach_cards(isl) == 3


def test_separate_beaches_are_not_added_up():
    isl = I.new_island(COAST_VILLAGE)
    far = make_card("F", ["LLL", "LLL", "BBB", "SSS"])
    isl = I.lay_card(isl, far, 0, 10, 0)
    isl = I.lay_card(isl, far, 0, 13, 0)
    assert len(S.beaches(isl)) == 2
    assert S.longest_beach(isl) == 2


def test_no_beach_no_length():
    assert S.longest_beach(I.new_island(PLAIN_VILLAGE)) == 0


# ------------------------------------------------------------------ the solo Opponent
def test_the_opponent_keeps_half_its_outnumbered_leaders():
    assert S.opponent_pair_points(counts(fisherman=5, fish=2), "fisherman") == 2 * 2
    assert S.opponent_pair_points(counts(hunter=3, bird=0), "hunter") == 3 * 1
    assert S.opponent_pair_points(counts(canoe=2, palm=2), "canoe") == 4 * 2
    assert S.pair_points(counts(fisherman=5, fish=2), "fisherman") == 0  # a player would get nothing


def test_the_opponent_scores_different_totem_kinds():
    totems = counts(totem1=2, totem2=1, totem5=3)
    assert S.opponent_totem_points(totems) == 4  # three kinds
    assert S.totem_points(totems) == 1  # a player: only totem2 is seen exactly once
