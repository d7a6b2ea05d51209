"""The typed contract between a game and everything that reads it.

A game declares, in one module of its package (``kiti/games/<id>/view.py``):

- its **view**: frozen dataclasses (the table as one viewer sees it, with the *rule facts*
  front ends need: what a depth takes, a card's cost, what a column accepts), built by its
  one ``_view(viewer)``;
- its **events**: one small frozen dataclass per event kind, each with a ``kind`` class
  attribute; the game logs them by keyword through the functions :func:`emitters` generates.

From the same declarations this module makes the JSON a front end receives
(:func:`to_json`, the one place views become JSON data, and :func:`dumps`, the one place
they become JSON text) and a JSON Schema
(:func:`json_schema`, served at ``/api/games/{id}/schema`` and checked against real views
and events by the conformance suite).  A field declared ``field(metadata={"doc": ...})``
gets that text as its schema ``description`` (a plain ``dataclasses.field``, which type
checkers understand).

Types understood: ``int``, ``float``, ``str``, ``bool``, ``None``, ``Literal[...]``,
unions (``X | None``), ``tuple[X, ...]``, ``tuple[X, Y]``, ``list[X]``, ``dict[str, X]``,
``Any`` and nested dataclasses.  :data:`Hidden` is the ``"?"`` that stands for a card the
viewer may not see.
"""

from __future__ import annotations

import dataclasses
import json
import keyword
import types
import typing
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Literal, Union

_orjson: types.ModuleType | None
try:  # a fast encoder of dataclasses, in the [server] extra; without it, the standard library
    import orjson as _orjson
except ImportError:  # pragma: no cover - the tests install it
    _orjson = None

Hidden = Literal["?"]  #: a card (or choice) the viewer may not see
HIDDEN: Hidden = "?"

JSON = Any


class ContractError(TypeError):
    """A declaration the contract cannot describe, or an event that does not match its kind."""


# ---------------------------------------------------------------- JSON
@cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


_PLAIN = frozenset({int, str, float, bool, type(None)})  # JSON as they are
_CONVERT: dict[type, Any] = {}  # a converter per type met (see _converter)


def to_json(value: Any) -> JSON:
    """``value`` as JSON-ready data: a dataclass becomes an object of its fields (in their
    declared order), tuples and lists become lists, mappings objects with string keys."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    convert = _CONVERT.get(kind)
    if convert is None:
        convert = _CONVERT[kind] = _converter(kind)
    return convert(value)


def dumps(value: Any) -> str:
    """``value`` (views, events, messages holding them) as compact JSON text: the text of
    ``to_json(value)``.  With ``orjson`` installed it encodes the dataclasses directly (a
    server encodes a view for every viewer after every move: several times faster than
    converting then encoding); the conformance suite checks both give the same JSON."""
    if _orjson is not None:
        text: str = _orjson.dumps(value, option=_orjson.OPT_NON_STR_KEYS).decode()
        return text
    return json.dumps(to_json(value), separators=(",", ":"), allow_nan=False)


def _converter(kind: type) -> Any:
    """How to turn a value of ``kind`` into JSON, made once per type (views are turned into
    JSON for every message a server sends: plain values inside are not converted again)."""
    plain = _PLAIN
    if dataclasses.is_dataclass(kind):
        names = _names(kind)

        def record(value: Any) -> dict[str, Any]:
            out = {}
            for name in names:
                item = getattr(value, name)
                out[name] = item if type(item) in plain else to_json(item)
            return out

        return record
    if issubclass(kind, (tuple, list)):
        return lambda value: [item if type(item) in plain else to_json(item) for item in value]
    if issubclass(kind, Mapping):
        return lambda value: {
            str(k): item if type(item) in plain else to_json(item) for k, item in value.items()
        }
    return lambda value: value


# -------------------------------------------------------------- schema
def json_schema(root: type, title: str = "") -> dict[str, Any]:
    """A JSON Schema (draft 2020-12) for the dataclass ``root`` and what it holds."""
    defs: dict[str, Any] = {}
    body = _schema(root, defs)
    out: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if title:
        out["title"] = title
    return {**out, **body, "$defs": defs}


def events_schema(kinds: Mapping[str, type], title: str = "") -> dict[str, Any]:
    """A JSON Schema for one event (as a viewer receives it): one of the declared kinds, each
    an object with ``type`` set to the kind and the kind's fields (``to`` and referee-only
    fields appear in the referee's copy only, so they are allowed but not required)."""
    defs: dict[str, Any] = {}
    options = []
    for kind, cls in kinds.items():
        body = _object(cls, defs)
        props = {
            "type": {"const": kind},
            **body["properties"],
            "to": {"type": "array", "items": {"type": "integer"}},
        }
        for name, tp in _referee_fields(cls).items():
            props[name] = _schema(tp, defs)
        options.append(
            {
                "type": "object",
                "properties": props,
                "required": ["type", *body["required"]],
                "additionalProperties": False,
                **({"description": body["description"]} if "description" in body else {}),
            }
        )
    out: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema"}
    if title:
        out["title"] = title
    return {**out, "oneOf": options, "$defs": defs}


