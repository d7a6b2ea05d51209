"""Mauw: the rulebook's examples and every ruling of RULINGS.md (Mauw 1-10), scenario by scenario."""

from __future__ import annotations

import random

import pytest
from mauw_helpers import G, assert_rejected, column, position

from kiti.core.errors import OptionError, SetupError
from kiti.core.events import REFEREE
from kiti.core.records import replay
from kiti.core.registry import get_game
from kiti.games.mauw.rules import column_score, team_seating, teams_problem

FILL = ["R1", "R1", "R1", "R1"]
FILLS = [
    ["R1", "R1", "Y2", "Y2"],
    ["G3", "G3", "B4", "B4"],
    ["B5", "B5", "G6", "G6"],
    ["Y7", "Y7", "R8", "R8"],
]


# ------------------------------------------------------------------ scoring (ruling 2)
def test_the_rulebook_numbers() -> None:
    assert column_score(1, None) == 18  # one nine: 9 x 2
    assert column_score(2, None) == 36  # 9 x 2 x 2
    assert column_score(2, "SP") == 0  # a Spirit makes the column worth nothing
    assert column_score(3, None) == 72
    assert column_score(2, "R8") == 32  # a Warrior's value replaces the 9
    assert column_score(0, "B5") == 5  # a lone Warrior scores its value
    assert column_score(0, None) == 0
    s = position(
        [FILL, FILL],
        {
            "0A": (["G3", "G3"], "R8"),
            "0B": (["G3"] * 3, None),
            "0C": (["G3"], "SP"),
            "0D": (["G3"] * 3, None),
        },
    )
    assert s.observation(REFEREE)["columns"][0][0]["score"] == 32
    assert s.scores()[0] == 32 + 72 + 0 + 72 == 176


# ------------------------------------------------------------------ plays (ruling 4)
def test_warrior_on_own_empty_slot_then_drawing_back_to_four() -> None:
    s = position([["R8", "Y2", "G3", "B4"], FILL], draw=["B5", "G6"])
    s.play(0, "R8 0A")
    assert column(s, "0A") == (0, "R8")
    assert sorted(s.hands[0]) == sorted(["Y2", "G3", "B4", "B5"])  # drew the top card at once
    assert s.to_act() == {1}
    assert_rejected(s, 1, "R1 0B", "empty slot")  # not on an opponent's empty slot


def test_warrior_on_an_opponents_empty_slot_only_with_the_option() -> None:
    s = position([["R8", "Y2", "G3", "B4"], FILL], open_slot_block=True)
    s.play(0, "R8 1A")
    assert column(s, "1A") == (0, "R8")


def test_blocking_bare_nines_with_a_warrior_or_a_spirit() -> None:
    s = position(
        [["B4", "SP", "G3", "SP"], ["SP", *FILL[:3]]],
        {"0A": (["G3", "G3"], None), "1A": (["G3"], None), "1B": (["G3"], None)},
    )
    s.play(0, "B4 1A")  # a Warrior on an opponent's bare nines: 4 x 2 instead of 18
    assert column(s, "1A") == (1, "B4") and s.scores()[1] == 8 + 18
    assert_rejected(s, 1, "SP 1B", "opponent")  # never a Spirit on your own column
    assert_rejected(s, 1, "SP 0B", "bare nines")  # never on an empty slot
    s.play(1, "R1 1C")
    s.play(0, "SP 1B")  # a Spirit on an opponent's bare nines
    assert column(s, "1B") == (1, "SP") and s.scores()[1] == 8 + 0 + 1
    assert_rejected(s, 1, "R1 1B", "spirit")  # nothing but a Spirit or a Joker removes it


def test_warrior_on_your_own_bare_nines_is_allowed() -> None:
    s = position([["Y7", "Y2", "G3", "B4"], FILL], {"0A": (["G3", "G3"], None)})
    s.play(0, "Y7 0A")
    assert column(s, "0A") == (2, "Y7") and s.scores()[0] == 28


def test_spirit_is_never_played_on_a_warrior() -> None:
    s = position([["SP", "Y2", "G3", "B4"], FILL], {"1A": (["G3"], "R8")})
    assert_rejected(s, 0, "SP 1A", "bare nines")


def test_unblocking_a_spirit_with_a_spirit_or_a_joker() -> None:
    s = position([["SP", "JK", "G3", "B4"], FILL], {"0A": (["G6", "G6"], "SP"), "0B": (["G6"], "SP")})
    s.play(0, "SP 0A")
    assert column(s, "0A") == (2, None) and s.scores()[0] == 36 + 0
    assert s.discard[-2:] == ["SP", "SP"]  # both discarded
    assert s.to_act() == {1}  # the turn ends
    s.play(1, "pass")
    assert_rejected(s, 0, "JK 0B", "say what the joker stands for", "JK=SP")
    s.play(0, "JK=SP 0B")
    assert column(s, "0B") == (1, None)


