"""The six Sources of harmony over a visible island, the longest beach, the end-of-game scoring
(Destinies, Travelers, the Beach and Coconut bonuses) and the solo Opponent's variants. Every
number comes from the data files through :mod:`.cards`.

A played Traveler's symbols join the island's count through ``extra`` (see ``Traveler.adds``);
they have no place on the island, so they never score as volcanoes. Its printed coconuts count
with the bank's: the callers pass that sum as ``coconuts`` or ``bank``.

"The most" (Destinies, the Beach and Coconut bonuses) is decided by :func:`most`: every seat tied
for the highest count has the most. When that count is 0 (nobody has any), ``zero_counts`` (the
option ``zero_is_most``) decides: true, the default, and all tie for the most (every Destiny on
that component pays its points, the bonus goes to everyone); false, and nobody has the most (each
such Destiny's penalty applies, nobody gets the bonus). The solo player's Coconut bonus always
needs a coconut: the rules pass ``zero_counts=False`` there.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from .cards import (
    BEACH_BONUS,
    COCONUT_BONUS,
    COCONUT_EACH,
    PAIRS,
    RULER_BANDS,
    SOLO_VOLCANO_POINTS,
    TOTEM_POINTS,
    TOTEMS,
    Destiny,
    IslandCard,
    Pos,
    Traveler,
    card,
    connected,
)
from .island import SAND_ROW, Island, kept, sand, star_position

SOURCES = ("fisherman", "hunter", "canoe", "coconut", "totem", "volcano")
SOURCE_NAME = {
    "fisherman": "Fisherman/Fish",
    "hunter": "Hunter/Bird",
    "canoe": "Canoe/Palm Tree",
    "coconut": "Coconut",
    "totem": "Totems",
    "volcano": "Volcano/Village",
}


def symbol_counts(island: Island, extra: Mapping[str, int] | None = None) -> Counter[str]:
    """How many of each symbol kind the island shows (the star left out), plus ``extra``."""
    counts = Counter(kept(island, "symbols", _visible_counts))
    counts.update(extra or {})
    return counts


def _visible_counts(island: Island) -> Counter[str]:
    counts = Counter(island.symbols.values())
    del counts["star"]  # the other kinds keep their order: first seen first
    return counts


def visible_counts(island: Island, extra: Mapping[str, int] | None) -> Mapping[str, int]:
    """:func:`symbol_counts`, read only: the island's own counts when there is no ``extra``."""
    counts: Mapping[str, int] = kept(island, "symbols", _visible_counts)
    if not extra:
        return counts
    more = dict(counts)
    for kind, n in extra.items():
        more[kind] = more.get(kind, 0) + n
    return more


def pair_points(counts: Mapping[str, int], leader: str) -> int:
    """Fisherman, Hunter or Canoe: points for each, or 0 if they outnumber their partner."""
    partner, each = PAIRS[leader]
    n = counts.get(leader, 0)
    return 0 if n > counts.get(partner, 0) else each * n


def coconut_points(coconuts: int) -> int:
    """One point per coconut: banked ones, plus those printed on a played Traveler."""
    return COCONUT_EACH * coconuts


TOTEM_RULES = ("once", "kinds", "symbols")


def totem_points(counts: Mapping[str, int], rule: str = "once") -> int:
    """Points from the totem table for a number of totems, counted by ``rule``:

    - ``once`` (the game for several players): the kinds seen exactly once; a repeated kind
      counts for nothing;
    - ``kinds``: every kind present, repeated or not (the solo Opponent);
    - ``symbols``: every totem symbol, repeats included (the solo player's repeated totems
      count), at most the table's last line.
    """
    if rule == "once":
        n = sum(1 for kind in TOTEMS if counts.get(kind, 0) == 1)
    elif rule == "kinds":
        n = sum(1 for kind in TOTEMS if counts.get(kind, 0) >= 1)
    elif rule == "symbols":
        n = min(sum(counts.get(kind, 0) for kind in TOTEMS), max(TOTEM_POINTS))
    else:
        raise ValueError(f"no totem rule {rule!r}; the rules are {', '.join(TOTEM_RULES)}")
    return TOTEM_POINTS[n]


