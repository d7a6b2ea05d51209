"""Bad input: every error is typed, names what was wrong, and leaves the state untouched."""

from __future__ import annotations

import copy

import pytest
from kiti_asserts import assert_rejected as rejected
from miaui_helpers import G, make_deck, new, play_round, rounds_deck

from kiti.core.errors import (
    IllegalMoveError,
    KitiError,
    NotationError,
    OptionError,
    RecordError,
    SetupError,
)
from kiti.core.records import replay


def assert_rejected(s, seat, move, error=IllegalMoveError, *words):
    return rejected(s, seat, move, *words, error=error)


# ------------------------------------------------------------------ illegal moves
@pytest.mark.parametrize(("text", "word"), [("dive 13", "13"), ("dive 0", "0"), ("dive 99", "99")])
def test_out_of_range_diver(text, word):
    s = G.new(3, seed=1)
    err = assert_rejected(s, 0, text, IllegalMoveError, word)
    assert err.seat == 0
    assert "does not exist" in err.reason


def test_used_diver():
    s = G.new(3, seed=1)
    play_round(s, [9, 5, 4])
    err = assert_rejected(s, 0, "dive 9", IllegalMoveError, "has already played diver 9")
    assert str(err.move) == "dive 9"
    # The others' used divers are refused too, and unused ones still work.
    assert_rejected(s, 1, "dive 5", IllegalMoveError, "diver 5")
    s.play(0, "dive 8")


def test_second_dive_in_a_round():
    s = G.new(4, seed=2)
    s.play(2, "dive 7")
    assert_rejected(s, 2, "dive 8", IllegalMoveError, "seat 2", "already")
    # Even the same number again.
    assert_rejected(s, 2, "dive 7", IllegalMoveError, "already")
    assert s.to_act() == frozenset({0, 1, 3})


@pytest.mark.parametrize("seat", [3, 7, -1, True, None, "0", 1.0])
def test_unknown_seat(seat):
    s = G.new(3, seed=3)
    assert_rejected(s, seat, "dive 1", IllegalMoveError, "seat")


def test_unknown_seat_in_views():
    s = G.new(3, seed=3)
    for bad in (3, -1, True, "1"):
        with pytest.raises(KitiError):
            s.observation(bad)
        with pytest.raises(KitiError):
            s.information_state(bad)
        with pytest.raises(KitiError):
            s.resample(bad, __import__("random").Random(0))


def test_move_after_the_end():
    s = G.new(3, seed=4)
    for r in range(1, 12):
        play_round(s, [r, r, r])
    assert s.over
    for seat in range(3):
        assert s.legal_moves(seat) == []
        assert_rejected(s, seat, "dive 12", IllegalMoveError, "over")
        assert_rejected(s, seat, "dive 1", IllegalMoveError, "over")


@pytest.mark.parametrize(
    "text",
    [
        "swim 3",
        "dive",
        "dive x",
        "dive -1",
        "dive 3.0",
        "",
        "   ",
        "dive 3 4",
        "take",
        "take K1 K2",
        "9",
        "dive nine",
        "dive ²",
        "dive ³",
    ],
)
def test_malformed_notation(text):
    with pytest.raises(NotationError) as info:
        G.parse_move(text)
    assert isinstance(info.value, KitiError)
    s = G.new(3, seed=5)
    assert_rejected(s, 0, text, NotationError)


@pytest.mark.parametrize("bad", [None, 3, ["dive", 3], b"dive 3"])
def test_notation_must_be_text(bad):
    with pytest.raises(NotationError):
        G.parse_move(bad)


def test_take_when_not_ordering():
    s = G.new(3, seed=6)
    assert_rejected(s, 0, "take K1", IllegalMoveError, "take")
    s = G.new(3, options={"no_fighting": True}, seed=6)
    assert_rejected(s, 0, "take K1", IllegalMoveError)
    s = G.new(3, options={"no_fighting": True, "taker_chooses_order": True}, seed=6)
    assert_rejected(s, 0, "take K1", IllegalMoveError)


def test_wrong_moves_while_a_taker_orders():
    deck = rounds_deck("K2", [("T9", "K1", "K2"), ("S", "K3", "K4"), ("E15", "K5", "T6")])
    s = new(4, deck, no_fighting=True, taker_chooses_order=True)
    play_round(s, [12, 12, 5, 1])
    play_round(s, [11, 11, 6, 2])
    for seat, n in enumerate([10, 9, 7, 3]):
        s.play(seat, f"dive {n}")
    assert s.to_act() == frozenset({0})
    assert_rejected(s, 1, "take T9", IllegalMoveError, "seat 0")
    assert_rejected(s, 1, "dive 1", IllegalMoveError)
    assert_rejected(s, 0, "dive 1", IllegalMoveError, "take")
    assert_rejected(s, 0, "take K5", IllegalMoveError, "K5")
    assert_rejected(s, 0, "take ZZ", IllegalMoveError, "ZZ")
    s.play(0, "take T9")


# ------------------------------------------------------------------ options and setup
def test_unknown_option():
    with pytest.raises(OptionError) as info:
        G.new(3, options={"open_basket": True}, seed=1)
    assert "open_basket" in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("open_baskets", "maybe"),
        ("no_fighting", 2),
        ("open_baskets", None),
        ("kiti_start", "two"),
        ("kiti_start", True),
        ("kiti_start", 1.5),
        ("taker_chooses_order", []),
    ],
)
def test_bad_option_value(name, value):
    with pytest.raises(OptionError) as info:
        G.new(4, options={name: value}, seed=1)
    assert name in str(info.value)


def test_option_strings_are_accepted():
    s = G.new(4, options={"open_baskets": "yes", "kiti_start": "2"}, seed=1)
    assert s.options["open_baskets"] is True
    assert s.kiti == 2