def test_a_joker_never_blocks() -> None:
    s = position([["JK", "Y2", "G3", "B4"], FILL], {"1A": (["G3"], None)})
    assert_rejected(s, 0, "JK=Y2 1A", "never as a blocker")
    assert_rejected(s, 0, "JK=Y2 0A", "never as a blocker")


# ------------------------------------------------------------------ combos (ruling 5)
def test_combo_of_different_values_draws_a_face_down_nine() -> None:
    s = position([["Y2", "G3", "G3", "B4"], FILL], {"0A": ([], "Y7")}, draw=["R8", "B5"])
    s.play(0, "Y2 0A")
    # Both Warriors discarded; the top card of the draw pile (R8) becomes a nine, placed on the
    # only... no: two places are open (A freed, B-D empty): the player chooses.
    assert s.discard[-2:] == ["Y2", "Y7"]
    assert s.to_act() == {0} and s.observation(REFEREE)["phase"] == "place"
    assert s.observation(0)["gain"] == {
        "seat": 0,
        "nines": ["?"],
        "top": None,
        "slots": ["A", "B", "C", "D"],
    }  # unseen
    assert s.observation(REFEREE)["gain"]["nines"] == ["R8"]
    s.play(0, "place A")
    assert column(s, "0A") == (1, None) and s.scores()[0] == 18
    assert s.observation(0)["columns"][0][0] == {
        "slot": "A",
        "where": "0A",
        "nines": 1,
        "top": None,
        "score": 18,
        "accepts": ["B4", "B5", "G3", "G6", "R1", "R8", "Y2", "Y7"],
    }
    assert s.observation(REFEREE)["columns"][0][0]["nine_cards"] == ["R8"]
    assert "B5" in s.hands[0]  # the draw back to four came after the nine


def test_combo_of_the_same_value_flips_one_and_tops_it_with_the_other() -> None:
    s = position(
        [["Y7", "G3", "G3", "B4"], FILL],
        {"0A": (["G6", "G6"], "Y7"), "0B": (["G6"], "SP"), "0C": (["G6"], "SP"), "0D": (["G6"], "SP")},
    )
    s.play(0, "Y7 0A")  # the freed column A (two bare nines) is the only place: no question
    assert column(s, "0A") == (3, "Y7")
    assert s.scores()[0] == 7 * 8
    assert s.to_act() == {1}


def test_the_joker_is_the_card_flipped() -> None:
    s = position(
        [["JK", "G3", "G3", "B4"], FILL],
        {"0A": ([], "R8"), "0B": (["G6"], "SP"), "0C": (["G6"], "SP"), "0D": (["G6"], "SP")},
    )
    s.play(0, "JK=R8 0A")
    assert column(s, "0A") == (1, "R8")
    assert s.observation(REFEREE)["columns"][0][0]["nine_cards"] == ["JK"]


def test_a_gain_that_cannot_be_placed_is_discarded() -> None:
    s = position(
        [["Y2", "G3", "G3", "B4"], FILL],
        {
            "0A": (["G6"] * 3, "Y7"),
            "0B": (["G3"] * 3, "SP"),
            "0C": (["B4"] * 3, "SP"),
            "0D": (["B5"] * 3, "SP"),
        },
        draw=["R8"],
    )
    s.play(0, "Y2 0A")  # A keeps three nines: full; nowhere to put the new nine
    assert column(s, "0A") == (3, None)
    assert s.discard[-1] == "R8"
    # The lost nine joins the face-up discards: every seat sees it there, and is told so.
    for seat in (0, 1):
        assert s.observation(seat)["discard"][-1] == "R8"
        assert [e for e in s.events(seat) if e["type"] == "lost"] == [
            {"type": "lost", "seat": 0, "cards": ["R8"]}
        ]


# Ruling 3 and 8: the owner of a card draws back to four once its effect is over, the placement of
# its gain included, and the end is checked in between; the same whether she chose the place or not.
FULL_AB = {"0A": (["B4"] * 3, "SP"), "0B": (["B5"] * 3, None), "0C": (["G6"] * 2, None)}


