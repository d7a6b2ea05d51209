"""The AEC env's own ``_was_dead_step`` (what ``step(None)`` does for a done agent, cheaper
than PettingZoo's) leaves the env exactly as PettingZoo's does, dead step after dead step,
for every way an episode ends: the game's end, the move limit (``max_cycles``) and an
illegal action under ``illegal="penalty"``."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="kiti.rl needs numpy (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="the PettingZoo env needs pettingzoo")

from pettingzoo import AECEnv  # type: ignore[import-untyped]  # noqa: E402

from kiti.rl.pettingzoo import KitiAEC  # noqa: E402


class PettingZoosDeadStep(KitiAEC):
    """The env with PettingZoo's own dead step (the reference)."""

    def _was_dead_step(self, action: object) -> None:
        AECEnv._was_dead_step(self, action)


def _seen(env: KitiAEC) -> tuple[object, ...]:
    return (
        env.agent_selection,
        list(env.agents),
        dict(env.terminations),
        dict(env.truncations),
        dict(env.rewards),
        dict(env._cumulative_rewards),
        {a: dict(i) for a, i in env.infos.items()},
        env._skip_agent_selection,
    )


def _play_to_the_end(env: KitiAEC, seed: int, illegal_at: int | None) -> int:
    """Random legal actions (an illegal one at step ``illegal_at``) until every agent is done;
    how many dead steps it took to empty the env."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    while not env._done:
        obs, _reward, _terminated, _truncated, _info = env.last()
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        if steps == illegal_at:
            action = int(np.flatnonzero(obs["action_mask"] == 0)[0])
        env.step(action)
        steps += 1
    return steps


@pytest.mark.parametrize(
    ("game_id", "players", "kwargs", "illegal_at"),
    [
        ("miaui", 4, {}, None),
        ("mauw", 2, {}, None),
        ("motu", 2, {}, None),
        ("miaui", 3, {"max_cycles": 3}, None),
        ("mauw", 4, {"illegal": "penalty"}, 5),
    ],
)
def test_dead_steps_leave_the_env_as_pettingzoos_do(
    game_id: str, players: int, kwargs: dict[str, Any], illegal_at: int | None
) -> None:
    ours = KitiAEC(game_id, players, **kwargs)
    theirs = PettingZoosDeadStep(game_id, players, **kwargs)
    for seed in range(3):
        _play_to_the_end(ours, seed, illegal_at)
        _play_to_the_end(theirs, seed, illegal_at)
        assert _seen(ours) == _seen(theirs)
        assert len(ours.agents) == players  # premise: every agent is still there, done
        dead_steps = 0
        for agent in ours.agent_iter():
            assert agent == next(iter(theirs.agent_iter()))
            ours.step(None)
            theirs.step(None)
            dead_steps += 1
            assert _seen(ours) == _seen(theirs), dead_steps
        assert dead_steps == players and not theirs.agents


def test_a_dead_agent_may_only_send_none() -> None:
    env = KitiAEC("miaui", 3)
    _play_to_the_end(env, 1, None)
    before = _seen(env)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    assert _seen(env) == before
