"""Mauw's cards, loaded from ``cards.json`` (the one place card data lives)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

_DATA = json.loads(resources.files(__package__).joinpath("cards.json").read_text("utf-8"))

#: Warrior code -> value (1-8) and colour letter.
VALUE: dict[str, int] = {w["code"]: int(w["value"]) for w in _DATA["warriors"]}
COLOUR: dict[str, str] = {w["code"]: w["colour"] for w in _DATA["warriors"]}
COLOUR_NAME: dict[str, str] = dict(_DATA["colours"])
WARRIORS: tuple[str, ...] = tuple(w["code"] for w in _DATA["warriors"])
#: The Warrior code of each value (one colour per value).
WARRIOR_OF_VALUE: dict[int, str] = {v: c for c, v in VALUE.items()}
JOKER, SPIRIT, KIWI, NINOX, TUATURA = "JK", "SP", "KI", "NI", "TU"
NAMES: dict[str, str] = {s["code"]: s["name"] for s in _DATA["specials"] + _DATA["experts"]}
#: What a card does, in words (card help for clients): every Warrior shares one text.
HELP: dict[str, str] = {
    **dict.fromkeys(VALUE, _DATA["warrior_help"]),
    **{s["code"]: s["help"] for s in _DATA["specials"] + _DATA["experts"]},
}
EXPERT_OPTION: dict[str, str] = {e["code"]: e["option"] for e in _DATA["experts"]}
EXPERT_MAX = max(e["max"] for e in _DATA["experts"])
NINE_VALUE = int(_DATA["nine"]["value"])
NINE_MULTIPLIER = int(_DATA["nine"]["multiplier"])
ALL_CODES: tuple[str, ...] = (*WARRIORS, JOKER, SPIRIT, KIWI, NINOX, TUATURA)


def deck_counts(kiwi: int = 0, ninox: int = 0, tuatura: int = 0) -> Counter[str]:
    """How many of each card a game with these expert animals holds."""
    counts: Counter[str] = Counter({w["code"]: int(w["count"]) for w in _DATA["warriors"]})
    counts.update({s["code"]: int(s["count"]) for s in _DATA["specials"]})
    counts.update({KIWI: kiwi, NINOX: ninox, TUATURA: tuatura})
    return +counts


def is_warrior(code: str) -> bool:
    return code in VALUE


def card_name(code: str) -> str:
    """'Yellow 7 (Y7)', 'Joker (JK)', 'Spirit (SP)'."""
    if code in VALUE:
        return f"{COLOUR_NAME[COLOUR[code]].capitalize()} {VALUE[code]} ({code})"
    return f"{NAMES.get(code, code)} ({code})"


def catalog() -> dict[str, object]:
    """Mauw's declared ``catalog`` part: every card's name, colour and value, and what each does
    (``help``, by code), for clients that draw the cards (public data)."""
    cards: dict[str, dict[str, object]] = {}
    for code in ALL_CODES:
        entry: dict[str, object] = {"name": card_name(code).rsplit(" (", 1)[0]}
        if code in VALUE:
            entry.update(kind="warrior", value=VALUE[code], colour=COLOUR[code])
        else:
            entry["kind"] = {JOKER: "joker", SPIRIT: "spirit"}.get(code, "animal")
        cards[code] = entry
    return {
        "cards": cards,
        "help": dict(HELP),
        "colours": dict(COLOUR_NAME),
        "nine": {"value": NINE_VALUE, "multiplier": NINE_MULTIPLIER},
    }
