"""A MOTU island on an integer grid: rotations, placements, what stays visible, and the rules
for adding a card (docs/rules/motu.md, "The island model").

Positions are ``(x, y)`` grid cells, x to the right and y downwards. A card lies at
``(rotation, x, y)``: turned ``rotation`` degrees clockwise, its top-left cell on ``(x, y)``.
Later cards lie on top; a cell shows the topmost card's cell there. Everything here is pure:
an :class:`Island` is never changed, :func:`lay_card` returns a new one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from .cards import (
    DIRECTIONS,
    PROTECTED,
    SYMBOL_NAME,
    TERRAIN_NAME,
    IslandCard,
    Pos,
    beach_exits,
    card,
    make_card,
)

ROTATIONS = (0, 90, 180, 270)
CardLike = IslandCard | str


class Spec(NamedTuple):
    """One cell of a (rotated) card: terrain, symbol, and the directions its beach runs in."""

    terrain: str
    symbol: str | None
    ways: tuple[Pos, ...]  # Beach only: towards Beach cells of the same card, and out over its edges


class Cell(NamedTuple):
    """A visible cell of an island: its card's cell, which card, and that card's layer (0 = village)."""

    terrain: str
    symbol: str | None
    card: str
    layer: int
    ways: tuple[Pos, ...]


class Placement(NamedTuple):
    card: str
    rotation: int
    x: int
    y: int


@dataclass(frozen=True)
class Shape:
    """A card turned to one rotation, prepared for fast placement checks."""

    card: IslandCard
    rotation: int
    width: int
    height: int
    cells: tuple[tuple[Pos, Spec], ...]
    rim: tuple[tuple[Pos, Pos, Spec], ...]  # (cell, outward direction, cell) along the card's edges


class Island(NamedTuple):
    """The cards laid so far (village first) and what they leave visible.

    Truly immutable (a tuple of tuples and read-only mappings), so game states and their copies
    share islands freely. Build one with :func:`new_island` and :func:`lay_card`.
    """

    placements: tuple[Placement, ...]
    cells: Mapping[Pos, Cell]
    symbols: Mapping[Pos, str]  # the visible symbols by cell
    #: Cells with a visible symbol that a new card may cover (not a star, not a volcano), sorted.
    coverable: tuple[Pos, ...] = ()
    #: Cells with a visible star or volcano, sorted.
    protected: tuple[Pos, ...] = ()


def _island(placements: tuple[Placement, ...], cells: dict[Pos, Cell], symbols: dict[Pos, str]) -> Island:
    coverable = tuple(sorted(p for p, kind in symbols.items() if kind not in PROTECTED))
    protected = tuple(sorted(p for p, kind in symbols.items() if kind in PROTECTED))
    return Island(placements, MappingProxyType(cells), MappingProxyType(symbols), coverable, protected)


EMPTY = _island((), {}, {})


class IllegalPlacement(ValueError):
    """A card cannot go there; the message says why in a player's words."""


def as_card(c: CardLike) -> IslandCard:
    return card(c) if isinstance(c, str) else c


