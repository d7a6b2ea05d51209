"""MOTU cards and islands as ``rich`` renderables.

Each cell is four characters: its terrain letter (L, B, S), a two-letter symbol mark (``FM``
fisherman, ``fi`` fish, ``T3`` a totem, ``**`` the village star ...; see ``data/cards.json``) and a
space. Colour shows the terrain (Land green, Beach yellow, Sea blue) but the letters say it too,
so the drawing reads the same under NO_COLOR. An empty grid cell is ``.``.

A *ghost* (a card shown where it would go, not laid) is drawn with lower-case terrain letters
(``l``, ``b``, ``s``) over the island; a cell *marked* (e.g. where a card's top-left corner may
go) ends in ``+`` instead of a space.
"""

from __future__ import annotations

from collections.abc import Collection

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from .cards import (
    COCONUTS_COUNTED,
    DESTINIES,
    ISLAND_IDS,
    SYMBOL_MARK,
    SYMBOL_NAME,
    TERRAIN_NAME,
    TRAVELERS,
    VILLAGE_IDS,
    card,
)
from .island import ROTATIONS, CardLike, Island, as_card, bounds, rotated, shape

STYLE = {"L": "black on green", "B": "black on yellow", "S": "bright_white on blue"}
GHOST_STYLE = {"L": "bold green on white", "B": "bold yellow on black", "S": "bold blue on white"}
CELL = 4  # characters per cell
LABEL = 4  # characters of the row labels on the left of an island
SCREEN = 80


def cell_text(terrain: str | None, symbol: str | None, ghost: bool = False, marked: bool = False) -> Text:
    """One cell: terrain letter, symbol mark, space; an empty grid cell is a dot. A ghost cell
    has a lower-case terrain letter; a marked cell shows ``+`` (in place of the dot, of a
    missing symbol mark, or of the space after one)."""
    if terrain is None:
        return Text(" +  " if marked else " .  ", style="bold" if marked else "dim")
    mark = SYMBOL_MARK[symbol] if symbol else ("++" if marked else "  ")
    end = "+" if marked and symbol else " "
    letter = terrain.lower() if ghost else terrain
    return Text(f"{letter}{mark}{end}", style=(GHOST_STYLE if ghost else STYLE)[terrain])


def draw_card(card: CardLike, rotation: int = 0) -> Text:
    """A card, turned ``rotation`` degrees clockwise, under a title line with its id."""
    turned = rotated(card, rotation)
    title = Text(turned.id + (f" turned {rotation}" if rotation else ""), style="bold")
    rows = [
        Text().join(cell_text(terrain, turned.symbol_at.get((c, r))) for c, terrain in enumerate(row))
        for r, row in enumerate(turned.rows)
    ]
    return Text("\n").join([title, *rows])


def island_window(
    island: Island,
    columns: int | None = None,
    rows: int | None = None,
    focus: tuple[int, int] | None = None,
    extra: Collection[tuple[int, int]] = (),
) -> tuple[int, int, int, int]:
    """The default window (left, top, columns, rows): the island (and the ``extra`` cells) plus one
    empty cell around, at most ``columns`` x ``rows`` (and as wide as fits the screen). A window
    smaller than the island is centred on ``focus`` (default: the island's top-left part); pass
    ``left`` and ``top`` to :func:`draw_island` to scroll anywhere."""
    x0, y0, x1, y1 = bounds(island)
    if extra:
        x0, x1 = min(x0, *(x for x, _ in extra)), max(x1, *(x for x, _ in extra))
        y0, y1 = min(y0, *(y for _, y in extra)), max(y1, *(y for _, y in extra))
    widest = (SCREEN - LABEL) // CELL
    width = min(columns or widest, widest, x1 - x0 + 3)
    height = min(rows or (y1 - y0 + 3), y1 - y0 + 3)
    return (
        _start(x0 - 1, x1 + 1, width, focus[0] if focus else None),
        _start(y0 - 1, y1 + 1, height, focus[1] if focus else None),
        width,
        height,
    )