def ruler_points(distance: float) -> int:
    """What the volcanic ruler gives at this distance (in cells): its band's points, 0 past its end."""
    for up_to, points in RULER_BANDS:
        if distance <= up_to:
            return points
    return 0


def volcano_distance(island: Island, pos: Pos) -> float:
    """From the centre of the cell ``pos`` to the centre of the village star, in cell widths."""
    sx, sy = star_position(island)
    return math.hypot(pos[0] - sx, pos[1] - sy)


def volcano_points(island: Island) -> int:
    """Every visible volcano measured with the ruler from the village star
    (:func:`volcano_distance`, the star looked up once)."""
    sx, sy = star_position(island)
    return sum(
        ruler_points(math.hypot(p[0] - sx, p[1] - sy))
        for p, kind in island.symbols.items()
        if kind == "volcano"
    )


def source_points(
    source: str,
    island: Island,
    extra: Mapping[str, int] | None = None,
    coconuts: int = 0,
    totems: str = "once",
) -> int:
    """One Source of harmony for this island, its Traveler's ``extra`` symbols and its bank
    (``totems``: how totems are counted, see :func:`totem_points`)."""
    if source == "coconut":
        return coconut_points(coconuts)
    if source == "volcano":
        return volcano_points(island)
    return _scored(source, island, visible_counts(island, extra), totems)


def source_values(
    sources: Iterable[str], island: Island, extra: Mapping[str, int] | None = None, totems: str = "once"
) -> list[int]:
    """:func:`source_points` of each of ``sources`` (the Coconut's aside, which the bank
    decides), the island's symbols counted once for them all."""
    counts = visible_counts(island, extra)
    return [_scored(source, island, counts, totems) for source in sources]


def _scored(source: str, island: Island, counts: Mapping[str, int], totems: str) -> int:
    """A Source but the Coconut from the island and its symbol ``counts``."""
    if source == "volcano":
        return volcano_points(island)
    if source == "totem":
        return totem_points(counts, totems)
    if source in PAIRS:
        return pair_points(counts, source)
    raise ValueError(f"no Source {source!r}; the Sources are {', '.join(SOURCES)}")


def beaches(island: Island) -> list[set[Pos]]:
    """The visible beaches: visible Beach cells grouped by orthogonal contact."""
    return connected(p for p, cell in island.cells.items() if cell.terrain == "B")


def longest_beach(island: Island) -> int:
    """The most different cards that one visible beach runs across (0 without a beach)."""
    return kept(island, "beach", _beach)[0]


def beach_cards(island: Island) -> int:
    """How many of the island's cards still show some Beach."""
    return kept(island, "beach", _beach)[1]


def _beach(island: Island) -> tuple[int, int]:
    """:func:`longest_beach` (:func:`beaches` walked one at a time, each beach's cards
    gathered on the way) and :func:`beach_cards`, from one pass over the visible cells."""
    left = dict(sand(island))  # Beach cell -> layer, by key: the walk takes them out
    cards = len(set(left.values()))
    longest = 0
    pop = left.pop
    while left:
        start, layer = left.popitem()
        todo, layers = [start], {layer}
        while todo:
            k = todo.pop()
            for q in (k + SAND_ROW, k - SAND_ROW, k + 1, k - 1):
                layer = pop(q, -1)
                if layer >= 0:
                    layers.add(layer)
                    todo.append(q)
        longest = max(longest, len(layers))
    return longest, cards


