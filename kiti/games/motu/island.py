"""A MOTU island on an integer grid: rotations, placements, what stays visible, and the rules
for adding a card (docs/rules/motu.md, "The island model").

Positions are ``(x, y)`` grid cells, x to the right and y downwards. A card lies at
``(rotation, x, y)``: turned ``rotation`` degrees clockwise, its top-left cell on ``(x, y)``.
Later cards lie on top; a cell shows the topmost card's cell there. Everything here is pure:
an :class:`Island` is never changed, :func:`lay_card` returns a new one (or the equal one it
made before from the very same island).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

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
T = TypeVar("T")
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


class _Visible(NamedTuple):
    placements: tuple[Placement, ...]
    cells: MappingProxyType[Pos, Cell]
    symbols: MappingProxyType[Pos, str]  # the visible symbols by cell
    #: Cells with a visible symbol that a new card may cover (not a star, not a volcano), sorted.
    coverable: tuple[Pos, ...] = ()
    #: Cells with a visible star or volcano, sorted.
    protected: tuple[Pos, ...] = ()


class Island(_Visible):
    """The cards laid so far (village first) and what they leave visible.

    Truly immutable (a tuple of tuples and read-only mappings), so game states and their copies
    share islands freely. Build one with :func:`new_island` and :func:`lay_card`.

    An island also keeps what the placement search worked out for it (:func:`_grid`): its bit
    boards once made, and until then the island it grew from and the card laid on it; the
    card laid last and where (``_laid``, from :func:`lay_card`: what a caller that keeps its
    own facts by placements grows them with); and the facts other modules work out from it
    once (:func:`kept`), and the placement refusals asked of it (:func:`kept_problem`). They
    are no part of its value:
    equality, hashing, copies and pickles see the fields alone.
    """

    _boards: _Grid | None = None
    _grew: tuple[Island, tuple[IslandCard, int, int, int]] | None = None
    _laid: tuple[IslandCard, int, int, int] | None = None  # the card laid last: (card, rotation, x, y)
    _facts: dict[str, Any] | None = None  # see kept()
    _shared: bool = False  # see share()

    def __reduce__(self) -> tuple[type[Island], tuple[Any, ...]]:
        return Island, tuple(self)


def kept(island: Island, name: str, make: Callable[[Island], T]) -> T:
    """``make(island)``, worked out once and kept with the island under ``name`` (islands
    never change): e.g. its symbol counts and longest beach (:mod:`.sources`). Callers must
    not change what they get (but :func:`kept_problem`, which fills its own table)."""
    facts = island._facts
    if facts is None:
        facts = island._facts = {}
    elif name in facts:
        return facts[name]  # type: ignore[no-any-return]
    made = facts[name] = make(island)
    return made


def _island(placements: tuple[Placement, ...], cells: dict[Pos, Cell], symbols: dict[Pos, str]) -> Island:
    coverable = tuple(sorted(p for p, kind in symbols.items() if kind not in PROTECTED))
    protected = tuple(sorted(p for p, kind in symbols.items() if kind in PROTECTED))
    return Island(
        placements,
        MappingProxyType(cells),
        MappingProxyType(symbols),
        coverable,
        protected,
    )


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
    """The island with the card laid on top, WITHOUT checking any rule (see :func:`place_card`).

    On an island shared between a search's determinisations (:func:`share`) and the islands
    grown from it, the same card laid the same way on the very same island gives the island
    made then (kept for the last :data:`KEEP_LAID` layings; islands never change), with all it
    has worked out since: a search lays the same cards again and again there; each island
    laid there also grows its :func:`sand` from its parent's. Elsewhere (a game played on,
    where each island is laid on once) nothing is kept."""
    if isinstance(c, str):
        c = card(c)
    if not (island._shared and type(rotation) is int and type(x) is int and type(y) is int):
        return _lay(island, c, rotation, x, y)  # kept only for whole numbers: 2.0 == 2
    key = (id(island), c.id, rotation, x, y)
    known = _MADE.get(key)
    if known is not None and known[0] is island and known[1]._laid is not None and known[1]._laid[0] is c:
        return known[1]
    sand(island)  # a search values the beaches of most islands it lays: theirs grow from this
    new = _lay(island, c, rotation, x, y)
    new._shared = True
    if len(_MADE) >= KEEP_LAID:
        _MADE.clear()
    _MADE[key] = (island, new)
    return new


def share(island: Island) -> None:
    """Mark ``island`` as shared between a search's determinisations: :func:`lay_card` keeps
    the layings on it and on the islands grown from it."""
    island._shared = True


#: How many layings :func:`lay_card` keeps (by the parent island's identity, the parent kept
#: with its child so that the identity stays its own).
KEEP_LAID = 1024
_MADE: dict[tuple[int, str, int, int, int], tuple[Island, Island]] = {}


def _lay(island: Island, c: IslandCard, rotation: int, x: int, y: int) -> Island:
    """:func:`lay_card`'s new island.

    Only the card's box changes: the visible cells are the parent's with the card's written
    over them; the symbols in the box are dropped and the card's own added after the others
    (the order a cell-by-cell overwrite gives); the coverable and protected symbols are the
    parent's outside the box plus the card's (:func:`_island` works the same out from every
    symbol)."""
    laid, marks, w, h, shore = _card_cells(c, rotation, len(island.placements))
    x1, y1 = x + w, y + h
    symbols = island.symbols.copy()
    outside: tuple[list[Pos], list[Pos]] = ([], [])
    for old, out in zip((island.coverable, island.protected), outside):
        for p in old:
            if x <= p[0] < x1 and y <= p[1] < y1:
                del symbols[p]
            else:
                out.append(p)
    coverable, protected = outside
    for (cx, cy), kind in marks:
        pos = (x + cx, y + cy)
        symbols[pos] = kind
        (protected if kind in PROTECTED else coverable).append(pos)
    if marks:
        coverable.sort()
        protected.sort()
    cells = island.cells.copy()
    for (cx, cy), cell in laid:
        cells[x + cx, y + cy] = cell
    new = Island(
        (*island.placements, _PLACEMENT(Placement, (c.id, rotation, x, y))),
        MappingProxyType(cells),
        MappingProxyType(symbols),
        tuple(coverable),
        tuple(protected),
    )
    new._laid = (c, rotation, x, y)
    new._grew = (island, new._laid)  # its bit boards grow from the parent's
    facts = island._facts
    if facts is not None and "sand" in facts:  # so does its sand
        new._facts = {"sand": _grown_sand(facts["sand"], shore, x, y)}
    return new


_PLACEMENT = tuple.__new__  # a Placement made from its four fields at once


_Laid = tuple[
    tuple[tuple[Pos, Cell], ...], tuple[tuple[Pos, str], ...], int, int, tuple[tuple[int, int], ...]
]
_LAID: dict[tuple[str, int, int], tuple[IslandCard, _Laid]] = {}


def _card_cells(c: IslandCard, rotation: int, layer: int) -> _Laid:
    """The cells a card turned ``rotation`` shows as layer ``layer`` by cell of its box, its
    symbols by cell, the box's width and height, and each cell's :func:`sand` key offset with
    the layer where it is Beach, else -1 (kept by id, checked to be that very card: the
    cards' own hash reads every field)."""
    known = _LAID.get((c.id, rotation, layer))
    if known is not None and known[0] is c:
        return known[1]
    if len(_LAID) >= 16384:
        _LAID.clear()
    s = shape(c, rotation)
    cells = tuple((pos, Cell(spec.terrain, spec.symbol, c.id, layer, spec.ways)) for pos, spec in s.cells)
    marks = tuple((pos, spec.symbol) for pos, spec in s.cells if spec.symbol)
    shore = tuple((cx * SAND_ROW + cy, layer if spec.terrain == "B" else -1) for (cx, cy), spec in s.cells)
    made = _LAID[c.id, rotation, layer] = (c, (cells, marks, s.width, s.height, shore))
    return made[1]


#: A cell's key in :func:`sand`: ``x * SAND_ROW + y`` (an island's cells lie within
#: ``SAND_ROW / 2`` of its village in y, far within: :func:`~.rules.placement_bound`).
SAND_ROW = 1 << 12


def sand(island: Island) -> dict[int, int]:
    """The island's visible Beach cells, by key (:data:`SAND_ROW`) -> their card's layer: kept
    with the island, and grown by :func:`lay_card` from the parent's where that one has it
    (callers must not change it). Its neighbours' keys are ``key ± 1`` and ``key ± SAND_ROW``."""
    return kept(island, "sand", _sand)


def _sand(island: Island) -> dict[int, int]:
    return {x * SAND_ROW + y: cell.layer for (x, y), cell in island.cells.items() if cell.terrain == "B"}


def _grown_sand(old: dict[int, int], shore: tuple[tuple[int, int], ...], x: int, y: int) -> dict[int, int]:
    """A parent's :func:`sand` with a card's cells (``shore``, :func:`_card_cells`) laid at (x, y)."""
    grown = old.copy()
    base = x * SAND_ROW + y
    for off, layer in shore:
        if layer < 0:
            grown.pop(base + off, None)
        else:
            grown[base + off] = layer
    return grown


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


def kept_problem(island: Island, name: str, rotation: int, x: int, y: int) -> str | None:
    """:func:`placement_problem` for the card ``name`` (rotation, x and y whole numbers),
    kept with the island (islands never change): a search asks again and again of the
    islands it shares between determinisations."""
    problems: dict[tuple[str, int, int, int], str | None] = kept(island, "problems", _no_problems)
    key = (name, rotation, x, y)
    try:
        return problems[key]
    except KeyError:
        if len(problems) >= 4096:
            problems.clear()
        found = problems[key] = placement_problem(island, name, rotation, x, y)
        return found


def _no_problems(island: Island) -> dict[tuple[str, int, int, int], str | None]:
    return {}


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
        if old is None:
            continue
        clash = _clash(spec.terrain, (dx, dy), old)
        if clash is None:
            continue
        p, q = (x + cx, y + cy), (x + cx + dx, y + cy + dy)
        if clash == "new beach":
            return ("new beach", p, q, old.terrain)
        if clash == "sea land":
            return ("sea land", p, spec.terrain, q, old.terrain)
        return ("old beach", q, p, spec.terrain, old.card)
    return None


def _clash(terrain: str, way: Pos, old: Cell | Spec) -> str | None:
    """What goes wrong when a new card's edge cell of ``terrain``, looking out in direction
    ``way``, lies beside the visible cell ``old`` (None: nothing). The one statement of the
    edge rule: :func:`_edge_fault` reads it cell by cell, the bit boards cell kind by kind."""
    if old.terrain == terrain:
        return None
    if terrain == "B":  # an edge Beach cell leaves the card there (cards.along_edge: never along it)
        return "new beach"
    if old.terrain != "B":
        return "sea land"
    if (-way[0], -way[1]) in old.ways:
        return "old beach"
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
# The search runs on bit boards (Python integers): an island's visible cells, framed with a
# margin, one bit per cell, row by row (cell (x, y) is bit (y - y0) * width + x - x0). Per
# island (built once, from its placements): the coverable and the protected symbols, and for
# each (terrain, outward direction) the cells a new card's edge cell of that terrain, looking
# that way, must not face (:func:`_clash`). Per card rotation, the legal top-left cells are
# then a few dozen shifts, ors and ands: those whose card box holds a coverable symbol and no
# protected one, and whose every edge cell faces no such cell. The edge boards are kept one row
# lower (bit (y - y0 + 1) * width + x - x0), so that every edge check is a right shift.
MARGIN = 4  # a top-left cell lies at most 3 cells left of (above) the symbol its card covers
SLACK = 3  # rows added above the island when a card needs more room there
WIDTH = 32  # the frame's width (wider only for an island too wide for it): cards' bits are kept by width
_BOARD = {(t, d): i for i, (t, d) in enumerate((t, d) for t in "LBS" for d in DIRECTIONS)}


class _Grid(NamedTuple):
    x0: int
    y0: int
    width: int
    left: int  # the island's smallest x, its largest x and its smallest y
    right: int
    top: int
    cover: int  # coverable symbols
    guard: int  # stars and volcanoes
    #: By _BOARD: the cells an edge cell of that terrain may not face that way (a row lower).
    bad: tuple[int, ...]
    reach: dict[tuple[int, int], int]  # (w, h) -> top-left cells reaching a cover and no guard
    legal: dict[tuple[str, int], int]  # (card, rotation) -> its legal top-left cells, once asked for
    #: card -> what legal_boards gives for it, once asked for
    boards: dict[str, tuple[tuple[int, ...], int, int, int]]


class _Pattern(NamedTuple):
    """A card turned one way, as bits of its own box on a board ``width`` wide."""

    cells: int
    cover: int
    guard: int
    bad: tuple[int, ...]
    rim: tuple[tuple[int, int], ...]  # (offset of the cell an edge cell faces + width, its _BOARD)
    width: int
    height: int


@lru_cache(maxsize=256)
def _clashes(terrain: str, ways: tuple[Pos, ...]) -> tuple[int, ...]:
    """The _BOARDs on which a visible cell of ``terrain`` (a beach running ``ways``) is set:
    the edge cells of each terrain, looking each way, that may not face it (:func:`_clash`)."""
    spec = Spec(terrain, None, ways)
    return tuple(i for (new, way), i in _BOARD.items() if _clash(new, way, spec))


_PATTERNS: dict[tuple[str, int, int], tuple[IslandCard, _Pattern]] = {}


def _pattern(c: IslandCard, rotation: int, width: int) -> _Pattern:
    """The card turned ``rotation`` as bits of its own box on a board ``width`` wide (kept by
    id, checked to be that very card, as :func:`_card_cells` does)."""
    known = _PATTERNS.get((c.id, rotation, width))
    if known is not None and known[0] is c:
        return known[1]
    if len(_PATTERNS) >= 4096:
        _PATTERNS.clear()
    made = _make_pattern(c, rotation, width)
    _PATTERNS[c.id, rotation, width] = (c, made)
    return made


def _make_pattern(c: IslandCard, rotation: int, width: int) -> _Pattern:
    s = shape(c, rotation)
    box = cover = guard = 0
    bad = [0] * len(_BOARD)
    for (cx, cy), spec in s.cells:
        bit = 1 << (cy * width + cx)
        box |= bit
        if spec.symbol in PROTECTED:
            guard |= bit
        elif spec.symbol:
            cover |= bit
        for i in _clashes(spec.terrain, spec.ways):
            bad[i] |= bit
    rim = [(cx + dx, cy + dy, _BOARD[spec.terrain, (dx, dy)]) for (cx, cy), (dx, dy), spec in s.rim]
    return _Pattern(
        box,
        cover,
        guard,
        tuple(bad),
        tuple(((y + 1) * width + x, i) for x, y, i in rim),
        s.width,
        s.height,
    )


def _grid(island: Island) -> _Grid:
    """The island's bit boards, kept with the island (islands never change): grown from its
    parent's (:func:`lay_card` tells which) while the island fits the frame's width, else
    built from its visible cells."""
    known = island._boards
    if known is not None:
        return known
    parent = island._grew
    if parent is not None:
        island._grew = None  # the parent is needed no longer
        grown = _grown(_grid(parent[0]), parent[1])
        if grown is not None:
            return _keep(island, grown)
    if not island.cells:  # nothing yet: a frame with no island, which the first card moves
        return _Grid(0, 0, WIDTH, 1 << 30, -(1 << 30), 1 << 30, 0, 0, (0,) * len(_BOARD), {}, {}, {})
    x_min, y_min, x_max, _ = bounds(island)
    # MARGIN free cells left and right of the island at least (an edge cell faces at most
    # MARGIN cells right of it), the island centred; SLACK rows more above.
    width = max(WIDTH, x_max + 1 - x_min + 2 * (MARGIN + SLACK))
    x0, y0 = x_min - (width - (x_max + 1 - x_min)) // 2, y_min - MARGIN - SLACK
    bad = [0] * len(_BOARD)
    for (x, y), cell in island.cells.items():
        bit = 1 << ((y - y0 + 1) * width + x - x0)
        for i in _clashes(cell.terrain, cell.ways):
            bad[i] |= bit
    cover = sum(1 << ((y - y0) * width + x - x0) for x, y in island.coverable)
    guard = sum(1 << ((y - y0) * width + x - x0) for x, y in island.protected)
    return _keep(island, _Grid(x0, y0, width, x_min, x_max, y_min, cover, guard, tuple(bad), {}, {}, {}))


def _laid(
    cover: int, guard: int, bad: Sequence[int], pattern: _Pattern, at: int, width: int
) -> tuple[int, int, list[int]]:
    """The boards with a card (``pattern``) laid over them at bit ``at`` (the edge boards,
    a row lower, at bit ``at + width``)."""
    keep = ~(pattern.cells << at)
    low = at + width
    keep_low = ~(pattern.cells << low)
    return (
        (cover & keep) | pattern.cover << at,
        (guard & keep) | pattern.guard << at,
        [(board & keep_low) | mine << low for board, mine in zip(bad, pattern.bad)],
    )


def _keep(island: Island, grid: _Grid) -> _Grid:
    island._boards = grid
    return grid


def _grown(grid: _Grid, laid: tuple[IslandCard, int, int, int]) -> _Grid | None:
    """``grid`` with a card laid over it (card, rotation, x, y); None if the island no longer
    fits the frame's width with MARGIN free cells on either side.

    When the card comes closer than that to the frame's left, right or top, the frame moves
    (the island centred again, SLACK rows more above): every board is shifted as a whole, which
    moves each cell within its row, as the island and its margins fit in a row."""
    c, rotation, x, y = laid
    width = grid.width
    p = _pattern(c, rotation, width)
    left, right, top = min(grid.left, x), max(grid.right, x + p.width - 1), min(grid.top, y)
    if right + 1 - left + 2 * MARGIN > width:
        return None
    x0, y0 = grid.x0, grid.y0
    if left - x0 < MARGIN or right - x0 >= width - MARGIN:
        x0 = left - (width - (right + 1 - left)) // 2
    if top - y0 < MARGIN:
        y0 = top - MARGIN - SLACK
    move = (grid.y0 - y0) * width + grid.x0 - x0
    cover, guard, bad = grid.cover, grid.guard, grid.bad
    if move > 0:
        cover, guard, bad = cover << move, guard << move, tuple(b << move for b in bad)
    elif move < 0:
        cover, guard, bad = cover >> -move, guard >> -move, tuple(b >> -move for b in bad)
    cover, guard, laid_bad = _laid(cover, guard, bad, p, (y - y0) * width + x - x0, width)
    return _Grid(x0, y0, width, left, right, top, cover, guard, tuple(laid_bad), {}, {}, {})


def _reach(board: int, w: int, h: int, width: int) -> int:
    """The top-left cells of a w x h box holding a set cell of ``board``."""
    row = board
    for cx in range(1, w):
        row |= board >> cx
    out = row
    for cy in range(1, h):
        out |= row >> cy * width
    return out


def _legal_board(grid: _Grid, c: IslandCard, rotation: int) -> int:
    """The legal top-left cells of the card turned ``rotation``, as bits of ``grid`` (kept:
    a card checked when taken is placed on the same island)."""
    key = (c.id, rotation)
    known = grid.legal.get(key)
    if known is None:
        known = grid.legal[key] = _search(grid, c, rotation)
    return known


def _search(grid: _Grid, c: IslandCard, rotation: int) -> int:
    p = _pattern(c, rotation, grid.width)
    box = p.width, p.height
    reach = grid.reach.get(box)
    if reach is None:
        w, h = box
        cover, guard = _reach(grid.cover, w, h, grid.width), _reach(grid.guard, w, h, grid.width)
        reach = grid.reach[box] = cover & ~guard
    bad = grid.bad
    faced = 0
    for at, i in p.rim:
        faced |= bad[i] >> at
    return reach & ~faced


def _cells(grid: _Grid, board: int) -> Iterator[Pos]:
    """The (x, y) of the set bits of ``board``, row by row, left to right."""
    bits = f"{board:b}"[::-1]
    at = bits.find("1")
    while at >= 0:
        y, x = divmod(at, grid.width)
        yield x + grid.x0, y + grid.y0
        at = bits.find("1", at + 1)


def legal_placements(island: Island, c: CardLike) -> list[tuple[int, int, int]]:
    """Every legal (rotation, x, y) for the card, by rotation, then row, then column."""
    c = as_card(c)
    grid = _grid(island)
    return [(r, x, y) for r in ROTATIONS for x, y in _cells(grid, _legal_board(grid, c, r))]


def legal_boards(island: Island, c: CardLike) -> tuple[tuple[int, ...], int, int, int]:
    """What :func:`legal_placements` lists, as bit boards: per rotation (:data:`ROTATIONS`
    order) an integer whose bit ``(y - y0) * width + x - x0`` is set where the card's
    top-left cell may go, with ``(x0, y0, width)`` (for a caller that reads the bits in bulk)."""
    c = as_card(c)
    grid = _grid(island)
    known = grid.boards.get(c.id)
    if known is None:
        boards = tuple([_legal_board(grid, c, r) for r in ROTATIONS])
        known = grid.boards[c.id] = (boards, grid.x0, grid.y0, grid.width)
    return known


def uniform_legal_placement(island: Island, c: CardLike, rng: random.Random) -> tuple[int, int, int] | None:
    """A legal (rotation, x, y) drawn uniformly, None if there is none: the very draw
    ``rng.choice(legal_placements(island, c))`` makes (the same index from one ``randrange``),
    without listing the placements."""
    c = as_card(c)
    grid = _grid(island)
    boards = [_legal_board(grid, c, r) for r in ROTATIONS]
    return uniform_on_boards(boards, grid.x0, grid.y0, grid.width, rng)


def uniform_on_boards(
    boards: Sequence[int], x0: int, y0: int, width: int, rng: random.Random
) -> tuple[int, int, int] | None:
    """:func:`uniform_legal_placement`'s draw from the legal boards :func:`legal_boards` gives."""
    counts = [board.bit_count() for board in boards]
    total = sum(counts)
    if not total:
        return None
    n = rng.randrange(total)
    for rotation, board, count in zip(ROTATIONS, boards, counts):
        if n < count:
            for _ in range(n):
                board &= board - 1  # drop the lowest set bit
            y, x = divmod((board & -board).bit_length() - 1, width)
            return rotation, x + x0, y + y0
        n -= count
    raise AssertionError("unreachable: n is below the sum of the counts")


def has_legal_placement(island: Island, c: CardLike) -> bool:
    """Whether the card has a legal placement (stops at the first rotation with one)."""
    c = as_card(c)
    if not island.coverable:
        return False
    grid = _grid(island)
    for r in ROTATIONS:  # noqa: SIM110 (a loop: no generator made, asked of every card offered)
        if _legal_board(grid, c, r):
            return True
    return False


def fits(island: Island, name: str) -> bool:
    """:func:`has_legal_placement` for the card ``name``, kept with the island by name (a
    search asks it of the same islands and rows again and again)."""
    facts = island._facts
    if facts is None:
        facts = island._facts = {}
    known = facts.get("fits")
    if known is None:
        known = facts["fits"] = {}
    else:
        found = known.get(name)
        if found is not None:
            return found  # type: ignore[no-any-return]
    made = known[name] = has_legal_placement(island, name)
    return made


def is_legal_placement(island: Island, c: CardLike, rotation: int, x: int, y: int) -> bool:
    """Whether the card turned ``rotation`` may go at (x, y): :func:`placement_problem` is
    None there, read from the same legal bit boards :func:`legal_placements` lists (made once
    per island, card and rotation; then one bit test), for callers asking of many placements."""
    if not island.coverable or rotation not in ROTATIONS:
        return False
    grid = _grid(island)
    dx, dy = x - grid.x0, y - grid.y0
    if not (0 <= dx < grid.width and dy >= 0):
        return False
    return bool(_legal_board(grid, as_card(c), rotation) >> (dy * grid.width + dx) & 1)


def _is_legal(grid: _Grid, legal: int, x: int, y: int) -> bool:
    at = (y - grid.y0) * grid.width + x - grid.x0
    return at >= 0 and x - grid.x0 < grid.width and bool(legal >> at & 1)


def random_legal_placement(
    island: Island, c: CardLike, rng: random.Random, tries: int = 40
) -> tuple[int, int, int] | None:
    """A legal (rotation, x, y), or None if there is none. Fast, not uniform: it aims random
    card cells at random coverable symbols, and lists every placement only if that keeps missing."""
    c = as_card(c)
    if not island.coverable:
        return None
    grid = _grid(island)
    for _ in range(tries):
        rotation = rng.choice(ROTATIONS)
        s = shape(c, rotation)
        px, py = rng.choice(island.coverable)
        x, y = px - rng.randrange(s.width), py - rng.randrange(s.height)
        if _is_legal(grid, _legal_board(grid, c, rotation), x, y):
            return rotation, x, y
    every = legal_placements(island, c)
    return rng.choice(every) if every else None
