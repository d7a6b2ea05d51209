"""The Miaui table fits an 80x24 terminal in every variant: no line wraps, nothing scrolls."""

from __future__ import annotations

import io
import itertools
import random
import re
from dataclasses import replace

import pytest
from rich.console import Console

from kiti.core.errors import KitiError
from kiti.core.events import REFEREE
from kiti.games import get_game
from kiti.games.miaui.terminal import render_view

G = get_game("miaui")
VARIANTS = [
    {},
    {"open_baskets": True},
    {"no_fighting": True},
    {"no_fighting": True, "taker_chooses_order": True, "open_baskets": True},
]
LONG_NAMES = ["Alexandrina", "Bartholomew", None, "Maximiliane", "[bold]Zoe[/]", "Wilhelmina"]


def printed(view, events, width=80, names=None, labels=None, height=21) -> str:
    console = Console(width=width, file=io.StringIO(), color_system=None, markup=False)
    console.print(render_view(view, events, names, labels, width=80, height=height))
    return console.file.getvalue()


def height(view, events) -> int:
    return printed(view, events).count("\n")


@pytest.mark.parametrize("options", VARIANTS)
def test_every_seat_view_fits_80x24(options):
    tallest = 0
    for seed in range(4):
        for players in (3, 4, 6):
            state = G.new(players, options, seed)
            rng = random.Random(seed)
            while not state.over:
                seat = min(state.to_act())
                state.apply(seat, rng.choice(state.legal_moves(seat)))
                if rng.random() < 0.35:  # a sample of positions keeps the test quick
                    tallest = max(tallest, height(state.view(seat), state.events(seat)))
    assert tallest <= 21  # the table leaves the prompt and two lines of messages


def option_sets(players):
    """Every combination of the options' sample values that the game accepts."""
    specs = G.info.options
    for values in itertools.product(*(spec.samples() for spec in specs)):
        options = dict(zip((spec.name for spec in specs), values))
        try:
            G.new(players, options, 0)
        except KitiError:
            continue
        yield options


def positions(players, options, seed):
    """Positions worth drawing: random play, and every seat diving alike (No Fighting: the
    spaces pile up) until one seat takes a long space."""
    rng = random.Random(seed)
    state = G.new(players, options, seed)
    same = seed % 2 == 1
    while not state.over:
        for seat in sorted(state.to_act()):
            if seat not in state.to_act():
                continue
            moves = state.legal_moves(seat)
            if same and str(moves[0]).startswith("dive") and state.observation(REFEREE)["round"] < 9:
                move = moves[-1] if seat == 0 and state.observation(REFEREE)["round"] == 8 else moves[0]
            else:
                move = rng.choice(moves)
            state.apply(seat, move)
        yield state


def check_no_wrap(view, events, names, labels):
    narrow = printed(view, events, 80, names, labels)
    wide = printed(view, events, 400, names, labels)
    assert narrow == wide, "a line was wrapped or cut at 80 columns"
    for line in narrow.splitlines():
        assert len(line) <= 80, line


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_no_line_wraps_at_80_columns(players):
    longest_space = 0
    for options in option_sets(players):
        for seed in (1, 2):
            for state in positions(players, options, seed):
                for viewer in (0, None, "referee"):
                    view = state.view(viewer)
                    names = LONG_NAMES[:players] if seed == 1 else None
                    check_no_wrap(view, state.events(viewer), names, ["heuristic"] * players)
                    longest_space = max(longest_space, *map(len, view.lagoon))
    assert longest_space >= 8  # long No Fighting lagoons were drawn too


def test_long_no_fighting_spaces_and_piles_stay_on_one_line():
    state = G.new(6, {"no_fighting": True, "open_baskets": True}, 5)
    for _ in range(10):  # everyone dives alike: every space keeps its fish
        for seat in range(6):
            state.apply(seat, state.legal_moves(seat)[0])
    assert min(map(len, state.observation(REFEREE)["lagoon"])) >= 10
    out = printed(state.view(0), state.events(0), names=LONG_NAMES)
    lagoon = [line for line in out.splitlines() if re.match(r" (Shallow|Deep|Deepest) ", line)]
    assert len(lagoon) == 3 and all(len(line) <= 80 for line in lagoon)
    check_no_wrap(state.view(0), state.events(0), LONG_NAMES, None)
    during, seen = state.view(0), state.events(0)
    state.play(0, "dive 12")  # seat 0 alone deepest: takes the whole Deepest space
    for seat in range(1, 6):
        state.apply(seat, state.legal_moves(seat)[0])
    check_no_wrap(state.view(1), state.events(1), LONG_NAMES, None)
    check_no_wrap(state.view(REFEREE), state.events("referee"), LONG_NAMES, None)
    # The longest pile a view can hold (a whole deck's worth): its oldest cards are counted.
    during = replace(during, piles=[["E13", "T9", "K5", "L7", "E14", "E12"] * 3] * 6)
    check_no_wrap(during, seen, LONG_NAMES, None)
    out = printed(during, seen, names=LONG_NAMES)
    row = next(line for line in out.splitlines() if line.startswith("3 "))
    assert re.search(r"…\d+ .* E14 E12 ", row), row  # the top of the pile, older cards counted