def test_the_owner_draws_after_placing_the_gain_she_chose() -> None:
    s = position(
        [["Y2", "R1", "G3", "G3"], ["Y7", "B4", "G3", "G6"]],
        {**FULL_AB, "0D": ([], "Y7")},
        draw=["R8", "Y2", "Y7"],
    )
    s.play(0, "Y2 0D")  # pair: a nine for seat 0, which may go on C or on the freed D
    assert s.to_act() == {0} and s.phase == "place"
    assert len(s.hands[0]) == 3, "no draw before the gain is placed"
    s.play(0, "place D")
    assert not s.over and len(s.hands[0]) == 4 and s.to_act() == {1}


def test_the_end_comes_before_the_draw_whoever_chose_the_place() -> None:
    chose = position(
        [["Y2", "R1", "G3", "G3"], ["Y7", "B4", "G3", "G6"]],
        {**FULL_AB, "0D": ([], "Y7")},
        draw=["R8", "Y2", "Y7"],
    )
    chose.play(0, "Y2 0D")
    chose.play(0, "place C")  # C's third nine: three full columns, the game ends at once
    single = position(
        [["Y2", "R1", "G3", "G3"], ["Y7", "B4", "G3", "G6"]],
        {**FULL_AB, "0D": (["B4"] * 3, "Y7")},
        draw=["R8", "Y2", "Y7"],
    )
    single.play(0, "Y2 0D")  # only C fits: placed at once, and the game ends
    for s in (chose, single):
        assert s.over and s.end_reason == "three full columns"
        assert len(s.hands[0]) == 3, "the game ended before the owner drew"
        assert s.draw[-2:] == ["Y7", "Y2"], "nothing was drawn after the nine"


def test_a_column_never_holds_more_than_three_nines() -> None:
    s = position(
        [["Y7", "G3", "G3", "B4"], FILL],
        {"0A": (["G6"] * 3, "Y7"), "0B": (["G6"], "SP"), "0C": (["G6"], "SP"), "0D": (["G6"], "SP")},
    )
    s.play(0, "Y7 0A")  # twins, but A already holds three nines: the gain is lost
    assert column(s, "0A") == (3, None)
    assert s.discard[-2:] == ["Y7", "Y7"]


# ------------------------------------------------------------------ attacks (ruling 6)
def test_the_rulebook_attack_example_wastes_the_attackers_turn() -> None:
    # Player B (seat 1) attacks player A's 8 with a 1; A defends with a 1; B renews with a 1;
    # A defends with a Joker; B gives up: his turn is wasted, every card used is discarded.
    s = position(
        [["R1", "JK", "G3", "B4"], ["R1", "R1", "G6", "B5"]],
        {"0A": (["G6"], "R8")},
        draw=["Y2", "Y7", "B4", "G6"],
        first=1,
    )
    s.play(1, "R1 0A")
    assert s.observation(REFEREE)["attack"]["defender"] == 0 and s.to_act() == {0}
    assert len(s.hands[1]) == 4  # the attacker drew at once
    s.play(0, "defend R1")
    assert s.to_act() == {1}
    s.play(1, "renew R1")
    assert_rejected(s, 0, "defend JK", "stand for")  # the Joker is declared
    s.play(0, "defend JK=R1")
    s.play(1, "stop")
    assert column(s, "0A") == (1, "R8")  # A protected his 8
    assert s.discard == ["R1", "R1", "R1", "JK"]
    assert s.to_act() == {0} and s.observation(REFEREE)["attack"] is None  # next player's turn


def test_a_successful_attack_gives_the_combo_to_the_attacker() -> None:
    s = position(
        [["G6", "B4", "B4", "B5"], ["G6", "R1", "R1", "R1"]], {"1B": (["G6", "G6"], "G6")}, draw=["R8", "Y2"]
    )
    s.play(0, "G6 1B")  # same value: twins for the attacker
    s.play(1, "decline")
    assert column(s, "1B") == (2, None)  # the defender's column is freed
    assert s.to_act() == {0}  # four empty slots: where does the gain go?
    s.play(0, "place C")
    assert column(s, "0C") == (1, "G6")


def test_defence_must_match_the_current_attacking_value() -> None:
    s = position([["Y2", "JK", "B4", "B5"], ["Y7", "Y7", "R1", "R1"]], {"1A": ([], "Y7")})
    s.play(0, "JK=Y2 1A")  # a Joker attacking as a 2
    assert s.observation(REFEREE)["attack"]["value"] == 2
    assert_rejected(s, 1, "defend Y7", "value 2")
    assert_rejected(s, 1, "pass", "attack")
    assert_rejected(s, 0, "renew Y2", "not seat 0's turn")
    s.play(1, "decline")


