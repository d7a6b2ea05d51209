"""The Gymnasium face (kiti.rl.gym): Gymnasium's own env checker on every game with a tensors
part, then one seat against bots: seeding, rewards, secret choices, opponents, errors, and
the example of docs/rl.md."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="kiti.rl needs the [rl] extra (pip install -e '.[rl]')")
pytest.importorskip("gymnasium", reason="kiti.rl.gym needs the [rl] extra (pip install -e '.[rl]')")
pytest.importorskip("pettingzoo", reason="kiti.rl's envs need the [rl] extra (pip install -e '.[rl]')")

import numpy as np
from gymnasium.utils.env_checker import check_env

from kiti.core.errors import KitiError
from kiti.core.registry import game_ids, get_game, has_part
from kiti.rl import gym as kgym

GAMES = [g for g in game_ids() if has_part(get_game(g), "tensors")]


def _play(env: kgym.KitiGym, seed: int) -> tuple[float, int]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        obs, reward, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if term or trunc:
            return reward, steps


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker(game: str) -> None:
    players = get_game(game).info.min_seats + 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # advice for other kinds of envs
        check_env(kgym.make(game, players, illegal="random", seat=players - 1), skip_render_check=True)


def test_one_seat_against_bots_to_the_end() -> None:
    env = kgym.make("mauw", 4, {"teams": True}, opponents=["heuristic", "random", "random"], seat=1)
    reward, steps = _play(env, seed=3)
    state = env.state
    assert state.over and steps == sum(1 for s, _ in state.history if s == 1)
    assert reward == state.returns()[1], "the reward is the seat's share of the victory"
    assert [type(env.bots[s]).__name__ for s in (0, 2, 3)] == ["HeuristicBot", "RandomBot", "RandomBot"]


def test_reset_seeds_the_game_and_the_bots() -> None:
    a = kgym.make("miaui", 4, opponents="heuristic")
    b = kgym.make("miaui", 4, opponents="heuristic")
    _play(a, 11)
    _play(b, 11)
    assert a.state.record() == b.state.record() and a.state.seed == 11


def test_the_agent_chooses_before_seeing_the_bots_secret_choices() -> None:
    env = kgym.make("miaui", 3, opponents="random", seat=2)
    obs, _ = env.reset(seed=1)
    assert env.state.to_act() == {0, 1, 2} and not env.state.history, "the bots' dives are held"
    committed = env.table.encoder.observation_layout.view(obs["observation"], "committed")
    assert not committed.any(), "nobody shows as having chosen"
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert [s for s, _ in env.state.history[:3]] == [0, 1, 2], "applied together, in seat order"


def test_bad_arguments_are_named() -> None:
    with pytest.raises(KitiError, match="unknown bot 'nobot'"):
        kgym.make("miaui", 4, opponents="nobot")
    with pytest.raises(KitiError, match="opponents lists 2 bots for the 3 other seats"):
        kgym.make("miaui", 4, opponents=["random", "random"])
    with pytest.raises(KitiError, match=r"seat must be a seat of this 4-player game \(0-3\), not 4"):
        kgym.make("miaui", 4, seat=4)
    env = kgym.make("miaui", 4)
    env.reset(seed=0)
    with pytest.raises(KitiError, match="seat 0 may not play action 12 \\(NOOP\\)"):
        env.step(12)


def test_the_docs_example_runs() -> None:
    text = (Path(__file__).parent.parent / "docs" / "rl.md").read_text()
    section = text.split("## PettingZoo and Gymnasium", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    example = next(b for b in blocks if "kiti.rl.gym" in b and "kiti.rl.pettingzoo" in b)
    exec(compile(example, "docs/rl.md", "exec"), {})


def test_an_illegal_action_under_penalty_ends_the_episode_and_refuses_more_steps() -> None:
    env = kgym.make("miaui", players=3, opponents="random", illegal="penalty", penalty=-2.0)
    obs, _ = env.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    history = len(env.state.history)
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False) and info["illegal_action"] == illegal
    assert len(env.state.history) == history  # the game was left as it was
    with pytest.raises(KitiError, match="episode is over"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    obs, _ = env.reset(seed=5)  # a new episode takes steps again
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
