"""Issue 20 (second pass): Miaui's random play is faster and plays the very same games.

- ``resolve_depths`` remembers its answer for a tie by the order of the dives (and Kiti): the
  answers are those of the rule as it stood before, kept here as a frozen copy, for every
  order of three to five dives and many of six, asked cold and again from memory;
- a random round's dives are drawn in one call (``State._random_choice``): each is the move
  ``random_move`` draws, from the same generator state, seat by seat;
- a new game's generator (``kiti.core.chance.seeded``) is ``random.Random(seed)``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

import pytest

from kiti.core.chance import seeded
from kiti.games.miaui import rules as R
from kiti.games.miaui.rules import MiauiState, kiti_rank

OPTION_SETS = [
    {},
    {"no_fighting": True},
    {"open_baskets": True, "no_fighting": True, "taker_chooses_order": True},
]


def frozen_resolve_depths(dives: Sequence[int], players: int, kiti: int | None) -> Any:
    """``resolve_depths`` before issue 20's second pass (its general loop), frozen."""
    left = sorted(range(players), key=dives.__getitem__)
    catches: list[Any] = []
    ties: list[Any] = []
    for space in (0, 1, 2):
        if not left:
            break
        if space < 2:
            first = len(left) - 1
            best = dives[left[first]]
            while first and dives[left[first - 1]] == best:
                first -= 1
            tied, rest = left[first:], left[:first]
        else:
            end, best = 1, dives[left[0]]
            while end < len(left) and dives[left[end]] == best:
                end += 1
            tied, rest = left[:end], left[end:]
        if len(tied) == 1:
            catches.append((space, tied[0], ()))
            left = rest
            continue
        if kiti is None:
            ties.append((space, tuple(tied)))
            left = rest
            continue
        winner = min(tied, key=lambda seat: kiti_rank(kiti, players, space, seat))
        catches.append((space, winner, tuple(tied)))
        left.remove(winner)
    return tuple(catches), tuple(ties)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_depths_are_the_rules_answer_as_before(players: int) -> None:
    R._TIED.clear()
    if players < 6:  # every order of the dives: a dive among players + 1 values
        profiles = list(itertools.product(range(1, players + 2), repeat=players))
    else:
        rng = random.Random(6)
        profiles = [tuple(rng.randint(1, 12) for _ in range(6)) for _ in range(6000)]
    for kiti in [None, *range(players)]:
        for _ in range(2):  # worked out, then remembered
            for dives in profiles:
                want = frozen_resolve_depths(dives, players, kiti)
                assert R.resolve_depths(dives, players, kiti) == want, (dives, kiti)
                assert R.resolve_depths(list(dives), players, kiti) == want, (dives, kiti)
    assert R._TIED, "the ties were not remembered"


@pytest.mark.parametrize("players", [3, 4, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=["plain", "no_fighting", "all_rulings"])
def test_a_random_round_draws_what_random_move_draws(players: int, options: dict[str, Any]) -> None:
    for seed in range(4):
        state = MiauiState.new(players, options, seed)
        rng = random.Random(seed)
        while not state.over:
            acting = state.to_act()
            ours, theirs = random.Random(len(state.history)), random.Random(len(state.history))
            got = state._random_choice(acting, ours)
            assert got == [(seat, state.random_move(seat, theirs)) for seat in sorted(acting)]
            assert ours.getstate() == theirs.getstate(), "the generator was drawn differently"
            seat = min(acting)
            state.apply(seat, state.random_move(seat, rng))


def test_a_new_games_generator_is_random_Random_of_its_seed() -> None:
    for seed in (0, 1, 12345, 2**32, 2**63 - 1):
        assert seeded(seed).getstate() == random.Random(seed).getstate()
        state = MiauiState.new(4, None, seed)
        assert state.clone()._rng.getstate() == state._rng.getstate()
