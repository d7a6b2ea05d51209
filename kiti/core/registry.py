"""The games Kiti knows, by id, and the parts each game declares.

A game package registers its state class together with its declared parts::

    register(MiauiState, GameParts(words="kiti.games.miaui.words",
                                   terminal="kiti.games.miaui.terminal",
                                   heuristic="kiti.games.miaui.heuristic:MiauiHeuristic",
                                   summary="summary.md"))

A part is named by ``"module:attribute"`` (or ``"module"``: the module itself) and imported
only when first asked for, so a simulation never loads a terminal renderer.  Asking for a part a game does not declare
raises :class:`MissingPartError` naming the game and the part, before anything starts.

- ``words``: the game in plain words (no ``rich``: the server imports only this): a module
  with ``describe_event``, ``describe_events`` (optional), ``prompt``, ``expand_input`` and
  ``input_help``; see ``kiti/cli/render.py``;
- ``terminal``: the terminal's drawing of a view (``render_view``, optionally ``dialogue``),
  built on ``rich``; see ``kiti/cli/render.py``;
- ``heuristic``: a strategy class for the ``heuristic`` bot (``params``, ``choose``,
  ``rollout``; see ``kiti/bots/heuristic.py``);
- ``summary``: the short rules text printed by ``kiti rules``, a file of the game package;
- ``cards``: a card drawer for ``kiti cards`` (``ids()``, ``draw(card_id)`` raising KeyError for
  an unknown id, ``overview()``: every card at once);
- ``catalog``: the game's public card data for graphical clients, a function ``() -> JSON``
  (names, values, and what a card looks like: everything a client needs to draw a card that a
  view names by its code); served by ``kiti serve`` at ``/api/games/{id}/catalog``;
- ``bench``: extra figures for ``kiti bench``, a function ``(seconds) -> list of {"name",
  "value", "unit"}`` (MOTU: legal placements enumerated per second).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, fields
from importlib import resources
from typing import Any

from .errors import KitiError, MissingPartError, quoted
from .game import State


@dataclass(frozen=True)
class GameParts:
    """What a game package provides besides its rules (each ``"module:attribute"``)."""

    words: str | None = None
    terminal: str | None = None
    heuristic: str | None = None
    summary: str | None = None
    cards: str | None = None
    catalog: str | None = None
    bench: str | None = None


_GAMES: dict[str, type[State]] = {}
_PARTS: dict[str, GameParts] = {}
_LOADED: dict[tuple[str, str], Any] = {}
PART_NAMES = tuple(f.name for f in fields(GameParts))


def register(cls: type[State], parts: GameParts | None = None) -> type[State]:
    _GAMES[cls.info.id] = cls
    _PARTS[cls.info.id] = parts or GameParts()
    return cls


def get_game(game_id: str) -> type[State]:
    """The registered game ``game_id`` (import ``kiti.games`` first to load them all)."""
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_GAMES))
        raise KitiError(f"unknown game {quoted(game_id)} (known games: {known})") from None


def game_ids() -> list[str]:
    return sorted(_GAMES)


def has_part(cls: type[State], part: str) -> bool:
    return getattr(_PARTS.get(cls.info.id, GameParts()), part) is not None


def game_part(cls: type[State], part: str) -> Any:
    """The game's declared ``part``; MissingPartError if it declares none."""
    if part not in PART_NAMES:
        raise ValueError(f"no such part {part!r} (parts: {', '.join(PART_NAMES)})")
    key = (cls.info.id, part)
    if key in _LOADED:
        return _LOADED[key]
    ref = getattr(_PARTS.get(cls.info.id, GameParts()), part)
    if ref is None:
        have = [p for p in PART_NAMES if has_part(cls, p)]
        raise MissingPartError(
            f"{cls.info.name} has no {part} (it declares: {', '.join(have) or 'nothing'})")
    if part == "summary":
        package = cls.__module__.rsplit(".", 1)[0]
        value: Any = resources.files(package).joinpath(ref).read_text("utf-8")
    else:
        module, _, attr = ref.partition(":")
        value = importlib.import_module(module)
        value = getattr(value, attr) if attr else value
    _LOADED[key] = value
    return value
