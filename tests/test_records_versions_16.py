"""Mauw's rules version 2 (the Kiwi's discard) and the records written by version 1."""

from __future__ import annotations

import random

import pytest

from kiti.core.errors import RecordError
from kiti.core.records import replay
from kiti.games import get_game


def mauw_record(options: dict[str, int], version: str) -> dict:
    state = get_game("mauw").new(3, options, 5)
    rng = random.Random(5)
    for _ in range(60):
        seat = min(state.to_act())
        state.apply(seat, state.random_move(seat, rng))
    return {**state.record(), "version": version}


def test_a_version_1_record_without_kiwis_still_replays() -> None:
    record = mauw_record({"kiwi": 0}, "1")
    assert get_game("mauw").info.version == "2"  # the premise: today's rules are version 2
    assert replay(record).record()["moves"] == record["moves"]


def test_a_version_1_record_with_kiwis_is_refused_saying_which_replay() -> None:
    with pytest.raises(RecordError, match=r"rules version '1'.*version 2.*without Kiwis"):
        replay(mauw_record({"kiwi": 2}, "1"))


@pytest.mark.parametrize(("game", "version"), [("miaui", "0"), ("motu", "2"), ("mauw", "3")])
def test_other_versions_are_refused(game: str, version: str) -> None:
    state = get_game(game).new(get_game(game).info.min_seats if game != "miaui" else 3, None, 1)
    with pytest.raises(RecordError, match="rules version"):
        replay({**state.record(), "version": version})
