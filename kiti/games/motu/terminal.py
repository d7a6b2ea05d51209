"""How a MOTU table looks in a terminal (rich), and the placement dialogue.

MOTU's declared ``terminal`` part (this module's functions follow the protocol of
``kiti/cli/render.py``; the sentences come from the ``words`` part, :mod:`.words`). It reads
views and events only, never the
state; islands are rebuilt from a view's placements with the island model (:mod:`.island`) and
drawn by :mod:`.draw`. Every rule fact it shows (the rounds, a solo take's change) is the
view's.

The screen fits 80x24: a header, the row (or, solo, the two cards shown), the seats, one island
window (yours; a spectator sees the island of the seat to act) with the card to place beside it,
the Sources' values at an interim total, the prompt and the latest events (the island leaves
them at least ``LOG_ROWS`` lines; each is broken between words, never cut). An island larger
than the window is shown around its newest card; ``map X Y`` scrolls, ``map SEAT`` shows
another seat's.

**Placement** is a short dialogue (the :func:`dialogue` hook of the terminal):
a rotation alone (``90``) marks with ``+`` every cell where the turned card's top-left corner may
go; ``90 2 -1`` places it; ``aim 90 2 -1`` draws it there as a ghost and says at once whether
that is allowed and, if not, why (the rules' own reason).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.words import Names, latest
from ...core.words import seat_possessive as whose
from ...core.words import seat_word as who
from .cards import DESTINIES
from .draw import LABEL, SCREEN, draw_any, draw_card, draw_island, island_window
from .island import EMPTY, ROTATIONS, Island, bounds, lay_card
from .sources import SOURCES
from .view import MotuView
from .words import asked, describe_event, solo_table, take_change
from .words import is_int as _is_int

SCREEN_LINES = 24
#: Screen lines kept for the latest events below the island, however tall the island could be.
LOG_ROWS = 4
#: Sources in the seats' table, where room is short (never "fish": that is a partner, not a Source).
SHORT = {
    "fisherman": "fisher",
    "hunter": "hunt",
    "canoe": "canoe",
    "coconut": "coco",
    "totem": "totem",
    "volcano": "volc",
}


@lru_cache(maxsize=256)
def _island(placements: tuple[tuple[str, int, int, int], ...]) -> Island:
    island = EMPTY
    for name, rotation, x, y in placements:
        island = lay_card(island, name, rotation, x, y)
    return island


def island_of(view: MotuView, seat: int) -> Island:
    """A seat's island rebuilt from the view's placements (the island model lays them again)."""
    return _island(view.islands[seat].placements)


def shown_seat(view: MotuView) -> int:
    """Whose island the screen shows: the viewer's, else the seat whose turn it is."""
    viewer = view.viewer
    return viewer if isinstance(viewer, int) else view.turn


# ------------------------------------------------------------------ the lines of a view
def header(view: MotuView, names: Names = None) -> Text:
    head = Text("MOTU", style="bold")
    if view.solo:
        head.append(f" solo ({solo_table(view).difficulty})")
    head.append(f" · turn {view.round}" if view.solo else f" · round {view.round}/{view.rounds}")
    if view.over:
        head.append(" · game over")
    elif view.phase == "interim":
        head.append(f" · interim total, pile {view.pile}")
    else:
        head.append(f" · {whose(view.turn, view.viewer, names)} turn")
    viewer = view.viewer
    head.append(
        " · "
        + (
            f"you are seat {viewer}"
            if isinstance(viewer, int)
            else "whole table"
            if viewer == "referee"
            else "spectator"
        ),
        style="bold",
    )
    return head


def row_line(view: MotuView) -> Text:
    if view.solo:
        return solo_line(view)
    line = Text("Row: ", style="bold")
    for i, c in enumerate(view.row):
        line.append(f"{i + 1}:", style="dim")
        line.append(c.card, style="bold")
        line.append(f"+{c.coconuts}● " if c.coconuts else "  ", style="yellow")
    piles = " ".join(f"{k}{len(v)}" for k, v in view.piles.items())
    line.append(f"· piles {piles}", style="dim")
    if view.holding:
        line.append(f" · in hand {view.holding}", style="bold")
    return line


def solo_line(view: MotuView) -> Text:
    solo = solo_table(view)
    line = Text("")
    if solo.shown:
        left, right = solo.offers
        line.append(
            f"Shown: left {left.card} ({take_change(left.change)}) · "
            f"right {right.card} ({take_change(right.change)}) · ",
            style="bold",
        )
    elif solo.other:
        line.append(f"Other card: {solo.other} · ", style="bold")
    line.append(f"Beach Hut {solo.hut}●", style="dim")
    piles = " ".join(f"{k}{len(v)}" for k, v in view.piles.items())
    line.append(f" · piles {piles}", style="dim")
    return line


