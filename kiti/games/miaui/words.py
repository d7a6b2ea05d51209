"""Miaui in plain words (the game's ``words`` part: no ``rich``, the server imports only this).

Who is who at the table (:class:`People`), card names, the order in which a round's events
are told (depth by depth), and every event as a sentence: :data:`SENTENCES` holds one
template per event kind (a few kinds have a second wording, chosen by :data:`VARIANTS`),
and :data:`WORDS` says how each placeholder is worded from the event.  The terminal's story
of a round and its one-line log of older rounds are worded here too (:data:`STORY`,
:data:`ROUND`, :data:`STORY_WORDS`), as plain text the terminal styles.  Also the player's
shorthand (``expand_input``), its help line and the prompt.  The terminal's drawing is in
:mod:`.terminal`; the rules are read from :mod:`.rules`, never restated.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from ...core.words import seat_possessive, seat_word
from .cards import COUNT, card_name
from .rules import SPACE_NAMES, kiti_order, tie_direction

if TYPE_CHECKING:
    from .view import MiauiView

SPACES = SPACE_NAMES
#: Event types that begin something new (they end the story of a round).
BOUNDARIES = ("stock", "peek", "reveal", "end")
INPUT_HELP = "Shorthand: a number N alone means 'dive N'."
TAKE_HELP = "Shorthand: a card code alone (T7) means 'take T7'."


# ------------------------------------------------------------------ people
class People:
    """How seats are named for one viewer: 'you', a player's name, or 'seat N'."""

    def __init__(
        self,
        viewer: Any = None,
        names: Sequence[str | None] | None = None,
        labels: Sequence[str] | None = None,
    ) -> None:
        self.viewer = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
        self.names = list(names or [])
        self.labels = list(labels or [])

    def name(self, seat: int) -> str | None:
        return self.names[seat] if seat < len(self.names) else None

    def who(self, seat: int) -> str:
        """'you', the player's name, or 'seat N'."""
        return seat_word(seat, self.viewer, self.names)

    def whose(self, seat: int) -> str:
        return seat_possessive(seat, self.viewer, self.names)

    def short(self, seat: int) -> str:
        """A seat in compact lists: 'you' or its number."""
        return "you" if seat == self.viewer else str(seat)

    def mark(self, seat: int) -> str:
        """A seat in tie orders: 'you', its player's name, or its number."""
        if seat == self.viewer:
            return "you"
        return self.name(seat) or str(seat)

    def tag(self, seat: int, width: int = 12) -> str:
        """The word beside a seat number in the table: you, a name, or what plays there."""
        if seat == self.viewer:
            return "you"
        word = self.name(seat) or (self.labels[seat] if seat < len(self.labels) else "")
        return word if len(word) <= width else word[: width - 1] + "…"

    def listing(self, seats: Sequence[int]) -> str:
        """'you and Ann' / 'seat 1, seat 2 and you'."""
        words = [self.who(s) for s in seats]
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# ------------------------------------------------------------------- cards
def name(code: str) -> str:
    """'Tigerfish 7 (T7)', or 'a face-down card' for '?'."""
    if code == "?":
        return "a face-down card"
    return f"{card_name(code)} ({code})"


def names(cards: Sequence[str]) -> str:
    out = [name(c) for c in cards]
    if len(out) <= 1:
        return "".join(out)
    return ", ".join(out[:-1]) + " and " + out[-1]


# ------------------------------------------------------------------ events
def round_events(events: Sequence[dict[str, Any]], start: int) -> list[dict[str, Any]]:
    """What followed the reveal at ``events[start]``, up to the next stocking or reveal."""
    out = []
    for ev in events[start + 1 :]:
        if ev.get("type") in BOUNDARIES:
            break
        out.append(ev)
    return out


