"""Terminal rendering through each game's declared renderer part.

A game's renderer (declared in its package, see :mod:`kiti.core.registry`) provides

- ``render_view(view, events=None, labels=None) -> rich renderable``,
- ``describe_event(event, viewer=None) -> str | None`` (an event in plain words),
- ``expand_input(text) -> str | None`` (player shorthand -> move notation),
- ``input_help`` (a line on the shorthand) and ``prompt(view, seat)`` (what is being asked).

A game that declares no renderer is refused at once with a message naming the game.
Nothing here knows any game's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType

from ..core.game import State
from ..core.registry import game_part


def renderer(cls: type[State]) -> Any:
    """The game's renderer (MissingPartError if it declares none)."""
    return game_part(cls, "renderer")


def view_renderable(cls: type[State], view: Any, events: Sequence[dict[str, Any]] | None = None,
                    labels: Sequence[str] | None = None) -> RenderableType:
    """A game's view as a rich renderable."""
    return renderer(cls).render_view(view, events=events, labels=labels)


def describe_events(cls: type[State], events: Sequence[dict[str, Any]], viewer: int | None = None) -> list[str]:
    describe = renderer(cls).describe_event
    return [line for line in (describe(e, viewer) for e in events) if line]


def expand_input(cls: type[State], text: str) -> str:
    """Player shorthand expanded by the game's renderer (unchanged when not shorthand)."""
    return renderer(cls).expand_input(text) or text


def render_table(state: State, view: Any, seat: int | None, console: Console | None = None,
                 labels: Sequence[str] | None = None) -> None:
    """Print ``view`` (the referee's when ``seat`` is None, else that seat's) — ``kiti replay``."""
    console = console or Console()
    viewer = "referee" if seat is None else seat
    console.print(view_renderable(type(state), view, state.events(viewer), labels))
