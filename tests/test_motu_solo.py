"""MOTU solo: the Beach Hut, the two cards shown, the Opponent's pile and scoring, its ties, and the
Opponent as a party of the results model (not a seat)."""

from __future__ import annotations

from collections import Counter

import pytest
from motu_helpers import G, assert_rejected, first_placement, game, play_until

from kiti.core.results import Party
from kiti.games.motu import cards as C
from kiti.games.motu import sources as S
from kiti.games.motu.rules import COCONUTS


def solo(**kwargs: object):  # type: ignore[no-untyped-def]
    return game(1, **kwargs)  # type: ignore[arg-type]


def test_two_cards_are_shown_left_then_right() -> None:
    s = solo(piles={"A": ["I01", "I02", "I03", "I04"]})
    assert s.shown == ["I01", "I02"] and s.to_act() == {0}
    assert [str(m) for m in s.legal_moves(0)] == ["take left", "take right"]


def test_the_left_card_costs_a_coconut_for_the_hut_the_right_one_gains_one() -> None:
    s = solo(piles={"A": ["I01", "I02", "I03", "I04"]})
    s.play(0, "take left")
    assert (s.banks[0], s.hut, s.holding, s.other) == (5, 4, "I01", "I02")
    s.play(0, first_placement(s))
    assert s.phase == "other"
    s.play(0, "give")
    assert s.opponent == ["I02"] and s.shown == ["I03", "I04"]
    s.play(0, "take right")
    assert (s.banks[0], s.hut) == (6, 3)
    s.check_invariants()


def test_an_empty_hut_gives_nothing_and_an_empty_bank_cannot_take_left() -> None:
    s = solo(piles={"A": ["I01", "I02"]})
    s.supply, s.hut, s.banks[0] = s.supply + 6 + 3, 0, 0
    assert [str(m) for m in s.legal_moves(0)] == ["take right"]
    assert_rejected(s, 0, "take left", "costs 1 coconut", "none")
    s.play(0, "take right")
    assert (s.banks[0], s.hut) == (0, 0)


def test_the_other_card_goes_to_the_opponent_unless_three_coconuts_discard_it() -> None:
    s = solo(piles={"A": ["I01", "I02", "I03", "I04"]})
    s.play(0, "take right")
    s.play(0, first_placement(s))
    s.play(0, "discard")
    assert s.discards == ["I01"] and s.banks[0] == 7 - 3 and s.hut == 2 + 3 and s.opponent == []
    s.banks[0], s.supply = 1, s.supply + 3
    s.play(0, "take right")
    s.play(0, first_placement(s))
    assert s.opponent == ["I03"], "with fewer than 3 coconuts the card goes to the Opponent at once"
    assert s.phase == "take"
    s.check_invariants()


def test_solo_scrap_discards_the_left_card_and_the_right_one_faces_the_opponent() -> None:
    s = solo(piles={"A": ["I13", "I14", "I01", "I02"]}, villages=["V5"])
    assert [str(m) for m in s.legal_moves(0)] == ["scrap"]
    s.play(0, "scrap")
    assert s.discards == ["I13"] and s.other == "I14" and s.banks[0] == 6 and s.phase == "other"


@pytest.mark.parametrize(("piles", "turns"), [("printed", 18), ("short", 9)])
def test_interims_when_a_pile_empties_and_the_end(piles: str, turns: int) -> None:
    s = G.new(1, {"solo_piles": piles}, 4)
    play_until(s, lambda st: st.phase == "interim")
    assert s.round == turns * 16 // 36 and s.to_act() == {0}
    play_until(s, lambda st: st.over)
    assert len(s.islands[0].placements) - 1 + len([c for c in s.discards if c not in s.opponent]) >= turns - 4
    assert (
        s.round == turns and len(s.opponent) + len(s.discards) + len(s.islands[0].placements) - 1 == 2 * turns
    )
    assert sum(s.banks) + s.hut + s.supply == COCONUTS


