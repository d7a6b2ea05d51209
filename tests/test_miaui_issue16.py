"""Issue 16, Miaui: bad values quoted readably and never crashing, the tie header kept whole
where it fits, no table line or prompt cut mid-word at 80x24, and ``why`` in the terminal."""

from __future__ import annotations

import io
import json
import typing
from pathlib import Path

import pytest
from kiti_asserts import assert_rejected
from miaui_helpers import G, new, play_round, rounds_deck
from rich.console import Console

from kiti.core.errors import QUOTE_LIMIT, IllegalMoveError, NotationError, SetupError
from kiti.core.events import REFEREE
from kiti.core.records import MAX_NAME
from kiti.games.miaui.rules import Dive, Take, kiti_order
from kiti.games.miaui.terminal import Sight, hand_line, kiti_line, render_view
from kiti.games.miaui.words import People

HUGE = 10**5000  # more digits than Python will write out


# ------------------------------------------------------------- bad values
@pytest.mark.parametrize(
    "move",
    [
        Dive(None),
        Dive(HUGE),
        Dive(-HUGE),
        Dive(10**4000),
        Dive("x" * 10**6),
        Dive(2.0),
        Dive(True),
        Take("x" * 10**6),
        Take(None),
    ],
    ids=lambda m: type(m).__name__,
)
def test_a_malformed_move_object_is_refused_with_a_short_reason(move):
    s = G.new(3, seed=1)
    err = assert_rejected(s, 0, move, error=IllegalMoveError)
    assert len(str(err)) < 200, str(err)[:300]
    with pytest.raises(IllegalMoveError):
        s.apply_all({0: move, 1: Dive(1), 2: Dive(2)})


def test_a_huge_diver_is_described_not_written_out():
    err = assert_rejected(G.new(3, seed=1), 0, Dive(HUGE), error=IllegalMoveError)
    assert "does not exist" in err.reason and "digits" in err.reason and len(err.reason) < 150


def test_a_bad_take_while_ordering_quotes_about_80_characters():
    s = new(
        3,
        rounds_deck("K4", [("T8", "K1", "K2"), ("S", "T6", "K3")]),
        no_fighting=True,
        taker_chooses_order=True,
    )
    play_round(s, [9, 9, 3])
    play_round(s, [12, 5, 4])
    assert s.to_act() == {0} and s.observation(REFEREE)["pending_take"]
    err = assert_rejected(s, 0, Take("Q" * 150), error=IllegalMoveError)
    assert "'" + "Q" * 60 in err.reason and "..." in err.reason and len(err.reason) < 160
    for move in (Take("Q" * 10**6), Take(None)):
        err = assert_rejected(s, 0, move, "None" if move.card is None else "Q" * 60, error=IllegalMoveError)
        assert len(err.reason) < 200


def test_move_text_is_quoted_as_typed_up_to_about_80_characters():
    typed = "swim to the bottom of the lagoon and back again, then once more, slowly " * 2
    with pytest.raises(NotationError) as info:
        G.parse_move(typed[:150])
    message = str(info.value)
    assert "'swim to the bottom of the lagoon and back again" in message  # far beyond 20 characters
    quote = message.split(" is not a Miaui move")[0]
    assert len(quote) <= QUOTE_LIMIT and quote.endswith("...")
    with pytest.raises(NotationError, match=r"^'dive \\x':"):  # a backslash as typed, not doubled
        G.parse_move("dive \\x")


def test_setup_values_are_quoted_to_about_80_characters():
    with pytest.raises(SetupError) as info:
        G.new(3, seed=1, setup={"kiti": "k" * 10**5})
    assert "'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk" in str(info.value) and len(str(info.value)) < 160
    deck = list(rounds_deck("K1", [])) + ["Z" * 10**5] * 20
    with pytest.raises(SetupError) as info:
        G.new(3, seed=1, setup={"deck": deck})
    assert "unexpected" in str(info.value) and "and 17 more" in str(info.value)
    assert len(str(info.value)) < 400


def test_move_fields_are_annotated_for_the_generic_type_check():
    assert typing.get_type_hints(Dive) == {"n": int}
    assert typing.get_type_hints(Take) == {"card": str}


# ------------------------------------------------------------- the tie header
def kiti_text(players, viewer, names, width, kiti=0):
    state = new(players, kiti=kiti)
    sight = Sight(state.view(viewer), state.events(viewer), People(viewer, names), width)
    return kiti_line(sight).plain


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_tie_header_keeps_deepest_and_you_at_80_columns(players):
    for kiti in range(players):
        deep = kiti_order(kiti, players, 0)
        shallow = kiti_order(kiti, players, 2)
        for viewer in range(players):
            for names in (None, ["Alexandrina", "Bartholomew", None, "Maximiliane", "Zoe", "Wilhelmina"]):
                line = kiti_text(players, viewer, names and names[:players], 80, kiti)
                assert len(line) <= 80 and "…" not in line, line
                assert "Deepest/Deep" in line and "Shallow" in line, line
                marks = [str(x) if x != viewer else "you" for x in deep]
                assert (
                    ">".join(marks) in line
                    or ">".join((names[x] or str(x)) if x != viewer else "you" for x in deep) in line
                ), line
                assert "you" in line.split("Shallow")[1], line
        spectator = kiti_text(players, None, None, 80, kiti)
        assert ">".join(map(str, deep)) in spectator and ">".join(map(str, shallow)) in spectator