def in_depth_order(outcome: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """A round's outcome told Deepest, Deep, Shallow, whether or not anyone caught there.

    A catch is followed by what it caused (takes, a Seagull, Jellyfish) until the next
    depth's event; ties and empty depths are placed at their own depth.
    """
    groups: dict[int, list[dict[str, Any]]] = {}
    rest: list[dict[str, Any]] = []
    current: list[dict[str, Any]] | None = None
    for ev in outcome:
        if "space" in ev and ev.get("type") in ("catch", "tie", "no_diver"):
            current = groups.setdefault(ev["space"], [])
            current.append(ev)
        elif current is not None:
            current.append(ev)
        else:
            rest.append(ev)
    return [ev for space in sorted(groups) for ev in groups[space]] + rest


def told_in_order(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every event, with each round's outcome in depth order (for logs)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(events):
        out.append(events[i])
        if events[i].get("type") == "reveal":
            outcome = round_events(events, i)
            out.extend(in_depth_order(outcome))
            i += len(outcome)
        i += 1
    return out


#: One sentence per event kind ("kind/variant": a second wording, see :data:`VARIANTS`).
SENTENCES: dict[str, str] = {
    "stock": "Round {round}: the lagoon is stocked: {stocked}.",
    "peek": "Round {round}: {peeker} peeked at the face-down card in {space}: {card}.",
    "seagull_returned": "Round 1: a Seagull drawn for {space} went back into the deck.",
    "reveal": "Round {round}: the divers are revealed: {dives}.",
    "catch": "Round {round}: {who} caught {cards} in {space}{kiti_chose}.",
    "tie": (
        "Round {round}: tie in {space} between {seats}: nobody catches there (No Fighting), the fish stay."
    ),
    "no_diver": "Round {round}: no diver left for {space}: its fish stay.",
    "take": "Round {round}: {who} added {card} to the pile.",
    "seagull": "Round {round}: the Seagull ate {whose} top fish, {ate}; both left the game.",
    "seagull/hungry": "Round {round}: the Seagull flew off from {whose} empty pile, hungry.",
    "jellyfish": "Round {round}: three Jellyfish in {whose} pile ({codes}) left the game together.",
    "end": "The game is over: {winners} {win}.",
}

#: Kinds with a second wording: the variant's name, or None for the usual one.
VARIANTS: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "seagull": lambda e: "hungry" if e.get("ate") is None else None,
}

Event = dict[str, Any]

#: How each placeholder of :data:`SENTENCES` is worded, from the event and the viewer's people.
WORDS: dict[str, Callable[[Event, People], str]] = {
    "round": lambda e, p: str(e.get("round")),
    "space": lambda e, p: SPACES[e["space"]],
    "who": lambda e, p: p.who(e["seat"]),
    "whose": lambda e, p: p.whose(e["seat"]),
    "card": lambda e, p: name(e["card"]),
    "cards": lambda e, p: names(e["cards"]),
    "codes": lambda e, p: ", ".join(e["cards"]),
    "ate": lambda e, p: name(e["ate"]),
    "seats": lambda e, p: p.listing(e["seats"]),
    "stocked": lambda e, p: ", ".join(f"{SPACES[space]} {name(c)}" for space, c in enumerate(e["cards"])),
    "peeker": lambda e, p: "you" if p.viewer is not None or not e.get("to") else p.listing(e["to"]),
    "dives": lambda e, p: ", ".join(f"{p.who(s)} ({d})" for s, d in enumerate(e["dives"])),
    "kiti_chose": lambda e, p: _kiti_chose(e, p),
    "winners": lambda e, p: p.listing(e["winners"]),
    "win": lambda e, p: "win" if len(e["winners"]) > 1 or p.listing(e["winners"]) == "you" else "wins",
}


#: The terminal's story of a round, one line per event (plain text: the terminal styles it and
#: picks the longest wording that fits its width): per kind ("kind/variant" as in
#: :data:`VARIANTS`; "catch/tied": how Kiti broke the catch's tie), the wordings from the longest
#: to the shortest, each a tuple of pieces never split.  ``{cards}``, ``{dives}`` and
#: ``{seat_dives}`` are drawn by the terminal; the other placeholders are :data:`STORY_WORDS`.
STORY: dict[str, tuple[tuple[str, ...], ...]] = {
    "reveal": (("Round {round} revealed: {dives}",), ("Round {round} revealed (seat:diver): {seat_dives}",)),
    "catch": (("  {space}: {who} ({dive}) caught {cards}",),),
    "catch/tied": (
        ("    tied {dive}s with {others}: Kiti's {way} order ", "{order}"),
        ("    tied {dive}s: Kiti's {way} order ", "{order}"),
        ("    tied: Kiti's order ", "{order}"),
    ),
    "tie": (
        ("  {space}: tie of {dive}s between ", "{seats}", ": nobody catches, the fish stay (No Fighting)"),
        ("  {space}: tie of {dive}s between ", "{seats}", ": nobody catches"),
        ("  {space}: tie of {dive}s between ", "{seat_numbers}", ": nobody catches"),
    ),
    "no_diver": (("  {space}: no diver left, the fish stay",),),
    "take": (("    {Who} added {card}",), ("    {Who} added {code}",)),
    "seagull": (
        ("    Seagull! It ate {whose} top fish {ate}; both leave the game",),
        ("    Seagull! It ate {whose} top fish {ate_code}",),
    ),
    "seagull/hungry": (
        ("    Seagull! {Whose} pile is empty: it flies off hungry",),
        ("    Seagull! {Whose} pile is empty",),
        ("    Seagull! It flies off hungry",),
    ),
    "jellyfish": (
        ("    Three Jellyfish in {whose} pile ({codes}) leave the game together",),
        ("    Three Jellyfish leave {whose} pile",),
    ),
}

#: An older round in one line (the terminal's log): its head, then a piece per event of these
#: kinds ("kind/variant" as in :data:`VARIANTS`), depth by depth.
ROUND_HEAD = "R{round}: "
ROUND: dict[str, str] = {
    "catch": "{who} {cards}",
    "tie": "{space} tied",
    "seagull": " (ate {ate_code})",
    "seagull/hungry": " (hungry)",
    "jellyfish": " (3 Jellyfish out)",
}

Told = Callable[[Event, Event, People], str]

#: How each placeholder of :data:`STORY` and :data:`ROUND` is worded, from the event, the reveal
#: that began its round and the viewer's people.
STORY_WORDS: dict[str, Told] = {
    "round": lambda e, r, p: str(r["round"]),
    "space": lambda e, r, p: SPACES[e["space"]],
    "who": lambda e, r, p: p.who(e["seat"]),
    "Who": lambda e, r, p: _capital(p.who(e["seat"])),
    "whose": lambda e, r, p: p.whose(e["seat"]),
    "Whose": lambda e, r, p: _capital(p.whose(e["seat"])),
    "dive": lambda e, r, p: str(r["dives"][e["seat"] if "seat" in e else e["seats"][0]]),
    "card": lambda e, r, p: name(e["card"]),
    "code": lambda e, r, p: e["card"],
    "ate": lambda e, r, p: name(e["ate"]),
    "ate_code": lambda e, r, p: e["ate"],
    "codes": lambda e, r, p: " ".join(e["cards"]),
    "seats": lambda e, r, p: p.listing(e["seats"]),
    "seat_numbers": lambda e, r, p: " ".join(p.short(s) for s in e["seats"]),
    "others": lambda e, r, p: p.listing([s for s in e["tied"] if s != e["seat"]]),
    "way": lambda e, r, p: tie_direction(e["space"]),
    "order": lambda e, r, p: ">".join(map(str, kiti_order(r["kiti"], len(r["dives"]), e["space"]))),
}


def _capital(words: str) -> str:
    """The first letter upper case (not str.capitalize(): a player's name keeps its letters)."""
    return words[:1].upper() + words[1:]


def told_as(event: Event) -> str:
    """The key of ``event``'s wording in :data:`SENTENCES`, :data:`STORY` and :data:`ROUND`:
    its kind, or "kind/variant" (:data:`VARIANTS`)."""
    kind = str(event.get("type"))
    choose = VARIANTS.get(kind)
    variant = choose(event) if choose is not None else None
    return f"{kind}/{variant}" if variant else kind


def _kiti_chose(event: Event, people: People) -> str:
    tied = [x for x in event.get("tied") or [] if x != event["seat"]]
    return f" (tied with {people.listing(tied)}; Kiti chose)" if tied else ""


@cache
def _placeholders(template: str) -> tuple[str, ...]:
    return tuple(field for _, field, _, _ in string.Formatter().parse(template) if field)


def sentence(event: Event, people: People) -> str | None:
    """``event`` as its kind's sentence, for the viewer ``people`` speak to (None: no sentence)."""
    template = SENTENCES.get(told_as(event))
    if template is None:
        return None
    return template.format(**{field: WORDS[field](event, people) for field in _placeholders(template)})


# -------------------------------------------------------- the words protocol
def describe_event(
    event: dict[str, Any], viewer: Any = None, names: Sequence[str | None] | None = None
) -> str | None:
    """One event in plain words for ``viewer`` (None for those not worth a line)."""
    return sentence(event, People(viewer, names))


def describe_events(
    events: Sequence[dict[str, Any]], viewer: Any = None, names: Sequence[str | None] | None = None
) -> list[str]:
    """Every event worth telling, in the order a person reads them (depths in order)."""
    people = People(viewer, names)
    return [line for line in (sentence(e, people) for e in told_in_order(events)) if line]


def expand_input(typed: str, seat: int | None = None) -> str | None:
    """Shorthand a player may type: '9' -> 'dive 9', 'T7' -> 'take T7'; None if not shorthand.

    Text only: no number is converted, so a number of any length is simply not a move.
    """
    t = typed.strip()
    if t.isascii() and t.isdigit():
        return f"dive {t.lstrip('0') or '0'}"
    if t.upper() in COUNT:
        return f"take {t.upper()}"
    return None


def input_help(view: MiauiView) -> str:
    return TAKE_HELP if view.pending_take else INPUT_HELP


def prompt(view: MiauiView, seat: int) -> str:
    pending = view.pending_take
    if pending and pending.seat == seat:
        return "take which fish next?"  # short: the line above names the catch and its cards
    return "your move"