def test_the_opponent_scores_all_its_symbols_by_its_own_rules() -> None:
    pile = ["I13", "I14", "I15", "I01", "I02"]
    counts = S.card_symbols(pile)
    assert counts == Counter(
        {"fish": 6, "canoe": 1, "bird": 2, "volcano": 2, "totem2": 1, "totem7": 1, "hunter": 1, "palm": 1}
    )
    points = S.opponent_points(pile, hut=4, player_volcanoes=1)
    assert points == {
        "fisherman": 0,
        "hunter": 3,
        "canoe": 4,
        "coconut": 4,
        "totem": C.TOTEM_POINTS[2],
        "volcano": C.SOLO_VOLCANO_POINTS,
    }
    assert S.opponent_points(pile, hut=0, player_volcanoes=2)["volcano"] == 0, "not more than the player"
    halved = S.opponent_points(["I17", "I18", "I14"], hut=0, player_volcanoes=0)  # 3 canoes, 0 palms
    assert halved["canoe"] == 4 * (3 // 2)
    assert S.opponent_beach(["I13", "I19", "I01"]) == 1  # only I19 shows Beach


def test_the_opponent_halves_outnumbered_leaders_and_counts_totem_kinds() -> None:
    assert S.opponent_pair_points(Counter(hunter=5, bird=2), "hunter") == 3 * 2
    assert S.opponent_pair_points(Counter(hunter=2, bird=2), "hunter") == 6
    assert S.opponent_totem_points(Counter(totem1=3, totem2=1)) == C.TOTEM_POINTS[2]


def test_the_solo_players_repeated_totems_still_count() -> None:
    # Ruling MOTU 8: in solo the player's duplicate totems count; the Opponent scores kinds.
    counts = Counter(totem1=2, totem3=1)
    assert S.totem_points(counts) == C.TOTEM_POINTS[1]  # several players: the repeated kind is lost
    assert S.totem_points(counts, "symbols") == C.TOTEM_POINTS[3]  # solo player: every totem
    assert S.totem_points(counts, "kinds") == C.TOTEM_POINTS[2]  # the Opponent; or the option
    assert S.totem_points(Counter(totem1=6, totem2=4), "symbols") == C.TOTEM_POINTS[7]  # the table's end
    s = solo()
    assert s.totem_rule == "symbols"
    assert s.source_value(0, "totem") == S.totem_points(S.symbol_counts(s.islands[0]), "symbols")
    assert G.new(1, {"solo_totems": "kinds"}, 1).totem_rule == "kinds"
    assert G.new(3, None, 1).totem_rule == "once"


def finished(difficulty: str = "easy"):  # type: ignore[no-untyped-def]
    return play_until(G.new(1, {"difficulty": difficulty}, 2), lambda st: st.over, seed=5)


def test_the_opponent_is_a_party_not_a_seat() -> None:
    s = finished()
    assert s.parties() == (Party("seat 0", (0,)), Party("Opponent", ()))
    assert s.players == 1 and len(s.scores()) == 1
    opp = s.opponent_final
    assert opp is not None and opp["start"] == C.SOLO_START_SCORES["easy"]
    assert s.party_scores() == [s.scores()[0], float(opp["total"])]
    result = s.result()
    if result.winners == (1,):
        assert s.winners() == [] and s.returns() == [0.0]
    else:
        assert s.winners() == [0] and s.returns() == [1.0]
    assert result.to_dict()["parties"][1]["name"] == "Opponent"


@pytest.mark.parametrize("difficulty", ["easy", "intermediate", "difficult", "legendary"])
def test_the_difficulty_is_the_opponents_starting_score(difficulty: str) -> None:
    s = finished(difficulty)
    opp = s.opponent_final
    assert (
        opp is not None
        and opp["start"] == {"easy": 20, "intermediate": 28, "difficult": 35, "legendary": 42}[difficulty]
    )
    assert opp["total"] == sum(v for k, v in opp.items() if k != "total")


def test_solo_ties_go_to_the_coconuts_then_to_the_player() -> None:
    s = finished()
    assert s.final is not None and s.opponent_final is not None
    s.final[0]["total"] = s.opponent_final["total"] = 60
    s.banks[0], s.hut = 3, 5
    assert s.winners() == [] and s.result().winners == (1,), "the Hut is the Opponent's bank"
    s.banks[0] = 5
    assert s.winners() == [0], "still equal: the player wins"
    s.banks[0] = 6
    assert s.winners() == [0]


def test_the_beach_bonus_is_compared_with_the_opponents_beach_cards() -> None:
    s = finished()
    mine = S.longest_beach(s.islands[0])
    theirs = S.opponent_beach(s.opponent)
    assert s.final is not None and s.opponent_final is not None
    assert (s.final[0]["beach"] > 0) == (mine >= theirs and mine > 0)
    assert (s.opponent_final["beach"] > 0) == (theirs >= mine and theirs > 0)
    assert s.final[0]["coconut"] == (C.COCONUT_BONUS if s.banks[0] else 0), "the player's Coconut bonus"
    assert "coconut" not in s.opponent_final or s.opponent_final["coconut"] == s.hut, "the Hut's points only"


def test_the_solo_coconut_bonus_can_be_left_out() -> None:
    s = play_until(G.new(1, {"solo_coconut_bonus": False}, 2), lambda st: st.over, seed=5)
    assert s.final is not None and "coconut" not in s.final[0]
