"""MOTU: the rulebook and RULINGS.md (MOTU 1-8), rule by rule, on games with chosen cards."""

from __future__ import annotations

import pytest
from motu_helpers import G, assert_rejected, first_placement, game, play_until, turn

from kiti.core.errors import NotationError, OptionError, SetupError
from kiti.core.events import REFEREE
from kiti.core.game import codec_for
from kiti.core.records import replay
from kiti.core.registry import get_game
from kiti.games.motu import cards as C
from kiti.games.motu import sources as S
from kiti.games.motu.island import legal_placements
from kiti.games.motu.rules import (
    COCONUTS,
    SOURCES,
    Place,
    interim_choices,
    pay_positions,
    pile_sizes,
    placement_bound,
)

SEA = ["I13", "I14", "I15", "I16"]  # all-Sea cards: none fits the all-Land village V5


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_table_follows_the_rulebook(players: int) -> None:
    s = G.new(players, None, 7)
    view = s.observation(REFEREE)
    sizes = pile_sizes(players)
    assert sizes == (4 * players, 3 * players, 2 * players)
    assert [len(view["piles"][p]) for p in "ABC"] == list(sizes)
    assert len(view["row"]) == 4 and all(c["coconuts"] == 0 for c in view["row"])
    assert view["coconuts"] == [5] * players and view["supply"] == COCONUTS - 5 * players
    assert len(view["destinies"]["table"]) == players + 1
    assert len({t["card"] for t in view["travelers"]}) == players
    assert len(set(s.villages)) == players
    assert 4 + sum(sizes) + len(view["box"]["islands"]) == 58
    assert s.to_act() == {0} and s.phase == "take"


def test_the_solo_table() -> None:
    s = G.new(1, None, 3)
    view = s.observation(REFEREE)
    assert [len(view["piles"][p]) for p in "ABC"] == [14, 12, 8]  # 16/12/8, two cards shown
    assert view["row"] == [] and len(view["solo_table"]["shown"]) == 2
    assert view["coconuts"] == [6] and view["solo_table"]["hut"] == 3 and view["supply"] == 27
    assert view["travelers"] == [None] and view["destinies"]["table"] == []
    short = G.new(1, {"solo_piles": "short"}, 3).observation(REFEREE)
    assert [len(short["piles"][p]) for p in "ABC"] == [6, 6, 4]


