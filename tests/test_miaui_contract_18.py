"""Miaui's typed view carries the rule facts front ends need, and they are the rules' own
(issue 18): what decides the game (resolve_depths, Kiti's moves, No Fighting ties) agrees
with what the view says, options change the facts, and the words part tells every event kind."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from miaui_helpers import G
from rich.console import Console

from kiti.core.events import REFEREE
from kiti.games.miaui.heuristic import remember
from kiti.games.miaui.rules import ROUNDS, Dive, MiauiState, resolve_depths
from kiti.games.miaui.terminal import render_view
from kiti.games.miaui.view import EVENT_TYPES, MiauiView, RefereeView
from kiti.games.miaui.words import SENTENCES, describe_event


def play_round(s: MiauiState, dives: dict[int, int]) -> None:
    s.apply_all({seat: Dive(n) for seat, n in dives.items()})


def test_the_view_is_typed_and_only_the_referee_sees_the_burned_card() -> None:
    s = G.new(4, seed=3)
    assert type(s.view(0)) is MiauiView and type(s.view(None)) is MiauiView
    assert isinstance(s.view(REFEREE), RefereeView) and s.observation(REFEREE)["burned"] == s.burned
    assert "burned" not in s.observation(0) and "burned" not in s.observation(None)


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("kiti", [0, 1, 2])
def test_each_depth_is_won_as_its_facts_say(players: int, kiti: int) -> None:
    s = G.new(players, {"kiti_start": kiti}, seed=players)
    view = s.view(0)
    assert [d.takes for d in view.depths] == ["highest", "highest", "lowest"]
    # An all-tie: each depth goes to the first seat of its tie order still in.
    left = list(range(players))
    expected = []
    for depth in view.depths:
        assert depth.tie_order is not None
        winner = next(seat for seat in depth.tie_order if seat in left)
        expected.append((depth.space, winner))
        left.remove(winner)
    catches, _ = resolve_depths([6] * players, players, view.kiti)
    assert [(space, seat) for space, seat, _ in catches] == expected
    # Tie directions: the order runs round the table that way from the side named.
    for depth in view.depths:
        order = depth.tie_order
        assert order is not None
        step = 1 if depth.tie_direction == "clockwise" else -1
        start = view.kiti if depth.tie_from == "right" else view.kiti_left
        assert list(order) == [(start + step * i) % players for i in range(players)]
    assert view.tie_order == {
        "deep": list(view.depths[0].tie_order or ()),
        "shallow": list(view.depths[2].tie_order or ()),
    }


def test_distinct_dives_go_to_the_end_each_depth_takes() -> None:
    s = G.new(3, seed=5)
    view = s.view(None)
    dives = [4, 9, 2]
    catches, _ = resolve_depths(dives, 3, view.kiti)
    left = sorted(range(3), key=dives.__getitem__)
    for (space, seat, _), depth in zip(catches, view.depths):
        assert space == depth.space
        assert seat == (left[-1] if depth.takes == "highest" else left[0])
        left.remove(seat)


def test_kiti_stands_and_moves_as_the_view_says() -> None:
    s = G.new(4, {"kiti_start": 3}, seed=1)
    for _ in range(ROUNDS - 1):
        view = s.view(0)
        assert view.kiti_left == (view.kiti + 1) % 4 and view.kiti_moves == "clockwise"
        assert view.kiti_next is not None
        play_round(s, {seat: s.hands[seat][0] for seat in range(4)})
        if s.over:
            break
        after = s.view(0)
        assert (after.kiti, after.kiti_left) == tuple(view.kiti_next)
        assert after.round == view.round + 1 and after.rounds == ROUNDS
    assert s.over and s.view(0).kiti_next is None


def test_no_fighting_has_no_kiti_and_a_tie_carries_the_fish_over() -> None:
    plain = G.new(3, seed=2).view(1)
    assert plain.ties_carry_over is False and plain.kiti is not None
    s = G.new(3, {"no_fighting": True}, seed=2)
    view = s.view(1)
    assert view.kiti is None and view.tie_order is None and view.kiti_next is None
    assert all(d.tie_order is None and d.tie_direction is None and d.tie_from is None for d in view.depths)
    assert view.ties_carry_over is True and view.tie_rule != plain.tie_rule
    before = [len(cards) for cards in s.lagoon]
    play_round(s, {0: 7, 1: 7, 2: 7})  # everyone tied: nobody catches anywhere
    assert [len(cards) for cards in s.lagoon] == [n + 1 for n in before]


def test_peeked_marks_only_the_cards_this_viewer_saw_face_down() -> None:
    rng = random.Random(4)
    for seed in range(40):
        s = G.new(3, seed=seed)
        while not s.over and not any(s.veil):
            seat = min(s.to_act())
            s.apply(seat, s.random_move(seat, rng))
        if s.over:
            continue
        for viewer in (0, 1, 2, None, REFEREE):
            view = s.view(viewer)
            for space, cards in enumerate(view.lagoon):
                for i, card in enumerate(cards):
                    seer = s.veil[space].get(i, (None,))[0]
                    assert view.peeked[space][i] == (seer is not None and viewer in (seer, REFEREE))
                    assert (card == "?") == (seer is not None and viewer not in (seer, REFEREE))
        return
    pytest.fail("no Lantern hid a card in 40 games")


def test_a_dive_is_chosen_by_its_number_and_a_take_by_its_code() -> None:
    s = G.new(3, seed=1)
    steps = s.move_steps(0)
    assert [st.token for st in steps] == [str(n) for n in s.hands[0]]
    assert [str(st.move) for st in steps] == [str(m) for m in s.legal_moves(0)]


def test_the_terminal_reads_rounds_and_depth_rules_from_the_view() -> None:
    s = G.new(3, seed=1)
    view = s.view(0)
    depths = view.depths
    view = replace(view, rounds=9, depths=(*depths[:2], replace(depths[2], rule="the smallest fish")))

    def printed(v: MiauiView) -> str:
        console = Console(width=100, file=io.StringIO(), color_system=None)
        console.print(render_view(v, s.events(0), width=100))
        return console.file.getvalue()

    out = printed(view)
    assert "round 1 of 9" in out and "the smallest fish" in out


def test_every_event_kind_has_a_sentence() -> None:
    for kind in EVENT_TYPES:
        assert kind in SENTENCES, f"no sentence for {kind}"
    s = G.new(3, {"no_fighting": True, "taker_chooses_order": True}, seed=0)
    rng = random.Random(0)
    while not s.over:
        seat = min(s.to_act())
        s.apply(seat, s.random_move(seat, rng))
    for event in s.events(REFEREE):
        said = describe_event(event, 0)
        assert said and "{" not in said, event


def test_the_heuristic_remembers_every_hand_and_pile_from_the_typed_view() -> None:
    st = G.new(4, None, 21)
    rng = random.Random(0)
    for _ in range(6):
        for seat in sorted(st.to_act()):
            st.apply(seat, rng.choice(st.legal_moves(seat)))
    mem = remember(st.view(2), st.events(2))
    assert mem.hands == [sorted(h) for h in st.hands]
    assert mem.piles == st.piles  # catches are public, so every pile is deducible
