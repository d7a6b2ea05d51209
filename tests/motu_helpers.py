"""Shared helpers for the MOTU tests: games with chosen cards, and refused moves."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from kiti_asserts import assert_rejected  # noqa: F401  (the tests use it from here)

from kiti.core.load import load
from kiti.games import get_game
from kiti.games.motu.cards import ISLAND_IDS
from kiti.games.motu.rules import PILES, MotuState, pile_sizes

G = get_game("motu")


def game(
    players: int = 2,
    row: list[str] | None = None,
    piles: dict[str, list[str]] | None = None,
    seed: int = 0,
    **setup_and_options: Any,
) -> MotuState:
    """A game whose row and piles start with the given cards (top first); every other card
    follows in id order. Other keywords: setup keys (villages, travelers, destinies, first) and
    options."""
    setup_keys = {"villages", "travelers", "destinies", "first"}
    setup = {k: v for k, v in setup_and_options.items() if k in setup_keys}
    options = {k: v for k, v in setup_and_options.items() if k not in setup_keys}
    sizes = dict(zip(PILES, pile_sizes(players, options.get("solo_piles", "printed"))))
    given = {"row": list(row or []), **{p: list((piles or {}).get(p, [])) for p in PILES}}
    if players == 1:
        del given["row"]
    else:
        sizes["row"] = 4
    used = {c for cards in given.values() for c in cards}
    rest = [c for c in ISLAND_IDS if c not in used]
    for key, cards in given.items():
        while len(cards) < sizes[key]:
            cards.append(rest.pop(0))
    setup["piles"] = given
    state = G.new(players, options or None, seed, setup)
    assert isinstance(state, MotuState)
    state.check_invariants()
    return state


def first_placement(state: MotuState) -> str:
    """The first legal placement of the card in hand (as notation)."""
    return str(state.legal_moves(state.turn)[0])


def turn(state: MotuState, take: str = "take 1", extras: str = "done") -> None:
    """One plain turn for the seat to act: take, place at the first legal spot, then ``extras``
    if it is asked."""
    seat = state.turn
    state.play(seat, take)
    if state.phase == "place":
        state.play(seat, first_placement(state))
    if state.phase == "extras" and state.turn == seat:
        state.play(seat, extras)


def play_until(state: MotuState, done: Callable[[MotuState], bool], seed: int = 0) -> MotuState:
    """Random legal moves (every seat) until ``done(state)``."""
    rng = random.Random(seed)
    while not done(state):
        assert not state.over, "the game ended first"
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    return state


def random_games(players: int, count: int, seed: int) -> list[list[MotuState]]:
    """Every state of ``count`` random games of ``players`` seats, as copies, game by game."""
    game = load("motu", players=players)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = game.new_state(rng.randrange(1 << 30))
        states = [_copy(state)]
        while not state.over:
            seat = min(state.acting)
            state.apply(seat, state.random_move(seat, rng))
            states.append(_copy(state))
        out.append(states)
    return out


def _copy(state: object) -> MotuState:
    assert isinstance(state, MotuState)
    copy = state.clone()
    assert isinstance(copy, MotuState)
    return copy