def test_no_fighting_reveal_lists_the_depths_in_order():
    # Dives 12, 12, 5, 1: a tie at Deepest (nobody catches), Deep to 5, Shallow to 1.
    state = G.new(4, {"no_fighting": True}, 3)
    for seat, n in enumerate((12, 12, 5, 1)):
        state.play(seat, f"dive {n}")
    events = state.events(0)
    assert [e["type"] for e in events if e["type"] in ("tie", "catch")] != ["catch", "catch", "tie"]
    out = printed(state.view(0), events)
    depths = re.findall(r"^  (Deepest|Deep|Shallow):", out, re.M)
    assert depths == ["Deepest", "Deep", "Shallow"]
    # Deep tied, Deepest and Shallow caught: still told Deepest, Deep, Shallow.
    state = G.new(4, {"no_fighting": True}, 3)
    for seat, n in enumerate((12, 7, 7, 1)):
        state.play(seat, f"dive {n}")
    out = printed(state.view(None), state.events(None))
    assert re.findall(r"^  (Deepest|Deep|Shallow):", out, re.M) == ["Deepest", "Deep", "Shallow"]


@pytest.mark.parametrize("options", VARIANTS)
def test_game_over_reveals_every_pile_from_what_was_seen(options):
    for seed in range(3):
        state = G.new(4, options, seed)
        rng = random.Random(seed)
        while not state.over:
            seat = min(state.to_act())
            state.apply(seat, rng.choice(state.legal_moves(seat)))
        piles = state.observation(REFEREE)["piles"]
        for viewer in (0, 2, None):
            out = printed(state.view(viewer), state.events(viewer), labels=["bot"] * 4)
            assert "▒▒" not in out.split("Round 12")[0].split("Fish pile")[1]
            for seat, pile in enumerate(piles):
                row = next(line for line in out.splitlines() if re.match(rf"{seat} \S", line))
                assert row.split()[2 : 2 + len(pile)] == pile, (row, pile)
            assert "Kiti between" not in out and "ties →" not in out


def test_face_down_card_is_drawn_as_a_back_for_others():
    # Seat 0 catches a Lantern from the Deepest space in round 1: the next Deepest card is
    # face down, seen by seat 0 only.
    deck = ["K1", "L3", "T6", "K2", "E15"]
    from collections import Counter

    from kiti.games.miaui.cards import COUNT

    rest = list((COUNT - Counter(deck)).elements())
    rest = [c for c in rest if c != "S"] + ["S"] * 6
    state = G.new(3, None, 1, {"deck": deck + rest, "kiti": 0})
    for seat, n in ((0, 12), (1, 5), (2, 1)):
        state.play(seat, f"dive {n}")
    assert state.observation(REFEREE)["lagoon"][0] == ["E15"]
    mine = height(state.view(0), state.events(0))
    assert mine <= 23
    for viewer in (1, 2):
        console = Console(width=80, file=io.StringIO(), color_system=None)
        console.print(render_view(state.view(viewer), state.events(viewer)))
        assert "E15" not in console.file.getvalue()
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(state.view(0), state.events(0)))
    assert "E15" in console.file.getvalue()


def test_kiti_tie_is_told_in_words():
    # The rulebook's example round: three 9s and a 7, Kiti between seats 0 and 1.
    # Deepest: seats 0, 1, 2 tie and Kiti favours 0; Deep: 1 and 2 tie and Kiti favours 2.
    state = G.new(4, None, 1, {"kiti": 0})
    for seat, n in enumerate((9, 9, 9, 7)):
        state.play(seat, f"dive {n}")
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(render_view(state.view(1), state.events(1)))
    text = " ".join(console.file.getvalue().split())
    assert "Deepest: seat 0 (9) caught" in text
    assert "tied 9s with you and seat 2: Kiti's counterclockwise order 0>3>2>1" in text
    assert "Deep: seat 2 (9) caught" in text
    assert "tied 9s with you: Kiti's counterclockwise order 0>3>2>1" in text
    assert "Shallow: seat 3 (7) caught" in text
