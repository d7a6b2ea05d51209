"""Mauw in plain words (the game's ``words`` part; no ``rich``: the server imports only this).

Event sentences are one template per event kind (:data:`TEMPLATES`), filled from the event's
fields and a few words made from them (:func:`fields`).  The prompt offers exactly the
seat's legal answers, from the rules module and the view's rule facts (which cards answer
an attack, where a gain may go).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ...core.words import seat_possessive as whose
from ...core.words import seat_word as who
from .explain import either
from .rules import DECLINE, SLOTS, STOP, TU, Answer, answer_cards, tuatura_allowed

if TYPE_CHECKING:
    from .view import MauwView

Names = Sequence[str | None] | None

INPUT_HELP = (
    "Moves: 'R8 0A' (a card on seat 0's column A), 'JK=Y2 1C' (a Joker standing for Y2), "
    "'pass'; against an attack 'defend R1', 'TU', 'decline'; attacking 'renew R1', 'stop'; "
    "'place B'. Your own columns can be written without your seat: 'R8 A'."
)

#: One sentence per event kind worth a line (kinds not listed are not told).  ``{Who}`` is
#: the acting seat capitalised; ``{played}`` comes from :data:`EFFECTS`.
TEMPLATES: dict[str, str] = {
    "play": "{Who} {played}.",
    "kiwi": "{Who} played a Kiwi: took {warrior} from {from_whose} column {from_slot_name} and {played}.",
    "ninox": "{Who} played a Ninox on {target_whose} Spirit in column {slot_name}.",
    "combo": "Combo for {who}: {cards_plus}, {combo_words}.",
    "nine": "A nine on {seat_whose} column {slot_name}.",
    "lost": "{Seat_whose} gain had nowhere to go: {cards_spaced} discarded face up.",
    "defend": "{Who} defended with {what}.",
    "renew": "{Who} renewed the attack with {what}.",
    "tuatura": "{Who} played Tuatura: the attack is cancelled, {card} goes to {her} hand.",
    "decline": "{Who} did not defend.",
    "stop": "{Who} stopped attacking: the turn is over.",
    "success": "The attack succeeded: {attacker_who} won {defender_whose} column {slot_name} Warrior.",
    "unblock": "{Who} freed column {slot_name} of its Spirit.",
    "pass": "{Who} passed, discarding {cards_spaced}.",
    "reshuffle": "The discards were shuffled into a new draw pile ({count} cards).",
    "drew": "{Who} drew {cards_spaced}.",
    "end": "The game is over: {reason}.",
}

#: How a play (or a Kiwi's) is told, by its effect (:func:`rules.play_effect`): a block is
#: only ever on someone else's column; a Warrior on your own nines strengthens them.
EFFECTS: dict[str | None, str] = {
    "place": "put {what} on {target_whose} empty column {slot_name}",
    "strengthen": "strengthened {target_whose} nines in column {slot_name} with {what}",
    "block": "blocked {target_whose} column {slot_name} with {what}",
    "combo": "made a combo with {what} on {target_whose} column {slot_name}",
    "attack": "attacked {target_whose} column {slot_name} with {what}",
    "unblock": "unblocked {target_whose} column {slot_name} with {what}",
    None: "played {what} on {target_whose} column {slot_name}",
}

#: Words made from an event's fields, by name: (the field it needs, how to make it).
_MADE: dict[str, tuple[str, Callable[[Any, Any, Names], str]]] = {
    "who": ("seat", who),
    "seat_whose": ("seat", whose),
    "target_whose": ("target", whose),
    "from_whose": ("from_seat", whose),
    "attacker_who": ("attacker", who),
    "defender_whose": ("defender", whose),
    "slot_name": ("slot", lambda slot, _v, _n: SLOTS[slot]),
    "from_slot_name": ("from_slot", lambda slot, _v, _n: SLOTS[slot]),
    "cards_spaced": ("cards", lambda cards, _v, _n: " ".join(cards)),
    "cards_plus": ("cards", lambda cards, _v, _n: " + ".join(cards)),
    "combo_words": (
        "combo",
        lambda kind, _v, _n: "a pair (both discarded, a face-down nine)" if kind == "pair" else "twins",
    ),
}


def fields(event: dict[str, Any], viewer: Any, names: Names) -> dict[str, Any]:
    """The event's fields and the words its template may name."""
    out = dict(event)
    for name, (field, make) in _MADE.items():
        if field in event:
            out[name] = make(event[field], viewer, names)
    if "who" in out:
        out["Who"] = out["who"].capitalize()
        out["her"] = "your" if out["who"] == "you" else "her"
    if "seat_whose" in out:
        out["Seat_whose"] = out["seat_whose"].capitalize()
    card = event.get("warrior") or event.get("card")
    if card is not None:
        out["what"] = card + (f" as {event['declared']}" if event.get("declared") else "")
    if "effect" in event:
        out["played"] = EFFECTS.get(event["effect"], EFFECTS[None]).format(**out)
    return out


def describe_event(event: dict[str, Any], viewer: Any = None, names: Names = None) -> str | None:
    """One event in plain words (None for those not worth a line, and for cards not seen)."""
    template = TEMPLATES.get(event["type"])
    if template is None or "?" in event.get("cards", ()):
        return None
    return template.format(**fields(event, viewer, names))


def expand_input(text: str, seat: int | None = None) -> str | None:
    """Shorthand: your own column without your seat ('R8 A' -> 'R8 0A' for seat 0)."""
    words = text.split()
    if (
        seat is not None
        and len(words) == 2
        and len(words[1]) == 1
        and words[1].upper() in SLOTS
        and words[0].lower() != "place"
    ):
        return f"{words[0]} {seat}{words[1].upper()}"
    return None


def prompt(view: MauwView, seat: int) -> str:
    """What the seat is asked now, offering exactly its legal answers (read from the rules
    and the view): the defences or renewals its hand holds, Tuatura, the slots a gain may go to."""
    a = view.attack
    phase = view.phase
    hand = list(view.hands[seat])  # the seat's own hand (its view shows it)
    if phase in ("defend", "assist") and a is not None:
        code = a.declared or a.card
        column = f"your column {a.slot}" if a.defender == seat else f"seat {a.defender}'s column {a.slot}"
        offers = [str(Answer("defend", c, d)) for c, d in answer_cards(hand, a.value)]
        offers += [str(TU)] * tuatura_allowed(phase, hand) + [str(DECLINE)]
        held = "" if len(offers) > 1 else f": you hold no {code} and no Joker to defend with"
        return f"seat {a.attacker} attacks the {a.target} of {column} with {code}{held}: {either(offers)}"
    if phase == "renew" and a is not None:
        offers = [str(Answer("renew", c, d)) for c, d in answer_cards(hand, a.value)] + [str(STOP)]
        return f"your attack on the {a.target} was defended: {either(offers)}"
    if phase == "place" and view.gain is not None:
        gain = "a nine" + (f" with {view.gain.top} on top" if view.gain.top else "")
        return f"place your gain ({gain}): place {either(list(view.gain.slots))}"
    return "your move"


def input_help(view: MauwView) -> str:
    return INPUT_HELP
