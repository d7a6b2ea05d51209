"""The typed contract holds for every game: its views and events, as a viewer receives them,
match the JSON Schema generated from the game's declarations (``kiti.core.contract``)."""

from __future__ import annotations

import random

import pytest
from conformance_kit import case_id, cases

from kiti.core.contract import events_schema, json_schema
from kiti.core.events import REFEREE
from kiti.core.registry import game_ids, get_game

jsonschema = pytest.importorskip("jsonschema")

CASES = cases()
PARAMS = pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])


def test_every_game_declares_its_view_and_events() -> None:
    for game in game_ids():
        info = get_game(game).info
        assert info.view_type is not None, f"{game} declares no typed view"
        assert info.event_types, f"{game} declares no event kinds"
        assert set(info.event_types) == set(info.events), game


@PARAMS
def test_views_and_events_match_the_declared_schema(case) -> None:  # type: ignore[no-untyped-def]
    game, players, options = case
    cls = get_game(game)
    if cls.info.view_type is None:
        pytest.skip(f"{game} has no typed view yet")
    views = jsonschema.Draft202012Validator(json_schema(cls.info.view_type))
    events = jsonschema.Draft202012Validator(events_schema(cls.info.event_types))
    state = cls.new(players, options, 5)
    rng = random.Random(11)
    viewers = [*range(players), None, REFEREE]
    checked = 0
    while True:
        if checked % 7 == 0 or state.over:
            for viewer in viewers:
                view = state.observation(viewer) if viewer != REFEREE else state.table()
                assert not list(views.iter_errors(view)), (viewer, next(views.iter_errors(view)).message)
                for event in state.events(viewer):
                    problem = next(events.iter_errors(event), None)
                    assert problem is None, (viewer, event, problem and problem.message)
        if state.over:
            break
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
        checked += 1
