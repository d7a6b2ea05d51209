"""The vector env (kiti.rl.vector): batches of games with pgx's layout, checked against the
engine through the PettingZoo AEC env and the Gymnasium env, which play one game at a time
under the same turn rule: shapes, masks equal to the engine's legal actions, auto-reset with
each env's next seed, rewards equal to returns(), determinism whatever the number of workers,
illegal actions refused with nothing changed, worker errors naming their env, clean close."""

from __future__ import annotations

import gc
import os
import signal
import textwrap
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("numpy", reason="kiti.rl.vector needs the [rl] extra (pip install -e '.[rl]')")

import numpy as np

import kiti
from kiti.core.errors import KitiError
from kiti.rl import vector
from kiti.rl.spaces import IllegalActionError
from kiti.rl.tensors import encoder_for

#: (game, players, steps): each game's check runs long enough to see games end and restart.
RUNS = [("miaui", 3, 80), ("mauw", 2, 120), ("motu", 1, 60)]


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


def _batches(env: vector.VectorEnv, seed: int, steps: int) -> list[tuple[np.ndarray, ...]]:
    """Every batch of ``steps`` steps of a random masked policy seeded by ``seed``."""
    rng = np.random.default_rng(seed)
    out: list[tuple[np.ndarray, ...]] = [env.reset(seed)]
    for _ in range(steps):
        out.append(env.step(_random_actions(out[-1][1], rng)))
    return out


@pytest.mark.parametrize(("game", "players", "steps"), RUNS)
def test_batches_follow_the_engine_game_by_game(game: str, players: int, steps: int) -> None:
    """Each env plays the game the AEC env plays from the same seed and actions: the same seat
    asked, tensor and mask (the engine's legal actions); on the step it ends, the env's
    rewards are returns() and its row already shows its next game, seeded episode_seed(...)."""
    pytest.importorskip("pettingzoo", reason="the reference (kiti.rl.pettingzoo) needs pettingzoo")
    from kiti.rl import pettingzoo as kpz

    n, seed = 3, 11
    env = vector.make(game, n, players=players, workers=0)
    refs = [kpz.env(game, players) for _ in range(n)]
    episode = [0] * n
    for i, ref in enumerate(refs):
        ref.reset(seed=vector.episode_seed(seed, i, 0))
    obs, mask, player = env.reset(seed)
    assert obs.shape == (n, env.observation_size) and obs.dtype == np.float32
    assert mask.shape == (n, env.num_actions) and mask.dtype == np.int8
    assert env.num_actions == kiti.load(game, players=players).codec.size + 1 == env.noop + 1
    assert player.shape == (n,) and player.dtype == np.int32
    rng = np.random.default_rng(0)
    ended, paid = 0, 0.0
    for _ in range(steps):
        for i, ref in enumerate(refs):
            seat = int(player[i])
            assert ref.agent_selection == f"player_{seat}"
            seen = ref.observe(ref.agent_selection)
            assert np.array_equal(obs[i], seen["observation"])
            assert np.flatnonzero(mask[i]).tolist() == ref.state.legal_actions(seat)
            assert mask[i, env.noop] == 0
        actions = _random_actions(mask, rng)
        obs, mask, player, rewards, terminated, truncated = env.step(actions)
        assert rewards.shape == (n, players) and rewards.dtype == np.float32
        for i, ref in enumerate(refs):
            ref.step(int(actions[i]))
            over = ref.state.over
            assert (terminated[i] or truncated[i]) == over
            assert rewards[i].tolist() == (ref.state.returns() if over else [0.0] * players)
            if over:
                assert truncated[i] == ref.state.truncated
                paid += sum(ref.state.returns())
                episode[i] += 1
                ended += 1
                ref.reset(seed=vector.episode_seed(seed, i, episode[i]))
            assert env.seeds[i] == vector.episode_seed(seed, i, episode[i])
    assert ended, "no game ended: the run is too short to see auto-reset"
    assert paid > 0 or players == 1, "no game paid anyone: the rewards were not checked"
    env.close()