def test_the_tie_header_full_form_with_names_when_it_fits():
    line = kiti_text(3, 0, ["Al", "Bo", "Cy"], 80)
    assert line == "Kiti between you|Bo · Deepest/Deep ties → you>Cy>Bo · Shallow ties → Bo>Cy>you"


@pytest.mark.parametrize("width", [60, 50])
def test_the_tie_header_shortens_only_at_a_narrow_width(width):
    for players in (3, 4, 6):
        line = kiti_text(players, 1, None, width)
        assert len(line) <= width and "…" not in line, line
        order = kiti_order(0, players, 2)
        assert (
            ">".join("you" if x == 1 else str(x) for x in order) in line or ">".join(map(str, order)) in line
        ), line
    assert kiti_text(4, 1, None, 60) == "Kiti 0|you · Deepest/Deep 0>3>2>you · Shallow you>2>3>0"


# ------------------------------------------------------------- nothing cut mid-word
def printed(view, events, names, width=80):
    console = Console(width=400, file=io.StringIO(), color_system=None, markup=False)
    console.print(render_view(view, events, names, None, width=width, height=21))
    return console.file.getvalue().splitlines()


def test_a_hungry_seagull_line_fits_with_the_longest_name_and_keeps_its_letters():
    name = "Bartholomew McKiti-Lagoon of the Deep Se"
    assert len(name) == MAX_NAME
    # Round 1: seat 1 catches nothing; round 2's Deepest Seagull flies off its empty pile.
    s = new(4, rounds_deck("K1", [("T6", "K2", "K3"), ("S", "T7", "K4")]), kiti=0)
    play_round(s, [1, 2, 3, 4])  # seat 3 takes T6, seat 2 K2, seat 0 K3
    assert s.piles[1] == []
    play_round(s, [2, 12, 5, 6])
    lines = printed(s.view(0), s.events(0), [None, name, None, None])
    seagull = [line for line in lines if "Seagull!" in line]
    assert seagull and all(len(line) <= 80 for line in lines), lines
    assert "Bartholomew McKiti-Lagoon" in seagull[0] and "empty" in seagull[0]  # not lower-cased


def test_the_taker_sees_every_card_to_order_on_one_line():
    # Everyone dives alike for ten rounds (No Fighting, three seats): Deepest piles up.
    s = G.new(3, {"no_fighting": True, "taker_chooses_order": True}, 5)
    for r in range(1, 11):
        play_round(s, [r, r, r])
    play_round(s, [12, 11, 11])
    cards = s.observation(REFEREE)["pending_take"]["cards"]
    assert len(cards) >= 10 and len(set(cards)) > 1
    line = hand_line(Sight(s.view(0), s.events(0), People(0), 80)).plain
    assert len(line) <= 80 and line.endswith(" ".join(cards)), line


# ------------------------------------------------------------- through kiti play
def test_why_a_dive_in_the_terminal(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    from play_helpers import MOVE, finish, plain, spawn

    child = spawn("miaui", "--seats", "human,random,random", "--seed", "4", cwd=tmp_path)
    child.expect(MOVE)
    child.sendline("why dive 9")
    child.expect(MOVE)
    said = " ".join(plain(child.before).split())
    assert "dive 9 is legal now: diver 9 stays secret until every seat has dived" in said, said
    assert "Deepest (highest diver wins)" in said and "for you" in said
    assert "Kiti's order, at Deepest/Deep: you, seat 2, seat 1 (counterclockwise)" in said
    assert "seat 0" not in said
    child.sendintr()
    assert finish(child) == 130


def test_the_taker_is_asked_on_one_line_and_why_take_is_told(tmp_path: Path) -> None:
    pytest.importorskip("pexpect")
    from play_helpers import finish, plain, spawn

    s = new(
        3,
        rounds_deck("K4", [("T8", "K1", "K2"), ("S", "T6", "K3")]),
        no_fighting=True,
        taker_chooses_order=True,
    )
    play_round(s, [9, 9, 3])
    play_round(s, [12, 5, 4])
    assert s.to_act() == {0}
    record = {**s.record(), "lineup": ["human", "random", "random"]}
    (tmp_path / "mid.json").write_text(json.dumps(record))
    child = spawn("--load", "mid.json", cwd=tmp_path)
    ask = r"\n([^\n]*)\(\? for help\) > "
    child.expect(ask)
    asked = plain(child.match.group(1))
    # The whole question on one line, with room left to type (the terminal folds longer ones).
    assert asked.strip().endswith("?") and asked[0].isupper() and len(asked) <= 60, asked
    child.sendline("why take S")
    child.expect(ask)
    said = " ".join(plain(child.before).split())
    assert (
        "take S is legal now: a Seagull joins your pile next: +0 for you, the Seagull flies off "
        "from an empty pile; then T8 joins on its own: +8."
    ) in said, said
    child.sendintr()
    assert finish(child) == 130
