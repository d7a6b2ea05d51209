"""Observations made from what the seats of one state share (Encoder.shared, which the
PettingZoo env passes once per state) are the very observations made without it, for every
seat of every state of random games of every game with tensors, into a buffer holding
anything; and the env hands each agent exactly that."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

import kiti  # noqa: E402
from kiti.rl.pettingzoo import env as aec_env  # noqa: E402
from kiti.rl.tensors import encoder_for  # noqa: E402

GAMES = [
    ("miaui", 3, {}),
    ("miaui", 6, {"open_baskets": True}),
    ("miaui", 4, {"no_fighting": True, "taker_chooses_order": True}),
    ("mauw", 4, {}),
    ("motu", 1, {}),
    ("motu", 2, {}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_shared_observations_equal_plain_ones(game_id: str, players: int, options: dict) -> None:
    game = kiti.load(game_id, players=players, **options)
    enc = encoder_for(game)
    rng = random.Random(players)
    for _ in range(3 if game_id == "motu" else 12):
        state = game.new_state(rng.randrange(1 << 30))
        while True:
            shared = enc.shared(state)
            for seat in range(players):
                plain = enc.observation(state, seat)
                junk = np.full(enc.observation_layout.size, 7.0, np.float32)
                assert np.array_equal(enc.observation(state, seat, junk, shared), plain), (
                    f"{game_id} seat {seat} after {len(state.history)} moves"
                )
            if state.over:
                break
            seat = rng.choice(sorted(state.acting))
            state.apply(seat, state.random_move(seat, rng))


@pytest.mark.parametrize(("game_id", "players", "options"), GAMES[:3])
def test_the_env_hands_each_agent_its_own_observation(game_id: str, players: int, options: dict) -> None:
    env = aec_env(game_id, players, options)
    enc = env.table.encoder
    rng = random.Random(1)
    for game in range(4):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            seat = env.table.seat[agent]
            assert np.array_equal(obs["observation"], enc.observation(env.state, seat))
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