def test_in_teams_the_teammate_may_defend_after_the_defender_declines() -> None:
    hands = [["R1", "B4", "B4", "B5"], FILLS[3], ["G3", "G3", "Y7", "Y2"], ["R1", "B5", "B5", "G6"]]
    s = position(hands, {"1A": (["G6"], "R8")}, teams=True)
    assert s.teams() == ((0, 2), (1, 3))
    s.play(0, "R1 1A")
    s.play(1, "decline")
    assert s.to_act() == {3} and s.observation(REFEREE)["phase"] == "assist"
    assert_rejected(s, 3, "TU", "")
    s.play(3, "defend R1")
    assert s.to_act() == {0}
    s.play(0, "stop")
    assert column(s, "1A") == (1, "R8")


def test_teammates_never_attack_or_block_each_other() -> None:
    hands = [["R1", "SP", "B4", "B5"], FILLS[1], FILLS[2], FILLS[3]]
    s = position(hands, {"2A": (["G6"], "R8"), "2B": (["G6"], None)}, teams=True)
    assert_rejected(s, 0, "R1 2A", "teammate")
    assert_rejected(s, 0, "SP 2B", "teammate")


# ------------------------------------------------------------------ expert animals (ruling 7)
def test_tuatura_cancels_the_attack_and_takes_the_card() -> None:
    s = position([["Y2", "B4", "B4", "B5"], ["TU", "R1", "R1", "R1"]], {"1A": ([], "Y7")}, tuatura=1)
    s.play(0, "Y2 1A")
    s.play(1, "TU")
    assert column(s, "1A") == (0, "Y7")
    assert sorted(s.hands[1]) == ["R1", "R1", "R1", "Y2"]  # four cards: no draw needed
    assert s.observation(0)["hands"][1] == ["Y2", "?", "?", "?"]  # everyone knows it
    assert s.to_act() == {1}  # the attacker's turn ended


def test_kiwi_takes_a_warrior_from_any_area_and_plays_it() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"1A": (["G6", "G6"], "Y7"), "1B": (["G6"], None)}, kiwi=1)
    s.play(0, "KI 1A>1B")  # take seat 1's Y7 and block seat 1's bare nine with it
    assert column(s, "1A") == (2, None) and column(s, "1B") == (1, "Y7")
    assert "KI" in s.discard and len(s.hands[0]) == 4
    assert_rejected(position([["KI", "B4", "B4", "B5"], FILL], kiwi=1), 0, "KI 1A>0A", "has none on top")


def test_ninox_turns_an_opponents_spirit_into_a_nine_of_yours() -> None:
    s = position([["NI", "B4", "B4", "B5"], FILL], {"1A": (["G6", "G6"], "SP")}, ninox=1)
    s.play(0, "NI 1A")
    assert column(s, "1A") == (2, None)  # freed
    assert s.to_act() == {0}  # four empty slots: choose
    s.play(0, "place D")
    assert column(s, "0D") == (1, None)
    assert_rejected(
        position([["NI", "B4", "B4", "B5"], FILL], {"0A": (["G6"], "SP")}, ninox=1), 0, "NI 0A", "opponent"
    )


# ------------------------------------------------------------------ the end (ruling 8)
def test_three_full_columns_end_the_game_at_once() -> None:
    full = (["G6"] * 3, None)
    s = position([["Y7", "B4", "B4", "B5"], FILL], {"0A": (["G6"] * 2, "Y7"), "0B": full, "0C": full})
    s.play(0, "Y7 0A")
    assert not s.over and s.to_act() == {0}  # two places: A (freed) or D
    s.play(0, "place A")
    assert s.over and s.end_reason == "three full columns"
    assert s.to_act() == frozenset()
    assert s.winners() == [0]


def test_the_game_ends_when_someone_must_draw_and_both_piles_are_empty() -> None:
    s = position([["B4", "B4", "B4", "B5"], FILL])
    s.draw.clear()  # the test's deck: every remaining card sits in the columns' place...
    s.discard.clear()
    s.counts = (
        s.counts - s.counts + __import__("collections").Counter([c for h in s.hands for c in h])
    )  # (this game only holds the hands)
    s.play(0, "B4 0A")
    assert s.over and "both piles" in s.end_reason


def test_the_game_can_end_in_the_middle_of_an_attack() -> None:
    s = position([["R1", "B4", "B4", "B5"], ["R1", "R1", "R1", "R1"]], {"1A": ([], "R8")})
    s.draw.clear()
    s.discard[:] = []
    from collections import Counter

    s.counts = Counter([c for h in s.hands for c in h] + ["R8"])
    s.play(0, "R1 1A")  # the attacker must draw: nothing to draw
    assert s.over and s.observation(REFEREE)["attack"] is not None


