"""Miaui's quiet random finish (issue 20): ISMCTS's random rollouts play the round's own
rule steps without events or history (``MiauiState._random_finish``).  From the same
position and generator it must end exactly where the core's plain random finish ends (the
same draws, the same piles, box, scores and winners), at every seat count and with every
option that changes a catch."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kiti.core.game import State
from kiti.core.registry import get_game
from kiti.core.turns import turns
from kiti.games.miaui.rules import MiauiState

TABLES: list[dict[str, Any]] = [
    {},
    {"kiti_start": 2},
    {"open_baskets": True},
    {"no_fighting": True},
    {"no_fighting": True, "taker_chooses_order": True},
]


def _position(players: int, options: dict[str, Any], seed: int) -> MiauiState:
    """A random Miaui game stopped after a random number of random moves (mid-round choices,
    a catch being ordered and a Lantern's hidden card included)."""
    rng = random.Random(seed)
    state = get_game("miaui").new(players, options, seed)
    assert isinstance(state, MiauiState)
    stop = rng.randrange(90)
    for n, seat in enumerate(turns(state)):
        if n == stop:
            break
        state.step(seat, state.random_action(seat, rng))
    return state


def _table(state: MiauiState) -> tuple[Any, ...]:
    result = state.result()
    return (
        state.over,
        state.round,
        state.kiti,
        state.piles,
        state.box,
        state.hands,
        state.deck,
        state.lagoon,
        state.reveals,
        result.scores,
        result.winning_seats(),
    )


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", TABLES, ids=lambda o: ",".join(o) or "plain")
def test_quiet_finish_ends_as_the_plain_one(players: int, options: dict[str, Any]) -> None:
    seen_pending = seen_veiled = cut = 0
    for seed in range(40):
        state = _position(players, options, seed)
        seen_pending += bool(state.pending)
        seen_veiled += any(state.veil)
        left = 120 if seed % 5 else 1 + seed % 13  # some budgets end before the game does
        plain, quiet = state.clone(), state.clone()
        a, b = random.Random(seed), random.Random(seed)
        State._random_finish(plain, a, left)  # the core's: every move stepped, logged
        assert isinstance(plain, MiauiState)
        quiet._random_finish(b, left)
        assert isinstance(quiet, MiauiState)
        assert _table(quiet) == _table(plain), (players, options, seed)
        assert a.getstate() == b.getstate(), "a different number of draws"
        cut += not plain.over
        quiet.check_invariants()
        assert not quiet.over or len(quiet.log) == len(state.log), "a quiet finish logged events"
    assert cut, "no budget ended before the game"
    if options.get("taker_chooses_order"):
        assert seen_pending, "no position with a catch to order"
    assert seen_veiled, "no position with a card a Lantern hid"


def test_a_state_holds_only_declared_attributes() -> None:
    """The core copies a state's attributes as its instance dict (``State._transfer``) while
    the state holds no attribute but declared ones: a Miaui state never does, in any position
    (resampled and quietly finished ones included), so its copies take that path."""
    declared = set(MiauiState._attributes)
    for seed in range(12):
        state = _position(3 + seed % 4, TABLES[seed % len(TABLES)], seed)
        guess = state.resample(0, random.Random(seed))
        done = guess.clone()
        done._random_finish(random.Random(seed), 120)
        for s in (state, guess, done):
            assert set(vars(s)) <= declared, sorted(set(vars(s)) - declared)
            plain, fast = MiauiState.__new__(MiauiState), MiauiState.__new__(MiauiState)
            State._transfer(s, plain)
            s._transfer(fast)
            assert vars(fast).keys() == vars(plain).keys()
            assert all(vars(fast)[k] is v for k, v in vars(plain).items())
