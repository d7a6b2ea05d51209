"""Miaui's hooks for ``kiti balance`` (see :mod:`kiti.sim.playout`).

Who starts: there are no turns; the seat nearest Kiti wins the first tie at the deep spaces,
so a seat's place is its rank in Kiti's order for the Deepest space in round 1 (seat order
without Kiti, under No Fighting).  Length: the rounds played.  Card value: every fish a seat
caught, and the points of the copies still in its pile at the end (a fish eaten by a Seagull
or boxed with two other Jellyfish counted 0).
"""

from __future__ import annotations

from collections import Counter

from .cards import card_name as _name
from .rules import MiauiState, kiti_rank, pile_score

UNIT = "rounds"
ORDER = "place in Kiti's order for a tie at the Deepest space in round 1 (1: favoured)"
CARD_VERB = "caught"


def turn_order(state: MiauiState) -> list[int]:
    """Each seat's place at the start (0: the seat Kiti favours first)."""
    n = state.players
    if state.kiti is None:
        return list(range(n))
    return [kiti_rank(state.kiti, n, 0, seat) for seat in range(n)]


def length(state: MiauiState) -> int:
    return state.round


def card_facts(state: MiauiState) -> list[dict[str, float | None]]:
    """Per seat: each fish it caught -> the points its copies left in the pile are worth."""
    out: list[dict[str, float | None]] = [{} for _ in range(state.players)]
    for event in state.events():
        if event["type"] == "catch":
            for code in event["cards"]:
                out[event["seat"]][code] = 0.0
    for seat, caught in enumerate(out):
        held = Counter(state.piles[seat])
        for code in caught:
            caught[code] = float(pile_score([code] * held[code]))
    return out


def card_name(code: str) -> str:
    return f"{_name(code)} ({code})"