def _start(low: int, high: int, size: int, focus: int | None) -> int:
    """Where a window of ``size`` cells over ``low..high`` starts, centred on ``focus`` if given."""
    if focus is None or high - low + 1 <= size:
        return low
    return max(low, min(focus - size // 2, high - size + 1))


def ghost_cells(
    card: CardLike, rotation: int, x: int, y: int
) -> dict[tuple[int, int], tuple[str, str | None]]:
    """The grid cells a card would cover there: (terrain, symbol) by cell."""
    s = shape(as_card(card), rotation)
    return {(x + cx, y + cy): (spec.terrain, spec.symbol) for (cx, cy), spec in s.cells}


def draw_island(
    island: Island,
    left: int | None = None,
    top: int | None = None,
    columns: int | None = None,
    rows: int | None = None,
    ghost: tuple[CardLike, int, int, int] | None = None,
    marks: Collection[tuple[int, int]] = (),
) -> Text:
    """A window on the island's grid with x labels above and y labels on the left, with a
    ``ghost`` card (card, rotation, x, y) drawn over it and ``marks`` on some cells."""
    over = ghost_cells(*ghost) if ghost else {}
    focus = (ghost[2], ghost[3]) if ghost else None
    d_left, d_top, d_columns, d_rows = island_window(island, columns, rows, focus, [*over, *marks])
    if left is None and top is None:  # columns and rows only limit the default window
        left, top, columns, rows = d_left, d_top, d_columns, d_rows
    left, top = d_left if left is None else left, d_top if top is None else top
    columns, rows = columns or d_columns, rows or d_rows
    xs = range(left, left + columns)
    header = Text(" " * LABEL + "".join(f"{x:^{CELL - 1}} " for x in xs).rstrip(), style="dim")
    lines = [header]
    for y in range(top, top + rows):
        line = Text(f"{y:>{LABEL - 1}} ", style="dim")
        for x in xs:
            marked = (x, y) in marks
            if (x, y) in over:
                line.append_text(cell_text(*over[(x, y)], ghost=True, marked=marked))
                continue
            cell = island.cells.get((x, y))
            line.append_text(
                cell_text(cell.terrain if cell else None, cell.symbol if cell else None, marked=marked)
            )
        lines.append(line)
    return Text("\n").join(lines)


def legend() -> Text:
    """One line per terrain and symbol mark, for a help screen."""
    lines = [cell_text(letter, None) + f" {name}" for letter, name in TERRAIN_NAME.items()]
    lines += [Text(f" {SYMBOL_MARK[kind]}  {name}") for kind, name in SYMBOL_NAME.items()]
    return Text("\n").join(lines)


# ------------------------------------------------------------------ any card, for `kiti cards`
def most_of(kind: str) -> str:
    """What a Destiny asks for, in words: a symbol kind or a group."""
    return {
        "totem": "totems (all kinds together)",
        "beach_card": "cards showing Beach",
        "coconut": COCONUTS_COUNTED,
    }.get(kind) or f"{SYMBOL_NAME[kind]} symbols"


def per_one(kind: str) -> str:
    """What a Traveler counts in the row, one of: a symbol kind or a group."""
    return {"totem": "totem of any kind", "beach_card": "card showing Beach"}.get(kind) or SYMBOL_NAME[kind]


def traveler_text(card_id: str) -> Text:
    t = TRAVELERS[card_id]
    adds = ", ".join(f"{n} {SYMBOL_NAME[k]}" for k, n in t.adds.items()) or "no symbols"
    return Text(
        f"Traveler {card_id}: adds {adds} and {t.coconuts} coconut(s) to its owner; when played, "
        f"scores {t.points} per {per_one(t.per)} in the row."
    )


def destiny_text(card_id: str) -> Text:
    d = DESTINIES[card_id]
    things = " and the most ".join(most_of(p) for p in d.components)
    one = f", {d.most_of_one:+} for the most of only one" if d.most_of_one is not None else ""
    return Text(
        f"Destiny {card_id} (price {d.price}): {d.most:+} for the most {things}{one}, "
        f"else {d.otherwise} (ties count as the most)."
    )


def draw_any(card_id: str) -> RenderableType:
    """Any MOTU card: an island or village card in its four rotations, a Traveler or a Destiny in
    words. KeyError for an unknown id."""
    if card_id in TRAVELERS:
        return traveler_text(card_id)
    if card_id in DESTINIES:
        return destiny_text(card_id)
    card(card_id)  # KeyError if there is no such card
    grid = Table.grid(padding=(0, 2))
    for _ in ROTATIONS:
        grid.add_column(no_wrap=True)
    grid.add_row(*(draw_card(card_id, r) for r in ROTATIONS))
    return grid


class CardDrawer:
    """MOTU's declared ``cards`` part: every card id, and any card drawn as the terminal draws it."""

    def ids(self) -> list[str]:
        return [*VILLAGE_IDS, *ISLAND_IDS, *TRAVELERS, *DESTINIES]

    def draw(self, card_id: str) -> RenderableType:
        return draw_any(card_id.strip().upper())

    def overview(self) -> RenderableType:
        """Every card, compactly: the island and village cards unturned, five to a line."""
        ids = [*VILLAGE_IDS, *ISLAND_IDS]
        grid = Table.grid(padding=(0, 2))
        for _ in range(5):
            grid.add_column(no_wrap=True)
        for i in range(0, len(ids), 5):
            grid.add_row(*(draw_card(c) for c in ids[i : i + 5]))
        texts: list[RenderableType] = [traveler_text(t) for t in TRAVELERS]
        texts += [destiny_text(d) for d in DESTINIES]
        return Group(grid, *texts, legend())


CARDS = CardDrawer()
