"""Issue 20: ISMCTS on MOTU lays the same cards the same way on the islands its
determinisations share (``resample`` marks them), and MOTU keeps those layings (``lay_card`` gives the island it made
before, with all it has worked out since); the searches must choose exactly as before (a
digest frozen before the change), and a kept laying must be the island a fresh laying makes."""

from __future__ import annotations

import hashlib
import random

from test_motu_speed_20 import grown

from kiti.bots.ismcts import ISMCTSBot
from kiti.core.registry import get_game
from kiti.core.seatview import seat_view
from kiti.games.motu import island as I
from kiti.games.motu import sources as S
from kiti.games.motu.cards import ISLAND_IDS

MOTU = get_game("motu")


def search_digest(players: int, seed: int, decisions: int) -> str:
    """A digest of ISMCTS's choices for every seat of a seeded game, decision by decision."""
    state = MOTU.new(players, None, seed)
    bots = [ISMCTSBot(seed * 10 + s, iters=40, rollout="random") for s in range(players)]
    digest = hashlib.sha256()
    for _ in range(decisions):
        if state.over:
            break
        seat = min(state.to_act())
        move = bots[seat].choose(seat_view(state, seat))
        digest.update(f"{seat} {move};".encode())
        state.apply(seat, move)
    return digest.hexdigest()[:16]


def test_ismcts_chooses_on_motu_as_before() -> None:
    got = {players: search_digest(players, players, 14) for players in (1, 2, 4)}
    assert got == {1: "3459cc626a122210", 2: "b0706fb068f0de44", 4: "1a70d9c9401251fe"}


def test_a_kept_laying_is_the_island_a_fresh_laying_makes() -> None:
    rng = random.Random(7)
    kept = 0
    for seed in range(12):
        island = grown(seed % 8, seed)
        I.share(island)  # as a determinisation's islands are
        for _ in range(8):  # several cards and places on the very same island
            name, other = rng.sample(ISLAND_IDS, 2)
            spot = I.uniform_legal_placement(island, name, rng)
            if spot is None:
                continue
            laid = I.lay_card(island, name, *spot)
            kept += I.lay_card(island, name, *spot) is laid  # laid again: the island made then
            fresh = I._lay(island, I.as_card(name), *spot)
            assert laid == fresh and laid.placements[-1] == (name, *spot)
            assert I.legal_placements(laid, other) == I.legal_placements(fresh, other)
            assert S.symbol_counts(laid) == S.symbol_counts(fresh)
            assert S.longest_beach(laid) == S.longest_beach(fresh)
    assert kept > 50
    island = grown(3, 3)
    assert I.lay_card(island, ISLAND_IDS[0], 0, 2, 1) is not I.lay_card(island, ISLAND_IDS[0], 0, 2, 1)
    I.share(island)  # a game played on keeps nothing; a shared island keeps only whole numbers
    assert I.lay_card(island, ISLAND_IDS[0], 0, 2.0, 1) is not I.lay_card(island, ISLAND_IDS[0], 0, 2, 1)