def test_an_explicit_setup_decides_everything() -> None:
    s = game(
        3,
        row=["I01", "I02", "I03", "I04"],
        piles={"A": ["I40"], "C": ["I58"]},
        villages=["V2", "V4", "V6"],
        travelers=["T1", "T2", "T3"],
        destinies=["D01", "D02", "D03", "D04"],
        first=2,
    )
    assert s.row == ["I01", "I02", "I03", "I04"] and s.piles[0][-1] == "I40" and s.piles[2][-1] == "I58"
    assert s.villages == ["V2", "V4", "V6"] and s.travelers == ["T1", "T2", "T3"]
    assert s.table_destinies == ["D01", "D02", "D03", "D04"] and s.to_act() == {2}
    again = replay(s.record(), get_game)
    assert again.observation(REFEREE) == s.observation(REFEREE)


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"colour": 1}, "unknown"),
        ({"first": 3}, "first"),
        ({"villages": ["V1", "V1"]}, "villages"),
        ({"villages": ["V1", "X9"]}, "villages"),
        ({"travelers": ["T1"]}, "travelers"),
        ({"destinies": ["D01", "D02"]}, "destinies"),
        ({"deck": ["I01"] * 60}, "twice"),
        ({"deck": ["I01", "I02"]}, "at least"),
        ({"deck": ["Z01"]}, "island card"),
        ({"piles": {"A": []}}, "keys"),
        ({"piles": {"row": ["I01"] * 4, "A": [], "B": [], "C": []}}, "twice"),
        ({"deck": list(C.ISLAND_IDS), "piles": {}}, "not both"),
    ],
)
def test_bad_setups_are_refused(setup: dict, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(SetupError, match=words):
        G.new(2, None, 0, setup)


def test_setups_for_parts_the_game_does_not_use_are_refused() -> None:
    with pytest.raises(SetupError, match="travelers=true"):
        G.new(2, {"travelers": False}, 0, {"travelers": ["T1", "T2"]})
    with pytest.raises(SetupError, match="solo"):
        G.new(1, None, 0, {"destinies": ["D01", "D02"]})


def test_options_belong_to_their_game() -> None:
    with pytest.raises(OptionError, match="solo"):
        G.new(3, {"difficulty": "legendary"}, 0)
    with pytest.raises(OptionError, match="solo"):
        G.new(3, {"solo_piles": "short"}, 0)
    # the solo game leaves Travelers and Destinies in the box, whatever the options say
    for off in ({"travelers": False}, {"destinies": False}, {"travelers": False, "destinies": False}):
        solo = G.new(1, off, 0)
        assert solo.travelers == [None] and solo.table_destinies == []
    with pytest.raises(OptionError):
        G.new(1, {"difficulty": "nightmare"}, 0)


# ------------------------------------------------------------------ taking a card
def test_taking_pays_a_coconut_on_each_card_to_the_left_and_gains_those_on_it() -> None:
    s = game(
        2, row=["I01", "I02", "I03", "I04"], piles={"A": ["I05", "I06"]}, destinies=["D01", "D02", "D03"]
    )
    s.play(0, "take 3")
    assert s.banks[0] == 3 and s.row == ["I01", "I02", "I04"] and s.row_coconuts == [1, 1, 0]
    assert s.holding == "I03" and s.phase == "place"
    s.play(0, first_placement(s))
    assert s.row == ["I01", "I02", "I04", "I05"] and s.row_coconuts == [1, 1, 0, 0], "refilled on the right"
    s.play(0, "done")
    s.play(1, "take 2")  # one coconut on I01, and the one on I02 gained
    assert s.banks[1] == 5 - 1 + 1 and s.row_coconuts[0] == 2
    s.check_invariants()


def test_a_card_one_cannot_pay_for_is_refused() -> None:
    s = game(2)
    s.banks[0], s.supply = 1, s.supply + 4
    assert_rejected(s, 0, "take 3", "costs 2", "you have 1")
    assert_rejected(s, 0, "take 4", "costs 3")
    assert [str(m) for m in s.legal_moves(0)] == ["take 1", "take 2"]


def test_the_first_card_is_always_free() -> None:
    s = game(2)
    s.banks[0], s.supply = 0, s.supply + 5
    s.play(0, "take 1")
    assert s.banks[0] == 0


def test_a_card_with_no_legal_placement_is_not_offered() -> None:
    s = game(2, row=["I13", "I01", "I14", "I02"], villages=["V5", "V1"])
    assert legal_placements(s.islands[0], "I13") == []
    assert [str(m) for m in s.legal_moves(0)] == ["take 2", "take 4"]
    assert_rejected(s, 0, "take 1", "I13", "no legal place")
    assert_rejected(s, 0, "scrap", "only for when")


def test_no_card_fits_so_the_leftmost_is_scrapped_with_its_coconuts() -> None:
    """RULINGS MOTU 7: only affordable cards with a legal placement are offered; if none, the
    player takes the leftmost card and discards it, gaining its coconuts."""
    s = game(2, row=SEA, villages=["V5", "V1"], first=1, piles={"A": ["I17", "I18"]})
    turn(s, "take 2")  # seat 1 leaves a coconut on the leftmost card
    assert s.row_coconuts[0] == 1 and s.row[0] == "I13"
    assert [str(m) for m in s.legal_moves(0)] == ["scrap"]
    s.play(0, "scrap")
    assert s.discards == ["I13"] and s.banks[0] == 6 and s.row[-1] == "I18"
    assert len(s.islands[0].placements) == 1, "nothing was added to the island"
    s.check_invariants()


# ------------------------------------------------------------------ placing
def test_placing_follows_the_island_rules_and_says_why_not() -> None:
    s = game(2, row=["I01"], villages=["V1", "V2"])
    s.play(0, "take 1")
    assert_rejected(s, 0, "place 0 9 9", "covers no symbol")
    assert_rejected(s, 0, "place 0 0 -2", "would cover the village star")
    assert_rejected(s, 0, "done", "first place I01")
    assert_rejected(s, 1, "place 0 0 -3", "not seat 1's turn")
    s.play(0, "place 0 0 -3")
    assert s.islands[0].placements[-1] == ("I01", 0, 0, -3)


def test_placements_are_offered_rotation_then_position() -> None:
    s = game(2, row=["I01"], villages=["V1", "V2"])
    s.play(0, "take 1")
    assert s.many_moves(0) and not s.many_moves(1)
    rotations = s.move_steps(0)
    assert [st.token for st in rotations] == ["place 0", "place 90", "place 180", "place 270"]
    assert sum(st.count for st in rotations) == len(s.legal_moves(0))
    spots = s.move_steps(0, ("place 90",))
    assert spots and all(st.move is not None and str(st.move) == f"place 90 {st.token}" for st in spots)
    assert {st.move for st in spots} == {
        m for m in s.legal_moves(0) if isinstance(m, Place) and m.rotation == 90
    }


def test_the_action_codec_holds_every_placement_that_can_be_legal() -> None:
    xs, ys = placement_bound(9)
    assert (xs.start, xs.stop, ys.start, ys.stop) == (-27, 27, -27, 28)
    codec = codec_for(G, 4, {})
    s = play_until(G.new(4, None, 5), lambda st: st.phase == "place" and st.round == 9, seed=2)
    assert all(m in codec.index for m in s.legal_moves(s.turn))
    assert codec.size == len(G.all_moves(4, G.new(4, None, 0).options))


# ------------------------------------------------------------------ Destinies
def test_a_destiny_is_paid_right_to_left_wrapping_round_the_row() -> None:
    assert pay_positions(3, 4) == [3, 2, 1]
    assert pay_positions(6, 4) == [3, 2, 1, 0, 3, 2]
    s = game(2, destinies=["D01", "D04", "D08"])
    s.play(0, "take 1")
    s.play(0, first_placement(s))
    assert s.phase == "extras"
    s.play(0, "buy D01")  # price 3
    assert s.banks[0] == 2 and s.row_coconuts == [0, 1, 1, 1] and s.owned[0] == ["D01"]
    assert_rejected(s, 0, "buy D04", "already bought")
    assert "buy" not in " ".join(map(str, s.legal_moves(0)))
    s.play(0, "done")
    assert s.to_act() == {1}


def test_a_destiny_one_cannot_pay_for_is_refused() -> None:
    s = game(2, destinies=["D01", "D04", "D08"], travelers=["T1", "T2"])
    s.banks[0], s.supply = 2, s.supply + 3
    s.play(0, "take 1")
    s.play(0, first_placement(s))
    assert_rejected(s, 0, "buy D01", "costs 3", "you have 2")
    assert_rejected(s, 0, "buy D05", "not on the table")


def test_destiny_ties_count_as_the_most_a_tie_at_zero_too() -> None:
    one, two = C.DESTINIES["D08"], C.DESTINIES["D01"]  # fish; fisherman and fish
    assert S.destiny_points(one, 0, {"fish": [3, 3, 1]}) == one.most
    assert S.destiny_points(one, 2, {"fish": [3, 3, 1]}) == one.otherwise
    assert S.destiny_points(one, 0, {"fish": [0, 0]}) == one.most  # nobody has any: all tie
    assert S.destiny_points(one, 0, {"fish": [0, 2]}) == one.otherwise
    counts = {"fisherman": [2, 2], "fish": [4, 5]}
    assert S.destiny_points(two, 1, counts) == two.most
    assert S.destiny_points(two, 0, counts) == two.most_of_one
    assert S.destiny_points(two, 0, {"fisherman": [0, 0], "fish": [3, 1]}) == two.most
    assert S.destiny_points(two, 0, {"fisherman": [0, 1], "fish": [0, 5]}) == two.otherwise
    assert S.beach_bonuses([0, 0]) == [C.BEACH_BONUS, C.BEACH_BONUS]
    assert S.coconut_bonuses([0, 0, 0]) == [C.COCONUT_BONUS] * 3


# ------------------------------------------------------------------ Travelers
def test_a_traveler_scores_from_the_row_and_its_symbols_count_from_then_on() -> None:
    s = game(
        2,
        row=["I01", "I13", "I14", "I15"],
        piles={"A": ["I16"]},
        travelers=["T3", "T2"],
        villages=["V1", "V2"],
        destinies=["D02", "D04", "D09"],
    )
    t3 = C.TRAVELERS["T3"]  # adds 3 fish; 2 points per fish in the row
    s.play(0, "take 1")
    s.play(0, first_placement(s))
    fish = S.card_symbols(s.row)["fish"]
    before = S.symbol_counts(s.islands[0])["fish"]
    assert s.source_value(0, "fisherman") == S.pair_points(S.symbol_counts(s.islands[0]), "fisherman")
    s.play(0, "travel")
    assert s.traveler_points[0] == t3.points * fish == s.scores()[0]
    assert S.symbol_counts(s.islands[0], s.extra(0))["fish"] == before + 3
    assert s.to_act() == {1}, "after the Traveler nothing is left to do: no Destiny after it"
    s.play(1, "take 1")
    s.play(1, first_placement(s))
    bank, supply = s.banks[1], s.supply
    s.play(1, "travel")  # T2: 2 coconuts printed on the card
    assert C.TRAVELERS["T2"].coconuts == 2
    assert s.banks[1] == bank and s.supply == supply, "printed coconuts are not counters"
    assert s.coconut_count(1) == bank + 2 and s.source_value(1, "coconut") == S.coconut_points(bank + 2)
    s.play(0, "take 1")
    s.play(0, first_placement(s))
    assert "travel" not in [str(m) for m in s.legal_moves(0)]
    assert_rejected(s, 0, "travel", "already been played")


def test_a_travelers_coconuts_count_for_points_but_are_never_spent() -> None:
    # Six seats leave a supply of 6; T2, T5 and T6 print 7 coconuts: all of them count.
    s = G.new(6, {"destinies": False}, 0, {"travelers": ["T2", "T5", "T6", "T1", "T3", "T4"]})
    supply = s.supply
    for seat in range(3):
        s.play(seat, "take 1")
        s.apply(seat, s.legal_moves(seat)[0])
        bank = s.banks[seat]
        s.play(seat, "travel")
        printed = C.TRAVELERS[s.travelers[seat]].coconuts
        assert s.banks[seat] == bank and s.coconut_count(seat) == bank + printed
        assert [e for e in s.events(5) if e["type"] == "travel"][-1]["coconuts"] == printed
        s.check_invariants()
    assert s.supply == supply
    assert sum(C.TRAVELERS[t].coconuts for t in ("T2", "T5", "T6")) > supply
    # the tie-break and the Coconut bonus count them too
    assert s.tiebreaks() == [(float(s.coconut_count(x)),) for x in range(6)]


def test_without_travelers_or_destinies_there_are_no_optional_steps() -> None:
    s = G.new(2, {"travelers": False, "destinies": False}, 1)
    s.play(0, "take 1")
    s.play(0, first_placement(s))
    assert s.to_act() == {1} and s.phase == "take", "the turn ended by itself"
    assert_rejected(s, 1, "travel", "not a move now")


# ------------------------------------------------------------------ interim totals
def to_interim(players: int = 3, seed: int = 0, **options: object) -> object:
    s = G.new(players, options or None, seed)
    return play_until(s, lambda st: st.phase == "interim", seed)


def test_an_interim_total_is_a_simultaneous_secret_choice() -> None:
    s = to_interim(3)
    assert s.to_act() == {0, 1, 2} and s.pile == 0 and s.row and all(len(p) > 0 for p in s.piles[1:])
    assert all(len(isl.placements) == 5 for isl in s.islands), "four cards placed before pile A's total"
    assert [str(m) for m in s.legal_moves(1)] == [f"score {x}" for x in SOURCES]
    s.play(1, "score totem")
    assert s.to_act() == {0, 2}
    assert s.observation(0)["interims"][1] == [{"pile": "A", "sources": "?", "points": "?", "total": "?"}]
    assert s.observation(1)["interims"][1][0]["sources"] == ["totem"]
    assert_rejected(s, 1, "score volcano", "already chosen")
    assert_rejected(s, 0, "score totem volcano", "scores 1 source")
    assert s.undo_refusal(1) is None and s.undo_refusal(2), "a secret choice can be taken back"
    values = [s.source_value(seat, x) for seat, x in ((0, "volcano"), (1, "totem"), (2, "coconut"))]
    s.play(0, "score volcano")
    s.play(2, "score coconut")
    assert s.phase == "take" and s.pile == 1
    assert [s.interims[seat][0][2][0] for seat in range(3)] == values
    reveal = [e for e in s.events(None) if e["type"] == "interim"][-1]
    assert reveal["sources"] == [["volcano"], ["totem"], ["coconut"]]


def test_a_secret_choice_can_be_taken_back_until_the_reveal() -> None:
    s = to_interim(2, seed=4)
    s.play(0, "score coconut")
    assert s.undo_refusal(0) is None
    s.undo(0)
    assert s.to_act() == {0, 1}
    s.play(0, "score totem")
    s.play(1, "score totem")
    assert s.undo_refusal(1) is not None  # the reveal has been shown to everyone


def test_no_source_twice_and_recorded_scores_are_final() -> None:
    s = to_interim(2, seed=1)
    s.play(0, "score coconut")
    s.play(1, "score volcano")
    recorded = s.interims[0][0][2][0]
    play_until(s, lambda st: st.phase == "interim")
    assert s.pile == 1 and s.interims[0][0][2][0] == recorded, "a recorded score never changes"
    assert ("coconut",) not in [m.sources for m in s.legal_moves(0)]  # type: ignore[attr-defined]
    assert len(s.legal_moves(0)) == len(interim_choices(["coconut"], 2)) == 10
    assert_rejected(s, 0, "score coconut totem", "earlier interim")
    assert_rejected(s, 0, "score totem", "scores 2 source")
    s.play(0, "score totem volcano")
    s.play(1, "score fisherman hunter")
    play_until(s, lambda st: st.over)
    for seat in range(2):  # the last total scored the three Sources left, by itself
        assert sorted(x for _, src, _ in s.interims[seat] for x in src) == sorted(SOURCES)
        assert [len(src) for _, src, _ in s.interims[seat]] == [1, 2, 3]


# ------------------------------------------------------------------ the end
def test_the_final_score_adds_every_part() -> None:
    s = play_until(G.new(4, None, 11), lambda st: st.over, seed=3)
    lengths = [S.longest_beach(isl) for isl in s.islands]
    beach = S.beach_bonuses(lengths)
    coconut = S.coconut_bonuses([s.coconut_count(seat) for seat in range(s.players)])  # printed ones too
    for seat, row in enumerate(s.final or []):
        assert row["interims"] == sum(sum(p) for _, _, p in s.interims[seat])
        assert row["traveler"] == s.traveler_points[seat]
        assert row["beach"] == beach[seat] and row["coconut"] == coconut[seat]
        assert row["total"] == sum(v for k, v in row.items() if k != "total") == s.scores()[seat]
    end = [e for e in s.events(None) if e["type"] == "end"][-1]
    assert end["scores"] == s.scores() and end["winners"] == s.winners()


def test_the_bonuses_go_to_every_tied_seat() -> None:
    assert S.beach_bonuses([3, 5, 5]) == [0, 5, 5]
    assert S.beach_bonuses([0, 2]) == [0, 5]
    assert S.coconut_bonuses([4, 4, 1]) == [C.COCONUT_BONUS, C.COCONUT_BONUS, 0]


def test_zero_is_most_false_never_counts_a_zero_as_the_most() -> None:
    one = C.DESTINIES["D08"]  # fish
    assert S.destiny_points(one, 0, {"fish": [0, 0]}, zero_counts=False) == one.otherwise
    assert S.destiny_points(one, 0, {"fish": [1, 1]}, zero_counts=False) == one.most
    assert S.beach_bonuses([0, 0], zero_counts=False) == [0, 0]
    assert S.coconut_bonuses([0, 0, 0], zero_counts=False) == [0, 0, 0]
    # a tie at zero counts unless the option says otherwise; the game passes it to the final scoring
    assert G.new(3, None, 11).options["zero_is_most"] is True
    for zero in (False, True):
        s = play_until(G.new(3, {"zero_is_most": zero}, 11), lambda st: st.over, seed=3)
        lengths = [S.longest_beach(isl) for isl in s.islands]
        for seat, row in enumerate(s.final or []):
            assert row["beach"] == S.beach_bonuses(lengths, zero)[seat]
            assert row["coconut"] == S.coconut_bonuses([s.coconut_count(x) for x in range(3)], zero)[seat]


def test_equal_scores_go_to_the_most_coconuts_then_are_shared() -> None:
    s = play_until(G.new(3, None, 2), lambda st: st.over, seed=1)
    for row in s.final or []:
        row["total"] = 50
    s.played = [False] * 3  # no Traveler's coconuts: the banks alone decide
    s.banks[0], s.banks[1], s.banks[2] = 4, 4, 2
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5, 0.0]
    s.banks[1] = 3
    assert s.winners() == [0] and s.result().ranks == (1.0, 2.0, 3.0)


