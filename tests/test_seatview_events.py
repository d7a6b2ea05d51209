"""A bot's ``SeatView.events`` is exactly the seat's events of its information state."""

from __future__ import annotations

import random

import pytest

from kiti.core.seatview import seat_view
from kiti.games import get_game


@pytest.mark.parametrize("game", ["miaui", "mauw", "motu"])
def test_seat_view_events_are_the_information_states(game: str) -> None:
    cls = get_game(game)
    rng = random.Random(7)
    state = cls.new(3, {}, 11)
    checked = 0
    while not state.over and checked < 40:
        seat = min(state.to_act())
        view = seat_view(state, seat)
        assert view.events == view.info["events"] == state.events(seat)
        checked += 1
        state.apply(seat, rng.choice(state.legal_moves(seat)))
    assert checked >= 10, "the premise: a game long enough to have events"