def test_an_empty_draw_pile_is_refilled_by_shuffling_the_discards() -> None:
    s = position([["B4", "B4", "B4", "B5"], FILL])
    count = len(s.draw)
    s.discard = s.draw
    s.draw = []
    s.play(0, "B4 0A")
    assert len(s.draw) == count - 1 and s.discard == []
    assert [e["type"] for e in s.events(1)][-4:] == ["play", "reshuffle", "draw", "turn"]


# ------------------------------------------------------------------ teams (ruling 9)
@pytest.mark.parametrize("n", [4, 5, 6, 7])
def test_team_seating_never_puts_teammates_side_by_side(n: int) -> None:
    teams = team_seating(n)
    assert teams_problem(teams, n) is None
    state = G.new(n, {"teams": True}, 1)
    parties = state.teams()
    assert sum(1 for t in parties if len(t) == 1) == n % 2
    for team in parties:
        if len(team) == 2:
            a, b = team
            assert (a - b) % n not in (1, n - 1)


def test_team_scores_add_up_and_teams_share_the_result() -> None:
    s = position(FILLS, {"0A": (["G6"], None), "2A": (["G6", "G6"], None), "1A": ([], "B5")}, teams=True)
    assert s.observation(REFEREE)["team_scores"] == [18 + 36, 5]
    s.over = True
    assert s.winners() == [0, 2] and s.returns() == [1.0, 0.0, 1.0, 0.0]


def test_team_setup_is_checked() -> None:
    with pytest.raises(OptionError, match="4 or more"):
        G.new(3, {"teams": True}, 0)
    with pytest.raises(SetupError, match="side by side"):
        G.new(4, {"teams": True}, 0, {"teams": [0, 0, 1, 1]})
    with pytest.raises(SetupError, match="needs the option"):
        G.new(4, None, 0, {"teams": [0, 1, 0, 1]})


def test_the_tie_option() -> None:
    s = position([FILL, FILL], {"0A": (["G6"], None), "1A": ([], "R8"), "1B": ([], "R1")}, ties="nines")
    s.over = True
    assert s.scores() == [18.0, 9.0]
    s2 = position([FILL, FILL], {"0A": ([], "R8"), "1A": (["G6"], "SP"), "1B": ([], "R8")}, ties="nines")
    s2.over = True
    assert s2.scores() == [8.0, 8.0] and s2.winners() == [1]  # equal points: more nines wins
    s3 = position([FILL, FILL], {"0A": ([], "R8"), "1A": (["G6"], "SP"), "1B": ([], "R8")})
    s3.over = True
    assert s3.winners() == [0, 1]  # shared by default


# ------------------------------------------------------------------ records and notation
def test_explicit_deck_deals_four_at_a_time_seat_zero_first() -> None:
    deck = sorted(G.new(3, None, 0).counts.elements())
    s = G.new(3, None, 0, {"deck": deck, "first": 2})
    assert s.hands[0] == deck[0:4] and s.hands[2] == deck[8:12]
    assert s.observation(REFEREE)["draw_pile"][:2] == deck[12:14]  # top first
    assert s.to_act() == {2}


def test_a_played_game_replays_from_its_record() -> None:
    rng = random.Random(3)
    s = G.new(4, {"kiwi": 2, "ninox": 2, "tuatura": 2, "teams": True}, 5)
    while not s.over:
        seat = min(s.to_act())
        s.apply(seat, s.random_move(seat, rng))
    again = replay(s.record(), get_game)
    assert again.observation(REFEREE) == s.observation(REFEREE) and again.events("referee") == s.events(
        "referee"
    )


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("r8 0a", "R8 0A"),
        ("JK=y2 1C", "JK=Y2 1C"),
        ("ki 1c > 2b", "KI 1C>2B"),
        ("NI 2c", "NI 2C"),
        ("Defend jk=Y2", "defend JK=Y2"),
        ("renew Y2", "renew Y2"),
        ("tuatura", "TU"),
        ("PASS", "pass"),
        ("place b", "place B"),
    ],
)
def test_notation_round_trips(text: str, canonical: str) -> None:
    assert str(G.parse_move(text)) == canonical
    assert G.parse_move(canonical) == G.parse_move(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "R9 0A",
        "R8 0E",
        "R8",
        "JK=KI 0A",
        "KI 1C",
        "place E",
        "defend",
        "R8 " + "9" * 5000 + "A",
        "attack!",
    ],
)
def test_bad_notation_names_the_problem(text: str) -> None:
    from kiti.core.errors import NotationError

    with pytest.raises(NotationError):
        G.parse_move(text)
