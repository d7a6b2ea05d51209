"""The typed contract holds for every game (:mod:`kiti.testing.fronts`): its views and events,
as a viewer receives them, match the JSON Schema generated from the game's declarations
(``kiti.core.contract``); front ends need nothing beyond the view and the words part."""

from __future__ import annotations

import pytest
from conformance_kit import GAMES, PARAMS, run

from kiti.core.registry import game_ids, get_game
from kiti.testing import Case, fronts

pytest.importorskip("jsonschema")


def test_every_game_declares_its_view_and_events() -> None:
    for game in game_ids():
        info = get_game(game).info
        assert info.view_type is not None, f"{game} declares no typed view"
        assert info.event_types, f"{game} declares no event kinds"
        assert set(info.event_types) == set(info.events), game


@PARAMS
def test_views_and_events_match_the_declared_schema(case: Case) -> None:
    run(fronts.views_and_events_match_the_schema, case)


@PARAMS
def test_front_ends_restate_no_rule(case: Case) -> None:
    run(fronts.front_ends_restate_no_rule, case)


@GAMES
def test_the_words_part_loads_no_rich(game: str) -> None:
    run(fronts.words_import_no_rich, get_game(game))
