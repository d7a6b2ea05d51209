"""Issue 16, MOTU item 6: ``why`` for a legal move says what it would do, from the rules: every
kind of move (take, solo take, scrap, place, buy, travel, done, score, give, discard). The
figures each test expects come from the rule functions applied here, never from the text; the
explanation changes nothing, and tells nothing the seat cannot see."""

from __future__ import annotations

import re

import pytest
from kiti_asserts import snapshot
from motu_helpers import game, play_until

from kiti.cli.render import speak
from kiti.games.motu.cards import DESTINIES, SYMBOL_NAME, TOTEMS, TRAVELERS
from kiti.games.motu.island import Island, lay_card
from kiti.games.motu.rules import SCRAP, MotuState, Place, pay_positions
from kiti.games.motu.sources import (
    SOURCE_NAME,
    SOURCES,
    longest_beach,
    ruler_points,
    traveler_points,
    volcano_distance,
)

SEA = ["I13", "I14", "I15", "I16", "I17", "I18"]  # the all-Sea cards: none fits the all-Land V5


def explained(s: MotuState, seat: int, text: str) -> str:
    """The explanation of a legal move; it leaves the state exactly as it was."""
    move = s.parse_move(text)
    assert s.illegal_reason(seat, move) is None, "premise: the move is legal"
    before = snapshot(s)
    said = s.explain_move(seat, move)
    assert snapshot(s) == before, "explaining a move changed the state"
    assert said != str(move) and said != s.describe_move(seat, move), "it only repeats the move"
    return said


def after(s: MotuState, seat: int, text: str) -> MotuState:
    copy = s.clone()
    assert isinstance(copy, MotuState)
    copy.play(seat, text)
    return copy


def test_take_tells_the_price_the_bank_and_the_places_it_fits() -> None:
    s = game(2, seed=3)
    said = explained(s, 0, "take 3")
    then = after(s, 0, "take 3")
    assert f"take {s.row[2]}, card 3 of the row" in said, said
    assert "it costs 2 coconut(s), one put on each card to its left" in said
    assert f"seat 0's coconuts {s.banks[0]} → {then.banks[0]}" in said
    assert f"({len(then.legal_moves(0))} legal placements)" in said
    assert "is free" in explained(s, 0, "take 1")


def covering_placement(s: MotuState, seat: int) -> tuple[Place, Island]:
    """A legal placement of the card in hand that covers a symbol and shows a volcano."""
    island = s.islands[seat]
    for move in s.legal_moves(seat):
        assert isinstance(move, Place)
        new = lay_card(island, str(s.holding), move.rotation, move.x, move.y)
        fresh = [p for p, k in new.symbols.items() if k == "volcano" and p not in island.symbols]
        if fresh:
            return move, new
    raise AssertionError("premise: no placement shows a new volcano")


def test_place_tells_the_covered_symbols_each_source_the_beach_and_the_ruler() -> None:
    s = game(2, row=["I01"], seed=1)  # I01 carries a volcano
    s.play(0, "take 1")
    move, new = covering_placement(s, 0)
    said = explained(s, 0, str(move))
    old = s.islands[0]
    top = len(new.placements) - 1
    covered = [(p, k) for p, k in old.symbols.items() if new.cells[p].layer == top]
    assert covered, "premise: a placement covers a symbol"
    for p, kind in covered:
        name = f"{SYMBOL_NAME[kind]} totem" if kind in TOTEMS else SYMBOL_NAME[kind]
        assert f"the {name} at {p}" in said, said
    then = after(s, 0, str(move))
    for source in SOURCES:
        was, now = s.source_value(0, source), then.source_value(0, source)
        if was != now:
            assert f"{SOURCE_NAME[source]} {was} → {now} points" in said, (source, said)
    volcano = next(p for p, k in new.symbols.items() if k == "volcano" and p not in old.symbols)
    distance = volcano_distance(new, volcano)
    points = ruler_points(distance)
    assert f"a Volcano at {volcano}, {distance:.1f} cells from the village star: {points} point" in said
    beach = (longest_beach(old), longest_beach(new))
    assert (
        f"longest beach {beach[0]} → {beach[1]}"
        if beach[0] != beach[1]
        else f"longest beach still {beach[0]}"
    ) in said
    assert then.row[-1] not in said, "the card that refills the row stays unnamed"


