"""Mauw's typed contract (issue 18): the rule facts its view carries agree with the rules
(what a column accepts, which cards answer an attack, where a gain goes, the deck), moves come
in steps whose tokens name what a player picks, and event sentences come from one template
table."""

from __future__ import annotations

import random

from mauw_helpers import position

from kiti.core.registry import get_game
from kiti.games.mauw import words
from kiti.games.mauw.rules import JOKER, KiwiPlay, MauwState, NinoxPlay, Place, Play, Word
from kiti.games.mauw.view import EVENT_TYPES, MauwView

G = get_game("mauw")
WARRIORS = ["B4", "B5", "G3", "G6", "R1", "R8", "Y2", "Y7"]


def accepts(state: MauwState, viewer: int, where: str) -> list[str]:
    return state.observation(viewer)["columns"][int(where[0])]["ABCD".index(where[1])]["accepts"]


def test_an_opponents_empty_slot_accepts_warriors_only_with_open_slot_block() -> None:
    hands = [["R1", "B4", "G3", "Y2"], ["R8", "B5", "G6", "Y7"]]
    assert accepts(position(hands), 0, "1A") == []
    assert accepts(position(hands, open_slot_block=True), 0, "1A") == WARRIORS
    assert accepts(position(hands), 0, "0A") == WARRIORS  # your own empty slot: a Warrior, never a Spirit


def test_columns_accept_what_the_rules_allow_there() -> None:
    s = position(
        [["R1", "B4", "G3", "Y2"], ["R8", "B5", "G6", "Y7"]],
        {"1A": (["G6"], None), "1B": ([], "SP"), "0C": ([], "SP"), "1D": (["B5"], "R8")},
        ninox=1,
    )
    assert accepts(s, 0, "1A") == sorted([*WARRIORS, "SP"])  # an opponent's bare nines: block them
    assert accepts(s, 0, "1B") == ["NI"]  # an opponent's Spirit: only a Ninox takes it
    assert accepts(s, 0, "0C") == ["SP", JOKER]  # your own Spirit: a Spirit or a Joker unblocks it
    assert accepts(s, 0, "1D") == ["R1", "R8", JOKER]  # a red Warrior: a red attack, or a Joker as one
    assert (
        accepts(position([["R1", "B4", "G3", "Y2"], ["R8", "B5", "G6", "Y7"]], {"1B": ([], "SP")}), 0, "1B")
        == []
    )  # no Ninox in the deck
    assert all(not col["accepts"] for area in s.observation(None)["columns"] for col in area)  # a spectator


def test_in_team_play_a_teammates_columns_accept_nothing_and_opponents_are_named() -> None:
    hands = [
        ["R1", "B4", "G3", "Y2"],
        ["R8", "B5", "G6", "Y7"],
        ["R1", "B4", "G3", "Y2"],
        ["R8", "B5", "G6", "Y7"],
    ]
    s = position(hands, {"2A": (["G6"], None), "3A": (["G6"], None)}, teams=True)
    view = s.observation(0)
    assert view["opponents"] == [1, 3]
    assert all(col["accepts"] == [] for col in view["columns"][2])  # seat 2 is seat 0's teammate
    assert view["columns"][3][0]["accepts"] == sorted([*WARRIORS, "SP"])  # an opponent's bare nines
    assert s.observation(1)["opponents"] == [0, 2]


def test_what_a_column_accepts_agrees_with_the_legal_plays() -> None:
    for options in ({}, {"open_slot_block": True, "ninox": 2, "teams": True}):
        state = G.new(4, options, 9)
        rng = random.Random(2)
        checked = 0
        while not state.over and checked < 40:
            seat = min(state.to_act())
            view = state.view(seat)
            if view.phase == "turn":
                checked += 1
                for move in state.legal_moves(seat):
                    if isinstance(move, (Play, NinoxPlay)):
                        card = move.card if isinstance(move, Play) else "NI"
                        assert card in view.columns[move.seat][move.slot].accepts, (move, options)
                hand = set(view.hands[seat])
                for area in view.columns:
                    for col in area:
                        for card in hand & set(col.accepts):
                            assert any(
                                m.steps()[0] == card and m.steps()[-1] == col.where
                                for m in state.legal_moves(seat)
                            ), (card, col.where)
            state.apply(seat, state.random_move(seat, rng))