def destiny_line(view: MotuView) -> Text | None:
    """The Destinies on the table with their prices (and what they ask for, when few)."""
    table = view.destinies.table
    if view.solo or not (table or any(view.destinies.owned)):
        return None
    line = Text("Destinies: ", style="bold")
    few = len(table) <= 4
    line.append(
        "  ".join(f"{d} {DESTINIES[d].price}●" + (f" {short_destiny(d)}" if few else "") for d in table)
        or "none left"
    )
    if not few:
        line.append("  (card Dxx tells)", style="dim")
    return line


THING = {
    "fisherman": "fisher",
    "beach_card": "beach",
    "coconut": "coco",
    "volcano": "volc",
    "totem": "totems",
}


def short_destiny(d: str) -> str:
    dest = DESTINIES[d]
    return "+".join(THING.get(p, p) for p in dest.components)


COLUMNS = (
    ("seat", "left"),
    ("●", "right"),
    ("cards", "right"),
    ("beach", "right"),
    ("scored", "left"),
    ("travel", "left"),
    ("destinies", "left"),
    ("score", "right"),
)
SOLO_COLUMNS = ("seat", "●", "cards", "beach", "scored", "score")  # no Travelers, no Destinies


def seat_table(view: MotuView, labels: Sequence[str] | None) -> Table:
    """One line per seat (solo: the player and the Opponent, whose score shows at the end)."""
    grid = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    keep = [i for i, (name, _) in enumerate(COLUMNS) if not view.solo or name in SOLO_COLUMNS]
    for i in keep:
        name, justify = COLUMNS[i]
        # headers stay whole; a long "scored" breaks between its Sources, never cut
        grid.add_column(name, justify=justify, no_wrap=name != "scored", min_width=len(name))  # type: ignore[arg-type]
    for s in range(view.players):
        cells = seat_cells(view, s, labels)
        grid.add_row(*(cells[i] for i in keep))
    if view.solo:
        solo = solo_table(view)
        score = solo.opponent_score
        grid.add_row(
            "Opponent",
            str(solo.hut),
            str(len(solo.opponent)),
            "",
            "",
            f"? (from {solo.start})" if score == "?" else str(score),
        )
    return grid


def seat_cells(view: MotuView, s: int, labels: Sequence[str] | None) -> list[Text | str]:
    viewer = view.viewer
    name = Text(f"{s} ")
    name.append(labels[s] if labels and s != viewer else who(s, viewer), style="bold" if s == viewer else "")
    if s in view.to_act:
        name.append(" ◀", style="bold yellow")
    scored = scored_text(view, s)
    t = view.travelers[s]
    travel = (
        ""
        if t is None
        else (f"{t.card} +{t.points}" if t.played else f"{t.card} down" if t.card != "?" else "down")
    )
    score = view.scores[s]
    return [
        name,
        str(view.coconuts[s]),
        str(len(view.islands[s].placements) - 1),
        str(view.beach[s]),
        scored,
        travel,
        " ".join(view.destinies.owned[s]),
        Text(f"{score:g}", style="bold"),
    ]


def sources_line(view: MotuView, seat: int) -> Text:
    """Each Source's value now for ``seat`` (scored ones dimmed): what an interim would record."""
    done = {x for i in view.interims[seat] if i.sources != "?" for x in i.sources}
    line = Text("Sources now: ", style="bold")
    for source in SOURCES:
        line.append(f"{source} {view.sources[seat][source]}  ", style="dim strike" if source in done else "")
    return line


FINAL_HEADS = {
    "interims": "interims",
    "traveler": "travel",
    "destinies": "destiny",
    "beach": "beach",
    "coconut": "coco",
    "total": "total",
}


def final_table(view: MotuView, labels: Sequence[str] | None) -> Table:
    """The final scores, part by part (solo: the Opponent's by Source on a line of its own)."""
    grid = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    final = view.final or ()
    keys = [k for k in final[0] if k != "total"]
    grid.add_column("seat", no_wrap=True)
    for name in (*keys, "total"):
        grid.add_column(FINAL_HEADS[name], justify="right", no_wrap=True)
    for s, row in enumerate(final):
        grid.add_row(
            seat_cells(view, s, labels)[0],
            *(str(row[k]) for k in keys),
            Text(str(row["total"]), style="bold"),
        )
    opp = view.solo_table.opponent_final if view.solo_table else None
    if opp:
        grid.add_row(
            "Opponent",
            *(str(opp["beach"]) if k == "beach" else "" for k in keys),
            Text(str(opp["total"]), style="bold"),
        )
    return grid


def opponent_line(view: MotuView) -> Text | None:
    opp = view.solo_table.opponent_final if view.solo_table else None
    if not opp:
        return None
    return Text("Opponent: " + " · ".join(f"{k} {v}" for k, v in opp.items() if k != "total"), style="dim")


