"""A resampled copy makes its generator when first asked for (a search makes one copy an
iteration and most never draw): it must draw exactly as one seeded when the copy was made."""

from __future__ import annotations

import random

import pytest

from kiti.core.registry import get_game


@pytest.mark.parametrize(("game", "players"), [("miaui", 4), ("mauw", 2), ("motu", 2)])
def test_a_resampled_copy_draws_as_if_seeded_when_made(game: str, players: int) -> None:
    state = get_game(game).new(players, None, 7)
    copy = state.resample(0, random.Random(11))
    assert copy._rng is None  # the premise: not made yet
    twin = copy.clone()  # cloned before either made its generator: each makes its own
    draws = [copy.rng.random() for _ in range(5)]
    seeded = random.Random(copy._rng_seed)
    assert draws == [seeded.random() for _ in range(5)]
    assert draws == [twin.rng.random() for _ in range(5)]


def test_a_copy_and_its_clone_draw_apart_once_made() -> None:
    copy = get_game("miaui").new(4, None, 3).resample(1, random.Random(5))
    other = copy.clone()
    copy.rng.random()  # the copy's generator moves; its clone's does not
    assert other.rng.getstate() != copy.rng.getstate()
    assert other.clone().rng.getstate() == other.rng.getstate()
