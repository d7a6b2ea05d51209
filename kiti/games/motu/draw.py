"""MOTU cards and islands as ``rich`` renderables.

Each cell is four characters: its terrain letter (L, B, S), a two-letter symbol mark (``FM``
fisherman, ``fi`` fish, ``T3`` a totem, ``**`` the village star ...; see ``data/cards.json``) and a
space. Colour shows the terrain (Land green, Beach yellow, Sea blue) but the letters say it too,
so the drawing reads the same under NO_COLOR. An empty grid cell is ``.``.
"""

from __future__ import annotations

from rich.text import Text

from .cards import SYMBOL_MARK, SYMBOL_NAME, TERRAIN_NAME
from .island import CardLike, Island, bounds, rotated

STYLE = {"L": "black on green", "B": "black on yellow", "S": "bright_white on blue"}
CELL = 4  # characters per cell
LABEL = 4  # characters of the row labels on the left of an island
SCREEN = 80


def cell_text(terrain: str | None, symbol: str | None) -> Text:
    """One cell: terrain letter, symbol mark, space; an empty grid cell is a dot."""
    if terrain is None:
        return Text(" .  ", style="dim")
    mark = SYMBOL_MARK[symbol] if symbol else "  "
    return Text(f"{terrain}{mark} ", style=STYLE[terrain])


def draw_card(card: CardLike, rotation: int = 0) -> Text:
    """A card, turned ``rotation`` degrees clockwise, under a title line with its id."""
    turned = rotated(card, rotation)
    title = Text(turned.id + (f" turned {rotation}" if rotation else ""), style="bold")
    rows = [Text().join(cell_text(terrain, turned.symbol_at.get((c, r))) for c, terrain in enumerate(row))
            for r, row in enumerate(turned.rows)]
    return Text("\n").join([title, *rows])


def island_window(island: Island, columns: int | None = None) -> tuple[int, int, int, int]:
    """The default window (left, top, columns, rows): the island plus one empty cell around,
    at most as wide as fits the screen (then its left part; scroll by passing ``left``)."""
    x0, y0, x1, y1 = bounds(island)
    widest = (SCREEN - LABEL) // CELL
    return x0 - 1, y0 - 1, min(columns or widest, widest, x1 - x0 + 3), y1 - y0 + 3


def draw_island(island: Island, left: int | None = None, top: int | None = None,
                columns: int | None = None, rows: int | None = None) -> Text:
    """A window on the island's grid with x labels above and y labels on the left."""
    d_left, d_top, d_columns, d_rows = island_window(island, columns)
    left, top = d_left if left is None else left, d_top if top is None else top
    columns, rows = columns or d_columns, rows or d_rows
    xs = range(left, left + columns)
    header = Text(" " * LABEL + "".join(f"{x:^{CELL - 1}} " for x in xs).rstrip(), style="dim")
    lines = [header]
    for y in range(top, top + rows):
        line = Text(f"{y:>{LABEL - 1}} ", style="dim")
        for x in xs:
            cell = island.cells.get((x, y))
            line.append_text(cell_text(cell.terrain, cell.symbol) if cell else cell_text(None, None))
        lines.append(line)
    return Text("\n").join(lines)


def legend() -> Text:
    """One line per terrain and symbol mark, for a help screen."""
    lines = [cell_text(letter, None) + f" {name}" for letter, name in TERRAIN_NAME.items()]
    lines += [Text(f" {SYMBOL_MARK[kind]}  {name}") for kind, name in SYMBOL_NAME.items()]
    return Text("\n").join(lines)