def _referee_fields(cls: type) -> dict[str, Any]:
    """An event kind's ``referee`` class attribute: {field: type} only the referee sees."""
    return dict(getattr(cls, "referee", {}) or {})


def _schema(tp: Any, defs: dict[str, Any]) -> dict[str, Any]:
    if tp is Any or tp is object:
        return {}
    if tp is None or tp is type(None):
        return {"type": "null"}
    if tp is bool:
        return {"type": "boolean"}
    if tp is int:
        return {"type": "integer"}
    if tp is float:
        return {"type": "number"}
    if tp is str:
        return {"type": "string"}
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # a placeholder first: recursive types end here
            defs[tp.__name__] = _object(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Literal:
        return {"enum": list(args)}
    if origin is Union or origin is types.UnionType:
        return {"anyOf": [_schema(a, defs) for a in args]}
    if origin in (tuple,):
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": _schema(args[0], defs)}
        return {
            "type": "array",
            "prefixItems": [_schema(a, defs) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin in (list, Sequence, typing.Sequence):
        return {"type": "array", "items": _schema(args[0], defs) if args else {}}
    if origin in (dict, Mapping, typing.Mapping):
        if args and args[0] not in (str, int):
            raise ContractError(f"object keys must be strings or ints, not {args[0]!r}")
        return {"type": "object", "additionalProperties": _schema(args[1], defs) if args else {}}
    raise ContractError(f"the contract cannot describe the type {tp!r}")


def _object(cls: type, defs: dict[str, Any]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        schema = _schema(hints[f.name], defs)
        doc = f.metadata.get("doc")
        props[f.name] = {**schema, "description": doc} if doc else schema
    out: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }
    if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
        out["description"] = " ".join(cls.__doc__.split())
    return out


# -------------------------------------------------------------- events
def declare_events(*kinds: type) -> dict[str, type]:
    """The event kinds of a game, by kind name: each a frozen dataclass whose ``kind`` class
    attribute names it (and whose optional ``referee`` class attribute, {field: type}, names
    the fields only the referee sees)."""
    out: dict[str, type] = {}
    for cls in kinds:
        kind = getattr(cls, "kind", None)
        if not isinstance(kind, str) or not dataclasses.is_dataclass(cls):
            raise ContractError(f"{cls!r} is not an event kind (a dataclass with a 'kind' name)")
        if kind in out:
            raise ContractError(f"two event kinds are named {kind!r}")
        out[kind] = cls
    return out


def event_fields(kinds: Mapping[str, type]) -> dict[str, tuple[str, ...]]:
    """Each kind's field names, in the order of a log entry's ``args``."""
    return {kind: _names(cls) for kind, cls in kinds.items()}


def game_schema(
    game_id: str, version: str, view_type: type | None, event_types: Mapping[str, type]
) -> dict[str, Any]:
    """A game's whole contract as JSON Schemas: its view and one event (``/api/games/{id}/schema``)."""
    return {
        "game": game_id,
        "version": version,
        "view": None if view_type is None else json_schema(view_type, f"{game_id} view"),
        "event": events_schema(event_types, f"{game_id} event") if event_types else None,
    }


def emitters(kinds: Mapping[str, type]) -> Any:
    """One fast logging function per event kind, generated from the declarations: ``EMIT =
    emitters(EVENT_TYPES)`` then ``EMIT.take(self.log, EVERYONE, round=r, seat=s, card=c)``
    (``referee=`` optional: the referee-only ``(field, value)`` pairs).  Each function takes
    exactly its kind's fields, by keyword only, so a misspelt or missing field is a TypeError
    at the call; it appends the compact log entry (:mod:`kiti.core.events`) and nothing else,
    at about the cost of one Python call (games log tens of events per game)."""
    space: dict[str, Any] = {}
    out: dict[str, Any] = {}
    for kind, names in event_fields(kinds).items():
        func = kind + "_" if keyword.iskeyword(kind) else kind  # "pass" is called as EMIT.pass_
        for name in (func, *names):
            if not name.isidentifier() or keyword.iskeyword(name) or name in ("log", "to", "referee"):
                raise ContractError(f"event {kind!r}: {name!r} cannot be a parameter name")
        params = "".join(f", {n}" for n in names)
        args = "".join(f"{n}, " for n in names)
        source = (
            f"def {func}(log, to, *{params}, referee=None):\n"
            f"    log.append((to, {kind!r}, ({args}), referee))\n"
        )
        exec(source, space)  # the declaration's own names: checked identifiers above
        out[func] = space[func]
    return types.SimpleNamespace(**out)
