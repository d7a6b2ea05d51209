"""Hand-built Miaui scenarios, one or more per ruling of RULINGS.md (Miaui 1-11).

Every deck is explicit (``setup.deck``): its first card is burned, then each round draws
bottom (Deepest), middle (Deep), top (Shallow).  Expected outcomes are worked out by hand
from the rulebook and the rulings, never copied from a run of the engine.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from miaui_helpers import (
    VALUE,
    G,
    card_total,
    make_deck,
    new,
    play_round,
    random_move,
    rounds_deck,
)

from kiti.core.errors import IllegalMoveError
from kiti.core.events import REFEREE


def dump(x) -> str:
    return json.dumps(x, sort_keys=True)


# ------------------------------------------------------------------ the book's example round
@pytest.mark.parametrize(
    ("kiti", "deepest", "deep", "shallow"),
    [
        # Kiti k: Deepest/Deep ties go to the first tied seat in k, k-1, ...; Shallow to k+1, k+2, ...
        # Dives: seat 0 plays 7, seats 1-3 play 9.
        (0, 3, 2, 0),  # order 0,3,2,1: 3 then 2; the 7 is the lowest remaining
        (1, 1, 3, 0),  # order 1,0,3,2: 1 then 3
        (2, 2, 1, 0),  # order 2,1,0,3: 2 then 1
        (3, 3, 2, 0),  # order 3,2,1,0: 3 then 2
    ],
)
def test_rulebook_example_round(kiti, deepest, deep, shallow):
    deck = rounds_deck("K1", [("E15", "T9", "K3")])
    s = new(4, deck, kiti=kiti)
    assert s.lagoon == [["E15"], ["T9"], ["K3"]]
    play_round(s, [7, 9, 9, 9])
    piles = [[] for _ in range(4)]
    piles[deepest].append("E15")
    piles[deep].append("T9")
    piles[shallow].append("K3")
    assert s.piles == piles
    # Exactly one seat caught nothing.
    assert sum(1 for p in s.piles if not p) == 1
    assert s.observation(REFEREE)["kiti"] == (kiti + 1) % 4
    assert s.round == 2
    # Every diver is discarded: hands lost exactly the dived numbers.
    assert s.hands[0] == [n for n in range(1, 13) if n != 7]
    for seat in (1, 2, 3):
        assert s.hands[seat] == [n for n in range(1, 13) if n != 9]


# ------------------------------------------------------------------ ruling 1: the burned card
def test_burned_card_never_appears_in_play():
    # E15 is unique: burn it; round 1 also has Seagulls so the deck gets reshuffled.
    deck = make_deck(["E15", "S", "S", "K1"])
    s = new(4, deck, seed=5)
    rng = random.Random(3)
    assert s.observation(REFEREE)["burned"] == "E15"
    while True:
        assert "E15" not in s.deck
        assert all("E15" not in sp for sp in s.lagoon)
        assert all("E15" not in p for p in s.piles)
        assert "E15" not in s.box
        assert card_total(s) == 37
        for seat in range(4):
            assert "E15" not in dump(s.information_state(seat))
        assert "E15" not in dump(s.observation(None))
        if s.over:
            break
        seat, move = random_move(s, rng)
        s.apply(seat, move)
    assert s.round == 12
    # 36 cards in play, 3 per round for 12 rounds: the deck is exactly used up.
    assert s.deck == []


def test_deck_holds_36_cards_after_burning_and_stocking():
    s = new(3, make_deck(["K1", "E15", "T9", "K3"]))
    assert len(s.deck) == 33
    assert s.burned == "K1"
    assert s.lagoon == [["E15"], ["T9"], ["K3"]]
    # Next card drawn is the 5th of the setup deck.
    assert s.deck[-1] == make_deck(["K1", "E15", "T9", "K3"])[4]


# ------------------------------------------------------------------ ruling 2: Kiti ties
TIE_CASES = [(n, k) for n in (3, 4, 6) for k in sorted({0, 1, n - 1})]


@pytest.mark.parametrize(("n", "k"), TIE_CASES)
@pytest.mark.parametrize("how", ["setup", "option"])
def test_kiti_ties_both_directions(n, k, how):
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4")])
    s = new(n, deck, kiti=k) if how == "setup" else new(n, deck, kiti_start=k)
    assert s.kiti == k
    # Everybody dives 5: all tie at every depth.
    play_round(s, [5] * n)
    expect = [[] for _ in range(n)]
    expect[k].append("E15")  # Deepest: seat on Kiti's right (k) first
    expect[(k - 1) % n].append("T9")  # Deep: next counterclockwise
    expect[(k + 1) % n].append("K3")  # Shallow: first clockwise from Kiti (seat k+1)
    assert s.piles == expect
    # Kiti moved one gap clockwise: the same all-tie now favours k+1, k, k+2.
    assert s.kiti == (k + 1) % n
    play_round(s, [6] * n)
    expect[(k + 1) % n].append("E14")
    expect[k].append("T8")
    expect[(k + 2) % n].append("K4")
    assert s.piles == expect


@pytest.mark.parametrize(
    ("kiti", "deepest", "deep", "shallow"),
    [
        # seats:   0  1  2   3  4   5
        # dives:   5  1  12  1  12  6
        # Deepest tie {2,4}; Deep: the other 12; Shallow tie {1,3}.
        (0, 4, 2, 1),  # ccw 0,5,4,.. -> 4 ; cw 1,2,3 -> 1
        (2, 2, 4, 3),  # ccw 2,.. -> 2 ; cw 3,.. -> 3
        (5, 4, 2, 1),  # ccw 5,4 -> 4 ; cw 0,1 -> 1
        (1, 4, 2, 3),  # ccw 1,0,5,4 -> 4 ; cw 2,3 -> 3
    ],
)
def test_kiti_partial_ties_six_players(kiti, deepest, deep, shallow):
    deck = rounds_deck("K1", [("E15", "T9", "K3")])
    s = new(6, deck, kiti=kiti)
    play_round(s, [5, 1, 12, 1, 12, 6])
    expect = [[] for _ in range(6)]
    expect[deepest].append("E15")
    expect[deep].append("T9")
    expect[shallow].append("K3")
    assert s.piles == expect


def test_tie_order_shown_in_views_matches_kiti():
    s = new(4, rounds_deck("K1", [("E15", "T9", "K3")]), kiti=1)
    obs = s.observation(2)
    assert obs["kiti"] == 1
    assert obs["tie_order"]["deep"] == [1, 0, 3, 2]
    assert obs["tie_order"]["shallow"] == [2, 3, 0, 1]


@pytest.mark.parametrize(("n", "start"), [(3, 0), (4, 0), (5, 0), (5, 1), (6, 5)])
def test_kiti_moves_after_every_round_including_the_last(n, start):
    s = G.new(n, options={"kiti_start": start}, seed=11)
    rng = random.Random(1)
    rounds_seen = {}
    while not s.over:
        rounds_seen.setdefault(s.round, s.kiti)
        seat, move = random_move(s, rng)
        s.apply(seat, move)
    for r, k in rounds_seen.items():
        assert k == (start + r - 1) % n
    assert s.observation(REFEREE)["kiti"] == (start + 12) % n


# ------------------------------------------------------------------ ruling 3: stocking, round-1 Seagulls
@pytest.mark.parametrize(
    "first",
    [
        ["K1", "S", "E15", "T9"],  # Seagull for the bottom space
        ["K1", "E15", "S", "T9"],  # for the middle
        ["K1", "E15", "T9", "S"],  # for the top
        ["K1", "S", "S", "S", "S", "S", "S"],  # every early card a Seagull
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_round_one_seagull_goes_back(first, seed):
    s = new(3, make_deck(first), seed=seed)
    assert all(len(space) == 1 for space in s.lagoon)
    assert all(space[0] != "S" for space in s.lagoon)
    # The Seagulls went back into the deck: all 6 are still to come.
    assert s.deck.count("S") == 6
    assert len(s.deck) == 33
    assert card_total(s) == 37
    # Cards before the first Seagull were placed as drawn.
    if first[1] != "S":
        assert s.lagoon[0] == [first[1]]
    if first[1] != "S" and first[2] != "S":
        assert s.lagoon[1] == [first[2]]


def test_seagull_in_round_two_stays_and_eats():
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("S", "T8", "K4")])
    s = new(3, deck, kiti=0)
    play_round(s, [12, 6, 1])
    assert s.piles == [["E15"], ["T9"], ["K3"]]
    assert s.lagoon == [["S"], ["T8"], ["K4"]]
    assert s.observation(1)["lagoon"][0] == ["S"]
    play_round(s, [11, 5, 2])
    # Seat 0 took the Seagull: it and her top card (E15) leave the game.
    assert s.piles == [[], ["T9", "T8"], ["K3", "K4"]]
    assert Counter(s.box) == Counter({"S": 1, "E15": 1})
    assert s.scores() == [0, 17, 7]
    assert card_total(s) == 37


# ------------------------------------------------------------------ ruling 5: Seagull
def test_seagull_eats_a_jellyfish():
    deck = rounds_deck("K1", [("J10", "T9", "K3"), ("S", "T8", "K4")])
    s = new(3, deck, kiti=0)
    play_round(s, [12, 6, 1])
    assert s.piles[0] == ["J10"]
    assert s.scores()[0] == -10
    play_round(s, [11, 5, 2])
    assert s.piles[0] == []
    assert Counter(s.box) == Counter({"S": 1, "J10": 1})
    assert s.scores()[0] == 0


def test_seagull_eats_only_the_top_card():
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4"), ("S", "T7", "K5")])
    s = new(3, deck, kiti=0)
    play_round(s, [12, 6, 1])
    play_round(s, [11, 5, 2])
    play_round(s, [10, 4, 3])
    assert s.piles[0] == ["E15"]
    assert Counter(s.box) == Counter({"S": 1, "E14": 1})


def test_seagull_on_empty_pile_only_the_seagull_goes():
    deck = rounds_deck("K1", [("K5", "T9", "K3"), ("S", "T8", "K4")])
    s = new(4, deck, kiti=0)
    # Seat 0 deepest, seat 1 deep (6 > 3), shallow: lowest of {2:1, 3:3} -> seat 2.
    play_round(s, [12, 6, 1, 3])
    assert s.piles == [["K5"], ["T9"], ["K3"], []]
    # Seat 3 (empty pile) takes the Seagull.
    play_round(s, [11, 5, 2, 12])
    assert s.piles == [["K5", "T8"], ["T9"], ["K3", "K4"], []]
    assert s.box == ["S"]
    assert card_total(s) == 37


# ------------------------------------------------------------------ ruling 6: Jellyfish
def _deepest_every_round(bottoms, players=3):
    """Seat 0 always wins the Deepest (dives 12, 11, ...); the others dive low."""
    triples = [
        (b, m, t)
        for b, (m, t) in zip(bottoms, [("K1", "K2"), ("K2", "K3"), ("K4", "K4"), ("K5", "T6"), ("T6", "T7")])
    ]
    s = new(players, rounds_deck("T9", triples), kiti=0)
    return s


def test_three_jellyfish_leave_together():
    s = _deepest_every_round(["J10", "E15", "J15", "J10"])
    pile_after = []
    for r in range(1, 5):
        play_round(s, [13 - r, r, r + 1])
        pile_after.append(list(s.piles[0]))
    assert pile_after[0] == ["J10"]
    assert pile_after[1] == ["J10", "E15"]
    assert pile_after[2] == ["J10", "E15", "J15"]  # two Jellyfish stay
    assert pile_after[3] == ["E15"]  # the third makes all three leave
    assert Counter(s.box) == Counter({"J10": 2, "J15": 1})
    assert s.scores()[0] == 15
    assert card_total(s) == 37


def test_jellyfish_eaten_by_seagull_no_longer_counts():
    s = _deepest_every_round(["J10", "J15", "S", "J15", "J10"])
    piles = []
    for r in range(1, 6):
        play_round(s, [13 - r, r, r + 1])
        piles.append(list(s.piles[0]))
    assert piles[1] == ["J10", "J15"]
    assert piles[2] == ["J10"]  # the Seagull ate the J15
    assert piles[3] == ["J10", "J15"]  # only two Jellyfish held now: they stay
    assert piles[4] == []  # three held now: all leave
    assert Counter(s.box) == Counter({"S": 1, "J15": 2, "J10": 2})
    assert s.scores()[0] == 0


# ------------------------------------------------------------------ ruling 7: Lantern
def _lantern_game(**options):
    deck = rounds_deck("K1", [("L5", "T9", "K3"), ("E15", "T8", "K4"), ("E14", "T7", "K5")])
    s = new(4, deck, kiti=0, **options)
    # Seat 0 catches the Lantern from the bottom space.
    play_round(s, [12, 6, 1, 3])
    assert s.piles == [["L5"], ["T9"], ["K3"], []]
    return s


@pytest.mark.parametrize("open_baskets", [False, True])
def test_lantern_hides_next_card_in_its_space(open_baskets):
    s = _lantern_game(open_baskets=open_baskets)
    assert s.observation(REFEREE)["lagoon"] == [["E15"], ["T8"], ["K4"]]
    assert s.observation(0)["lagoon"] == [["E15"], ["T8"], ["K4"]]
    for seat in (1, 2, 3):
        # Open Baskets does not reveal it either.
        assert s.observation(seat)["lagoon"] == [["?"], ["T8"], ["K4"]]
        assert "E15" not in dump(s.information_state(seat))
    assert s.observation(None)["lagoon"] == [["?"], ["T8"], ["K4"]]
    assert "E15" not in dump(s.observation(None))
    assert "E15" in dump(s.information_state(0))
    # Seat 1 catches it: it is revealed to everybody.
    play_round(s, [11, 12, 2, 4])
    assert s.piles[1] == ["T9", "E15"]
    for seat in (0, 2, 3):
        assert s.observation(seat)["piles"][1][-1] == "E15"
        assert "E15" in dump(s.information_state(seat))
    assert s.observation(None)["piles"][1][-1] == "E15"
    # Only the Lantern's space was hidden, and the chain stopped (E15 is no Lantern).
    assert s.observation(2)["lagoon"] == [["E14"], ["T7"], ["K5"]]


def test_hidden_lantern_starts_a_new_chain():
    deck = rounds_deck("K1", [("L1", "T9", "K3"), ("L3", "T8", "K4"), ("E15", "T7", "K5")])
    s = new(4, deck, kiti=0)
    play_round(s, [12, 6, 1, 3])  # seat 0 catches L1
    assert s.observation(0)["lagoon"][0] == ["L3"]
    assert s.observation(1)["lagoon"][0] == ["?"]
    play_round(s, [11, 12, 2, 4])  # seat 1 catches the hidden L3
    assert s.piles[1] == ["T9", "L3"]
    # The next bottom card is seen by seat 1 only: the new Lantern's catcher.
    assert s.observation(1)["lagoon"][0] == ["E15"]
    for seat in (0, 2, 3):
        assert s.observation(seat)["lagoon"][0] == ["?"]
    assert s.observation(None)["lagoon"][0] == ["?"]


def test_lantern_in_middle_space_hides_middle():
    deck = rounds_deck("K1", [("E15", "L7", "K3"), ("E14", "T8", "K4")])
    s = new(3, deck, kiti=0)
    play_round(s, [12, 6, 1])  # seat 1 catches L7 from the middle
    assert s.observation(1)["lagoon"] == [["E14"], ["T8"], ["K4"]]
    assert s.observation(0)["lagoon"] == [["E14"], ["?"], ["K4"]]
    assert s.observation(2)["lagoon"] == [["E14"], ["?"], ["K4"]]


# ------------------------------------------------------------------ ruling 11 + 7: a full game
# 3 players, everybody dives r in round r, so every depth is a three-way tie decided by Kiti
# (start 0): in round r, k = (r-1) % 3, Deepest -> k, Deep -> k-1, Shallow -> k+1.
# Bottom of round r goes to seat (r-1)%3, middle to (r-2)%3, top to r%3.
FULL_ROUNDS = [
    ("K4", "J10", "K4"),  # r1: s0 s2 s1
    ("T6", "T6", "S"),  # r2: s1 s0 s2 (Seagull eats seat 2's J10)
    ("J10", "T7", "T7"),  # r3: s2 s1 s0
    ("T8", "S", "T8"),  # r4: s0 s2 s1 (eats J10)
    ("T9", "T9", "J15"),  # r5: s1 s0 s2
    ("S", "E12", "E12"),  # r6: s2 s1 s0 (eats J15)
    ("E13", "J15", "E13"),  # r7: s0 s2 s1
    ("K5", "E15", "S"),  # r8: s1 s0 s2 (eats J15)
    ("S", "E10", "E11"),  # r9: s2 s1 s0 (empty pile: only the Seagull)
    ("L7", "S", "E14"),  # r10: s0 s2 s1 (empty pile again); L7 hides r11 bottom
    ("L3", "K3", "K1"),  # r11: s1 s0 s2; L3 (seen by seat 0 only) hides r12 bottom
    ("K2", "L5", "L1"),  # r12: s2 s1 s0 (auto-played); Lanterns have no effect
]


def _full_game():
    deck = rounds_deck("K2", FULL_ROUNDS)
    return new(3, deck, kiti=0)


def test_full_game_end_scoring_and_shared_victory():
    s = _full_game()
    for r in range(1, 12):
        assert not s.over
        assert s.round == r
        assert s.to_act() == frozenset({0, 1, 2})
        play_round(s, [r, r, r])
    # Round 12 was played automatically with the last divers.
    assert s.over
    assert s.to_act() == frozenset()
    assert s.round == 12
    assert all(h == [] for h in s.hands)
    assert s.piles[0] == ["K4", "T6", "T7", "T8", "T9", "E12", "E13", "E15", "E11", "L7", "K3", "L1"]
    assert s.piles[1] == ["K4", "T6", "T7", "T8", "T9", "E12", "E13", "K5", "E10", "E14", "L3", "L5"]
    assert s.piles[2] == ["K1", "K2"]
    assert Counter(s.box) == Counter({"S": 6, "J10": 2, "J15": 2})
    assert s.scores() == [96, 96, 3]
    assert s.winners() == [0, 1]
    assert s.returns() == [0.5, 0.5, 0.0]
    assert s.observation(REFEREE)["winners"] == [0, 1]
    assert s.lagoon == [[], [], []]
    assert s.deck == []
    assert card_total(s) == 37
    assert s.kiti == 0  # 12 moves of Kiti around 3 seats
    # Records hold 11 rounds of dives (33 moves).
    assert len(s.record()["moves"]) == 33


def test_full_game_lantern_chain_and_last_round_lanterns():
    s = _full_game()
    for r in range(1, 11):
        play_round(s, [r, r, r])
    # Round 11: seat 0 caught L7 from the bottom in round 10; L3 is face down.
    assert s.round == 11
    assert s.observation(0)["lagoon"][0] == ["L3"]
    assert s.observation(1)["lagoon"][0] == ["?"]
    assert s.observation(2)["lagoon"][0] == ["?"]
    play_round(s, [11, 11, 11])
    assert s.over
    # Seat 1 caught the hidden L3 in round 11, so round 12's bottom card (K2) was face down and
    # only seat 1 saw it before it was caught (and revealed) in round 12.
    for seat, saw_before_catch in ((0, False), (1, True), (2, False)):
        events = s.information_state(seat)["events"]
        r12 = [e for e in events if e.get("round") == 12]
        before = []
        for e in r12:
            if e.get("type") == "reveal":
                break
            before.append(e)
        assert ("K2" in dump(before)) == saw_before_catch
    # The Lanterns caught in round 12 scored normally and the game ended.
    assert "L5" in s.piles[1] and "L1" in s.piles[0]


def test_full_game_record_replays():
    from kiti.core.records import replay

    s = _full_game()
    for r in range(1, 12):
        play_round(s, [r, r, r])
    again = replay(s.record())
    assert again.observation(REFEREE) == s.observation(REFEREE)
    assert again.scores() == [96, 96, 3]


# ------------------------------------------------------------------ rulings 8 and 9: what is seen
def _two_rounds(**options):
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4")])
    s = new(3, deck, kiti=0, **options)
    play_round(s, [12, 6, 1])
    play_round(s, [11, 5, 2])
    assert s.piles == [["E15", "E14"], ["T9", "T8"], ["K3", "K4"]]
    return s


def test_closed_baskets_views():
    s = _two_rounds()
    o1 = s.observation(1)
    assert o1["piles"] == [["?", "E14"], ["T9", "T8"], ["?", "K4"]]
    assert o1["scores"] == [None, 17, None]
    # Nobody sees diver discards, her own included.
    assert s.observation(0)["discards"] == [["?", "?"]] * 3
    assert o1["discards"] == [["?", "?"]] * 3
    assert s.observation(0)["piles"][0] == ["E15", "E14"]
    assert s.observation(0)["scores"][0] == 29
    spec = s.observation(None)
    assert spec["piles"] == [["?", "E14"], ["?", "T8"], ["?", "K4"]]
    assert spec["scores"] == [None, None, None]
    assert spec["hands"] == [["?"] * 10] * 3
    # Own hand is visible, others' are not.
    assert o1["hands"][1] == [1, 2, 3, 4, 7, 8, 9, 10, 11, 12]
    assert o1["hands"][0] == ["?"] * 10


def test_open_baskets_views():
    s = _two_rounds(open_baskets=True)
    for viewer in (0, 1, 2, None):
        o = s.observation(viewer)
        assert o["piles"] == [["E15", "E14"], ["T9", "T8"], ["K3", "K4"]]
        assert o["discards"] == [[12, 11], [6, 5], [1, 2]]
        assert o["scores"] == [29, 17, 7]


# ------------------------------------------------------------------ ruling 10: No Fighting
def test_no_fighting_tie_nobody_wins_and_cards_accumulate():
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4")])
    s = new(4, deck, no_fighting=True)
    assert s.kiti is None
    assert s.observation(0)["kiti"] is None
    # Deepest tie between seats 0 and 1: nobody catches it, both are out.
    # Deep: highest remaining is seat 2 (5). Shallow: seat 3 alone remains.
    play_round(s, [9, 9, 5, 3])
    assert s.piles == [[], [], ["T9"], ["K3"]]
    assert s.lagoon == [["E15", "E14"], ["T8"], ["K4"]]
    assert s.observation(1)["lagoon"] == [["E15", "E14"], ["T8"], ["K4"]]
    # The tied divers were used up all the same.
    assert 9 not in s.hands[0] and 9 not in s.hands[1]
    assert card_total(s) == 37
    # Seat 0 wins the Deepest and takes both cards, oldest first.
    play_round(s, [12, 8, 6, 4])
    assert s.piles == [["E15", "E14"], ["T8"], ["T9"], ["K3", "K4"]]
    assert s.lagoon[0] == [make_deck(["K1", "E15", "T9", "K3", "E14", "T8", "K4"])[7]]


def test_no_fighting_single_remaining_diver_and_no_remaining_diver():
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4")])
    s = new(3, deck, no_fighting=True)
    # Seats 0 and 1 tie at 12 for the Deepest; seat 2 alone remains and wins the Deep with a 1;
    # nobody remains for the Shallow, which is not won.
    play_round(s, [12, 12, 1])
    assert s.piles == [[], [], ["T9"]]
    assert s.lagoon == [["E15", "E14"], ["T8"], ["K3", "K4"]]


def test_no_fighting_everybody_tied_nobody_catches():
    deck = rounds_deck("K1", [("E15", "T9", "K3"), ("E14", "T8", "K4")])
    s = new(3, deck, no_fighting=True)
    play_round(s, [7, 7, 7])
    assert s.piles == [[], [], []]
    assert s.lagoon == [["E15", "E14"], ["T9", "T8"], ["K3", "K4"]]


def test_no_fighting_seagull_applied_after_each_card_oldest_first():
    deck = rounds_deck("K2", [("T9", "K1", "K2"), ("S", "K3", "K4"), ("E15", "K5", "T6")])
    s = new(4, deck, no_fighting=True)
    play_round(s, [12, 12, 5, 1])  # Deepest tie; seat 2 Deep, seat 3 Shallow
    play_round(s, [11, 11, 6, 2])  # again
    assert s.lagoon[0] == ["T9", "S", "E15"]
    play_round(s, [10, 9, 7, 3])
    # T9 joins, the Seagull eats it, then E15 joins.
    assert s.piles[0] == ["E15"]
    assert Counter(s.box) == Counter({"S": 1, "T9": 1})
    assert s.piles[1] == ["K5"]  # Deep: 9 is the highest remaining
    assert s.piles[2] == ["K1", "K3"]
    assert s.piles[3] == ["K2", "K4", "T6"]  # Shallow: 3 < 7
    assert card_total(s) == 37


def test_no_fighting_jellyfish_applied_after_each_card():
    deck = rounds_deck(
        "K5", [("J10", "T9", "K1"), ("J15", "T8", "K2"), ("J10", "T7", "K3"), ("S", "T6", "K4")]
    )
    s = new(4, deck, no_fighting=True)
    play_round(s, [12, 6, 1, 3])  # s0 J10, s1 T9, s2 K1 (1 < 3)
    play_round(s, [11, 5, 2, 4])  # s0 J15, s1 T8, s2 K2
    play_round(s, [1, 10, 10, 7])  # Deepest tie {1,2}; s3 Deep (7 > 1); s0 Shallow
    assert s.piles[0] == ["J10", "J15", "K3"]
    assert s.piles[3] == ["T7"]
    assert s.lagoon[0] == ["J10", "S"]
    play_round(s, [10, 4, 5, 2])
    # J10 joins: three Jellyfish, all leave at once; then the Seagull eats K3.
    # (Checking Jellyfish only at the end would leave J10 J15 K3.)
    assert s.piles[0] == []
    assert Counter(s.box) == Counter({"J10": 2, "J15": 1, "S": 1, "K3": 1})
    assert s.piles[2] == ["K1", "K2", "T6"]
    assert s.piles[3] == ["T7", "K4"]


def test_no_fighting_lantern_among_cards_hides_next_card():
    deck = rounds_deck(
        "K5", [("L3", "T9", "K1"), ("K2", "T8", "K3"), ("E15", "T7", "K4"), ("E14", "T6", "K4")]
    )
    s = new(4, deck, no_fighting=True)
    play_round(s, [12, 12, 5, 1])  # Deepest tie: L3 stays
    assert s.observation(1)["lagoon"][0] == ["L3", "K2"]
    play_round(s, [11, 6, 4, 2])  # seat 0 takes L3 and K2
    assert s.piles[0] == ["L3", "K2"]
    assert s.observation(0)["lagoon"][0] == ["E15"]
    for seat in (1, 2, 3, None):
        assert s.observation(seat)["lagoon"][0] == ["?"]
    # Tie again: the hidden card stays hidden, the new card beside it is face up.
    play_round(s, [10, 10, 7, 3])
    assert s.observation(REFEREE)["lagoon"][0] == ["E15", "E14"]
    assert s.observation(0)["lagoon"][0] == ["E15", "E14"]
    for seat in (1, 2, 3, None):
        assert s.observation(seat)["lagoon"][0] == ["?", "E14"]


NF_TOPS = ["J10", "S", "S", "S", "S", "S", "S", "J10", "J15", "J15", "K1", "K2"]
NF_BOTTOMS = ["K2", "K3", "K4", "K4", "K5", "T6", "T6", "T7", "T7", "T8", "T8", "E15"]
NF_MIDDLES = ["T9", "T9", "E10", "E11", "E12", "E12", "E13", "E13", "E14", "L3", "L5", "L7"]


def test_no_fighting_leftovers_after_round_12_do_not_score():
    deck = rounds_deck("L1", list(zip(NF_BOTTOMS, NF_MIDDLES, NF_TOPS)))
    s = new(3, deck, no_fighting=True)
    # Round r: seats 0 and 1 dive r (tie), seat 2 dives r+1 and wins the Deepest alone; the Deep
    # is a tie, nobody is left for the Shallow. Round 12 (automatic): 12, 12, 1.
    for r in range(1, 12):
        play_round(s, [r, r, r + 1])
        if r < 11:
            assert s.piles[2] == NF_BOTTOMS[:r]
            assert len(s.lagoon[1]) == r + 1 and len(s.lagoon[2]) == r + 1  # restocked
    assert s.over
    # Round 12: Deepest tie, seat 2 alone remains and takes the 12 middle cards (a 1 suffices).
    assert s.piles[2] == NF_BOTTOMS[:11] + NF_MIDDLES
    assert s.lagoon == [["E15"], [], NF_TOPS]
    assert s.scores() == [0, 0, 178]
    assert s.winners() == [2]
    assert card_total(s) == 37


def test_no_fighting_all_ties_everyone_shares_victory():
    s = G.new(4, options={"no_fighting": True}, seed=3)
    for r in range(1, 12):
        play_round(s, [r] * 4)
    assert s.over
    assert s.piles == [[], [], [], []]
    assert s.scores() == [0, 0, 0, 0]
    assert s.winners() == [0, 1, 2, 3]
    assert sum(len(x) for x in s.lagoon) == 36


# ------------------------------------------------------------------ taker_chooses_order
def _taker_game():
    deck = rounds_deck("K2", [("T9", "K1", "K2"), ("S", "K3", "K4"), ("E15", "K5", "T6")])
    s = new(4, deck, no_fighting=True, taker_chooses_order=True)
    play_round(s, [12, 12, 5, 1])
    play_round(s, [11, 11, 6, 2])
    assert s.lagoon[0] == ["T9", "S", "E15"]
    for seat in range(3):
        s.play(seat, f"dive {[10, 9, 7][seat]}")
    s.play(3, "dive 3")
    return s


def test_taker_chooses_order_waits_for_the_taker():
    s = _taker_game()
    assert s.to_act() == frozenset({0})
    assert sorted(map(str, s.legal_moves(0))) == ["take E15", "take S", "take T9"]
    for seat in (1, 2, 3):
        assert s.legal_moves(seat) == []
        with pytest.raises(IllegalMoveError):
            s.play(seat, "dive 8")
    with pytest.raises(IllegalMoveError):
        s.play(0, "dive 8")
    with pytest.raises(IllegalMoveError):
        s.play(0, "take K5")
    s.play(0, "take E15")
    assert s.piles[0] == ["E15"]
    assert s.to_act() == frozenset({0})
    s.play(0, "take s")  # the Seagull eats E15
    assert s.piles[0][-1:] != ["E15"]
    # T9 is the last one: it joins by itself and the round goes on.
    assert s.piles[0] == ["T9"]
    assert Counter(s.box) == Counter({"S": 1, "E15": 1})
    assert s.to_act() == frozenset(range(4))
    assert s.round == 4
    # The other depths were handed out too.
    assert s.piles[1] == ["K5"]
    assert s.piles[3] == ["K2", "K4", "T6"]


def test_taker_chooses_order_other_order():
    s = _taker_game()
    s.play(0, "take S")  # empty pile: only the Seagull goes
    s.play(0, "take T9")
    assert s.piles[0] == ["T9", "E15"]
    assert s.box == ["S"]
    assert s.scores()[0] == 24


def test_taker_chooses_order_record_replays():
    from kiti.core.records import replay

    s = _taker_game()
    s.play(0, "take T9")
    s.play(0, "take E15")
    rec = s.record()
    assert rec["moves"][-2:] == [[0, "take T9"], [0, "take E15"]]
    assert replay(rec).observation(REFEREE) == s.observation(REFEREE)


def test_no_pending_take_for_a_single_card():
    deck = rounds_deck("K1", [("E15", "T9", "K3")])
    s = new(3, deck, no_fighting=True, taker_chooses_order=True)
    play_round(s, [12, 6, 1])
    assert s.to_act() == frozenset({0, 1, 2})
    assert s.piles == [["E15"], ["T9"], ["K3"]]


# ------------------------------------------------------------------ values
def test_card_values_match_the_rulings():
    # A seat's score is the sum of its pile, with the values of RULINGS.md.
    s = _two_rounds()
    assert s.scores() == [15 + 14, 9 + 8, 3 + 4]
    from kiti.games.miaui.cards import COUNT

    assert Counter(make_deck([])) == COUNT
    from kiti.games.miaui.cards import VALUE as ENGINE_VALUE

    assert ENGINE_VALUE == VALUE
