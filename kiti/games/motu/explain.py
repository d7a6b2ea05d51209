"""What a legal MOTU move would do, in the rulebook's words: the answer to ``why MOVE``
(:meth:`.rules.MotuState.explain_move`).

Nothing here restates a rule. The move is applied to a copy of the state by the rules
themselves, and the rules' own functions measure before and after: the coconuts paid and
gained (from the events the copy logs), each Source's symbols and points
(:meth:`~.rules.MotuState.source_value`, :func:`.sources.symbol_counts`), the longest beach,
the volcanic ruler's points of a new volcano, what a Destiny would give now, what comes next.

Nothing hidden is told: the card that refills the row, the cards shown next (solo) and the other
seats' secret choices stay unnamed, although the copy knows them. Seats are named "seat N" (the
front end words them for the viewer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...core.moves import Move
from .cards import PAIRS, SYMBOL_NAME, TOTEMS, Pos
from .draw import destiny_text, traveler_text
from .island import Island
from .rules import PICKS, PILES, SOLO_DISCARD, Buy, MotuState, Place, Score, SoloTake, Take
from .sources import SOURCE_NAME, SOURCES, longest_beach, ruler_points, symbol_counts, volcano_distance

#: The symbol kinds whose counts make each Source (coconuts are counted apart).
SOURCE_KINDS: dict[str, tuple[str, ...]] = {
    **{leader: (leader, partner) for leader, (partner, _) in PAIRS.items()},
    "coconut": (),
    "totem": TOTEMS,
    "volcano": ("volcano",),
}


def explain(state: MotuState, seat: int, move: Move) -> str:
    """What legal ``move`` by ``seat`` would do now (``state`` is left as it was)."""
    after = state.clone()
    assert isinstance(after, MotuState)
    after._advance(seat, move)  # legal: unchecked
    told = _TOLD.get(type(move)) or _WORDS[str(move)]
    return "; ".join(x for x in (told(state, after, seat, move), then(state, after, seat)) if x)


# ------------------------------------------------------------------ each kind of move
def _take(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    _, position, name, paid, gained = _event(before, after, "take")
    cost = (
        f"it costs {paid} coconut(s), one put on each card to its left"
        if paid
        else "it is free (no card lies to its left)"
    )
    gain = f", and the {gained} coconut(s) on it come to seat {seat}" if gained else ""
    return (
        f"take {name}, card {position + 1} of the row: {cost}{gain} ({_bank(before, after, seat)}); "
        f"{_to_place(after, seat)}"
    )


def _solo_take(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    _, side, name, paid, gained = _event(before, after, "pick")
    coconut = (
        f"{paid} coconut goes from seat {seat}'s bank to the Beach Hut"
        if paid
        else f"{gained} coconut comes from the Beach Hut to seat {seat}'s bank"
        if gained
        else "the Beach Hut is empty, so no coconut comes with it"
    )
    money = f"{_bank(before, after, seat)}, the Beach Hut {_change(before.hut, after.hut)}"
    other = before.shown[1] if side == "left" else before.shown[0]
    return (
        f"take the {side} card, {name}: {coconut} ({money}); {_to_place(after, seat)}; "
        f"{_other_card(after, seat, other)}"
    )


def _scrap(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    _, name, gained = _event(before, after, "scrap")
    if before.solo:
        return (
            f"neither card can be taken and placed: the left card, {name}, is discarded; "
            f"{_other_card(after, seat, before.shown[1])}"
        )
    gain = (
        f", and the {gained} coconut(s) on it go to seat {seat} ({_bank(before, after, seat)})"
        if gained
        else ""
    )
    return (
        f"no card seat {seat} can afford fits on seat {seat}'s island: the leftmost card of the "
        f"row, {name}, is discarded{gain}; the row is refilled"
    )


def _place(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    assert isinstance(move, Place)
    old, new = before.islands[seat], after.islands[seat]
    covered = [(p, k) for p, k in sorted(old.symbols.items(), key=_reading) if _on_top(new, p)]
    shown = [k for p, k in sorted(new.symbols.items(), key=_reading) if _on_top(new, p)]
    lay = f"lay {before.holding} turned {move.rotation} with its top-left cell on ({move.x}, {move.y})"
    covers = "it covers " + _and(f"the {_name(k)} at {p}" for p, k in covered)
    adds = f" and adds {_and(_a(_name(k)) for k in shown)}" if shown else " and adds no symbol"
    beach = f"longest beach {_change(longest_beach(old), longest_beach(new))} card(s)"
    return f"{lay}: {covers}{adds}; {source_changes(before, after, seat)}; {beach}"


def _buy(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    assert isinstance(move, Buy)
    _, destiny, price, onto = _event(before, after, "buy")
    cards = ", ".join(str(i + 1) for i in onto)
    now = after.destiny_value(seat, destiny)
    return (
        f"buy Destiny {destiny} for {price} coconut(s), one on each row card from the right "
        f"(cards {cards}): {_bank(before, after, seat)}; {destiny_text(destiny).plain.rstrip('.')}; "
        f"if the game ended now it would give seat {seat} {now:+}"
    )


def _travel(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    _, name, points, _ = _event(before, after, "travel")
    card = traveler_text(name).plain.rstrip(".")
    return (
        f"play {card}: {points} point(s) now from the row; from then on "
        f"{source_changes(before, after, seat)}; it ends seat {seat}'s turn"
    )


def _score(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    assert isinstance(move, Score)
    points = {s: before.source_value(seat, s) for s in move.sources}
    chosen = _and(f"{SOURCE_NAME[s]} ({_points(points[s])} now)" for s in move.sources)
    left = [SOURCE_NAME[s] for s in SOURCES if s not in before.scored(seat) and s not in move.sources]
    later = f"; left for later interim totals: {', '.join(left)}" if left else ""
    when = (
        "at once"
        if after.phase != "interim"
        else "once every seat has chosen (the choice stays secret until then)"
    )
    return f"score {chosen}: {_points(sum(points.values()))} for seat {seat}, recorded for good {when}{later}"


def _done(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    return f"end seat {seat}'s turn"


def _give(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    return (
        f"the other card, {before.other}, goes face down onto the Opponent's pile "
        f"({_change(len(before.opponent), len(after.opponent))} cards)"
    )


def _discard(before: MotuState, after: MotuState, seat: int, move: Move) -> str:
    _, name, paid = _event(before, after, "discard")
    return (
        f"{paid} of seat {seat}'s coconuts go to the Beach Hut ({_bank(before, after, seat)}, the "
        f"Beach Hut {_change(before.hut, after.hut)}) and the other card, {name}, is discarded: "
        "the Opponent does not get it"
    )


Told = Callable[[MotuState, MotuState, int, Move], str]
_TOLD: dict[type, Told] = {Take: _take, SoloTake: _solo_take, Place: _place, Buy: _buy, Score: _score}
_WORDS: dict[str, Told] = {
    "scrap": _scrap,
    "travel": _travel,
    "done": _done,
    "give": _give,
    "discard": _discard,
}


# ------------------------------------------------------------------ what changes
def source_changes(before: MotuState, after: MotuState, seat: int) -> str:
    """Each Source of ``seat`` that the move changes: its symbols and points, before → after
    (a new volcano with its distance and the ruler's points); the others said to stay."""
    told, same = [], []
    for source in SOURCES:
        was, now = before.source_value(seat, source), after.source_value(seat, source)
        detail = _symbols(before, after, seat, source)
        if was == now and not detail:
            same.append(SOURCE_NAME[source])
            continue
        scored = " (scored already: it no longer counts)" if source in before.scored(seat) else ""
        points = f"{was} → {now} points" if was != now else f"still {_points(was)}"
        told.append(f"{SOURCE_NAME[source]} {points}" + (f" ({detail})" if detail else "") + scored)
    rest = f"{_and(same)} stay as they are" if same else ""
    return "; ".join(x for x in ("; ".join(told), rest) if x) or "no Source changes"


def _symbols(before: MotuState, after: MotuState, seat: int, source: str) -> str:
    if source == "coconut":
        was, now = before.coconut_count(seat), after.coconut_count(seat)
        return f"coconuts {_change(was, now)}" if was != now else ""
    old = symbol_counts(before.islands[seat], before.extra(seat))
    new = symbol_counts(after.islands[seat], after.extra(seat))
    kinds = SOURCE_KINDS[source]
    if not any(old[k] != new[k] for k in kinds):
        return ""
    if source == "volcano":
        return _new_volcanoes(before.islands[seat], after.islands[seat])
    shown = kinds if source in PAIRS else [k for k in kinds if old[k] != new[k]]
    return ", ".join(f"{_name(k)} {_count(old[k], new[k])}" for k in shown)


def _new_volcanoes(old: Island, new: Island) -> str:
    """Each volcano the island shows now and did not: its distance from the star and its points."""
    found = [
        p for p, k in sorted(new.symbols.items(), key=_reading) if k == "volcano" and p not in old.symbols
    ]
    return ", ".join(
        f"a Volcano at {p}, {volcano_distance(new, p):.1f} cells from the village star: "
        f"{_points(ruler_points(volcano_distance(new, p)))} on the volcanic ruler"
        for p in found
    )


def then(before: MotuState, after: MotuState, seat: int) -> str:
    """What the move leads to: a pile emptied, an interim total, the end, whose turn is next."""
    new = [entry[1] for entry in after.log[len(before.log) :]]
    pile = PILES[before.pile]
    if after.truncated:
        return "the game then stops at its move limit"
    if after.over:
        return (
            "then the Sources not yet scored are scored by themselves (the last interim total), the "
            "game ends and the final scores are counted"
        )
    if after.phase == "interim" and before.phase != "interim":
        return (
            f"pile {pile} is then empty: every seat chooses {PICKS[after.pile]} Source(s) to score, in secret"
        )
    said = ""
    if "interim" in new:
        said = f"the interim total of pile {pile} is then recorded; "
    elif "pile_empty" in new:
        said = f"pile {pile} is then empty: an interim total follows at the end of that turn; "
    if after.phase == "interim":
        return said + "still to choose: " + ", ".join(f"seat {s}" for s in sorted(after.acting))
    if after.turn == seat and after.phase in ("extras", "other"):
        return said + f"then seat {seat} may {' / '.join(str(m) for m in after.legal_moves(seat))}"
    if after.turn == seat and after.phase == "place":
        return said.rstrip("; ")
    return said + f"then seat {after.turn}'s turn begins"


# ------------------------------------------------------------------ helpers
def _event(before: MotuState, after: MotuState, kind: str) -> tuple[Any, ...]:
    """The arguments of the first ``kind`` event the move logged."""
    return next(args for _, k, args, _ in after.log[len(before.log) :] if k == kind)


def _to_place(after: MotuState, seat: int) -> str:
    return f"it then goes on seat {seat}'s island ({len(after.legal_moves(seat))} legal placements)"


def _other_card(after: MotuState, seat: int, name: str) -> str:
    """Solo: what becomes of ``name``, the card not taken, worked out by placing the taken one on a
    copy (the discard is offered, or the card goes to the Opponent by itself)."""
    placed = after.clone()
    assert isinstance(placed, MotuState)
    if placed.phase == "place":
        placed._advance(seat, placed.legal_moves(seat)[0])  # legal: unchecked
    if placed.phase == "other":
        return (
            f"the other card, {name}, then goes face down to the Opponent unless {SOLO_DISCARD} "
            f"of seat {seat}'s coconuts pay to discard it"
        )
    return (
        f"the other card, {name}, then goes face down to the Opponent (seat {seat}'s "
        f"coconuts cannot pay the {SOLO_DISCARD} to discard it)"
    )


def _bank(before: MotuState, after: MotuState, seat: int) -> str:
    return f"seat {seat}'s coconuts {_change(before.banks[seat], after.banks[seat])}"


def _on_top(island: Island, pos: Pos) -> bool:
    """Whether the cell belongs to the island's newest card."""
    return island.cells[pos].layer == len(island.placements) - 1


def _name(kind: str) -> str:
    return f"{SYMBOL_NAME[kind]} totem" if kind in TOTEMS else SYMBOL_NAME[kind]


def _change(was: int, now: int) -> str:
    return f"{was} → {now}" if was != now else f"still {was}"


def _count(was: int, now: int) -> str:
    return f"{was} → {now}" if was != now else str(was)


def _points(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _a(name: str) -> str:
    return ("an " if name[0] in "AEIOU" else "a ") + name


def _and(items: Iterable[str]) -> str:
    items = list(items)
    return (
        items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else "nothing"
    )


def _reading(item: tuple[Pos, str]) -> tuple[int, int]:
    return item[0][1], item[0][0]