def scored_text(view: MotuView, s: int) -> str:
    return " ".join(
        f"{'+'.join(SHORT[x] for x in i.sources)} {i.total}" if i.sources != "?" else "?"
        for i in view.interims[s]
    )


def result_line(view: MotuView, names: Names = None) -> Text:
    win = view.winners
    if view.solo:
        text = "You beat the Opponent!" if win else "The Opponent wins."
        if not isinstance(view.viewer, int):
            text = "Seat 0 beats the Opponent." if win else "The Opponent wins."
        return Text(f"Game over: {text}", style="bold yellow")
    winners = " and ".join(who(s, view.viewer, names) for s in win)
    return Text(
        f"Game over: {winners} win{'s' if len(win) == 1 and winners != 'you' else ''}.", style="bold yellow"
    )


# ------------------------------------------------------------------ the island panel
def island_panel(view: MotuView, rows: int) -> RenderableType:
    """The island window (``rows`` lines with its header) with the card in hand, or the row's
    cards when the seat shown is to take one, beside it."""
    seat = shown_seat(view)
    island = island_of(view, seat)
    side = side_cards(view, seat)
    columns = (SCREEN - LABEL - (side[1] if side else 0)) // 4
    focus = last_cell(view, seat)
    title = Text(
        f"{whose(seat, view.viewer).capitalize()} island (village {view.islands[seat].placements[0][0]})",
        style="bold",
    )
    left, top, width, height = island_window(island, columns, max(2, rows - 2), focus)
    x0, y0, x1, y1 = bounds(island)
    if left > x0 - 1 or top > y0 - 1 or left + width < x1 + 2 or top + height < y1 + 2:
        title.append(" · only part of it fits (in play: map X Y)", style="dim")
    drawing = Group(title, draw_island(island, left, top, width, height))
    if not side:
        return drawing
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_row(drawing, side[0])
    return grid


def side_cards(view: MotuView, seat: int) -> tuple[RenderableType, int] | None:
    """The card to place, or the cards on offer to the seat about to take (drawn), and their width."""
    if view.over or view.turn != seat:
        return None
    if view.holding:
        return draw_card(view.holding), 14
    if view.phase != "take":
        return None
    offered = solo_table(view).shown if view.solo else [c.card for c in view.row]
    grid = Table.grid(padding=(0, 1))
    for _ in range(2):
        grid.add_column(no_wrap=True)
    drawn = [draw_card(c) for c in offered]
    for i in range(0, len(drawn), 2):
        grid.add_row(*drawn[i : i + 2])
    return grid, 28


def last_cell(view: MotuView, seat: int) -> tuple[int, int]:
    _name, _, x, y = view.islands[seat].placements[-1]
    return x + 1, y + 1


# ------------------------------------------------------------------ the whole view
def render_view(
    view: MotuView,
    events: Sequence[dict[str, Any]] | None = None,
    names: Sequence[str | None] | None = None,
    labels: Sequence[str] | None = None,
    width: int = 80,
    height: int = SCREEN_LINES - 3,
) -> RenderableType:
    """A MOTU view (a seat's, a spectator's or the referee's) in ``width`` x ``height``."""
    return _render(view, events, names, _shown(names, labels), height)


def _shown(names: Sequence[str | None] | None, labels: Sequence[str] | None) -> list[str] | None:
    """What to write for each seat: the player's name, else what plays there."""
    if not names and not labels:
        return None
    count = max(len(names or ()), len(labels or ()))
    return [
        (names[s] if names and s < len(names) and names[s] else None)
        or (labels[s] if labels and s < len(labels) else f"seat {s}")
        for s in range(count)
    ]


