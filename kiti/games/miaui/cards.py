"""Miaui's fish deck, loaded from ``cards.json`` (the one place card values live)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

_DATA = json.loads(resources.files(__package__).joinpath("cards.json").read_text("utf-8"))

#: Every card code of the deck, in data-file order (37 entries, codes repeat).
DECK: tuple[str, ...] = tuple(c["code"] for c in _DATA["cards"])
#: Points of each code (Seagulls score 0, Jellyfish are negative).
VALUE: dict[str, int] = {c["code"]: int(c["value"]) for c in _DATA["cards"]}
#: How many cards of each code the deck holds.
COUNT: Counter[str] = Counter(DECK)
#: Kind letter -> display name.
KIND_NAME: dict[str, str] = {k: v["name"] for k, v in _DATA["kinds"].items()}
#: Kind letter -> what a card of that kind does, in words (card help for clients).
KIND_HELP: dict[str, str] = {k: v["help"] for k, v in _DATA["kinds"].items()}
DIVER_HELP: str = _DATA["diver_help"]
DECK_SIZE = len(DECK)


def kind(code: str) -> str:
    """The kind letter of a card code: K, T, E, L, J or S."""
    return code[0]


def card_name(code: str) -> str:
    """A human name: 'Tigerfish 7', 'Jellyfish -10', 'Seagull'."""
    k = code[0]
    if k == "S":
        return "Seagull"
    return f"{KIND_NAME[k]} {VALUE[code]}"


def is_jelly(code: str) -> bool:
    return code[0] == "J"


def is_seagull(code: str) -> bool:
    return code == "S"


def is_lantern(code: str) -> bool:
    return code[0] == "L"


def catalog() -> dict[str, object]:
    """Miaui's declared ``catalog`` part: every fish card's kind, name and value, for clients
    that draw the cards (public data: the deck is printed in the rules), with what each kind
    and a diver do (``help``, ``diver_help``)."""
    return {
        "kinds": dict(KIND_NAME),
        "help": dict(KIND_HELP),
        "diver_help": DIVER_HELP,
        "cards": {
            code: {"kind": kind(code), "name": card_name(code), "value": VALUE[code], "count": COUNT[code]}
            for code in sorted(COUNT, key=DECK.index)
        },
        "divers": list(range(1, 13)),
    }