def test_info_state_batches_are_each_seats_tracker() -> None:
    pytest.importorskip("pettingzoo", reason="the reference (kiti.rl.pettingzoo) needs pettingzoo")
    from kiti.rl import pettingzoo as kpz

    env = vector.make("miaui", 2, players=3, observation="info_state", workers=0)
    assert env.observation_size == encoder_for("miaui", 3).info_state_layout.size
    refs = [kpz.env("miaui", 3, observation="info_state") for _ in range(2)]
    for i, ref in enumerate(refs):
        ref.reset(seed=vector.episode_seed(5, i, 0))
    obs, mask, player = env.reset(5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        for i, ref in enumerate(refs):
            assert np.array_equal(obs[i], ref.observe(f"player_{player[i]}")["observation"])
        actions = _random_actions(mask, rng)
        obs, mask, player, *_ = env.step(actions)
        for i, ref in enumerate(refs):
            ref.step(int(actions[i]))


def test_a_secret_choice_is_asked_seat_by_seat_and_applied_when_complete() -> None:
    """Miaui's dives: every seat is asked in turn, sees the table as it was before anyone
    chose, and the game moves on only once the last seat has chosen."""
    env = vector.make("miaui", 1, players=3, workers=0)
    obs, mask, player = env.reset(2)
    encoder = encoder_for("miaui", 3)
    start = kiti.load("miaui", players=3).new_state(int(env.seeds[0]))
    assert start.acting == frozenset({0, 1, 2})
    for seat in (0, 1, 2):
        assert player[0] == seat
        assert np.array_equal(obs[0], encoder.observation(start, seat))
        obs, mask, player, *_ = env.step(np.flatnonzero(mask[0])[:1])
    assert not np.array_equal(obs[0], encoder.observation(start, int(player[0])))


def test_the_same_seed_gives_the_same_batches_whatever_the_workers() -> None:
    here = vector.make("mauw", 4, players=2, workers=0)
    again = vector.make("mauw", 4, players=2, workers=0)
    first, second = _batches(here, 3, 25), _batches(again, 3, 25)
    other = _batches(again, 4, 25)
    with vector.make("mauw", 4, players=2, workers=2) as spread:
        assert spread.workers == 2
        third = _batches(spread, 3, 25)
        processes = list(spread._processes)
        assert all(p.is_alive() for p in processes)
    for a, b, c in zip(first, second, third):
        for x, y, z in zip(a, b, c):
            assert np.array_equal(x, y) and np.array_equal(x, z)
    assert not np.array_equal(first[0][0], other[0][0]), "another seed played the same games"
    assert [p.exitcode for p in processes] == [0, 0], "workers were not stopped cleanly"
    with pytest.raises(KitiError, match="closed"):
        spread.step(np.zeros(4, np.int64))


def test_reset_without_a_seed_replays_from_the_first_seed() -> None:
    env = vector.make("miaui", 2, players=3, seed=9, workers=0)
    first = env.reset()
    assert env.seed == 9
    second = env.reset()
    assert env.seed != 9
    env.reset(9)
    assert np.array_equal(env.reset()[0], second[0])
    assert np.array_equal(vector.make("miaui", 2, players=3, workers=0).reset(9)[0], first[0])


def test_an_illegal_action_is_refused_naming_its_env_and_changes_nothing() -> None:
    env = vector.make("mauw", 3, players=2, workers=0)
    _, mask, player = env.reset(1)
    good = _random_actions(mask, np.random.default_rng(0))
    bad = good.copy()
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(IllegalActionError, match=rf"env 2: seat {player[2]} may not play action {bad[2]} "):
        env.step(bad)
    bad[2] = env.num_actions
    with pytest.raises(IllegalActionError, match=r"env 2: .* no action"):
        env.step(bad)
    with pytest.raises(IllegalActionError, match="3 integers"):
        env.step(good[:2])
    after = env.step(good)
    fresh = vector.make("mauw", 3, players=2, workers=0)
    fresh.reset(1)
    for x, y in zip(after, fresh.step(good)):
        assert np.array_equal(x, y)


def test_opponents_play_inside_the_step_as_in_the_gymnasium_env() -> None:
    """With bots at the other seats only ``seat`` is asked; each env plays what kiti.rl.gym
    plays from the same game seed and actions, rewards included."""
    pytest.importorskip("pettingzoo", reason="the reference (kiti.rl.gym) needs gymnasium and pettingzoo")
    pytest.importorskip("gymnasium", reason="the reference (kiti.rl.gym) needs gymnasium and pettingzoo")
    from kiti.rl import gym as kgym

    env = vector.make("miaui", 2, players=3, opponents="random", seat=1, workers=0)
    refs = [kgym.make("miaui", 3, opponents="random", seat=1) for _ in range(2)]
    obs, mask, player = env.reset(4)
    seen = [ref.reset(seed=int(s))[0] for ref, s in zip(refs, env.seeds)]
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(30):
        assert player.tolist() == [1, 1]
        for i in range(2):
            assert np.array_equal(obs[i], seen[i]["observation"])
            assert np.array_equal(mask[i], seen[i]["action_mask"])
        actions = _random_actions(mask, rng)
        obs, mask, player, rewards, terminated, truncated = env.step(actions)
        for i, ref in enumerate(refs):
            seen[i], reward, term, trunc, _ = ref.step(int(actions[i]))
            assert rewards[i, 1] == reward and (terminated[i], truncated[i]) == (term, trunc)
            if term or trunc:
                ended += 1
                assert rewards[i].tolist() == ref.state.returns()
                seen[i] = ref.reset(seed=int(env.seeds[i]))[0]
    assert ended


def test_bad_arguments_are_refused_clearly() -> None:
    with pytest.raises(KitiError, match="num_envs must be an integer of at least 1"):
        vector.make("miaui", 0)
    with pytest.raises(KitiError, match="observation must be one of tensor, info_state"):
        vector.make("miaui", 2, observation="dict", workers=0)
    with pytest.raises(KitiError, match="unknown bot 'nobody'"):
        vector.make("miaui", 2, opponents="nobody", workers=0)
    with pytest.raises(KitiError, match="seat must be a seat"):
        vector.make("miaui", 2, players=3, opponents="random", seat=3, workers=0)
    with pytest.raises(KitiError, match="seed must be an integer"):
        vector.make("miaui", 2, workers=0).reset(-1)
    with pytest.raises(KitiError, match=r"call reset\(\) before step\(\)"):
        vector.make("miaui", 2, workers=0).step(np.zeros(2, np.int64))


POLICY = """
import os
import numpy as np

BAD = np.load(os.environ["KITI_TEST_BAD_TENSOR"])


def act(tensor, mask):
    if tensor.shape == BAD.shape and np.array_equal(tensor, BAD):
        raise RuntimeError("this policy refuses that table")
    return int(np.flatnonzero(mask)[0])
"""


def _failing_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, env: int) -> str:
    """A policy bot that fails on the first table seat 1 sees in env ``env`` of a run seeded ``seed``."""
    state = kiti.load("miaui", players=3).new_state(vector.episode_seed(seed, env, 0))
    np.save(tmp_path / "bad.npy", encoder_for("miaui", 3).observation(state, 1))
    monkeypatch.setenv("KITI_TEST_BAD_TENSOR", str(tmp_path / "bad.npy"))
    (tmp_path / "policy.py").write_text(textwrap.dedent(POLICY))
    return f"policy:{tmp_path / 'policy.py'}:act"