def test_place_tells_the_symbol_counts_of_a_pair_source() -> None:
    s = game(2, row=["I19"], villages=["V1", "V2"], seed=2)  # I19: a hunter and a fish
    s.play(0, "take 1")
    for move in s.legal_moves(0):
        then = after(s, 0, str(move))
        if then.source_value(0, "fisherman") != s.source_value(0, "fisherman") or then.source_value(
            0, "hunter"
        ) != s.source_value(0, "hunter"):
            break
    else:
        raise AssertionError("premise: some placement changes a pair Source")
    said = explained(s, 0, str(move))
    assert re.search(r"\((Fisherman|Hunter) \d+( → \d+)?, (Fish|Bird) \d+( → \d+)?\)", said), said


def test_buy_tells_the_price_where_it_goes_and_what_it_would_give_now() -> None:
    s = game(2, seed=5, destinies=["D04", "D06", "D01"])
    s.play(0, "take 1")
    s.apply(0, s.legal_moves(0)[0])
    assert s.phase == "extras"
    said = explained(s, 0, "buy D04")
    then = after(s, 0, "buy D04")
    cards = ", ".join(str(i + 1) for i in pay_positions(DESTINIES["D04"].price, len(s.row)))
    assert f"buy Destiny D04 for 2 coconut(s), one on each row card from the right (cards {cards})" in said
    assert f"seat 0's coconuts {s.banks[0]} → {then.banks[0]}" in said
    assert f"if the game ended now it would give seat 0 {then.destiny_value(0, 'D04'):+}" in said
    assert "then seat 0 may travel / done" in said


def test_travel_tells_the_points_now_and_the_sources_it_changes() -> None:
    s = game(2, seed=5, travelers=["T5", "T1"])  # T5: 3 coconuts, 3 points per volcano in the row
    s.play(0, "take 1")
    s.apply(0, s.legal_moves(0)[0])
    said = explained(s, 0, "travel")
    then = after(s, 0, "travel")
    points = traveler_points(TRAVELERS["T5"], s.row)
    assert f"{points} point(s) now from the row" in said, said
    assert f"Coconut {s.source_value(0, 'coconut')} → {then.source_value(0, 'coconut')} points" in said
    assert "it ends seat 0's turn; then seat 1's turn begins" in said


def test_done_and_the_interim_it_leads_to() -> None:
    s = game(2, seed=5)
    s.play(0, "take 1")
    s.apply(0, s.legal_moves(0)[0])
    assert explained(s, 0, "done") == "end seat 0's turn; then seat 1's turn begins"
    while not (s.phase == "take" and len(s.piles[0]) == 1):  # plain turns until pile A's last card
        legal = [str(m) for m in s.legal_moves(s.turn)]
        s.play(s.turn, "done" if s.phase == "extras" else "take 1" if "take 1" in legal else legal[0])
    seat = s.turn
    s.play(seat, "take 1")
    said = explained(s, seat, str(s.legal_moves(seat)[0]))
    assert "pile A is then empty: an interim total follows at the end of that turn" in said, said
    s.apply(seat, s.legal_moves(seat)[0])
    assert s.phase == "extras" and s.emptied, "premise: the turn's optional steps come first"
    said = explained(s, seat, "done")
    assert (
        said
        == f"end seat {seat}'s turn; pile A is then empty: every seat chooses 1 Source(s) to score, in secret"
    )


def test_score_tells_each_sources_points_and_keeps_the_others_secret() -> None:
    s = play_until(game(3, seed=4), lambda g: g.phase == "interim", seed=1)
    said = explained(s, 0, "score Canoe/Palm Tree")
    canoe = s.source_value(0, "canoe")
    assert f"score Canoe/Palm Tree ({canoe} point" in said, said
    assert "once every seat has chosen" in said and "still to choose: seat 1, seat 2" in said
    s.play(0, "score totem")
    s.play(1, "score volcano")
    said = explained(s, 2, "score hunter")
    assert said.endswith("; the interim total of pile A is then recorded; then seat 0's turn begins"), said
    told = said.split("; left for later")[0]
    assert "Totems" not in told and "Volcano" not in told, "other seats' secret choices stay untold"


