"""The AEC env's fast paths keep its promises: a simultaneous choice applied at once (the
core's unchecked path) plays the very game that applying each seat's action in seat order
plays; a mask its owner writes into changes nothing the env accepts; ``agent_iter`` stops
as PettingZoo's does; and every observation is a new array of its own."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

import kiti  # noqa: E402
from kiti.rl.pettingzoo import env as aec_env  # noqa: E402
from kiti.rl.spaces import IllegalActionError  # noqa: E402

CHOICES = [
    ("miaui", 3, {}),
    ("miaui", 5, {"no_fighting": True, "taker_chooses_order": True}),
    ("mauw", 4, {"teams": True, "kiwi": 4, "ninox": 4}),
]


@pytest.mark.parametrize(("game_id", "players", "options"), CHOICES)
def test_the_env_plays_the_game_that_one_move_at_a_time_plays(
    game_id: str, players: int, options: dict
) -> None:
    env = aec_env(game_id, players, options)
    game = kiti.load(game_id, players=players, **options)
    rng = random.Random(players)
    for seed in range(6):
        env.reset(seed=seed)
        asked: list[tuple[int, int]] = []
        for agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            asked.append((env.table.seat[agent], action))
            env.step(action)
        one_by_one = game.new_state(seed)
        for seat, action in asked:  # a choice's seats were asked lowest first: seat order
            one_by_one.step(seat, action)
        assert one_by_one.history == env.state.history, f"{game_id} seed {seed}"
        assert one_by_one.log == env.state.log, f"{game_id} seed {seed}"
        assert one_by_one.returns() == env.state.returns()


def test_a_mask_written_by_its_owner_changes_nothing() -> None:
    env = aec_env("miaui", 4)
    env.reset(seed=2)
    obs, *_ = env.last()
    mask = obs["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    mask[:] = 1  # the learner's own array: it may write it
    with pytest.raises(IllegalActionError, match="may not play"):
        env.step(illegal)
    assert not env.state.history and env.agent_selection == "player_0"
    assert env.last()[0]["action_mask"][illegal] == 0, "a fresh mask holds the rules' legal actions"


def test_agent_iter_stops_after_max_iter_and_at_the_end() -> None:
    env = aec_env("mauw", 2)
    env.reset(seed=1)
    agents = env.agent_iter(max_iter=3)
    seen = []
    for agent in agents:
        seen.append(agent)
        legal = np.flatnonzero(env.last()[0]["action_mask"])
        env.step(int(legal[0]))
    assert len(seen) == 3 and len(env.state.history) == 3
    assert next(iter(agents)) == env.agent_selection, "iterable again, as PettingZoo's"
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert not env.agents and list(env.agent_iter()) == []


@pytest.mark.parametrize(("game_id", "players"), [("miaui", 4), ("mauw", 4)])
def test_every_observation_is_a_new_array_of_its_own(game_id: str, players: int) -> None:
    env = aec_env(game_id, players)
    env.reset(seed=5)
    encoder = env.table.encoder
    kept: list[np.ndarray] = []
    for _ in range(2 * players):
        obs = env.last()[0]
        array = obs["observation"]
        assert array.dtype == np.float32 and array.flags.writeable and array.flags.owndata
        assert not any(np.shares_memory(array, old) for old in kept)
        seat = env.table.seat[env.agent_selection]
        assert np.array_equal(array, encoder.observation(env.state, seat))
        kept.append(array)
        array[:] = -9.0  # the learner's own: writing it changes nothing the env hands out next
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
