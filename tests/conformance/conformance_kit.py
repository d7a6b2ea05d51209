"""Machinery of the conformance suite: cases for every registered game, and checkers.

Every registered game is checked for every seat count and every combination of its
options' sample values (``OptionSpec.samples``); combinations a game refuses with an
OptionError are skipped (and counted, so a game cannot refuse everything).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from types import MappingProxyType, ModuleType
from typing import Any

import kiti.games  # noqa: F401  (registers every game)
from kiti.core.errors import OptionError
from kiti.core.events import REFEREE
from kiti.core.game import State
from kiti.core.moves import ActionCodec, Move
from kiti.core.registry import game_ids, get_game

Case = tuple[str, int, dict[str, Any]]


def option_combinations(cls: type[State], players: int) -> Iterator[dict[str, Any]]:
    specs = cls.info.options
    samples = [s.samples() if cls.option_applies(s.name, players) else [s.default] for s in specs]
    for values in itertools.product(*samples):
        options = {s.name: v for s, v in zip(specs, values)}
        try:
            cls.new(players, options, 0)
        except OptionError:
            continue
        yield options


def cases() -> list[Case]:
    out = []
    for game in game_ids():
        cls = get_game(game)
        for players in range(cls.info.min_seats, cls.info.max_seats + 1):
            for options in option_combinations(cls, players):
                out.append((game, players, options))
    return out


def case_id(case: Case) -> str:
    game, players, options = case
    on = ",".join(f"{k}={v}" for k, v in sorted(options.items())
                  if v != _default(get_game(game), k)) or "defaults"
    return f"{game}-{players}-{on}"


def _default(cls: type[State], name: str) -> Any:
    return next(s.default for s in cls.info.options if s.name == name)


def snapshot(state: State) -> str:
    """Everything about a state that a change could touch (generator included)."""
    return json.dumps({
        "table": state.table(),
        "events": state.events(REFEREE),
        "history": [[s, str(m)] for s, m in state.history],
        "acting": sorted(state.acting),
        "over": state.over,
        "rng": state._rng.getstate(),
    }, sort_keys=True, default=str)


def seat_sight(state: State, seat: int | None) -> str:
    """All a seat (or a spectator) can know: observation and events (its information state is
    exactly these two, checked once in the suite), legal moves."""
    return json.dumps({
        "obs": state.observation(seat),
        "events": state.events(seat),
        "legal": [] if seat is None else [str(m) for m in state.legal_moves(seat)],
        "to_act": sorted(state.to_act()),
    }, sort_keys=True)


def random_playout(state: State, rng: random.Random, each: Any = None) -> State:
    """Play checked random legal moves to the end, calling ``each(state, seat, move, before)``."""
    while not state.is_over():
        seat = rng.choice(sorted(state.to_act()))
        move = state.random_move(seat, rng)
        before = state.to_act()
        state.apply(seat, move)
        if each is not None:
            each(state, seat, move, before)
    return state


_IMMUTABLE = (str, bytes, int, float, complex, bool, type(None), frozenset, range, type,
              ModuleType, MappingProxyType, ActionCodec, Move)


def mutable_ids(root: Any) -> dict[int, str]:
    """id -> path of every mutable object reachable from ``root`` (through containers and
    instance dictionaries)."""
    seen: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(root, "state")]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, _IMMUTABLE) or callable(obj) and not hasattr(obj, "__dict__"):
            continue
        if isinstance(obj, tuple):
            stack.extend((x, f"{path}[{i}]") for i, x in enumerate(obj))
            continue
        if id(obj) in seen:
            continue
        seen[id(obj)] = path
        if isinstance(obj, dict):
            stack.extend((v, f"{path}[{k!r}]") for k, v in obj.items())
            stack.extend((k, f"{path} key") for k in obj)
        elif isinstance(obj, (list, set)):
            stack.extend((x, f"{path}[{i}]") for i, x in enumerate(obj))
        elif hasattr(obj, "__dict__"):
            stack.extend((v, f"{path}.{k}") for k, v in vars(obj).items())
    return seen


def shared_mutables(a: Any, b: Any) -> list[str]:
    ids_a = mutable_ids(a)
    ids_b = mutable_ids(b)
    return sorted(ids_a[i] for i in set(ids_a) & set(ids_b))
