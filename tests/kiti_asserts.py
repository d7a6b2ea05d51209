"""Assertions shared by every game's tests."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kiti.core.errors import KitiError
from kiti.core.events import REFEREE
from kiti.core.game import State


def snapshot(state: State) -> str:
    """Everything a refused move must leave as it was: the table, every viewer's sight,
    the history and the generator."""
    return json.dumps(
        {
            "table": state.observation(REFEREE),
            "events": state.events("referee"),
            "sight": [state.information_state(v) for v in (*range(state.players), None)],
            "history": [[s, str(m)] for s, m in state.history],
            "to_act": sorted(state.to_act()),
            "over": state.over,
            "rng": state._rng.getstate(),
        },
        sort_keys=True,
        default=str,
    )


def assert_rejected(
    state: State, seat: Any, move: Any, *words: str, error: type[KitiError] = KitiError
) -> KitiError:
    """The move (a Move, or notation) is refused with ``error``, a reason naming ``words``,
    and nothing changes."""
    before = snapshot(state)
    with pytest.raises(error) as info:
        state.play(seat, move) if isinstance(move, str) else state.apply(seat, move)
    assert isinstance(info.value, KitiError)
    for w in words:
        assert w.lower() in str(info.value).lower(), (move, str(info.value))
    assert snapshot(state) == before, f"{move!r} by {seat!r} changed the state"
    return info.value