def _render(
    view: MotuView,
    events: Sequence[dict[str, Any]] | None,
    names: Names,
    labels: Sequence[str] | None,
    lines: int,
) -> RenderableType:
    parts: list[RenderableType] = [header(view, names), row_line(view)]
    line = destiny_line(view)
    if line is not None and not view.over:
        parts.append(line)
    tail: list[RenderableType] = []
    viewer = view.viewer
    if view.over:
        parts += [final_table(view, labels), result_line(view, names)]
        line = opponent_line(view)
        if line is not None:
            parts.append(line)
    else:
        parts.append(seat_table(view, labels))
    if not view.over and isinstance(viewer, int) and viewer in view.to_act:
        if view.phase == "interim":
            tail.append(sources_line(view, viewer))
        tail.append(Text(asked(view), style="bold cyan"))
    room = lines - height(parts + tail)
    recent = [t for t in (describe_event(e, viewer, names) for e in (events or [])[-30:]) if t]
    kept = len(latest(recent, SCREEN, LOG_ROWS))
    if not view.over or room >= 6:
        parts.append(island_panel(view, min(room - kept, max(16, lines // 2 + 4))))
    parts += tail
    parts += [Text(row, style="dim") for row in latest(recent, SCREEN, lines - height(parts))]
    return Group(*parts)


def height(parts: list[RenderableType], width: int = 80) -> int:
    """Lines ``parts`` take on a ``width``-column terminal."""
    out = io.StringIO()
    console = Console(width=width, file=out, color_system=None, legacy_windows=False)
    console.print(Group(*parts))
    return out.getvalue().count("\n")


# ------------------------------------------------------------------ the placement dialogue
def dialogue(turn: Any, line: str) -> tuple[str | None, RenderableType | None]:
    """Answer what the terminal cannot: a rotation alone, ``aim``, ``map`` and ``card``.

    ``turn`` gives the seat's ``view``, ``steps(prefix)`` (the moves offered step by step) and
    ``why(text)`` (the reason a move is refused, None if it is legal). Returns (the line to go on
    with, or None when answered here; what to print)."""
    words = line.strip().lower().split()
    if not words:
        return line, None
    view: MotuView = turn.view
    if words[0] == "map":
        return None, map_answer(view, words[1:])
    if words[0] in ("card", "cards", "show") and len(words) == 2:
        return None, card_answer(words[1].upper())
    if view.phase != "place" or view.turn != turn.seat:
        return line, None
    if len(words) == 1 and _is_int(words[0]):
        return None, rotation_answer(turn, int(words[0]))
    if words[0] == "aim":
        return None, aim_answer(turn, words[1:])
    return line, None


def rotation_answer(turn: Any, rotation: int) -> RenderableType:
    view: MotuView = turn.view
    if rotation not in ROTATIONS:
        return Text("A rotation is 0, 90, 180 or 270 (degrees clockwise).", style="red")
    card = holding(view)
    spots = {_cell(step.token) for step in turn.steps((f"place {rotation}",))}
    island = island_of(view, turn.seat)
    note = Text(
        f"{card} turned {rotation}: {len(spots)} place(s) for its top-left corner, "
        "marked +. Type ROT X Y to place it, aim ROT X Y to see it first.",
        style="bold",
    )
    if not spots:
        note = Text(f"{card} turned {rotation} fits nowhere: try another rotation.", style="bold")
    return Group(draw_card(card, rotation), note, draw_island(island, marks=spots, rows=18))


def holding(view: MotuView) -> str:
    """The card being placed (the dialogue answers a rotation or an aim only while placing)."""
    assert view.holding is not None, "a seat placing holds a card"
    return view.holding


def _cell(token: str) -> tuple[int, int]:
    x, y = token.split()
    return int(x), int(y)


def aim_answer(turn: Any, words: list[str]) -> RenderableType:
    if len(words) != 3 or not all(_is_int(w) for w in words) or int(words[0]) not in ROTATIONS:
        return Text("Write aim ROT X Y, e.g. aim 90 2 -1 (ROT is 0, 90, 180 or 270).", style="red")
    rotation, x, y = (int(w) for w in words)
    view: MotuView = turn.view
    reason = turn.why(f"place {rotation} {x} {y}")
    verdict = (
        Text(f"Allowed: type {rotation} {x} {y} to place it there.", style="bold green")
        if reason is None
        else Text(f"Not allowed: {reason}.", style="bold red")
    )
    ghost = (holding(view), rotation, x, y)
    return Group(
        draw_island(island_of(view, turn.seat), ghost=ghost, rows=18),
        Text("The card is drawn in lower case (l b s).", style="dim"),
        verdict,
    )


def map_answer(view: MotuView, words: list[str]) -> RenderableType:
    """``map`` (the island shown), ``map SEAT``, ``map X Y`` or ``map SEAT X Y``: a window on it."""
    if not all(_is_int(w) for w in words) or len(words) not in (0, 1, 2, 3):
        return Text("Write map, map SEAT, map X Y or map SEAT X Y.", style="red")
    nums = [int(w) for w in words]
    seat = nums.pop(0) if len(nums) in (1, 3) else shown_seat(view)
    if not 0 <= seat < view.players:
        return Text(f"There is no seat {seat}.", style="red")
    island = island_of(view, seat)
    left, top, columns, rows = island_window(
        island, rows=18, focus=(nums[0], nums[1]) if nums else last_cell(view, seat)
    )
    return Group(
        Text(f"{whose(seat, view.viewer).capitalize()} island:", style="bold"),
        draw_island(island, left, top, columns, rows),
    )


def card_answer(card_id: str) -> RenderableType:
    try:
        return draw_any(card_id)
    except KeyError:
        return Text(
            f"No MOTU card {card_id} (islands I01-I58, villages V1-V6, Travelers T1-T6, Destinies D01-D10).",
            style="red",
        )
