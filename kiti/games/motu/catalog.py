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
    PAIRS,
    PROTECTED,
    RULER_BANDS,
    SYMBOL_MARK,
    SYMBOL_NAME,
    TERRAIN_NAME,
    TOTEM_POINTS,
    TOTEMS,
    TRAVELERS,
    VILLAGE_IDS,
)
from .draw import destiny_text, traveler_text
from .island import ROTATIONS, rotated
from .sources import SOURCE_NAME, SOURCES


def _turned(card_id: str, rotation: int) -> dict[str, Any]:
    c = rotated(card_id, rotation)
    return {"rows": list(c.rows), "symbols": [[x, y, kind] for (x, y), kind in sorted(c.symbols)]}


def symbol_help(kind: str) -> str:
    """What a symbol does, in words, from the scoring data (card help for clients)."""
    name = SYMBOL_NAME[kind]
    partners = {partner: leader for leader, (partner, _) in PAIRS.items()}
    if kind in PAIRS:
        partner, each = PAIRS[kind]
        text = (
            f"{name}: {each} points each in the {SOURCE_NAME[kind]} Source, "
            f"0 if your island shows more {name} than {SYMBOL_NAME[partner]} symbols."
        )
    elif kind in partners:
        leader = partners[kind]
        text = (
            f"{name}: the partner of the {SYMBOL_NAME[leader]} ({SOURCE_NAME[leader]} Source): "
            f"{SYMBOL_NAME[leader]} symbols score only while they do not outnumber the {name} symbols."
        )
    elif kind in TOTEMS:
        table = " ".join(str(TOTEM_POINTS[n]) for n in range(1, len(TOTEMS) + 1))
        text = (
            f"{name}, one of {len(TOTEMS)} totems: the {SOURCE_NAME['totem']} Source scores the kinds "
            f"seen exactly once on your island ({table} points for 1-{len(TOTEMS)} kinds); "
            "solo, every totem symbol counts."
        )
    elif kind == "volcano":
        bands = ", ".join(f"up to {d:g} cells {p} point{'s' if p != 1 else ''}" for d, p in RULER_BANDS)
        text = (
            f"{name}: scores by its distance from your village star ({SOURCE_NAME['volcano']} Source): "
            f"{bands}, farther 0."
        )
    else:
        text = f"{name}: the centre of your village; volcanoes are measured from it."
    return text + (" No card may cover it." if kind in PROTECTED else "")


def catalog() -> dict[str, Any]:
    cards = {
        cid: {"village": cid in VILLAGE_IDS, "rotations": {str(r): _turned(cid, r) for r in ROTATIONS}}
        for cid in (*VILLAGE_IDS, *ISLAND_IDS)
    }
    assert set(cards) == set(CARDS)
    return {
        "terrains": dict(TERRAIN_NAME),
        "symbols": {
            k: {"name": SYMBOL_NAME[k], "mark": SYMBOL_MARK[k], "help": symbol_help(k)} for k in SYMBOL_NAME
        },
        "cards": cards,
        "travelers": {
            t: {
                "text": traveler_text(t).plain,
                "adds": dict(v.adds),
                "coconuts": v.coconuts,
                "points": v.points,
                "per": v.per,
            }
            for t, v in TRAVELERS.items()
        },
        "destinies": {
            d: {
                "text": destiny_text(d).plain,
                "components": list(v.components),
                "price": v.price,
                "most": v.most,
                "most_of_one": v.most_of_one,
                "otherwise": v.otherwise,
            }
            for d, v in DESTINIES.items()
        },
        "sources": {s: SOURCE_NAME[s] for s in SOURCES},
    }
