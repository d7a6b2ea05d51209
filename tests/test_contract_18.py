"""The typed contract's machinery (kiti.core.contract): JSON from typed views, JSON Schemas
from their declarations, events given by keyword and checked against their kind."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

import pytest

from kiti.core.contract import (
    HIDDEN,
    ContractError,
    Hidden,
    declare_events,
    emitters,
    event_fields,
    events_schema,
    json_schema,
    to_json,
)

jsonschema = pytest.importorskip("jsonschema")


@dataclass(frozen=True)
class Depth:
    """What one depth takes."""

    takes: Literal["first", "last"] = field(metadata={"doc": "which card of the depth a winner takes"})
    ties: Literal["clockwise", "counterclockwise"] = field(metadata={"doc": "the tie direction"})


@dataclass(frozen=True)
class View:
    viewer: int | None
    hand: tuple[int | Hidden, ...]
    depths: tuple[Depth, ...]
    score: dict[str, float]
    pair: tuple[int, str]


VIEW = View(
    viewer=1, hand=(3, HIDDEN), depths=(Depth("first", "clockwise"),), score={"0": 1.5}, pair=(1, "a")
)


def test_a_typed_view_becomes_the_json_its_schema_describes() -> None:
    data = to_json(VIEW)
    assert data == {
        "viewer": 1,
        "hand": [3, "?"],
        "depths": [{"takes": "first", "ties": "clockwise"}],
        "score": {"0": 1.5},
        "pair": [1, "a"],
    }
    schema = json_schema(View, "test view")
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema)
    assert schema["$defs"]["Depth"]["properties"]["ties"]["description"] == "the tie direction"
    for bad in (
        {**data, "hand": [3, "!"]},
        {**data, "extra": 1},
        {**data, "pair": [1, "a", 2]},
        {k: v for k, v in data.items() if k != "viewer"},
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)


@dataclass(frozen=True)
class Catch:
    kind: ClassVar[str] = "catch"
    referee: ClassVar[dict[str, type]] = {"card": str}
    round: int
    seat: int


def test_events_are_declared_given_by_keyword_and_checked() -> None:
    kinds = declare_events(Catch)
    fields = event_fields(kinds)
    assert fields == {"catch": ("round", "seat")}
    emit, log = emitters(kinds), []
    emit.catch(log, -1, seat=2, round=1)
    assert log == [(-1, "catch", (1, 2), None)]  # stored in the declared order
    with pytest.raises(TypeError, match="missing"):
        emit.catch(log, -1, round=1)
    with pytest.raises(TypeError, match="unexpected"):
        emit.catch(log, -1, round=1, seat=2, sea=3)
    with pytest.raises(AttributeError):
        emit.cath(log, -1)
    assert len(log) == 1  # a refused event logs nothing
    schema = events_schema(kinds)
    jsonschema.validate({"type": "catch", "round": 1, "seat": 2}, schema)
    jsonschema.validate({"type": "catch", "round": 1, "seat": 2, "card": "T9", "to": [2]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"type": "catch", "round": 1}, schema)
    with pytest.raises(ContractError):
        declare_events(Catch, Catch)