def test_scrap_tells_which_card_goes_and_what_is_gained() -> None:
    s = game(2, row=SEA[:4], villages=["V5", "V1"])
    assert s.legal_moves(0) == [SCRAP], "premise: no Sea card fits the all-Land village"
    said = explained(s, 0, "scrap")
    assert f"the leftmost card of the row, {SEA[0]}, is discarded" in said and "refilled" in said, said


def test_solo_takes_give_and_discard() -> None:
    s = game(1, piles={"A": ["I01", "I02"]}, villages=["V1"])
    left, right = s.shown
    said = explained(s, 0, "take left")
    then = after(s, 0, "take left")
    assert f"take the left card, {left}: 1 coconut goes from seat 0's bank to the Beach Hut" in said
    assert f"seat 0's coconuts {s.banks[0]} → {then.banks[0]}, the Beach Hut {s.hut} → {then.hut}" in said
    assert (
        f"the other card, {right}, then goes face down to the Opponent unless 3 of seat 0's coconuts" in said
    )
    assert "1 coconut comes from the Beach Hut" in explained(s, 0, "take right")
    s.play(0, "take left")
    s.apply(0, s.legal_moves(0)[0])
    assert s.phase == "other"
    said = explained(s, 0, "give")
    assert f"the other card, {right}, goes face down onto the Opponent's pile (0 → 1 cards)" in said, said
    said = explained(s, 0, "discard")
    assert f"seat 0's coconuts {s.banks[0]} → {s.banks[0] - 3}, the Beach Hut {s.hut} → {s.hut + 3}" in said
    nxt = after(s, 0, "give").shown
    assert not any(c in said for c in nxt), "the next cards shown stay unnamed"


def test_solo_scrap() -> None:
    s = game(1, piles={"A": SEA[:2]}, villages=["V5"])
    assert s.legal_moves(0) == [SCRAP]
    said = explained(s, 0, "scrap")
    assert f"the left card, {SEA[0]}, is discarded" in said and SEA[1] in said, said


@pytest.mark.parametrize("players", [1, 3])
def test_every_legal_move_of_a_game_is_explained_for_its_seat(players: int) -> None:
    """Through a whole random game: every legal move of every kind is explained, worded for
    the seat ("you", never "you pays"), and the explanation never names a card still hidden."""
    import random

    s = game(players, seed=7)
    rng = random.Random(7)
    kinds = set()
    while not s.over:
        seat = min(s.to_act())
        moves = s.legal_moves(seat)
        for move in moves if s.phase != "place" else moves[:3]:
            said = speak(s.explain_move(seat, move), seat)
            kinds.add(type(move).__name__ + ("" if type(move) is not type(SCRAP) else str(move)))
            assert not re.search(r"\byou (pays|gains|has|is)\b", said), said
            hidden = [c for p in s.piles for c in p] + s.box
            assert not any(re.search(rf"\b{c}\b", said) for c in hidden), said
        s.apply(seat, s.random_move(seat, rng))
    expected = {"Place", "Score"} | ({"SoloTake", "Wordgive"} if players == 1 else {"Take", "Worddone"})
    assert expected <= kinds, kinds


def test_solo_other_card_goes_by_itself_when_the_discard_cannot_be_paid() -> None:
    s = game(1, piles={"A": ["I01", "I02"]}, villages=["V1"])
    s.supply += s.banks[0] - 3
    s.banks[0] = 3  # after paying 1 for the left card, 2: too few to discard the other
    s.check_invariants()
    said = explained(s, 0, "take left")
    assert "the other card, I02, then goes face down to the Opponent (seat 0's coconuts cannot pay" in said
    assert "None" not in said
    s = game(1, piles={"A": SEA[:2]}, villages=["V5"])
    s.supply += s.banks[0] - 2
    s.banks[0] = 2
    s.check_invariants()
    said = explained(s, 0, "scrap")
    assert (
        f"the other card, {SEA[1]}, then goes face down to the Opponent (seat 0's coconuts cannot pay" in said
    )
    assert "None" not in said
