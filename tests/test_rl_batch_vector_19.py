"""The batch simulator behind the vector env's API (``make(..., backend="batch")``): the same
arrays as the engine's vector env for the same seed and actions, and clear refusals."""

from __future__ import annotations

import numpy as np
import pytest

from kiti.core.errors import KitiError
from kiti.rl.spaces import IllegalActionError
from kiti.rl.vector import make

OPTION_SETS = [
    {},
    {"no_fighting": True},
    {"no_fighting": True, "taker_chooses_order": True},
    {"open_baskets": True, "kiti_start": 2},
    {"open_baskets": True, "no_fighting": True, "taker_chooses_order": True},
]
FIELDS = ("obs", "mask", "player", "rewards", "terminated", "truncated")


def _segment(layout, name):
    return next(s for s in layout if s.name == name)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_the_batch_gives_the_engines_arrays_step_for_step(players, options):
    engine = make("miaui", 12, players=players, options=options, seed=players, workers=0)
    batch = make("miaui", 12, players=players, options=options, seed=players, backend="batch")
    first = engine.reset(), batch.reset()
    for x, y in zip(*first):
        assert np.array_equal(x, y)
    lay = engine.observation_layout
    peeked = _segment(lay, "lagoon")
    seen = {"peek": 0, "pending": 0, "box": 0, "ended": 0}
    rng = np.random.default_rng(players)
    mask = first[0][1]
    for _ in range(260):
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        ours, theirs = engine.step(actions), batch.step(actions)
        for name, x, y in zip(FIELDS, ours, theirs):
            assert np.array_equal(x, y), f"{name} differs"
        assert np.array_equal(engine.seeds, batch.seeds)
        obs, mask = ours[0], ours[1]
        lagoon = obs[:, peeked.offset : peeked.stop].reshape(len(obs), -1, peeked.shape[-1])
        seen["peek"] += int(lagoon[..., -1].sum())
        pending = _segment(lay, "pending_seat")
        seen["pending"] += int(obs[:, pending.offset : pending.stop].sum())
        seen["box"] += int((obs[:, _segment(lay, "box").offset] > 0).sum())
        seen["ended"] += int(ours[4].sum())
    # the premise: the games reached Lantern peeks, the box and many ends (and, with
    # taker_chooses_order, catches being ordered)
    assert seen["peek"] and seen["box"] and seen["ended"] >= 12, seen
    if options.get("taker_chooses_order"):
        assert seen["pending"], seen


def test_the_batch_refuses_what_it_cannot_do():
    with pytest.raises(KitiError, match="no simulator for mauw"):
        make("mauw", 4, backend="batch")
    with pytest.raises(KitiError, match="'tensor' observation only"):
        make("miaui", 4, players=4, observation="info_state", backend="batch")
    with pytest.raises(KitiError, match="opponents must be None"):
        make("miaui", 4, players=4, opponents="random", backend="batch")
    with pytest.raises(KitiError, match="workers must be None or 0"):
        make("miaui", 4, players=4, workers=2, backend="batch")
    with pytest.raises(KitiError, match="backend must be one of engine, batch"):
        make("miaui", 4, players=4, backend="jax")


def test_an_illegal_action_names_the_env_and_plays_nothing():
    env = make("miaui", 3, players=4, seed=1, backend="batch")
    _obs, mask, _player = env.reset()
    with pytest.raises(KitiError, match="call reset"):
        make("miaui", 3, players=4, backend="batch").step(np.zeros(3, np.int64))
    actions = mask.argmax(1)
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="env 2: seat 0 may not play"):
        env.step(bad)
    after = env.step(actions)  # nothing was played: the same step goes through
    again = make("miaui", 3, players=4, seed=1, backend="batch")
    again.reset()
    for x, y in zip(after, again.step(actions)):
        assert np.array_equal(x, y)
