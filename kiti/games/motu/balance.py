"""MOTU's hooks for ``kiti balance`` (see :mod:`kiti.sim.playout`).

Who starts: the first player (seat order from her).  Length: the rounds played.  Card value:
the island cards each seat placed (no points of their own: None), the Destinies it bought (their
points or penalty at the end) and its Traveler once played (its points).
"""

from __future__ import annotations

from .rules import MotuState

UNIT = "rounds"
ORDER = "place in turn order (1: the first player)"
CARD_VERB = "placed, bought or played"


def turn_order(state: MotuState) -> list[int]:
    return [(seat - state.first) % state.players for seat in range(state.players)]


def length(state: MotuState) -> int:
    return state.round


def card_facts(state: MotuState) -> list[dict[str, float | None]]:
    """Per seat: island cards placed (None), Destinies bought and the Traveler played (points)."""
    out: list[dict[str, float | None]] = [{} for _ in range(state.players)]
    for event in state.events():
        kind = event["type"]
        seat: int = event.get("seat", -1)
        if kind == "place":
            out[seat][event["card"]] = None
        elif kind == "buy":
            out[seat][event["destiny"]] = float(state.destiny_value(seat, event["destiny"]))
        elif kind == "travel":
            out[seat][event["card"]] = float(event["points"])
    return out


def card_name(code: str) -> str:
    kind = {"D": "Destiny", "T": "Traveler", "I": "island card"}.get(code[:1], "card")
    return f"{kind} {code}"
