"""The six Sources of harmony over a visible island, the longest beach, and the solo Opponent's
variants. Every number comes from ``data/scoring.json`` through :mod:`.cards`.

A played Traveler's symbols join the island's count through ``extra`` (see ``Traveler.adds``);
they have no place on the island, so they never score as volcanoes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping

from .cards import COCONUT_EACH, PAIRS, RULER_BANDS, TOTEM_POINTS, TOTEMS, Pos, connected
from .island import Island, star_position

SOURCES = ("fisherman", "hunter", "canoe", "coconut", "totem", "volcano")
SOURCE_NAME = {"fisherman": "Fisherman/Fish", "hunter": "Hunter/Bird", "canoe": "Canoe/Palm Tree",
               "coconut": "Coconuts", "totem": "Totems", "volcano": "Volcano/Village"}


def symbol_counts(island: Island, extra: Mapping[str, int] | None = None) -> Counter[str]:
    """How many of each symbol kind the island shows (the star left out), plus ``extra``."""
    counts = Counter(kind for kind in island.symbols.values() if kind != "star")
    counts.update(extra or {})
    return counts


def pair_points(counts: Mapping[str, int], leader: str) -> int:
    """Fisherman, Hunter or Canoe: points for each, or 0 if they outnumber their partner."""
    partner, each = PAIRS[leader]
    n = counts.get(leader, 0)
    return 0 if n > counts.get(partner, 0) else each * n


def coconut_points(coconuts: int) -> int:
    """One point per banked coconut (a played Traveler's coconuts are in the bank)."""
    return COCONUT_EACH * coconuts


def totem_points(counts: Mapping[str, int]) -> int:
    """Points by the number of totem kinds seen exactly once; a repeated kind counts for nothing."""
    return TOTEM_POINTS[sum(1 for kind in TOTEMS if counts.get(kind, 0) == 1)]


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
    """Every visible volcano measured with the ruler from the village star."""
    return sum(ruler_points(volcano_distance(island, p)) for p, kind in island.symbols.items()
               if kind == "volcano")


def source_points(source: str, island: Island, extra: Mapping[str, int] | None = None,
                  coconuts: int = 0) -> int:
    """One Source of harmony for this island, its Traveler's ``extra`` symbols and its bank."""
    if source == "coconut":
        return coconut_points(coconuts)
    if source == "volcano":
        return volcano_points(island)
    counts = symbol_counts(island, extra)
    if source == "totem":
        return totem_points(counts)
    if source in PAIRS:
        return pair_points(counts, source)
    raise ValueError(f"no Source {source!r}; the Sources are {', '.join(SOURCES)}")


def beaches(island: Island) -> list[set[Pos]]:
    """The visible beaches: visible Beach cells grouped by orthogonal contact."""
    return connected(p for p, cell in island.cells.items() if cell.terrain == "B")


def longest_beach(island: Island) -> int:
    """The most different cards that one visible beach runs across (0 without a beach)."""
    return max((len({island.cells[p].layer for p in beach}) for beach in beaches(island)), default=0)


def beach_cards(island: Island) -> int:
    """How many of the island's cards still show some Beach."""
    return len({cell.layer for cell in island.cells.values() if cell.terrain == "B"})


# ------------------------------------------------------------------ the solo Opponent
def opponent_pair_points(counts: Mapping[str, int], leader: str) -> int:
    """The Opponent's pair Source: outnumbered partners halve the leaders (rounded down), not zero."""
    partner, each = PAIRS[leader]
    n = counts.get(leader, 0)
    return each * (n // 2 if n > counts.get(partner, 0) else n)


def opponent_totem_points(counts: Mapping[str, int]) -> int:
    """The Opponent's totems: points by the number of different kinds it holds."""
    return TOTEM_POINTS[sum(1 for kind in TOTEMS if counts.get(kind, 0) >= 1)]
