"""Time MOTU's ``legal_placements`` on a grown island: ``python -m kiti.games.motu.bench``, and
MOTU's extra figures for ``kiti bench motu`` (:func:`bench_extras`, the game's declared ``bench``
part).  A development tool, in the game's package so that the generic ``kiti.sim`` names no
game; nothing at play time imports it (only ``kiti bench`` asks for the ``bench`` part)."""

from __future__ import annotations

import random
import time

from .cards import ISLAND_IDS, VILLAGE_IDS
from .island import Island, lay_card, legal_placements, new_island, random_legal_placement


def grown_island(cards: int, seed: int) -> Island:
    """A village plus ``cards`` island cards, each laid at a random legal placement."""
    rng = random.Random(seed)
    island = new_island(rng.choice(VILLAGE_IDS))
    deck = list(ISLAND_IDS)
    rng.shuffle(deck)
    for card_id in deck:
        if len(island.placements) > cards:
            break
        spot = random_legal_placement(island, card_id, rng)
        if spot:
            island = lay_card(island, card_id, *spot)
    return island


def bench(cards: int = 6, islands: int = 20, seed: int = 1) -> float:
    """Mean milliseconds of one ``legal_placements`` call (every island card on several islands)."""
    grown = [grown_island(cards, seed + n) for n in range(islands)]
    calls, found = 0, 0
    start = time.perf_counter()
    for island in grown:
        for card_id in ISLAND_IDS:
            found += len(legal_placements(island, card_id))
            calls += 1
    ms = 1000 * (time.perf_counter() - start) / calls
    print(
        f"legal_placements on a {cards}-card island: {ms:.3f} ms per call "
        f"({calls} calls, {found / calls:.1f} legal placements on average)"
    )
    return ms


def bench_extras(seconds: float = 2.0, cards: int = 6, seed: int = 1) -> list[dict[str, float | str]]:
    """Legal-placement enumeration on islands of a village and ``cards`` cards (mid-game): every
    island card's full list of legal placements, for about ``seconds``."""
    grown = [grown_island(cards, seed + n) for n in range(8)]
    calls = found = 0
    start = time.perf_counter()
    while True:
        for island in grown:
            for card_id in ISLAND_IDS:
                found += len(legal_placements(island, card_id))
                calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return [
        {
            "name": f"legal-placement enumerations per second ({cards}-card island, one card)",
            "value": round(calls / elapsed, 1),
            "unit": "calls/s",
        },
        {
            "name": "legal placements found per second",
            "value": round(found / elapsed, 1),
            "unit": "placements/s",
        },
        {
            "name": "legal placements per card on such an island (mean)",
            "value": round(found / calls, 1),
            "unit": "placements",
        },
    ]


if __name__ == "__main__":
    bench()
