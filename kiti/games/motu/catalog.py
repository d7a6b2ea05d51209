"""MOTU's declared ``catalog`` part: the public card data a graphical client draws from.

Views name cards by id (``I23``, ``V2``, ``T4``, ``D03``); a client needs what they look like.
Every island and village card is given in its four rotations, turned by the island model itself
(:func:`.island.rotated`), so a client never turns a card by its own reckoning.
"""

from __future__ import annotations

from typing import Any

from .cards import (
    CARDS,
    DESTINIES,
    ISLAND_IDS,
    SYMBOL_MARK,
    SYMBOL_NAME,
    TERRAIN_NAME,
    TRAVELERS,
    VILLAGE_IDS,
)
from .draw import destiny_text, traveler_text
from .island import ROTATIONS, rotated
from .sources import SOURCE_NAME, SOURCES


def _turned(card_id: str, rotation: int) -> dict[str, Any]:
    c = rotated(card_id, rotation)
    return {"rows": list(c.rows), "symbols": [[x, y, kind] for (x, y), kind in sorted(c.symbols)]}


def catalog() -> dict[str, Any]:
    cards = {cid: {"village": cid in VILLAGE_IDS,
                   "rotations": {str(r): _turned(cid, r) for r in ROTATIONS}}
             for cid in (*VILLAGE_IDS, *ISLAND_IDS)}
    assert set(cards) == set(CARDS)
    return {
        "terrains": dict(TERRAIN_NAME),
        "symbols": {k: {"name": SYMBOL_NAME[k], "mark": SYMBOL_MARK[k]} for k in SYMBOL_NAME},
        "cards": cards,
        "travelers": {t: {"text": traveler_text(t).plain, "adds": dict(v.adds), "coconuts": v.coconuts,
                          "points": v.points, "per": v.per} for t, v in TRAVELERS.items()},
        "destinies": {d: {"text": destiny_text(d).plain, "components": list(v.components),
                          "price": v.price, "most": v.most, "most_of_one": v.most_of_one,
                          "otherwise": v.otherwise} for d, v in DESTINIES.items()},
        "sources": {s: SOURCE_NAME[s] for s in SOURCES},
    }
