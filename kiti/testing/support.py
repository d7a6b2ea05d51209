"""What the checks share: snapshots of a state, a seat's sight, random play, and the
search for mutable objects two states share."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import MappingProxyType, ModuleType
from typing import Any

from ..core.events import REFEREE
from ..core.game import State
from ..core.moves import ActionCodec, Move

#: Called after every move of :func:`random_playout`: (state, seat, move, seats to act before).
EachMove = Callable[[State, int, Move, frozenset[int]], None]


def snapshot(state: State) -> str:
    """Everything about a state that a change could touch (generator included)."""
    return json.dumps(
        {
            "table": state.observation(REFEREE),
            "events": state.events(REFEREE),
            "history": [[s, str(m)] for s, m in state.history],
            "acting": sorted(state.acting),
            "over": state.over,
            "rng": state._generator().getstate(),
        },
        sort_keys=True,
        default=str,
    )


def seat_sight(state: State, seat: int | None) -> str:
    """All a seat (or a spectator) can know: observation and events (its information state is
    exactly these two, checked once in the suite), legal moves."""
    return json.dumps(
        {
            "obs": state.observation(seat),
            "events": state.events(seat),
            "legal": [] if seat is None else [str(m) for m in state.legal_moves(seat)],
            "to_act": sorted(state.to_act()),
        },
        sort_keys=True,
    )


def random_playout(state: State, rng: random.Random, each: EachMove | None = None) -> State:
    """Play checked random legal moves to the end, calling ``each(state, seat, move, before)``."""
    while not state.over:
        seat = rng.choice(sorted(state.to_act()))
        move = state.random_move(seat, rng)
        before = state.to_act()
        state.apply(seat, move)
        if each is not None:
            each(state, seat, move, before)
    return state


def checkpoints(new: Callable[[], State], seed: int, count: int = 6) -> Iterator[State]:
    """States along one random game of ``new()``: ``count`` points spread over it, the end
    included (the same state object, moved on between points)."""
    length = len(random_playout(new(), random.Random(seed)).history)
    marks = sorted({length * k // count for k in range(count)})
    state = new()
    rng = random.Random(seed)
    done = 0
    for mark in marks:
        while done < mark:
            seat = rng.choice(sorted(state.to_act()))
            state.apply(seat, state.random_move(seat, rng))
            done += 1
        yield state


@contextmanager
def raises(
    kinds: type[BaseException] | tuple[type[BaseException], ...], what: str, match: str | None = None
) -> Iterator[None]:
    """Assert that the block raises one of ``kinds`` (its message matching ``match``)."""
    try:
        yield
    except kinds as exc:
        if match is not None and not re.search(match, str(exc)):
            raise AssertionError(f"{what}: the error {str(exc)!r} does not match {match!r}") from exc
        return
    names = kinds.__name__ if isinstance(kinds, type) else " or ".join(k.__name__ for k in kinds)
    raise AssertionError(f"{what}: no {names} was raised")


_IMMUTABLE = (
    str,
    bytes,
    int,
    float,
    complex,
    bool,
    type(None),
    frozenset,
    range,
    type,
    ModuleType,
    MappingProxyType,
    ActionCodec,
    Move,
)


def _attributes(obj: Any) -> dict[str, Any]:
    """An object's attributes: its instance dictionary and its slots."""
    out = dict(vars(obj)) if hasattr(obj, "__dict__") else {}
    for klass in type(obj).__mro__:
        slots = getattr(klass, "__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                out[name] = getattr(obj, name)
    return out


def _stateless(obj: Any) -> bool:
    """True for an instance of a class whose every ancestor declares ``__slots__`` and none
    any slot: it holds nothing, so sharing it shares nothing (a stateless strategy object)."""
    return all(k is object or not vars(k).get("__slots__", True) for k in type(obj).__mro__)


def mutable_ids(root: Any) -> dict[int, str]:
    """id -> path of every mutable object reachable from ``root`` (through containers,
    instance dictionaries and slots)."""
    seen: dict[int, str] = {}
    stack: list[tuple[Any, str]] = [(root, "state")]
    while stack:
        obj, path = stack.pop()
        if isinstance(obj, _IMMUTABLE):
            continue
        if isinstance(obj, tuple):
            stack.extend((x, f"{path}[{i}]") for i, x in enumerate(obj))
            continue
        if id(obj) in seen:
            continue
        attrs = {} if isinstance(obj, (dict, list, set)) else _attributes(obj)
        if not attrs and not hasattr(obj, "__dict__") and (callable(obj) or _stateless(obj)):
            continue
        seen[id(obj)] = path
        if isinstance(obj, dict):
            stack.extend((v, f"{path}[{k!r}]") for k, v in obj.items())
            stack.extend((k, f"{path} key") for k in obj)
        elif isinstance(obj, (list, set)):
            stack.extend((x, f"{path}[{i}]") for i, x in enumerate(obj))
        else:
            stack.extend((v, f"{path}.{k}") for k, v in attrs.items())
    return seen


def shared_mutables(a: Any, b: Any) -> list[str]:
    """The paths (in ``a``) of mutable objects that ``a`` and ``b`` both reach."""
    ids_a = mutable_ids(a)
    ids_b = mutable_ids(b)
    return sorted(ids_a[i] for i in set(ids_a) & set(ids_b))


class Skipped(Exception):
    """A check that does not apply to this game (yet): the message says why."""
