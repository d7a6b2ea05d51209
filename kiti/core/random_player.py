"""Driving a game: the order seats act in, and a uniform-random playout."""

from __future__ import annotations

import random
from collections.abc import Iterator

from .game import State


def turns(state: State) -> Iterator[int]:
    """The seats that act next, one at a time, until nobody is to act.

    Of the seats in ``to_act()``, lowest first, each one that is *still* to act when
    its turn comes (a move may take the turn away from others: an out-of-turn
    response, a reveal).  Every loop that drives a game (random playouts, bots in
    tournaments, ISMCTS) asks this one place; the caller applies one move per seat.
    """
    to_act = state.to_act
    while True:
        seats = to_act()
        if not seats:
            return
        if len(seats) == 1:
            yield next(iter(seats))
            continue
        for seat in sorted(seats):
            now = to_act()
            if now is seats or seat in now:  # unchanged set (the common case) or still to act
                yield seat


def play_random_game(state: State, rng: random.Random, check: bool = False) -> State:
    """Play ``state`` to the end with uniform-random moves for every seat (in place)."""
    choice = rng.choice
    apply = state.apply
    legal_moves = state.legal_moves
    for seat in turns(state):
        apply(seat, choice(legal_moves(seat)), check)
    return state
