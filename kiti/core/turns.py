"""Driving a game: the order seats act in, and a uniform-random playout."""

from __future__ import annotations

import random
from collections.abc import Iterator

from .game import State
from .moves import Move


def turns(state: State) -> Iterator[int]:
    """The seats that act next, one at a time, until nobody is to act.

    The one turn rule (see :mod:`kiti.core.game`): one seat in ``to_act()`` acts; several
    seats make a simultaneous secret choice that every one of them must commit, so their
    order does not matter and they are yielded lowest first.  The caller applies exactly
    one move for each seat yielded.  Every loop that drives a game (random playouts, bots
    in tournaments and at the terminal, searches) asks this one place.
    """
    while True:
        acting = state.acting
        if not acting:
            return
        if len(acting) == 1:
            for seat in acting:
                yield seat
            continue
        for seat in sorted(acting):
            now = state.acting
            if not now <= acting:  # a new step began
                break
            if seat in now:
                yield seat


def forced_move(state: State, seat: int) -> Move | None:
    """``seat``'s only legal move now, or None if it has a choice (or is not to act).

    Front ends play a forced move for a person after saying so (Mauw's ``decline`` with
    nothing to defend with, a single possible placement).  Where moves are many
    (:meth:`State.many_moves`), it follows the move's steps while each offers one token
    with one move, so it never lists thousands of moves."""
    if seat not in state.to_act():
        return None
    if not state.many_moves(seat):
        legal = state.legal_moves(seat)
        return legal[0] if len(legal) == 1 else None
    prefix: tuple[str, ...] = ()
    while True:
        steps = state.move_steps(seat, prefix)
        if len(steps) != 1 or steps[0].count != 1:
            return None
        if steps[0].move is not None:
            return steps[0].move
        prefix = (*prefix, steps[0].token)


def play_random_game(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end with uniform-random moves for every seat (in place).

    The turn rule of :func:`turns`, written out as a loop (this is every simulation's and
    every search rollout's inner loop): a simultaneous choice draws every seat's move,
    lowest seat first (``State._random_choice``: what ``random_move`` draws, seat by seat),
    and applies them together.  Moves go in unchecked, through the
    core's private fast path for Moves (everyone else uses :meth:`State.step`).
    """
    random_move = state.random_move
    random_choice = state._random_choice
    advance = state._advance
    advance_all = state._advance_all
    while True:
        acting = state.acting
        if len(acting) == 1:
            for seat in acting:
                advance(seat, random_move(seat, rng))
        elif not acting:
            return state
        else:
            advance_all(random_choice(acting, rng))


def play_random_actions(state: State, rng: random.Random) -> State:
    """The same through the integer fast path (``random_action``, then ``step``), as
    reinforcement-learning adapters play: a simultaneous choice draws every seat's action,
    lowest seat first (``State._random_action_choice``), and applies them together (OpenSpiel's ``apply_actions``; the core's
    private path, as :func:`play_random_game`)."""
    random_action = state.random_action
    random_choice = state._random_action_choice
    step = state.step
    advance_all = state._advance_all
    pairs = state.codec().pairs(state.players)
    while True:
        acting = state.acting
        if len(acting) == 1:
            for seat in acting:
                step(seat, random_action(seat, rng))
        elif not acting:
            return state
        else:
            advance_all([pairs[seat][action] for seat, action in random_choice(acting, rng)])