# ------------------------------------------------------------------ notation
@pytest.mark.parametrize(
    "text",
    [
        "take 1",
        "take 4",
        "take left",
        "take right",
        "scrap",
        "place 90 2 -1",
        "place 0 -27 27",
        "buy D03",
        "travel",
        "done",
        "give",
        "discard",
        "score totem",
        "score fisherman hunter",
        "score canoe coconut volcano",
    ],
)
def test_every_move_reads_back(text: str) -> None:
    assert str(G.parse_move(text)) == text
    assert G.parse_move(text.upper().replace(" ", "  ")) == G.parse_move(text)


def test_sources_may_be_named_in_any_order_and_by_their_partners() -> None:
    assert str(G.parse_move("score hunter fisherman")) == "score fisherman hunter"
    assert str(G.parse_move("score birds fish")) == "score fisherman hunter"
    assert str(G.parse_move("score Totems")) == "score totem"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("take 5", "row position"),
        ("take", "not a motu move"),
        ("place 45 0 0", "rotation"),
        ("place 90 x 1", "whole number"),
        ("place 90 1", "place rotation x y"),
        ("place 0 99999 0", "whole number"),
        ("buy D11", "not a destiny"),
        ("score totem totem", "twice"),
        ("score", "not a motu move"),
        ("score fishy", "not a source"),
        ("travel now", "not a motu move"),
        ("dive 9", "not a motu move"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(NotationError) as info:
        G.parse_move(text)
    assert words in str(info.value).lower()


def test_moves_of_the_wrong_step_are_refused_with_their_reason() -> None:
    s = game(2)
    assert_rejected(s, 0, "place 0 0 -3", "no card to place")
    assert_rejected(s, 0, "score totem", "take 1-4")
    assert_rejected(s, 0, "take left", "take 1-4")
    assert_rejected(s, 0, "give", "not a move now")
    assert_rejected(s, 0, "buy D01", "not a move now")
    assert_rejected(s, 1, "take 1", "not seat 1's turn")


def test_bad_input_of_every_kind_is_refused_at_every_step() -> None:
    from kiti.games.motu.rules import Score, SoloTake, Take, Word

    s = game(2, destinies=["D01", "D04", "D08"])
    for bad in (
        Take(7),
        SoloTake("middle"),
        Word("jump"),
        Place(45, 0, 0),
        Score(("totem",)),
        "take 0",
        3,
        None,
    ):
        assert_rejected(s, 0, bad)
    s.play(0, "take 1")
    for bad in (Place(45, 0, 0), Place(0, 0.5, 1), "place 0 99 99", "take 2", "done"):  # type: ignore[arg-type]
        assert_rejected(s, 0, bad)
    s.play(0, first_placement(s))
    assert s.phase == "extras"
    for bad in ("take 1", "score totem", "give", "buy D05", Word("jump")):
        assert_rejected(s, 0, bad)
    s.play(0, "done")
    play_until(s, lambda st: st.phase == "interim")
    for bad in (
        "done",
        "buy D01",
        "take 1",
        Score(("hunter", "fisherman")),
        Score(("totem", "totem")),
        "score totem volcano",
    ):
        assert_rejected(s, 0, bad)
    assert_rejected(s, 2, "score totem", "no seat 2")
    solo_state = game(1)
    solo_state.play(0, "take right")
    solo_state.play(0, first_placement(solo_state))
    assert solo_state.phase == "other"
    for bad in ("done", "take left", "travel", "scrap"):
        assert_rejected(solo_state, 0, bad, "give")
