"""A uniform-random player over legal moves, and a helper that plays a whole game with it."""

from __future__ import annotations

import random

from .game import Move, State


class RandomPlayer:
    """Picks uniformly among the legal moves of its seat, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        return self.rng.choice(state.legal_moves(seat))


def play_random_game(state: State, rng: random.Random, check: bool = False) -> State:
    """Play ``state`` to the end with uniform-random moves for every seat (in place)."""
    choice = rng.choice
    while True:
        seats = state.to_act()
        if not seats:
            return state
        seat = min(seats)
        state.apply(seat, choice(state.legal_moves(seat)), check)
