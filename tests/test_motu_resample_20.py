"""Issue 20: MOTU's ``resample`` (what ISMCTS draws a determinisation with, every iteration)
keeps the sorted unseen cards of a position instead of sorting them for each draw; its draws
must stay exactly those it made before (a digest over random games of every table size,
frozen before the change), asked several times of each position as a search does."""

from __future__ import annotations

import hashlib
import random

from kiti.core.registry import get_game
from kiti.games.motu.rules import MotuState

MOTU = get_game("motu")


def resample_digest(players: int, seeds: range) -> str:
    digest = hashlib.sha256()
    for seed in seeds:
        state = MOTU.new(players, None, seed)
        rng = random.Random(seed)
        while not state.over:
            seat = min(state.to_act())
            for k in range(3):
                guess = state.resample((seat + k) % players, random.Random(k))
                assert isinstance(guess, MotuState)
                digest.update(repr((guess.piles, guess.box, guess.travelers, guess.traveler_box)).encode())
                digest.update(repr((guess.choices, guess.log[-3:])).encode())
            state.apply(seat, state.random_move(seat, rng))
    return digest.hexdigest()[:16]


def test_resample_draws_what_it_drew_before() -> None:
    got = {players: resample_digest(players, range(6)) for players in (1, 2, 3, 4, 6)}
    assert got == {
        1: "7ebad925ad8ca526",
        2: "2837dd2dd4095856",
        3: "6d6954df6f51498b",
        4: "745ab2c05d67a662",
        6: "e4317ff9b29fc962",
    }
