"""Generic terminal rendering: finds each game's own render hook and falls back to plain JSON.

A game ``G`` (package ``kiti.games.G``) may provide a module ``kiti.games.G.render`` with

- ``render_view(view, events=None, labels=None) -> rich renderable`` (required for a table),
- ``describe_event(event, viewer=None) -> str | None`` (events in plain sentences),
- ``expand_input(text) -> str | None`` (player shorthand -> move notation), ``INPUT_HELP`` (a line).

Nothing here knows any game's rules: Mauw and MOTU only add their render module.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

from ..core.game import State


def game_package(cls: type[State]) -> str:
    """The package that holds a game's rules, e.g. ``kiti.games.miaui``."""
    return cls.__module__.rsplit(".", 1)[0]


def render_hook(cls: type[State]) -> ModuleType | None:
    """The game's ``render`` module, or None if it has none."""
    try:
        return importlib.import_module(game_package(cls) + ".render")
    except ModuleNotFoundError:
        return None


def seen_events(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The events ``seat`` has seen (None: a spectator)."""
    return state.events_seen(seat)


def view_renderable(cls: type[State], view: Any, events: Sequence[dict[str, Any]] | None = None,
                    labels: Sequence[str] | None = None) -> RenderableType:
    """A game's view as a rich renderable (the game's hook, or the JSON as a fallback)."""
    hook = render_hook(cls)
    if hook is not None and hasattr(hook, "render_view"):
        return hook.render_view(view, events=events, labels=labels)
    parts: list[RenderableType] = [Text(cls.info.name, style="bold"), Pretty(view)]
    for line in describe_events(cls, list(events or [])[-5:]):
        parts.append(Text(line))
    return Group(*parts)


def describe_events(cls: type[State], events: Sequence[dict[str, Any]], viewer: int | None = None) -> list[str]:
    hook = render_hook(cls)
    out = []
    for event in events:
        line = None
        if hook is not None and hasattr(hook, "describe_event"):
            line = hook.describe_event(event, viewer)
        else:
            line = json.dumps(event)
        if line:
            out.append(line)
    return out


def expand_input(cls: type[State], text: str) -> str:
    """Player shorthand expanded by the game's hook (unchanged when it has none)."""
    hook = render_hook(cls)
    if hook is not None and hasattr(hook, "expand_input"):
        expanded = hook.expand_input(text)
        if expanded:
            return expanded
    return text


def input_help(cls: type[State]) -> str:
    hook = render_hook(cls)
    return getattr(hook, "INPUT_HELP", "") if hook is not None else ""


def render_table(state: State, view: Any, seat: int | None, console: Console | None = None,
                 labels: Sequence[str] | None = None) -> None:
    """Print ``view`` (the whole table when ``seat`` is None, else that seat's view) — ``kiti replay``."""
    console = console or Console()
    events = seen_events(state, seat)
    console.print(view_renderable(type(state), view, events, labels))
