"""MOTU's encoder keeps an island's grid with the island (issue 19 item 10): the grids of
games played go when their states go, so a long run through the AEC env holds a bounded
number of them (no cache growing across games for the garbage collector to walk), and the
env's observations stay the encoder's own from scratch."""

from __future__ import annotations

import gc
import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

from kiti.games.motu import tensors as motu_tensors  # noqa: E402
from kiti.rl.pettingzoo import env as aec_env  # noqa: E402


def _live_grids() -> int:
    gc.collect()
    return sum(type(o) is motu_tensors._Grid for o in gc.get_objects())


def test_island_grids_go_with_their_games() -> None:
    before = _live_grids()  # (other tests' states may hold some)
    env = aec_env("motu", 2)
    rng = random.Random(5)
    fresh = type(env.table.encoder)(env.table.game)  # no grid kept from any earlier game
    checked = 0
    for seed in range(24):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if rng.random() < 0.1:
                seat = env.table.seat[agent]
                assert np.array_equal(obs["observation"], fresh.observation(env.state, seat))
                checked += 1
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
    assert checked > 20
    # 24 games made some 430 island grids; what is left: the last game's islands' and the
    # ones each encoder keeps for new islands to grow from (a bounded number), not one per
    # island ever seen
    encoders = (env.table.encoder, fresh)
    assert all(len(e._lineage) <= motu_tensors._LINEAGE for e in encoders)
    assert _live_grids() - before <= sum(len(e._lineage) for e in encoders) + 8
