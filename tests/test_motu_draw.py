"""Drawing MOTU cards and islands: terrain letters and symbol marks read without colour, and
everything fits an 80-column terminal."""

from __future__ import annotations

import io
import random
import re

from rich.console import Console

from kiti.games.motu import cards as C
from kiti.games.motu import draw as D
from kiti.games.motu import island as I


def plain(renderable, color: bool = False) -> str:
    console = Console(width=80, file=io.StringIO(), color_system="truecolor" if color else None)
    console.print(renderable)
    return console.file.getvalue()


def cells(line: str) -> list[str]:
    """A drawn row cut into its four-character cells (terrain letter, mark, space)."""
    return [line[i : i + 3] for i in range(0, len(line), D.CELL)]


def test_a_card_shows_every_terrain_letter_and_symbol_mark():
    card = C.CARDS["V1"]
    lines = plain(D.draw_card(card)).splitlines()
    assert lines[0] == "V1" and len(lines) == 5
    grid = [cells(line) for line in lines[1:5]]
    assert ["".join(c[0] for c in row) for row in grid] == list(card.rows)
    assert grid[1][1] == "L**", "the star in the village's centre"
    assert grid[0][0] == "L" + C.SYMBOL_MARK["totem1"]


def test_a_turned_card_is_drawn_turned():
    lines = plain(D.draw_card("I24", 90)).splitlines()
    assert lines[0] == "I24 turned 90"
    assert ["".join(c[0] for c in cells(line)) for line in lines[1:4]] == list(I.rotated("I24", 90).rows)


def test_colour_adds_no_characters():
    assert "\x1b[" in plain(D.draw_card("I01"), color=True)
    card = C.CARDS["I01"]
    no_colour = plain(D.draw_card(card))
    assert re.sub(r"\x1b\[[0-9;]*m", "", plain(D.draw_card(card), color=True)) == no_colour


def grown_island(cards: int = 9) -> I.Island:
    rng = random.Random(4)
    isl = I.new_island("V2")
    for card_id in rng.sample(C.ISLAND_IDS, 30):
        spot = I.random_legal_placement(isl, card_id, rng)
        if spot and len(isl.placements) <= cards:
            isl = I.lay_card(isl, card_id, *spot)
    return isl


def test_an_island_fits_80_columns_with_labels():
    isl = grown_island()
    assert len(isl.placements) == 10, "premise: a village and nine cards"
    text = plain(D.draw_island(isl))
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "**" in text


def test_the_window_scrolls_to_any_part_of_the_island():
    isl = grown_island()
    _x0, y0, x1, _y1 = I.bounds(isl)
    xs, ys = range(x1 - 3, x1 + 2), range(y0 - 1, y0 + 3)  # the top-right corner and beyond
    assert {(x, y) in isl.cells for x in xs for y in ys} == {True, False}, "premise: land and water"
    lines = plain(D.draw_island(isl, left=xs[0], top=ys[0], columns=5, rows=4)).splitlines()
    assert len(lines) == 5 and lines[0].split() == [str(x) for x in xs]
    for row, y in zip(lines[1:], ys):
        assert int(row[: D.LABEL]) == y
        for cell, x in zip(cells(row[D.LABEL :]), xs, strict=True):
            shown = isl.cells.get((x, y))
            expected = "." if shown is None else shown.terrain + C.SYMBOL_MARK.get(shown.symbol, "")
            assert cell.strip() == expected


def test_the_legend_names_every_mark():
    text = plain(D.legend())
    for kind, mark in C.SYMBOL_MARK.items():
        assert f"{mark}  {C.SYMBOL_NAME[kind]}" in text


def test_a_tall_screen_shows_the_whole_island_and_a_short_one_says_it_shows_part():
    # `kiti replay` draws for a screen as tall as it needs: every row of the island must be
    # there; at 80x24 a tall island is windowed, and the title says so.
    from kiti.games.motu.rules import MotuState
    from kiti.games.motu.terminal import render_view

    rng = random.Random(5)
    state = MotuState.new(1, None, 5)
    while not state.over:
        for seat in sorted(state.to_act()):
            state.apply(seat, state.random_move(seat, rng))
    view = state.view(0)
    _x0, y0, _x1, y1 = view.islands[0].bounds
    assert y1 - y0 + 3 > 16  # the premise: taller than the old 16-line window
    tall = plain(render_view(view, height=10_000))
    labels = {int(m) for m in re.findall(r"^\s*(-?\d+) ", tall, re.M)}
    assert set(range(y0, y1 + 1)) <= labels
    assert "only part of it fits" not in tall
    short = plain(render_view(view, height=21))
    assert "only part of it fits" in short or "island" not in short
