"""How a Mauw table looks in a terminal (rich): the game's ``terminal`` part.

Its functions follow the renderer protocol of ``kiti/cli/render.py``.  It reads views and
events only, never the state; rule facts (scores, slot names) come from the view, event
sentences from :mod:`.words`.
A column is drawn as a stack, bottom to top: one ``9`` per nine, then its Warrior or
Spirit, then its points (``99R8 32``: two nines under a red 8, 32 points).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...core.words import folded, latest
from ...core.words import seat_possessive as whose
from ...core.words import seat_word as who
from .cards import COLOUR
from .view import Column, MauwView
from .words import describe_event

STYLE = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue"}


def card(code: str | None) -> Text:
    """A card code in its colour (a Spirit in magenta, a hidden card as '?')."""
    if code is None:
        return Text("")
    if code == "?":
        return Text("?", style="dim")
    if code == "SP":
        return Text(code, style="magenta")
    return Text(code, style=STYLE.get(COLOUR.get(code, ""), "bold"))


def stack(col: Column) -> Text:
    """One column: its nines, its top, its points (``—`` for an empty slot)."""
    if not col.nines and col.top is None:
        return Text("—", style="dim")
    out = Text("9" * col.nines, style="cyan")
    out.append_text(card(col.top))
    out.append(f" {col.score}", style="dim")
    return out


def seat_row(
    view: MauwView, seat: int, names: Sequence[str | None] | None, labels: Sequence[str] | None
) -> list[Text]:
    viewer = view.viewer
    name = Text(f"{seat} ")
    named = names[seat] if names and seat < len(names) else None
    shown = "you" if seat == viewer else (named or (labels[seat] if labels else ""))
    name.append(shown[:12], style="bold" if seat == viewer else "")
    if view.teams:
        team = next(i for i, t in enumerate(view.teams) if seat in t)
        name.append(f" t{team + 1}", style="italic")
    if seat in view.to_act:
        name.append(" ◀", style="bold yellow")
    cells = [stack(col) for col in view.columns[seat]]
    total = Text(f"{view.scores[seat]:g}", style="bold")
    return [name, *cells, total]


def header(view: MauwView) -> Text:
    head = Text("Mauw", style="bold")
    if view.over:
        head.append(" · game over")
    else:
        head.append(f" · seat {view.turn}'s turn")
    viewer = view.viewer
    head.append(
        " · "
        + (
            "you are seat " + str(viewer)
            if isinstance(viewer, int)
            else "whole table"
            if viewer == "referee"
            else "spectator"
        ),
        style="bold",
    )
    head.append(f" · draw pile {view.draw_pile if isinstance(view.draw_pile, int) else len(view.draw_pile)}")
    top = view.discard[-3:]
    head.append(" · discards ")
    head.append_text(Text(" ").join([card(c) for c in top]) if top else Text("none", style="dim"))
    return head


def table(view: MauwView, names: Sequence[str | None] | None, labels: Sequence[str] | None) -> Table:
    grid = Table(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    grid.add_column("seat", no_wrap=True)
    for slot in view.rules.slots:
        grid.add_column(slot, no_wrap=True)
    grid.add_column("total", justify="right", no_wrap=True)
    for seat in range(view.players):
        grid.add_row(*seat_row(view, seat, names, labels))
    return grid


def attack_line(view: MauwView) -> Text | None:
    a = view.attack
    if a is None:
        return None
    viewer = view.viewer
    line = Text("Attack: ", style="bold red")
    line.append(f"{who(a.attacker, viewer)} on {whose(a.defender, viewer)} column {a.slot} (")
    line.append_text(card(a.target))
    line.append(")")
    if a.card is not None:
        line.append(" with ")
        line.append_text(card(a.card if not a.declared else f"{a.card}={a.declared}"))
    else:
        line.append(" · defended: renew or stop?")
    if a.awaiting is not None:
        line.append(f" · waiting for {who(a.awaiting, viewer)}", style="italic")
    return line


def hand_line(view: MauwView) -> Text | None:
    viewer = view.viewer
    if not isinstance(viewer, int) or view.over:
        return None
    line = Text("Your hand: ", style="bold")
    for code in view.hands[viewer]:
        line.append_text(card(code))
        line.append(" ")
    return line


def render_view(
    view: MauwView,
    events: Sequence[dict[str, Any]] | None = None,
    names: Sequence[str | None] | None = None,
    labels: Sequence[str] | None = None,
    width: int = 80,
    height: int = 21,
) -> RenderableType:
    """A Mauw view (a seat's, a spectator's or the referee's) as a table that fits ``width``
    columns and ``height`` lines; the latest events fill the room left."""
    parts: list[RenderableType] = [header(view), table(view, names, labels)]
    if view.team_scores is not None:
        parts.append(
            Text(
                "Teams: "
                + " · ".join(
                    f"{'+'.join(map(str, t))} = {sc:g}" for t, sc in zip(view.teams or (), view.team_scores)
                )
            )
        )
    parts.extend(line for line in (attack_line(view), hand_line(view)) if line is not None)
    if view.over:
        win = " and ".join(who(s, view.viewer) for s in view.winners)
        parts.append(
            Text(
                f"Game over ({view.end_reason}): {win} win{'s' if len(view.winners) == 1 and win != 'you' else ''}.",
                style="bold yellow",
            )
        )
    recent = [line for line in (describe_event(e, view.viewer, names) for e in (events or [])[-40:]) if line]
    used = view.players + 1 + sum(len(folded(part.plain, width)) for part in parts if isinstance(part, Text))
    parts.extend(Text(line, style="dim") for line in latest(recent, width, height - used))
    return Group(*parts)