def test_an_error_in_a_worker_names_its_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = _failing_policy(tmp_path, monkeypatch, seed=8, env=3)
    here = vector.make("miaui", 4, players=3, opponents=spec, workers=0)
    with pytest.raises(
        vector.VectorEnvError, match=r"env 3 failed: .*this policy refuses that table"
    ) as caught:
        here.reset(8)
    assert caught.value.env == 3
    env = vector.make("miaui", 4, players=3, opponents=spec, workers=2)
    with pytest.raises(vector.VectorEnvError, match=r"env 3 \(worker 1\) failed: .*refuses") as caught:
        env.reset(8)
    assert caught.value.env == 3
    assert any("policy.py" in note for note in caught.value.__notes__), "no worker traceback"
    with pytest.raises(KitiError, match=r"env 3 failed: call reset\(\) before step"):
        env.step(np.zeros(4, np.int64))
    _, mask, _ = env.reset(9)  # the workers go on
    processes = list(env._processes)
    os.kill(processes[1].pid, signal.SIGKILL)
    processes[1].join(5)
    with pytest.raises(vector.VectorEnvError, match=r"worker 1 \(envs 2-3\) stopped"):
        env.step(np.array([np.flatnonzero(m)[0] for m in mask]))
    assert not any(p.is_alive() for p in processes), "a worker outlived the env"


def test_dropping_the_env_stops_its_workers() -> None:
    env: Any = vector.make("miaui", 2, players=3, workers=1)
    processes = list(env._processes)
    assert processes[0].is_alive()
    del env
    gc.collect()
    assert not any(p.is_alive() for p in processes) and processes[0].exitcode == 0


def test_vector_rates_counts_env_steps() -> None:
    from kiti.rl.bench import vector_rates

    rates = vector_rates("miaui", 3, 0, seconds=0.3, players=3)
    assert rates["num_envs"] == 3 and rates["workers"] == 0 and rates["batches"] > 0
    assert rates["env_steps_per_s"] >= rates["loop_steps_per_s"] > 0
    assert rates["games_per_s"] > 0, "0.3 s of 3 Miaui games at a time ended none"


def test_the_docs_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parent.parent / "docs" / "rl.md").read_text()
    section = text.split("## Vector env", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/rl.md", "exec"), {"__name__": "__main__"})
    assert capsys.readouterr().out.startswith("(8, 391) (8, 13) [")
