"""Issue 19 item 10 (MOTU's AEC speed): the encoder's shortcuts give the rules' own values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from motu_helpers import random_games

from kiti.core.load import load
from kiti.games.motu.sources import source_points
from kiti.games.motu.tensors import _NOT_COCONUT, MotuEncoder
from kiti.rl.spaces import Actions
from kiti.rl.tensors import encoder_for


def _encoder(players: int) -> MotuEncoder:
    encoder = encoder_for(load("motu", players=players))
    assert isinstance(encoder, MotuEncoder)
    return encoder


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_source_values_are_source_points_over_random_games(players: int) -> None:
    """MotuEncoder._source_values (the symbol counts read once for every Source) equals
    :func:`.sources.source_points` Source by Source, for every seat at every state of random
    games (Travelers played, the solo totem rule)."""
    encoder = _encoder(players)
    played = 0
    for states in random_games(players, 4, seed=19 + players):
        for state in states:
            for s in range(players):
                want = [
                    float(source_points(src, state.islands[s], state.extra(s), 0, state.totem_rule))
                    for src in _NOT_COCONUT
                ]
                assert encoder._source_values(state, s) == want
                played += state.played[s]
    assert played or players == 1, "a Traveler's symbols were counted"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_equal_legal_keys_mean_equal_legal_actions(players: int) -> None:
    """MotuEncoder.legal_key: states of random games with one key have one set of legal
    actions (the rules'), and the env's mask by it is the rules' legal actions."""
    encoder = _encoder(players)
    hooks: list[Any] = [encoder.legal_actions, encoder.write_legal, encoder.legal_key]
    actions = Actions(encoder.game, *hooks)
    by_key: dict[object, tuple[int, ...]] = {}
    keyed = 0
    for states in random_games(players, 12, seed=7 + players):
        for state in states:
            for seat in range(players):
                key = encoder.legal_key(state, seat)
                legal = tuple(state.legal_actions(seat)) if seat in state.acting else ()
                if key is not None:
                    keyed += 1
                    assert by_key.setdefault(key, legal) == legal, key
                mask = actions.legal_mask(state, seat)[1]
                want = legal if seat in state.acting or state.over else (actions.noop,)
                assert tuple(np.flatnonzero(mask).tolist()) == want
    assert keyed > 50 and len(by_key) > 5
