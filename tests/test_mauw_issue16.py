"""Mauw, issue 16: when the Kiwi is discarded, the words for a Warrior on your own nines,
the place prompt, and bad move objects."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from mauw_helpers import G, column, position

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
    s.apply(0, "KI 1A>0A")
    kinds = [e["type"] for e in s.events("referee")]
    assert kinds[-7:] == ["kiwi", "combo", "reshuffle", "nine", "draw", "drew", "turn"]  # the premise
    assert "KI" not in s.draw
    assert "KI" not in [c for area in s.nines for col in area for c in col]  # not a face-down nine
    assert "KI" not in s.hands[0]  # not drawn back by its owner either
    assert s.discard == ["KI"]  # discarded once the effect was over: alone on the new discards
    s.check_invariants()


def test_the_kiwi_goes_to_the_discards_after_the_combo_cards() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"0A": ([], "R1"), "1A": (["G6"], "R8")}, kiwi=1)
    s.apply(0, "KI 1A>0A")
    assert s.discard[-3:] == ["R8", "R1", "KI"]
    assert column(s, "1A") == (1, None)


def test_undo_and_copies_agree_after_a_kiwi_combo_that_reshuffles() -> None:
    s = kiwi_combo_on_an_empty_draw_pile()
    clone = s.clone()
    s.apply(0, "KI 1A>0A")
    clone.apply(0, "KI 1A>0A")
    assert clone.table() == s.table() and clone.events("referee") == s.events("referee")
    assert s.undo_refusal(0)  # the reshuffle used chance: no take-back
    resampled = s.resample(1, random.Random(3))
    assert resampled.table()["discard"] == ["KI"] and "KI" not in resampled.draw
    resampled.check_invariants()


def test_a_kiwi_move_without_chance_is_undone_exactly() -> None:
    s = position([["KI", "B4", "B4", "B5"], FILL], {"1A": (["G6"], "R8"), "1B": (["G6"], None)}, kiwi=1)
    before = (s.table(), s.events("referee"))
    s.apply(0, "KI 1A>1B")  # a block: no draw from an empty pile, but seat 0 draws back to four
    assert s.discard == ["KI"]
    if s.undo_refusal(0) is None:
        s.undo(0)
        assert (s.table(), s.events("referee")) == before


@pytest.mark.skipif(not RECORD.exists(), reason="the shared records are not here")
def test_the_reported_record_keeps_its_kiwi_out_of_the_new_pile() -> None:
    record = json.loads(RECORD.read_text())
    head = {**record, "moves": record["moves"][:-1]}
    before = replay(head, get_game)
    assert str(record["moves"][-1][1]).startswith("KI") and not before.draw  # the premise
    state = replay(record, get_game)
    assert state.events("referee")[-5]["type"] == "reshuffle"  # during the Kiwi's combo
    assert state.table()["discard"] == ["KI"]  # discarded after the reshuffle, alone on the pile
    state.check_invariants()


def test_records_of_the_old_kiwi_timing_are_refused_not_replayed_differently() -> None:
    from kiti.core.errors import RecordError

    record = G.new(2, {"kiwi": 4}, 5).record()
    assert record["version"] == "2"
    with pytest.raises(RecordError, match="version"):
        replay({**record, "version": "1"}, get_game)