def test_taker_chooses_order_needs_no_fighting():
    with pytest.raises(KitiError) as info:
        G.new(3, options={"taker_chooses_order": True}, seed=1)
    assert "taker_chooses_order" in str(info.value)
    with pytest.raises(KitiError):
        G.new(3, options={"taker_chooses_order": True, "no_fighting": False}, seed=1)


@pytest.mark.parametrize(("players", "k"), [(3, 3), (3, 5), (4, 4), (5, 6), (6, 6), (3, -1), (6, 99)])
def test_kiti_start_out_of_range(players, k):
    with pytest.raises(KitiError) as info:
        G.new(players, options={"kiti_start": k}, seed=1)
    assert "kiti_start" in str(info.value)


@pytest.mark.parametrize(("players", "k"), [(3, 2), (6, 5), (4, 0)])
def test_kiti_start_in_range(players, k):
    assert G.new(players, options={"kiti_start": k}, seed=1).kiti == k


@pytest.mark.parametrize("players", [2, 7, 0, -3, "4", 4.0, True, None])
def test_bad_seat_count(players):
    with pytest.raises(SetupError):
        G.new(players, seed=1)


@pytest.mark.parametrize("seed", ["1", 1.5, True])
def test_bad_seed(seed):
    with pytest.raises(SetupError):
        G.new(3, seed=seed)


@pytest.mark.parametrize(
    ("deck", "words"),
    [
        (make_deck([])[:-1], ["missing"]),  # 36 cards
        ([*make_deck([]), "K1"], ["unexpected", "K1"]),  # 38 cards
        ([*make_deck([])[:-1], "Q7"], ["Q7"]),  # an unknown code
        (["K1"] * 37, ["unexpected"]),
        ("K1 K2", []),
        (None, []),
        ([1] * 37, []),
    ],
)
def test_bad_setup_deck(deck, words):
    with pytest.raises(SetupError) as info:
        G.new(3, seed=1, setup={"deck": deck})
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize("k", [3, -1, "0", True, 1.0])
def test_bad_setup_kiti(k):
    with pytest.raises(SetupError):
        G.new(3, seed=1, setup={"kiti": k})


def test_setup_kiti_with_no_fighting_and_unknown_setup_key():
    with pytest.raises(SetupError):
        G.new(3, options={"no_fighting": True}, seed=1, setup={"kiti": 0})
    assert G.new(3, options={"no_fighting": True}, seed=1, setup={"kiti": None}).kiti is None
    with pytest.raises(SetupError) as info:
        G.new(3, seed=1, setup={"decks": make_deck([])})
    assert "decks" in str(info.value)


# ------------------------------------------------------------------ records
def good_record():
    s = G.new(4, options={"open_baskets": True}, seed=77)
    play_round(s, [9, 5, 4, 2])
    play_round(s, [8, 6, 3, 1])
    s.play(0, "dive 12")
    return s.record()


def test_good_record_replays():
    rec = good_record()
    s = replay(copy.deepcopy(rec))
    assert len(s.history) == 9
    assert s.record() == rec


@pytest.mark.parametrize("key", ["game", "players", "moves"])
def test_record_missing_key(key):
    rec = good_record()
    del rec[key]
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert key in str(info.value)


@pytest.mark.parametrize(
    "change",
    [
        lambda r: r.update(game="chess"),
        lambda r: r.update(players=9),
        lambda r: r.update(options={"no_such": 1}),
        lambda r: r.update(options={"taker_chooses_order": True}),
        lambda r: r.update(options=[1, 2]),
        lambda r: r.update(setup="deck"),
        lambda r: r.update(setup={"deck": make_deck([])[:-1]}),
        lambda r: r.update(setup={"deck": [*make_deck([])[:-1], "X1"]}),
        lambda r: r.update(moves="dive 1"),
        lambda r: r.update(colour="blue"),
        lambda r: r.update(seed="abc"),
        lambda r: r.update(version="99"),
    ],
)
def test_malformed_record_header(change):
    rec = good_record()
    change(rec)
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index is None


@pytest.mark.parametrize(
    ("index", "entry", "words"),
    [
        (0, [0, "dive 13"], ["13"]),
        (3, [3, "swim"], ["swim"]),
        (5, [1, "dive 5"], ["diver 5"]),  # seat 1 used 5 in round 1
        (4, [9, "dive 1"], ["seat"]),
        (2, [1, "dive 4"], ["already"]),  # seat 1 dives twice in round 1
        (1, "dive 1", []),
        (1, [1], []),
        (1, [True, "dive 1"], []),
        (1, [1, 5], []),
        (7, [2, "take K1"], ["take"]),
        (1, [0, "dive 1"], ["already"]),  # seat 0 already dived in this round
        (6, [2, "dive ²"], []),  # a digit that int() refuses: must still be a RecordError
    ],
)
def test_bad_move_in_record(index, entry, words):
    rec = good_record()
    rec["moves"][index] = entry
    with pytest.raises(RecordError) as info:
        replay(rec)
    err = info.value
    assert err.index == index
    assert f"move {index + 1} " in str(err)  # people count moves from 1
    for w in words:
        assert w in str(err)


def test_record_move_after_the_end():
    s = G.new(3, seed=4)
    for r in range(1, 12):
        play_round(s, [r, r, r])
    rec = s.record()
    rec["moves"].append([0, "dive 12"])
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert info.value.index == 33
    assert "over" in str(info.value)


def test_record_of_a_resampled_state_is_refused():
    import random

    s = G.new(3, seed=4)
    s.play(0, "dive 3")
    r = s.resample(1, random.Random(1))
    with pytest.raises(KitiError):
        r.record()