def test_an_attacks_answers_are_in_the_view_tuatura_only_for_the_attacked_player() -> None:
    cols = {"1A": (["G6"], "R8")}
    hands = [["R1", "B4", "G3", "Y2"], ["R1", "B5", "G6", "Y7"]]
    plain = position(hands, cols)
    plain.play(0, "R1 1A")
    assert plain.observation(1)["attack"]["answers"] == ["R1", JOKER]
    with_tu = position(hands, cols, tuatura=1)
    with_tu.play(0, "R1 1A")
    assert with_tu.observation(0)["attack"]["answers"] == ["R1", JOKER, "TU"]
    with_tu.play(1, "defend R1")
    assert with_tu.observation(0)["attack"]["answers"] == ["R1", JOKER]  # renewing: no Tuatura


def test_a_gains_slots_are_the_legal_places() -> None:
    s = position(
        [["Y2", "G3", "G3", "B4"], ["R1", "B5", "G6", "Y7"]],
        {"0A": ([], "Y7"), "0B": (["R8", "R8", "B5"], None), "0C": ([], "SP")},
        draw=["R8", "B5"],
    )
    s.play(0, "Y2 0A")
    slots = s.observation(1)["gain"]["slots"]
    assert slots == ["A", "D"]
    assert [str(m) for m in s.legal_moves(0)] == [f"place {x}" for x in slots]


def test_the_deck_and_constants_are_in_the_view() -> None:
    rules = G.new(2, {"kiwi": 2}, 1).observation(0)["rules"]
    assert rules["deck"]["KI"] == 2 and "NI" not in rules["deck"]
    assert sum(rules["deck"].values()) == sum(G.new(2, {}, 1).observation(0)["rules"]["deck"].values()) + 2
    assert (rules["hand"], rules["max_nines"], rules["nine_value"], rules["nine_multiplier"]) == (4, 3, 9, 2)
    assert isinstance(G.new(2, {}, 1).view(0), MauwView)


def test_steps_name_the_card_the_jokers_card_and_the_column_and_join_into_the_move() -> None:
    s = position(
        [["JK", "R1", "KI", "Y2"], ["R8", "B5", "G6", "Y7"]], {"1A": (["G6"], "R8"), "0B": ([], "Y7")}, kiwi=1
    )
    assert {st.token for st in s.move_steps(0)} == {"JK", "R1", "KI", "Y2", "pass"}
    assert sorted(st.token for st in s.move_steps(0, ("JK",))) == ["as R1", "as R8", "as Y2", "as Y7"]
    last = s.move_steps(0, ("JK", "as R8"))
    assert [(st.token, str(st.move)) for st in last] == [("1A", "JK=R8 1A")]
    kiwi = {st.token for st in s.move_steps(0, ("KI",))}
    assert kiwi == {"1A", "0B"}  # where a Warrior may be taken from
    for move in s.legal_moves(0):
        if isinstance(move, (Play, KiwiPlay, NinoxPlay, Word)):
            assert G.parse_move(" ".join(move.steps())) == move


def test_a_gains_place_is_a_step_on_the_column_name() -> None:
    s = position([["Y2", "G3", "G3", "B4"], ["R1", "B5", "G6", "Y7"]], {"0A": ([], "Y7")}, draw=["R8", "B5"])
    s.play(0, "Y2 0A")
    steps = s.move_steps(0)
    assert [st.token for st in steps] == ["0A", "0B", "0C", "0D"]
    assert all(isinstance(st.move, Place) for st in steps)


def test_every_event_sentence_comes_from_the_template_table() -> None:
    assert set(words.TEMPLATES) <= set(EVENT_TYPES)
    told = set()
    for seed in range(6):
        state = G.new(3, {"kiwi": 2, "ninox": 2, "tuatura": 2}, seed)
        rng = random.Random(seed)
        while not state.over:
            seat = min(state.to_act())
            state.apply(seat, state.random_move(seat, rng))
        for event in state.events(0):
            line = words.describe_event(event, 0)
            assert (line is not None) == (
                event["type"] in words.TEMPLATES and "?" not in event.get("cards", ())
            )
            if line:
                told.add(event["type"])
                assert "{" not in line and line[0].isupper() and line.endswith("."), line
    assert {"play", "combo", "pass", "end"} <= told
