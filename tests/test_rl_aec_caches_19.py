"""The AEC env's fast paths change no value: through whole random games, every agent's
observation equals a fresh encoder's (no cache of any kind warmed), and every mask holds
exactly the rules' legal actions, for every game with tensors (Mauw's kept column blocks
and turn plays included, with and without teams, Kiwi, Ninox and Tuatura)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

from kiti.rl.pettingzoo import env as aec_env  # noqa: E402

GAMES = [
    ("miaui", 4, {}, 12),
    ("miaui", 5, {"no_fighting": True, "open_baskets": True}, 8),
    ("mauw", 4, {}, 6),
    ("mauw", 3, {"kiwi": 4, "ninox": 4, "tuatura": 4}, 4),
    ("mauw", 4, {"teams": True, "kiwi": 4, "tuatura": 4, "open_slot_block": True, "ties": "nines"}, 4),
    ("motu", 2, {}, 2),
    ("motu", 4, {}, 1),
]


@pytest.mark.parametrize(("game_id", "players", "options", "games"), GAMES)
def test_env_observations_and_masks_equal_fresh_ones(
    game_id: str, players: int, options: dict, games: int
) -> None:
    env = aec_env(game_id, players, options)
    fresh_encoder = type(env.table.encoder)
    size = env.table.actions.size
    rng = random.Random(players)
    for game in range(games):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.table.seat[agent]
            state = env.state
            where = f"{game_id} game {game} seat {seat} after {len(state.history)} moves"
            fresh = fresh_encoder(env.table.game).observation(state, seat)
            assert np.array_equal(obs["observation"], fresh), where
            mask = np.zeros(size, np.int8)
            mask[state.legal_actions(seat) if seat in state.acting else [size - 1]] = 1
            assert np.array_equal(obs["action_mask"], mask), where
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
