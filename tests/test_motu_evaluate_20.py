"""Issue 20: the MOTU heuristic's ``evaluate`` (what ISMCTS scores a search cut short with)
values every island from facts kept with it (symbol counts, volcano points, the longest beach)
instead of working them out for each seat it is asked of; its values must stay exactly those
it gave before (a digest of them over random games of every table size, frozen before the
change)."""

from __future__ import annotations

import hashlib
import random

from kiti.core.registry import get_game
from kiti.games.motu.cards import ISLAND_IDS, TOTEMS, TRAVELERS, card
from kiti.games.motu.heuristic import MotuHeuristic
from kiti.games.motu.sources import card_symbols, row_count, traveler_points

MOTU = get_game("motu")


def evaluate_digest(players: int, seeds: range) -> str:
    """A digest of ``evaluate``'s values in every position of random games, with the
    positions' moves (so a game that drifts shows too)."""
    strategy = MotuHeuristic()
    digest = hashlib.sha256()
    for seed in seeds:
        state = MOTU.new(players, None, seed)
        rng = random.Random(seed)
        while not state.over:
            digest.update(repr(strategy.evaluate(state)).encode())
            seat = min(state.to_act())
            move = state.random_move(seat, rng)
            digest.update(f"{seat} {move};".encode())
            state.apply(seat, move)
        digest.update(repr(strategy.evaluate(state)).encode())
    return digest.hexdigest()[:16]


def test_evaluate_gives_the_values_it_gave_before() -> None:
    got = {players: evaluate_digest(players, range(8)) for players in (1, 2, 3, 4, 6)}
    assert got == {
        1: "66cae9c5f00c4d71",
        2: "46e6397b8ff8722d",
        3: "30769cbf418d1183",
        4: "6203e454812dff3a",
        6: "0bb7b466681cae38",
    }


def test_a_travelers_row_count_is_what_the_row_shows() -> None:
    """A Traveler's count (worked out per card and kept) is what the row's cards show together."""
    rng = random.Random(20)
    for _ in range(300):
        row = rng.sample(ISLAND_IDS, rng.randrange(0, 5))
        shown = card_symbols(row)
        for t in TRAVELERS.values():
            if t.per == "beach_card":
                plain = sum(1 for c in row if card(c).has_beach)
            elif t.per == "totem":
                plain = sum(shown.get(kind, 0) for kind in TOTEMS)
            else:
                plain = shown.get(t.per, 0)
            assert row_count(t.per, row) == plain
            assert traveler_points(t, row) == t.points * plain
