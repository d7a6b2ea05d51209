"""What the engine hands to front ends: the typed contract and the game's words.

- :func:`views_and_events_match_the_schema`: every viewer's views and events match the JSON
  Schema generated from the game's declarations (:mod:`kiti.core.contract`), and a view
  encoded as text (``dumps``, what a server sends) is its JSON data (``to_json``).
- :func:`front_ends_restate_no_rule`: the view's JSON holds nothing its schema does not
  describe, and the game's ``words`` part (the one a server imports) tells every event, asks
  every seat to act, and never fails on what a person types.
- :func:`words_import_no_rich` (per game): loading the ``words`` part loads no ``rich``.
- :func:`declares_view_and_events` (per game): the game is on the typed contract.
"""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.contract import dumps, events_schema, json_schema
from ..core.events import REFEREE, Viewer
from ..core.game import State
from ..core.registry import game_part, has_part
from .cases import Case
from .support import Skipped

#: Typed input a words part must survive (``expand_input`` never fails, whatever is typed).
TYPED = ("", "   ", "xyzzy 3", "\x00", "9" * 5000, "[bold]x[/bold]", "ü", "-1", "?")


def _typed_view(cls: type[State]) -> type:
    if cls.info.view_type is None:
        raise Skipped(f"{cls.info.name} has no typed view yet")
    return cls.info.view_type


def _viewers(state: State) -> list[Viewer]:
    return [*range(state.players), None, REFEREE]


def _every_few_moves(state: State, seed: int, every: int = 7) -> Iterator[State]:
    """The state every ``every`` moves of a random game (lowest seat first), and at its end."""
    rng = random.Random(seed)
    moved = 0
    while True:
        if moved % every == 0 or state.over:
            yield state
        if state.over:
            return
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
        moved += 1


# ------------------------------------------------------------------ the schema
def declares_view_and_events(cls: type[State]) -> None:
    """The game declares its typed view and its event kinds (``GameInfo``)."""
    info = cls.info
    assert info.view_type is not None, f"{info.id} declares no typed view"
    assert info.event_types, f"{info.id} declares no event kinds"
    assert set(info.event_types) == set(info.events), f"{info.id}: event kinds and events differ"


def views_and_events_match_the_schema(case: Case) -> None:
    """Views (every viewer, every few moves and at the end) and events match the schema."""
    cls = case.cls
    view_type = _typed_view(cls)
    try:
        jsonschema: Any = importlib.import_module("jsonschema")
    except ImportError:
        raise Skipped("the schema check needs jsonschema (pip install 'kiti[test]')") from None
    views = jsonschema.Draft202012Validator(json_schema(view_type))
    events = jsonschema.Draft202012Validator(events_schema(cls.info.event_types))
    valid: set[str] = set()  # events already found valid, as JSON (the same event again is too)
    for state in _every_few_moves(case.new(5), 11 + case.seed):
        for viewer in _viewers(state):
            view = state.observation(viewer)
            problem = next(views.iter_errors(view), None)
            assert problem is None, f"the view of {viewer!r}: {problem and problem.message}"
            assert json.loads(dumps(state.view(viewer))) == view, (
                f"the view of {viewer!r} encoded as text (contract.dumps) is not its JSON data (to_json)"
            )
            for event in state.events(viewer):
                text = json.dumps(event, sort_keys=True)
                if text not in valid:
                    problem = next(events.iter_errors(event), None)
                    assert problem is None, f"{viewer!r} gets {event}: {problem and problem.message}"
                    valid.add(text)


# ------------------------------------------------------------------ words and keys
def front_ends_restate_no_rule(case: Case) -> None:
    """A front end needs nothing beyond the view and the words part: every key of every
    viewer's view is described by the schema (nothing undeclared to interpret); the words
    part prompts every seat to act, explains its shorthand, survives any typed text, and
    tells every event each viewer saw in plain words (a sentence or None)."""
    cls = case.cls
    schema = json_schema(_typed_view(cls))
    words = game_part(cls, "words") if has_part(cls, "words") else None
    for state in _every_few_moves(case.new(808), 21 + case.seed):
        for viewer in _viewers(state):
            loose = undescribed_keys(state.observation(viewer), schema, schema)
            assert not loose, f"the view of {viewer!r} holds keys its schema does not describe: {loose[:5]}"
        if words is not None:
            for seat in sorted(state.to_act()):
                _asks(words, state, seat)
    if words is not None:
        for viewer in [*range(state.players), None]:
            _tells(words, state.events(viewer), viewer, [f"P{s}" for s in range(state.players)])


def _asks(words: Any, state: State, seat: int) -> None:
    view = state.view(seat)
    question = words.prompt(view, seat)
    assert isinstance(question, str) and question.strip(), f"no prompt for seat {seat}"
    assert isinstance(words.input_help(view), str), "input_help gives no line"
    for text in (*TYPED, *(str(m) for m in state.legal_moves(seat)[:5])):
        out = words.expand_input(text, seat)
        assert out is None or isinstance(out, str), f"expand_input({text!r:.20}) gave {out!r:.40}"


def _tells(words: Any, events: Sequence[dict[str, Any]], viewer: Viewer, names: list[str]) -> None:
    for event in events:
        for who in (None, names):
            line = words.describe_event(event, viewer, who)
            assert line is None or _plain(line), f"{event} is told as {line!r:.80} to {viewer!r}"
    told = getattr(words, "describe_events", None)
    if told is not None:
        lines = told(events, viewer, names)
        assert all(_plain(line) for line in lines), f"describe_events gives {list(lines)[:3]!r:.80}"


def _plain(line: Any) -> bool:
    """A sentence in plain words: a non-empty string with no terminal markup."""
    return isinstance(line, str) and bool(line.strip()) and "[/" not in line and "\x1b" not in line


def undescribed_keys(
    value: Any, schema: dict[str, Any], root: dict[str, Any], path: str = "view"
) -> list[str]:
    """Paths in ``value`` (JSON) that ``schema`` does not describe: keys of an object that are
    not its properties, and objects nested where the schema allows anything (``Any``)."""
    if "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        return min((undescribed_keys(value, b, root, path) for b in branches), key=len)
    if isinstance(value, list):
        items = schema.get("prefixItems") or [schema.get("items", {})] * len(value)
        return [
            p
            for i, (v, s) in enumerate(zip(value, items))
            for p in undescribed_keys(v, s, root, f"{path}[{i}]")
        ]
    if not isinstance(value, dict):
        return []
    props = schema.get("properties")
    if props is not None:
        out: list[str] = []
        for k, v in value.items():
            where = f"{path}.{k}"
            out += undescribed_keys(v, props[k], root, where) if k in props else [where]
        return out
    each = schema.get("additionalProperties")
    if isinstance(each, dict) and schema.get("type") == "object":
        return [p for k, v in value.items() for p in undescribed_keys(v, each, root, f"{path}[{k!r}]")]
    return [f"{path}.{k}" for k in value]


def words_import_no_rich(cls: type[State]) -> None:
    """Loading the game's ``words`` part (what a server imports) loads no ``rich``."""
    _typed_view(cls)
    if not has_part(cls, "words"):
        raise Skipped(f"{cls.info.name} declares no words part")
    code = (
        "import importlib, sys, kiti.games\n"
        f"importlib.import_module({cls.__module__!r})\n"
        "from kiti.core.registry import game_part, get_game\n"
        f"game_part(get_game({cls.info.id!r}), 'words')\n"
        "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] == 'rich')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"loading the words part failed: {done.stderr[-400:]}"
    assert not done.stdout.strip(), f"the words part of {cls.info.id} loads {done.stdout.split()[:3]}"
