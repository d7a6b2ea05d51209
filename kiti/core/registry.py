"""The games Kiti knows, by id, and the parts each game declares.

**Finding the games.**  A game is a package that registers its state class, together with its
declared parts, when it is imported::

    register(MiauiState, GameParts(words="kiti.games.miaui.words",
                                   terminal="kiti.games.miaui.terminal",
                                   heuristic="kiti.games.miaui.heuristic:MiauiHeuristic",
                                   summary="summary.md"))

:func:`get_game` and :func:`game_ids` import every game the first time they are asked: each
package inside ``kiti.games`` (the built-in games, found even where Kiti runs from a source
checkout that was never installed), then every entry point of the group ``kiti.games``
(:data:`ENTRY_POINTS`): a game of another distribution declares, in its ``pyproject.toml``::

    [project.entry-points."kiti.games"]
    mygame = "mygame"            # the module that registers the game (or "mygame.rules:MyState")

and needs no edit anywhere in Kiti: the command line, the bots and the server (its lobby and
web client included) list it.  An entry point that fails to load, or loads without registering
the game it names, does not stop the others: asking for that game raises a :class:`KitiError`
saying why (:func:`broken_games` lists them all).

**Parts.**  A part is named by ``"module:attribute"`` (or ``"module"``: the module itself) and
imported only when first asked for, so a simulation never loads a terminal renderer.  Asking for
a part a game does not declare raises :class:`MissingPartError` naming the game and the part,
before anything starts.

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
  "value", "unit"}`` (MOTU: legal placements enumerated per second);
- ``client``: the web client's module that draws the game's table (an ES module exporting
  ``render``; see ``kiti/server/static/js/games/generic.js``), a file of the game package
  (``"client.js"``) or of another package (``"package:path/in/it.js"``); ``kiti serve``
  serves it at ``/js/games/{id}.js``, and the generic module to a game without one; the other
  ``.js`` files beside it at ``/js/games/{id}/{file}.js``, and its styles, a ``client.css``
  beside it, at ``/css/games/{id}.css`` (the page loads them with the module);
- ``tensors``: the game's tensor encoder for reinforcement learning, a subclass of
  :class:`kiti.core.tensors.Encoder` (built for one ``kiti.load(...)`` game; its module may
  import numpy, so only :func:`kiti.rl.tensors.encoder_for` imports it);
- ``balance``: the game's hooks for ``kiti balance`` (a module: ``UNIT``, ``turn_order``,
  ``length``, ``card_facts``, ``card_name``; see :mod:`kiti.sim.playout`), reading a finished
  state through the game's public rules functions only.

``summary`` and ``client`` name files: ``game_part`` returns the summary's text and the client
module's file (an :class:`importlib.resources.abc.Traversable`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import logging
import pkgutil
import threading
from dataclasses import dataclass, fields
from importlib import metadata, resources
from typing import Any

from .errors import KitiError, MissingPartError, quoted
from .game import State

#: The entry point group through which a distribution adds games.
ENTRY_POINTS = "kiti.games"
#: The package whose subpackages are the built-in games.
BUILT_IN = "kiti.games"


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
    client: str | None = None
    tensors: str | None = None
    balance: str | None = None


_GAMES: dict[str, type[State]] = {}
_PARTS: dict[str, GameParts] = {}
_LOADED: dict[tuple[str, str], Any] = {}
_BROKEN: dict[str, str] = {}  # game id -> why its package or entry point did not load
_FILES = ("summary", "client")  # parts that name a file, not a module
PART_NAMES = tuple(f.name for f in fields(GameParts))
_LOCK = threading.RLock()
_search = {"done": False, "running": False}
_log = logging.getLogger(__name__)


def register(cls: type[State], parts: GameParts | None = None) -> type[State]:
    """Register the game ``cls`` (its id is ``cls.info.id``) and its declared parts.

    Registering the same class again (a module imported twice) replaces it; a different
    class under a taken id is refused with a KitiError naming both."""
    old = _GAMES.get(cls.info.id)
    if old is not None and _where(old) != _where(cls):
        raise KitiError(f"two games are called {quoted(cls.info.id)}: {_where(old)} and {_where(cls)}")
    _GAMES[cls.info.id] = cls
    _PARTS[cls.info.id] = parts or GameParts()
    return cls


def _where(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def get_game(game_id: str) -> type[State]:
    """The game ``game_id``; a KitiError for an unknown game or one whose package failed to load."""
    _discover()
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        pass
    if isinstance(game_id, str) and game_id in _BROKEN:
        raise KitiError(f"the game {quoted(game_id)} could not be loaded: {_BROKEN[game_id]}")
    known = ", ".join(sorted(_GAMES)) or "none"
    raise KitiError(f"unknown game {quoted(game_id)} (known games: {known})")


def game_ids() -> list[str]:
    """The ids of every game that loaded, sorted."""
    _discover()
    return sorted(_GAMES)


def broken_games() -> dict[str, str]:
    """The games found that failed to load: id -> why."""
    _discover()
    return dict(_BROKEN)


def refresh() -> None:
    """Look for games again (a plugin installed since the first look); registered games stay."""
    with _LOCK:
        _search["done"] = False
        _BROKEN.clear()
    _discover()


def _discover() -> None:
    """Import every built-in game and every game plugin, once (a call made while this runs,
    by a game's own import, sees the games registered so far)."""
    if _search["done"]:
        return
    with _LOCK:
        if _search["done"] or _search["running"]:
            return
        _search["running"] = True
        try:
            _load_built_ins()
            for entry in metadata.entry_points(group=ENTRY_POINTS):
                _load_plugin(entry)
        finally:
            _search["running"] = False
            _search["done"] = True


def _load_built_ins() -> None:
    spec = importlib.util.find_spec(BUILT_IN)
    where = spec.submodule_search_locations if spec is not None else None
    for module in pkgutil.iter_modules(where or [], BUILT_IN + "."):
        if module.ispkg:
            game_id = module.name.rsplit(".", 1)[1]  # a package that fails is noted under its name
            _load(
                game_id,
                f"the package {module.name}",
                functools.partial(importlib.import_module, module.name),
                named=False,
            )


def _load_plugin(entry: metadata.EntryPoint) -> None:
    dist = getattr(entry, "dist", None)
    origin = f"the entry point {entry.name} = {entry.value}" + (
        f" of {dist.name}" if dist is not None else ""
    )
    _load(entry.name, origin, entry.load)


def _load(game_id: str, origin: str, load: Any, named: bool = True) -> None:
    """Import the game ``game_id`` through ``load()``, noting why it failed if it does
    (``named``: failing too if it registers no game of that id)."""
    try:
        target = load()
        if isinstance(target, type) and issubclass(target, State) and target.info.id not in _GAMES:
            register(target)
    except Exception as exc:  # a broken plugin must not hide the other games
        if game_id in _GAMES:  # registered before failing (another game of its package did)
            return
        why = f"{origin} raised {type(exc).__name__}: {exc}"
    else:
        if game_id in _GAMES or not named:
            return
        why = f"{origin} loaded, but registered no game {quoted(game_id)} (registered: {', '.join(sorted(_GAMES))})"
    _BROKEN[game_id] = why
    _log.warning("game %s not loaded: %s", game_id, why)


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
        raise MissingPartError(f"{cls.info.name} has no {part} (it declares: {', '.join(have) or 'nothing'})")
    if part in _FILES:
        package, _, path = ref.rpartition(":")
        value: Any = resources.files(package or cls.__module__.rsplit(".", 1)[0]).joinpath(path)
        if part == "summary":
            value = value.read_text("utf-8")
    else:
        module, _, attr = ref.partition(":")
        value = importlib.import_module(module)
        value = getattr(value, attr) if attr else value
    _LOADED[key] = value
    return value
