"""Miaui's answer to ``why MOVE`` for a legal move: what it would do now, in words.

:meth:`MiauiState.explain_move <kiti.games.miaui.rules.MiauiState.explain_move>` hands
this module the seat's own view and the events it saw, so an explanation can never tell
more than the seat may know (a face-down card stays face down).  Every rule is read from
:mod:`.rules`: who wins a depth (``DEPTH_RULE``), what follows the dives (``REVEAL_RULE``),
Kiti's tie orders (:func:`~.rules.kiti_order`, :func:`~.rules.tie_direction`), No
Fighting (``NO_FIGHTING_TIE``), and what a catch does to a pile (:func:`~.rules.add_to_pile`,
:func:`~.rules.lantern_hides_next`, :func:`~.rules.catch_needs_order`).  Seats are named
"seat N"; front ends word them for the viewer ("you", a name).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .rules import (
    DEPTH_RULE,
    DIVERS,
    NO_FIGHTING_TIE,
    REVEAL_RULE,
    SPACE_NAMES,
    add_to_pile,
    catch_needs_order,
    kiti_order,
    lantern_hides_next,
    pile_score,
    remembered_dives,
    tie_direction,
)

View = Mapping[str, Any]


def explain_dive(view: View, events: Sequence[Mapping[str, Any]], seat: int, n: int) -> str:
    """``dive n`` by ``seat``: what each depth offers it now, how ties are broken, and which
    divers the others may still play against it."""
    offers: list[str] = []
    for space in (0, 1, 2):  # the seat is named once, at the first catch worked out
        offers.append(offer(view, seat, space, not any("for seat" in o for o in offers)))
    return (
        f"diver {n} stays secret until every seat has dived; then {REVEAL_RULE}. "
        f"{'; '.join(offers)}. {ties(view)}. {rivals(view, events, seat, n)}"
    )


def explain_take(view: View, seat: int, code: str) -> str:
    """``take code`` by the seat ordering a No Fighting catch: what joining the pile next
    does, then what becomes of the cards still waiting."""
    pile = list(view["piles"][seat])
    rest = list(view["pending_take"]["cards"])
    rest.remove(code)
    said = f"{named(code)} joins seat {seat}'s pile next: {catch_effects(pile, [code], None, seat, True)}"
    if not rest:
        return said
    if catch_needs_order(rest, True):
        return f"{said}; then {', '.join(map(named, sorted(rest)))} wait for seat {seat} to order them"
    add_to_pile(pile, code)
    verb = "join on their own" if len(rest) > 1 else "joins on its own"
    then = catch_effects(pile, rest, None, seat, False)
    return f"{said}; then {', '.join(map(named, rest))} {verb}: {then}"


def offer(view: View, seat: int, space: int, whose: bool) -> str:
    """'Deepest (highest diver wins): E13, +13 for seat 0' (``whose``: name the seat)."""
    cards = view["lagoon"][space]
    head = f"{SPACE_NAMES[space]} ({DEPTH_RULE[space]}): {', '.join(map(named, cards)) or 'nothing'}"
    if "?" in cards:
        return f"{head}, unknown to seat {seat}"
    if view["options"].get("taker_chooses_order") and catch_needs_order(cards, True):
        return f"{head}, in the order seat {seat} would choose"
    return f"{head}, {catch_effects(view['piles'][seat], cards, view['round'], seat, whose)}"


def catch_effects(pile: Sequence[str], cards: Sequence[str], rnd: int | None, seat: int, whose: bool) -> str:
    """What ``cards`` joining ``pile`` in order would do, by the pile rules themselves:
    '+13 for seat 0', or a Seagull's meal, a Jellyfish triple, and (caught in round ``rnd``;
    None: already caught) a Lantern's hidden card."""
    new = list(pile)
    notes = []
    for code in cards:
        eaten, jellies = add_to_pile(new, code)
        if code == "S":
            notes.append(
                f"the Seagull eats {eaten}, both leave the game"
                if eaten
                else "the Seagull flies off from an empty pile"
            )
        if jellies:
            notes.append(f"{' '.join(jellies)} leave the pile together")
    if rnd is not None and lantern_hides_next(cards, rnd):
        notes.append(f"the next card there comes face down, for seat {seat} only")
    gain = pile_score(new) - pile_score(pile)
    return ", ".join([f"{gain:+d}" + (f" for seat {seat}" if whose else ""), *notes])


def ties(view: View) -> str:
    """How a tie at each depth is broken: Kiti's order, or No Fighting."""
    kiti = view["kiti"]
    if kiti is None:
        return f"No Fighting: {NO_FIGHTING_TIE}"
    players = view["players"]
    groups: dict[tuple[int, ...], list[int]] = {}
    for space in (0, 1, 2):
        groups.setdefault(tuple(kiti_order(kiti, players, space)), []).append(space)
    parts = []
    for order, spaces in groups.items():
        where = "/".join(SPACE_NAMES[space] for space in spaces)
        first = ", ".join(f"seat {s}" for s in order)
        parts.append(f"at {where}: {first} ({tie_direction(spaces[0])})")
    return "A tie goes to the first in Kiti's order, " + "; ".join(parts)


def rivals(view: View, events: Sequence[Mapping[str, Any]], seat: int, n: int) -> str:
    """Which other seats may still dive higher, the same, or lower (played divers are public):
    'Seat 1 and seat 2 may still dive higher or a 9; every other seat lower'."""
    played = remembered_dives(events, view["players"])
    left = {s: set(DIVERS) - set(played[s]) for s in range(view["players"]) if s != seat}
    kinds = {
        "higher": [s for s, held in left.items() if any(d > n for d in held)],
        f"{'an' if n in (8, 11) else 'a'} {n}": [s for s, held in left.items() if n in held],
        "lower": [s for s, held in left.items() if any(d < n for d in held)],
    }
    grouped: dict[tuple[int, ...], list[str]] = {}
    for kind, holders in kinds.items():
        grouped.setdefault(tuple(holders), []).append(kind)
    parts = []
    for who, what in grouped.items():
        dives = what[0] if len(what) == 1 else ", ".join(what[:-1]) + " or " + what[-1]
        if not who:
            parts.append(f"no other seat can dive {dives}")
            continue
        missing = [s for s in left if s not in who]
        but = f"every other seat but {seats(missing)}" if missing else "every other seat"
        subject = min(seats(who), but, key=len)
        parts.append(f"{subject} may still dive {dives}")
    text = "; ".join(parts)
    return text[0].upper() + text[1:]


def seats(which: Sequence[int]) -> str:
    words = [f"seat {s}" for s in which]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def named(code: str) -> str:
    """A card as the table shows it: its code ('T7'), 'a Seagull', or 'a face-down card'."""
    if code == "?":
        return "a face-down card"
    return "a Seagull" if code == "S" else code
