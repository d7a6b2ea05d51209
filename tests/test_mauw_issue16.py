"""Mauw, issue 16: when the Kiwi is discarded, the words for a Warrior on your own nines,
the place prompt, and bad move objects."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from mauw_helpers import G, column, position

from kiti.core.events import REFEREE
from kiti.core.records import replay
from kiti.core.registry import get_game

FILL = ["R1", "R1", "R1", "R1"]
LONE = {"0B": ([], "G3"), "0C": ([], "G3"), "0D": ([], "G3")}  # the gain can only go on A
RECORD = Path(__file__).resolve().parents[2] / "shared" / "records" / "mauw-kiwi-discard-timing.json"


# ------------------------------------------------------------------ the Kiwi is discarded afterwards
def kiwi_combo_on_an_empty_draw_pile():  # type: ignore[no-untyped-def]
    """Seat 0 fetches seat 1's R8 with a Kiwi onto its own R1 (a pair: a nine must be drawn)
    while the draw pile is empty: the discards are shuffled into a new one during the effect."""
    s = position([["KI", "B4", "B4", "B5"], FILL], {"0A": ([], "R1"), "1A": (["G6"], "R8"), **LONE}, kiwi=1)
    s.discard, s.draw = s.draw, []
    assert "KI" not in s.discard  # the only Kiwi is in seat 0's hand
    return s


def test_the_kiwi_is_not_shuffled_into_the_pile_its_own_combo_makes() -> None:
    s = kiwi_combo_on_an_empty_draw_pile()
    s.play(0, "KI 1A>0A")
    kinds = [e["type"] for e in s.events("referee")]
    assert kinds[-7:] == ["kiwi", "combo", "reshuffle", "nine", "draw", "drew", "turn"]  # the premise
    assert "KI" not in s.draw
    assert "KI" not in [c for area in s.nines for col in area for c in col]  # not a face-down nine
    assert "KI" not in s.hands[0]  # not drawn back by its owner either
    assert s.discard == ["KI"]  # discarded once the effect was over: alone on the new discards
    s.check_invariants()


def test_the_kiwi_goes_to_the_discards_after_the_combo_cards() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"0A": ([], "R1"), "1A": (["G6"], "R8")}, kiwi=1)
    s.play(0, "KI 1A>0A")
    assert s.discard[-3:] == ["R8", "R1", "KI"]
    assert column(s, "1A") == (1, None)


def test_undo_and_copies_agree_after_a_kiwi_combo_that_reshuffles() -> None:
    s = kiwi_combo_on_an_empty_draw_pile()
    clone = s.clone()
    s.play(0, "KI 1A>0A")
    clone.play(0, "KI 1A>0A")
    assert clone.observation(REFEREE) == s.observation(REFEREE) and clone.events("referee") == s.events(
        "referee"
    )
    assert s.undo_refusal(0)  # the reshuffle used chance: no take-back
    resampled = s.resample(1, random.Random(3))
    assert resampled.observation(REFEREE)["discard"] == ["KI"] and "KI" not in resampled.draw
    resampled.check_invariants()


def test_a_kiwi_move_without_chance_is_undone_exactly() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"1A": (["G6"], "R8"), "1B": (["G6"], None)}, kiwi=1)
    before = (s.observation(REFEREE), s.events("referee"))
    s.play(0, "KI 1A>1B")  # a block: no draw from an empty pile, but seat 0 draws back to four
    assert s.discard == ["KI"]
    if s.undo_refusal(0) is None:
        s.undo(0)
        assert (s.observation(REFEREE), s.events("referee")) == before


@pytest.mark.skipif(not RECORD.exists(), reason="the shared records are not here")
def test_the_reported_record_keeps_its_kiwi_out_of_the_new_pile() -> None:
    record = json.loads(RECORD.read_text())
    head = {**record, "moves": record["moves"][:-1]}
    before = replay(head, get_game)
    assert str(record["moves"][-1][1]).startswith("KI") and not before.draw  # the premise
    state = replay(record, get_game)
    assert state.events("referee")[-5]["type"] == "reshuffle"  # during the Kiwi's combo
    assert state.observation(REFEREE)["discard"] == ["KI"]  # discarded after the reshuffle, alone on the pile
    state.check_invariants()


def test_records_of_the_old_kiwi_timing_are_refused_not_replayed_differently() -> None:
    from kiti.core.errors import RecordError

    record = G.new(2, {"kiwi": 4}, 5).record()
    assert record["version"] == "2"
    with pytest.raises(RecordError, match="version"):
        replay({**record, "version": "1"}, get_game)


# ------------------------------------------------------------------ words: strengthen, block, teams
def told(state, viewer=None):  # type: ignore[no-untyped-def]
    from kiti.cli.render import tell_events

    return tell_events(type(state), state.events(viewer), viewer)


def test_a_warrior_on_your_own_nines_strengthens_them_and_is_no_block() -> None:
    s = position(
        [["R8", "B4", "B4", "B5"], ["B4", "R1", "R1", "R1"]], {"0D": (["G6"], None), "0C": (["G6"], None)}
    )
    s.play(0, "R8 0D")
    s.play(1, "B4 0C")
    lines = told(s)  # a spectator's
    mine = next(x for x in lines if "R8" in x)
    theirs = next(x for x in lines if "B4" in x and "column C" in x)
    assert "strengthened" in mine and "block" not in mine, mine
    assert mine == "Seat 0 strengthened seat 0's nines in column D with R8."
    assert theirs == "Seat 1 blocked seat 0's column C with B4."
    assert "You strengthened your nines in column D with R8." in told(s, 0)


def test_a_kiwi_line_tells_what_the_fetched_warrior_did() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"1A": (["G6"], "R8"), "0B": (["G6"], None)}, kiwi=1)
    s.play(0, "KI 1A>0B")
    line = next(x for x in told(s) if "Kiwi" in x)
    assert line == (
        "Seat 0 played a Kiwi: took R8 from seat 1's column A and strengthened seat 0's "
        "nines in column B with R8."
    )


def test_kiti_rules_mauw_says_who_may_be_blocked_and_who_plays_tuatura() -> None:
    from typer.testing import CliRunner

    from kiti.cli.main import app

    out = CliRunner().invoke(app, ["rules", "mauw"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert "anyone's bare nines" not in text
    assert "or on an opponent's bare nines (blocks them)" in text
    assert "own empty slot or bare nines (strengthens your lines)" in text
    assert "nobody blocks, attacks or plays on a teammate's columns" in text
    assert "Tuatura, played only by the attacked player" in text


def test_in_team_play_a_teammates_bare_nines_take_no_warrior() -> None:
    hands = [["R8", "SP", "B4", "B5"], ["Y2"] * 4, ["G3"] * 4, ["Y7"] * 4]
    s = position(hands, {"2A": (["G6"], None), "1A": (["G6"], None)}, teams=True)
    assert s.teammate(0) == 2  # the premise: seats 0 and 2 play together
    legal = [str(m) for m in s.legal_moves(0)]
    assert "R8 1A" in legal and "SP 1A" in legal  # an opponent's nines
    assert not any(m.endswith(" 2A") for m in legal)  # the teammate's


# ------------------------------------------------------------------ prompts offer exactly the legal answers
def asked(state, seat):  # type: ignore[no-untyped-def]
    from kiti.cli.render import words

    return words(type(state)).prompt(state.view(seat), seat)


def test_the_place_prompt_offers_exactly_the_slots_that_take_the_gain() -> None:
    s = position(
        [["Y2", "B4", "B4", "B5"], FILL], {"0A": (["G6"], "R8"), "0B": ([], "Y7"), "0C": (["G6"] * 3, None)}
    )
    s.play(0, "Y2 0B")  # a pair: a nine for B (freed) or D; A has a Warrior, C three nines
    legal = [str(m) for m in s.legal_moves(0)]
    assert legal == ["place B", "place D"]  # the premise
    text = asked(s, 0)
    assert text == "place your gain (a nine): place B or D"
    assert not any(x in text.split(":")[1] for x in "AC")


def test_the_defence_prompt_offers_what_the_hand_holds() -> None:
    s = position([["Y2", "Y2", "B4", "B5"], ["JK", "TU", "R1", "R1"]], {"1A": ([], "Y7")}, tuatura=1)
    s.play(0, "Y2 1A")
    assert asked(s, 1) == "seat 0 attacks the Y7 of your column A with Y2: defend JK=Y2, TU or decline"
    assert [str(m) for m in s.legal_moves(1)] == ["defend JK=Y2", "TU", "decline"]
    s.play(1, "defend JK=Y2")
    assert asked(s, 0) == "your attack on the Y7 was defended: renew Y2 or stop"
    bare = position([["Y2", "B4", "B4", "B5"], FILL], {"1A": ([], "Y7")})
    bare.play(0, "Y2 1A")
    assert asked(bare, 1) == (
        "seat 0 attacks the Y7 of your column A with Y2: you hold no Y2 and no Joker to defend with: decline"
    )


def test_log_lines_are_broken_between_words_at_80_columns_never_cut() -> None:
    from rich.console import Console

    from kiti.cli.render import tell_events, terminal

    s = position([["KI", "B4", "B4", "B5"], FILL], {"1A": (["G6"], "R8"), "0B": (["G6"], None)}, kiwi=1)
    s.play(0, "KI 1A>0B")
    names = ["Annabelle-Marie", "Bartholomew"]
    sentence = next(x for x in tell_events(type(s), s.events(1), 1, names) if "Kiwi" in x)
    assert len(sentence) > 80  # the premise: it cannot fit one line
    console = Console(width=80, record=True, color_system=None)
    console.print(terminal(type(s)).render_view(s.view(1), s.events(1), names, width=80, height=24))
    lines = console.export_text().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert sentence in " ".join(line.strip() for line in lines)  # whole, broken only between words
    assert len(lines) <= 24


# ------------------------------------------------------------------ bad move objects and bad text
HUGE = 10**4000


def malformed_moves():  # type: ignore[no-untyped-def]
    from kiti.games.mauw import rules as m

    return [
        m.Word(None),
        m.Word("jump"),
        m.Place(None),
        m.Place(HUGE),
        m.Place(-1),
        m.Place(4),  # type: ignore[arg-type]
        m.Play("R8", HUGE, 0),
        m.Play("R8", 0, HUGE),
        m.Play("R8", -HUGE, 0),
        m.Play("x" * 5000, 0, 0),
        m.Play("JK", 1, 0, "Q" * 5000),
        m.Play(None, 0, 0),
        m.KiwiPlay(HUGE, 0, 0, 0),  # type: ignore[arg-type]
        m.KiwiPlay(0, 0, 0, HUGE),
        m.NinoxPlay(1, HUGE),
        m.NinoxPlay(HUGE, 0),
        m.Answer("defend", "Y2" * 3000),
        m.Answer("x" * 5000, "Y2"),
        m.Answer("defend", None),
    ]  # type: ignore[arg-type]


def phases():  # type: ignore[no-untyped-def]
    """A state in each phase: turn, defend, renew, place, assist (teams)."""
    turn = position([["Y2", "Y2", "KI", "NI"], ["Y2", "R1", "R1", "R1"]], {"1A": ([], "Y7")}, kiwi=1, ninox=1)
    defend = position([["Y2", "Y2", "B4", "B5"], ["Y2", "R1", "R1", "R1"]], {"1A": ([], "Y7")})
    defend.play(0, "Y2 1A")
    renew = position([["Y2", "Y2", "B4", "B5"], ["Y2", "R1", "R1", "R1"]], {"1A": ([], "Y7")})
    renew.play(0, "Y2 1A")
    renew.play(1, "defend Y2")
    place = position([["Y2", "B4", "B4", "B5"], FILL], {"0B": ([], "Y7")})
    place.play(0, "Y2 0B")
    assist = position(
        [["Y2", "B4", "B4", "B5"], ["G3"] * 4, ["G6"] * 4, ["B4"] * 4], {"1A": ([], "Y7")}, teams=True
    )
    assist.play(0, "Y2 1A")
    assist.play(1, "decline")
    return {
        "turn": (turn, 0),
        "defend": (defend, 1),
        "renew": (renew, 0),
        "place": (place, 0),
        "assist": (assist, 3),
    }


@pytest.mark.parametrize("phase", ["turn", "defend", "renew", "place", "assist"])
def test_a_malformed_move_object_is_refused_with_a_short_reason(phase: str) -> None:
    from kiti_asserts import assert_rejected

    from kiti.core.errors import IllegalMoveError

    state, seat = phases()[phase]
    assert state.phase == phase and state.to_act() == {seat}  # the premise
    for move in malformed_moves():
        error = assert_rejected(state, seat, move, error=IllegalMoveError)
        assert len(str(error)) < 300, (move, str(error)[:300])
        assert state.illegal_reason(seat, move) == str(error)


def test_bad_notation_quotes_at_most_a_readable_piece() -> None:
    from kiti.core.errors import NotationError

    for text in [
        "place " + "Q" * 190,
        "KI " + "1" * 190,
        "NI " + "x" * 190,
        "R8 " + "z" * 190,
        "defend " + "y" * 190,
        "JK=" + "Q" * 190 + " 1A",
    ]:
        with pytest.raises(NotationError) as info:
            G.parse_move(text)
        assert len(str(info.value)) < 200 and "..." in str(info.value), str(info.value)


def test_a_bad_setup_value_is_quoted_short() -> None:
    from kiti.core.errors import SetupError

    with pytest.raises(SetupError) as info:
        G.new(2, None, 0, {"first": HUGE})
    assert "digits" in str(info.value) and len(str(info.value)) < 200
    with pytest.raises(SetupError) as info:
        G.new(2, None, 0, {"deck": ["Z" * 5000] * 5})
    assert len(str(info.value)) < 400
