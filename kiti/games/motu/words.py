"""MOTU in plain words (the game's ``words`` part; no ``rich``: the server imports only this).

Event sentences are one template per event kind (:data:`EVENT_WORDS`), filled from the event's
own fields and a few worded pieces (:data:`PIECES`: who acted, "paying 2", a Source list).  The
prompt, the line saying what the seat to act is asked (:func:`asked`), the shorthand
(:func:`expand_input`) and its help follow the protocol of ``kiti/cli/render.py``.  Every number
a sentence gives (a take's cost, the Beach Hut's change, the discard price, how many Sources an
interim scores) is read from the view or the event, never worked out here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ...core.errors import NotationError
from ...core.words import Names
from ...core.words import seat_possessive as whose
from ...core.words import seat_word as who
from .cards import DESTINIES
from .rules import source_names
from .sources import SOURCE_NAME

if TYPE_CHECKING:
    from .view import MotuView, SoloTable

INPUT_HELP = (
    "Shorthand: 2 = take 2 · left/right (solo) · D03 = buy D03 · totem = score totem. "
    "Placing: 90 marks where the card turned 90 fits (+), 90 2 -1 places it, aim 90 2 -1 "
    "shows it there first. Anytime: map [SEAT] [X Y] shows an island, card ID draws a card."
)

#: One sentence per event kind (kinds not here are not worth a line). ``{field}`` is the event's
#: field; a capitalised or worded name is a piece of :data:`PIECES`.
EVENT_WORDS: dict[str, str] = {
    "take": "{Who} took {card} (card {number}{paying}{gaining}).",
    "pick": "{Who} took the {side} card, {card}.",
    "scrap": "{Who} could place no card: {card} was discarded.",
    "place": "{Who} placed {card} turned {rotation} at ({x}, {y}).",
    "buy": "{Who} bought Destiny {destiny} for {price} coconut(s).",
    "travel": "{Who} played Traveler {card}: {points} points{printed}.",
    "give": "The other card went face down to the Opponent.",
    "discard": "{Who} paid {paid} to discard {card}.",
    "chose": "{Who} chose {named} (secret until everyone has chosen).",
    "interim": "Interim total {pile}: {story}.",
    "pile_empty": "Pile {pile} is empty: interim total.",
    "traveler": "{Whose} face-down Traveler is {card}.",
    "end": "The game is over.",
}

Piece = Callable[[Mapping[str, Any], Any, Names], Any]

#: The worded pieces templates use besides the event's fields: (event, viewer, names) -> text.
PIECES: dict[str, Piece] = {
    "Who": lambda e, viewer, names: who(e.get("seat", -1), viewer, names).capitalize(),
    "Whose": lambda e, viewer, names: whose(e["seat"], viewer, names).capitalize(),
    "number": lambda e, viewer, names: e["position"] + 1,
    "paying": lambda e, viewer, names: f", paying {e['paid']}" if e["paid"] else "",
    "gaining": lambda e, viewer, names: f", gaining {e['gained']}" if e["gained"] else "",
    "printed": lambda e, viewer, names: (
        f"; its {e['coconuts']} coconut(s) count from now on" if e["coconuts"] else ""
    ),
    "named": lambda e, viewer, names: " and ".join(SOURCE_NAME[x] for x in e["sources"]),
    "story": lambda e, viewer, names: interim_story(e, viewer, names),
}


class _Filled(dict[str, Any]):
    """An event's fields, and on demand the pieces a template names."""

    def __init__(self, event: Mapping[str, Any], viewer: Any, names: Names) -> None:
        super().__init__(event)
        self.context = (event, viewer, names)

    def __missing__(self, key: str) -> Any:
        return PIECES[key](*self.context)


def describe_event(event: dict[str, Any], viewer: Any = None, names: Names = None) -> str | None:
    """One event in plain words (None for those not worth a line)."""
    template = EVENT_WORDS.get(event["type"])
    return None if template is None else template.format_map(_Filled(event, viewer, names))


def interim_story(event: Mapping[str, Any], viewer: Any, names: Names = None) -> str:
    """Every seat's Sources (named as the rulebook names them) and points at an interim total."""
    return ", ".join(
        f"{who(s, viewer, names)}: {' + '.join(SOURCE_NAME[x] for x in src)} {sum(pts)}"
        for s, (src, pts) in enumerate(zip(event["sources"], event["points"]))
    )


# ------------------------------------------------------------------ what is asked
def prompt(view: MotuView, seat: int) -> str:
    """The question at the prompt: short, since the view spells out what is asked (:func:`asked`)."""
    return "your move"


def take_change(change: int) -> str:
    """A solo take's change of coconuts (the view's ``offers[].change``), in words."""
    if change < 0:
        return f"pay {-change}"
    return f"gain {change}" if change else "gain nothing"


def solo_table(view: MotuView) -> SoloTable:
    """A solo view's table (the Beach Hut, the cards shown, the Opponent)."""
    assert view.solo_table is not None, "a solo view has its solo table"
    return view.solo_table


def asked(view: MotuView) -> str:
    """What the seat to act is asked now, in words (a line of the view); every number is the view's."""
    phase = view.phase
    if phase == "take" and view.solo:
        left, right = (take_change(o.change) for o in solo_table(view).offers)
        return f"Take a card: left ({left} to the Beach Hut) or right ({right}); scrap if neither fits"
    if phase == "take":
        costs = " ".join(str(c.cost) for c in view.row)
        return f"Take a card: take 1-{len(view.row)} (costs {costs} coconuts: one on each card to its left)"
    if phase == "place":
        return (
            f"Place {view.holding}: a rotation (0 90 180 270) marks where it fits; "
            "ROT X Y places it; aim ROT X Y previews"
        )
    if phase == "extras":
        return "Optional: buy a Destiny (buy Dxx), travel (play your Traveler), or done"
    if phase == "other":
        solo = solo_table(view)
        return (
            f"The other card, {solo.other}: give (face down to the Opponent) or discard "
            f"(pay {solo.discard_price})"
        )
    return f"Interim total, pile {view.pile}: score {view.picks} Source(s) you have not scored (score totem)"


def input_help(view: MotuView) -> str:
    return INPUT_HELP


# ------------------------------------------------------------------ shorthand
def expand_input(text: str, seat: int | None = None) -> str | None:
    """Shorthand: ``2`` take 2, ``left``, ``D03``, ``90 2 -1`` a placement, ``totem`` or
    ``Canoe/Palm Tree`` (Source names) score."""
    words = text.strip().lower().split()
    if len(words) == 1 and words[0] in ("1", "2", "3", "4", "left", "right"):
        return f"take {words[0]}"
    if len(words) == 1 and len(words[0]) == 3 and words[0].upper() in DESTINIES:
        return f"buy {words[0].upper()}"
    if len(words) == 3 and all(is_int(w) for w in words):
        return "place " + " ".join(words)
    if words and _names_sources(text):
        return "score " + " ".join(words)
    return None


def _names_sources(text: str) -> bool:
    """Whether the text is only Source names (``totem``, ``Canoe/Palm Tree``; the rules read them)."""
    try:
        return bool(source_names(text))
    except NotationError:
        return False


def is_int(word: str) -> bool:
    return word.lstrip("+-").isdigit() and word.isascii() and len(word) <= 5
