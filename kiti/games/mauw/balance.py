"""Mauw's hooks for ``kiti balance`` (see :mod:`kiti.sim.playout`).

Who starts: the first player (seat order from her).  Length: the turns taken.  Card value:
the Jokers, Spirits and animals each seat played (a Joker in an attack, a defence or a combo,
a Spirit as a blocker or to free a column, a Kiwi, Ninox or Tuatura); a card has no points of
its own in Mauw, so only the win share and the score of those who played it are measured.
"""

from __future__ import annotations

from .cards import card_name as _name
from .rules import MauwState

UNIT = "turns"
ORDER = "place in turn order (1: the first player)"
CARD_VERB = "played"
#: The cards measured: the Joker, the Spirit and the three animals.
SPECIAL = ("JK", "SP", "KI", "NI", "TU")
_ANIMAL_EVENTS = {"kiwi": "KI", "ninox": "NI", "tuatura": "TU"}


def turn_order(state: MauwState) -> list[int]:
    return [(seat - state.first) % state.players for seat in range(state.players)]


def length(state: MauwState) -> int:
    return sum(1 for event in state.events() if event["type"] == "turn")


def card_facts(state: MauwState) -> list[dict[str, float | None]]:
    """Per seat: each special card it played (no points of its own: None)."""
    out: list[dict[str, float | None]] = [{} for _ in range(state.players)]
    for event in state.events():
        kind = event["type"]
        if kind in ("play", "defend", "renew") and event["card"] in SPECIAL:
            out[event["seat"]][event["card"]] = None
        elif kind in _ANIMAL_EVENTS:
            out[event["seat"]][_ANIMAL_EVENTS[kind]] = None
    return out


def card_name(code: str) -> str:
    return _name(code)
