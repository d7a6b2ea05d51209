"""A state answers a viewer's events from an index kept as its log grows (a server asks for
them after every move, for every viewer): the answers must be those of a whole pass over the
log, after undo, on copies, and when a game rewrites an entry in place (a card revealed)."""

from __future__ import annotations

import random

import pytest

from kiti.core.events import REFEREE, visible
from kiti.core.registry import get_game

GAMES = [("miaui", 3), ("mauw", 4), ("motu", 2), ("motu", 1)]


def whole_pass(state, viewer, since=0):
    return visible(state.log, viewer, state.info.events, state.players, since)


def check(state) -> None:
    for viewer in [*range(state.players), None, REFEREE]:
        everything = whole_pass(state, viewer)
        assert state.event_count(viewer) == len(everything)
        for since in {0, 1, len(everything) // 2, max(0, len(everything) - 1), len(everything)}:
            assert state.events(viewer, since) == everything[since:], f"viewer {viewer!r} since {since}"


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_viewers_events_are_those_of_a_whole_pass_move_after_move(game: str, players: int) -> None:
    rng = random.Random(3)
    state = get_game(game).new(players, None, 11)
    asked = 0
    while not state.over:
        check(state)  # asked at every step: the index grows with the log
        asked += 1
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    check(state)
    assert asked > 10 and len(state.log) > 10  # the premise: a real game with events


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_undo_and_copies_answer_from_their_own_log(game: str, players: int) -> None:
    """(Undo is asked for at every move; it is granted where no chance was used: Miaui's
    dives, MOTU's placements at two seats.)"""
    rng = random.Random(5)
    state = get_game(game).new(players, None, 12)
    undone = 0
    for _ in range(60):
        if state.over:
            break
        copy = state.clone()
        check(state)
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
        check(state)
        if state.undo_refusal(seat) is None:
            state.undo(seat)
            undone += 1
            check(state)
            seat = min(state.to_act())
            state.apply(seat, state.random_move(seat, rng))
        check(copy)  # the copy kept its own events
        check(state)
    if (game, players) in (("miaui", 3), ("motu", 2)):  # Mauw and solo MOTU draw at every move
        assert undone > 0  # the premise: some moves were taken back