# ------------------------------------------------------------------ the solo Opponent
def opponent_pair_points(counts: Mapping[str, int], leader: str) -> int:
    """The Opponent's pair Source: outnumbered partners halve the leaders (rounded down), not zero."""
    partner, each = PAIRS[leader]
    n = counts.get(leader, 0)
    return each * (n // 2 if n > counts.get(partner, 0) else n)


def opponent_totem_points(counts: Mapping[str, int]) -> int:
    """The Opponent's totems: points by the number of different kinds it holds."""
    return totem_points(counts, "kinds")


def card_symbols(cards: Iterable[str | IslandCard]) -> Counter[str]:
    """Every symbol printed on these cards, counted by kind (cards lined up, none covered)."""
    return Counter(kind for c in cards for _, kind in (card(c) if isinstance(c, str) else c).symbols)


def opponent_points(cards: Sequence[str], hut: int, player_volcanoes: int) -> dict[str, int]:
    """The Opponent's points by Source from its face-down pile (its bonus aside): all symbols of
    all its cards, halved pairs, different totem kinds, 1 per coconut on the Beach Hut, and a
    flat bonus for its volcanoes only if it has more than the player shows."""
    counts = card_symbols(cards)
    points = {leader: opponent_pair_points(counts, leader) for leader in PAIRS}
    points["coconut"] = coconut_points(hut)
    points["totem"] = opponent_totem_points(counts)
    points["volcano"] = SOLO_VOLCANO_POINTS if counts.get("volcano", 0) > player_volcanoes else 0
    return points


def opponent_beach(cards: Sequence[str]) -> int:
    """The Opponent's beach: how many of its cards show some Beach (each counts once)."""
    return sum(1 for c in cards if card(c).has_beach)


# ------------------------------------------------------------------ the end of the game
def most(values: Sequence[int], zero_counts: bool = True) -> set[int]:
    """The indexes holding the most: every tie counts as the most, a tie at 0 too (when nobody
    has any, all tie for the most), unless ``zero_counts`` is False (the option
    ``zero_is_most=false``: a count of 0 is never the most)."""
    best = max(values, default=0)
    return {i for i, v in enumerate(values) if v == best} if best > 0 or zero_counts else set()


def component_count(component: str, island: Island, extra: Mapping[str, int] | None, bank: int) -> int:
    """How many of a Destiny's component a player has: a symbol kind (visible, plus a played
    Traveler's), ``totem`` (every kind together), ``beach_card`` (cards showing Beach) or
    ``coconut`` (``bank``: the caller passes the coconuts that count, banked plus a played
    Traveler's; see :meth:`.rules.MotuState.coconut_count`)."""
    if component == "coconut":
        return bank
    if component == "beach_card":
        return beach_cards(island)
    counts = visible_counts(island, extra)
    if component == "volcano":
        return counts.get("volcano", 0)
    if component == "totem":
        return sum(counts.get(kind, 0) for kind in TOTEMS)
    return counts.get(component, 0)


def destiny_points(
    destiny: Destiny, seat: int, counts: Mapping[str, Sequence[int]], zero_counts: bool = True
) -> int:
    """What a Destiny gives its owner ``seat``: ``counts[component][s]`` is every seat's count.
    One component: ``most`` or the penalty; two: ``most`` for both, ``most_of_one`` for one."""
    wins = sum(1 for part in destiny.components if seat in most(counts[part], zero_counts))
    if wins == len(destiny.components):
        return destiny.most
    if wins and destiny.most_of_one is not None:
        return destiny.most_of_one
    return destiny.otherwise


def row_count(per: str, cards: Iterable[str]) -> int:
    """What a Traveler counts in the central row: a symbol kind, ``totem`` (all kinds) or
    ``beach_card`` (the row's cards that show Beach): the sum of each card's count."""
    return sum(_card_count(per, c) for c in cards)


@lru_cache(maxsize=1024)
def _card_count(per: str, name: str) -> int:
    """What one card of the row counts for a Traveler counting ``per``."""
    if per == "beach_card":
        return 1 if card(name).has_beach else 0
    counts = card_symbols([name])
    if per == "totem":
        return sum(counts.get(kind, 0) for kind in TOTEMS)
    return counts.get(per, 0)


def traveler_points(traveler: Traveler, row: Iterable[str]) -> int:
    """A Traveler's points when it is played: its points for each thing it counts in the row."""
    return traveler.points * row_count(traveler.per, row)


def bonus_points(values: Sequence[int], bonus: int, zero_counts: bool = True) -> list[int]:
    """A bonus for every index with the most (see :func:`most`)."""
    best = most(values, zero_counts)
    return [bonus if i in best else 0 for i in range(len(values))]


def beach_bonuses(lengths: Sequence[int], zero_counts: bool = True) -> list[int]:
    """The Beach bonus for the longest beach (in cards); ties all get it."""
    return bonus_points(lengths, BEACH_BONUS, zero_counts)


def coconut_bonuses(banks: Sequence[int], zero_counts: bool = True) -> list[int]:
    """The Coconut bonus for the most banked coconuts; ties all get it."""
    return bonus_points(banks, COCONUT_BONUS, zero_counts)