# ------------------------------------------------------------------ rotations
def rotated(c: CardLike, rotation: int) -> IslandCard:
    """The card turned ``rotation`` degrees clockwise (0, 90, 180 or 270), as a card of its own."""
    if rotation not in ROTATIONS:
        raise ValueError(f"a rotation is 0, 90, 180 or 270 degrees, not {rotation!r}")
    out = as_card(c)
    for _ in range(rotation // 90):
        out = _quarter_turn(out)
    return out


def _quarter_turn(c: IslandCard) -> IslandCard:
    """One clockwise quarter turn: the cell (col, row) moves to (height - 1 - row, col)."""
    h = c.height
    rows = tuple("".join(c.rows[h - 1 - col][row] for col in range(h)) for row in range(c.width))
    symbols = {(h - 1 - r, col): kind for (col, r), kind in c.symbols}
    return make_card(c.id, rows, symbols, c.village)


@lru_cache(maxsize=4096)
def shape(c: IslandCard, rotation: int) -> Shape:
    """The card at one rotation with each cell's beach directions and its rim worked out."""
    turned = rotated(c, rotation)
    rows, w, h = turned.rows, turned.width, turned.height
    cells = tuple(
        ((col, r), Spec(t, turned.symbol_at.get((col, r)), _ways(rows, (col, r))))
        for r, row in enumerate(rows)
        for col, t in enumerate(row)
    )
    rim = tuple(
        (pos, d, spec)
        for pos, spec in cells
        for d in DIRECTIONS
        if not (0 <= pos[0] + d[0] < w and 0 <= pos[1] + d[1] < h)
    )
    return Shape(c, rotation, w, h, cells, rim)


def _ways(rows: tuple[str, ...], pos: Pos) -> tuple[Pos, ...]:
    """Where a Beach cell's beach runs: to Beach neighbours on its card, and out over the edge."""
    c, r = pos
    if rows[r][c] != "B":
        return ()
    inside = [
        (dx, dy)
        for dx, dy in DIRECTIONS
        if 0 <= c + dx < len(rows[0]) and 0 <= r + dy < len(rows) and rows[r + dy][c + dx] == "B"
    ]
    return tuple(inside + beach_exits(rows, pos))


# ------------------------------------------------------------------ building islands
def new_island(village: CardLike) -> Island:
    """An island of one village card, unturned, its top-left cell on (0, 0)."""
    return lay_card(EMPTY, village, 0, 0, 0)


def lay_card(island: Island, c: CardLike, rotation: int, x: int, y: int) -> Island:
    """The island with the card laid on top, WITHOUT checking any rule (see :func:`place_card`)."""
    c = as_card(c)
    s = shape(c, rotation)
    layer = len(island.placements)
    cells, symbols = dict(island.cells), dict(island.symbols)
    for (cx, cy), spec in s.cells:
        pos = (x + cx, y + cy)
        cells[pos] = Cell(spec.terrain, spec.symbol, c.id, layer, spec.ways)
        symbols.pop(pos, None)
        if spec.symbol:
            symbols[pos] = spec.symbol
    return _island((*island.placements, Placement(c.id, rotation, x, y)), cells, symbols)


def place_card(island: Island, c: CardLike, rotation: int, x: int, y: int) -> Island:
    """The island with the card added; raises IllegalPlacement saying why it may not go there."""
    problem = placement_problem(island, c, rotation, x, y)
    if problem:
        raise IllegalPlacement(f"{as_card(c).id} cannot go at {(x, y)} turned {rotation}: {problem}")
    return lay_card(island, c, rotation, x, y)


def bounds(island: Island) -> tuple[int, int, int, int]:
    """(min x, min y, max x, max y) of the cells the island covers."""
    xs = [p[0] for p in island.cells]
    ys = [p[1] for p in island.cells]
    return min(xs), min(ys), max(xs), max(ys)


def star_position(island: Island) -> Pos:
    """The cell of the village star (never covered, so always visible)."""
    return next(p for p, kind in island.symbols.items() if kind == "star")


# ------------------------------------------------------------------ the placement rules
# A check returns None (fine) or a tuple naming what is wrong; only placement_problem turns
# the tuple into words, so that listing every legal placement formats nothing.
Fault = tuple[object, ...]


def placement_problem(island: Island, c: CardLike, rotation: int, x: int, y: int) -> str | None:
    """Why the card may not go there, in a player's words; None if it may.

    The island must already keep the terrain rules (every island built by legal placements
    does): then only cells under or beside the new card can break them, so only those are read.
    """
    s = shape(as_card(c), rotation)
    fault = _cover_fault(island, s, x, y) or _edge_fault(island.cells, s, x, y)
    return None if fault is None else _words(fault)


def _cover_fault(island: Island, s: Shape, x: int, y: int) -> Fault | None:
    """Never cover a star or a volcano; cover at least one other visible symbol."""
    for px, py in island.protected:
        if x <= px < x + s.width and y <= py < y + s.height:
            return ("protected", (px, py), island.symbols[(px, py)])
    for px, py in island.coverable:
        if x <= px < x + s.width and y <= py < y + s.height:
            return None
    return ("nothing",)


def _edge_fault(cells: Mapping[Pos, Cell], s: Shape, x: int, y: int) -> Fault | None:
    """Read each cell of the new card's rim against the visible cell beside it, off the card.

    Inside the card the rules hold by design (the card data is validated), and cells away from
    the card keep the neighbours they had, so these pairs are the only ones that can change.
    """
    for (cx, cy), (dx, dy), spec in s.rim:
        old = cells.get((x + cx + dx, y + cy + dy))
        if old is None or old.terrain == spec.terrain:
            continue
        p, q = (x + cx, y + cy), (x + cx + dx, y + cy + dy)
        if spec.terrain == "B":  # an edge Beach cell leaves the card there (cards.along_edge: never along it)
            return ("new beach", p, q, old.terrain)
        if old.terrain != "B":
            return ("sea land", p, spec.terrain, q, old.terrain)
        if (-dx, -dy) in old.ways:
            return ("old beach", q, p, spec.terrain, old.card)
    return None


def _words(fault: Fault) -> str:
    kind, *rest = fault
    if kind == "nothing":
        return "it covers no symbol; a new card must completely cover at least one visible symbol"
    if kind == "protected":
        pos, symbol = rest
        return f"it would cover the {SYMBOL_NAME[str(symbol)]} at {pos}; stars and volcanoes stay uncovered"
    if kind == "sea land":
        p, mine, q, theirs = rest
        return (
            f"its {TERRAIN_NAME[str(mine)]} at {p} would touch {TERRAIN_NAME[str(theirs)]} at {q}; "
            "Sea and Land must be kept apart by Beach"
        )
    if kind == "new beach":
        p, q, theirs = rest
        return (
            f"its beach at {p} would run into {TERRAIN_NAME[str(theirs)]} at {q}; a beach must "
            "carry on into Beach or leave the island"
        )
    q, p, mine, owner = rest
    return (
        f"the beach of {owner} at {q} would run into this card's {TERRAIN_NAME[str(mine)]} at {p}; "
        "a beach must carry on into Beach or leave the island"
    )


def terrain_problem(island: Island) -> str | None:
    """The first terrain rule the whole visible island breaks, in words; None if it keeps them all."""
    for p, cell in island.cells.items():
        for d in DIRECTIONS:
            q = (p[0] + d[0], p[1] + d[1])
            other = island.cells.get(q)
            if other is None or other.terrain == cell.terrain:
                continue
            if cell.terrain == "B" and d in cell.ways:
                return f"the beach of {cell.card} at {p} runs into {TERRAIN_NAME[other.terrain]} at {q}"
            if {cell.terrain, other.terrain} == {"S", "L"}:
                return f"Sea and Land touch at {p} and {q}"
    return None


# ------------------------------------------------------------------ finding legal placements
def _candidates(island: Island, s: Shape) -> list[Pos]:
    """Offsets where the card covers a coverable symbol and no star or volcano, sorted."""
    w, h = s.width, s.height
    covering = {(py - cy, px - cx) for px, py in island.coverable for cx in range(w) for cy in range(h)}
    banned = {(py - cy, px - cx) for px, py in island.protected for cx in range(w) for cy in range(h)}
    return [(x, y) for y, x in sorted(covering - banned)]  # row by row


def _legal(island: Island, c: IslandCard) -> Iterator[tuple[int, int, int]]:
    for rotation in ROTATIONS:
        s = shape(c, rotation)
        for x, y in _candidates(island, s):
            if _edge_fault(island.cells, s, x, y) is None:
                yield rotation, x, y


def legal_placements(island: Island, c: CardLike) -> list[tuple[int, int, int]]:
    """Every legal (rotation, x, y) for the card, by rotation, then row, then column."""
    return list(_legal(island, as_card(c)))


def has_legal_placement(island: Island, c: CardLike) -> bool:
    """Whether the card has a legal placement: stops at the first found, without listing or
    sorting the offsets (an offset may be tried more than once when nothing fits)."""
    c = as_card(c)
    cells = island.cells
    for rotation in ROTATIONS:
        s = shape(c, rotation)
        for px, py in island.coverable:
            for cx in range(s.width):
                for cy in range(s.height):
                    x, y = px - cx, py - cy
                    if not _covers_protected(island, s, x, y) and _edge_fault(cells, s, x, y) is None:
                        return True
    return False


def _covers_protected(island: Island, s: Shape, x: int, y: int) -> bool:
    return any(x <= px < x + s.width and y <= py < y + s.height for px, py in island.protected)


def random_legal_placement(
    island: Island, c: CardLike, rng: random.Random, tries: int = 40
) -> tuple[int, int, int] | None:
    """A legal (rotation, x, y), or None if there is none. Fast, not uniform: it aims random
    card cells at random coverable symbols, and lists every placement only if that keeps missing."""
    c = as_card(c)
    if not island.coverable:
        return None
    for _ in range(tries):
        rotation = rng.choice(ROTATIONS)
        s = shape(c, rotation)
        px, py = rng.choice(island.coverable)
        x, y = px - rng.randrange(s.width), py - rng.randrange(s.height)
        if _cover_fault(island, s, x, y) is None and _edge_fault(island.cells, s, x, y) is None:
            return rotation, x, y
    legal = legal_placements(island, c)
    return rng.choice(legal) if legal else None
