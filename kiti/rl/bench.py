"""What a game's tensors cost: :func:`tensor_rates` (for ``kiti bench GAME --rl``).

It plays random games and times, over their states, every seat's observation into a
preallocated buffer, a fresh information state (from the first event), and the
incremental tracker following each game move by move.  Figures are the median over
states of the time of one call (each state's call repeated, as :mod:`timeit` does)."""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any

from ..core.game import State
from ..core.load import load
from .tensors import encoder_for


def _states(game_id: str, players: int, options: Mapping[str, Any], count: int, seed: int) -> list[State]:
    """Copies of every state of random games, at least ``count`` of them."""
    game = load(game_id, players=players, **options)
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        state = game.new_state(seed=rng.randrange(1 << 30))
        states.append(state.clone())
        while not state.over:
            seat = rng.choice(sorted(state.to_act()))
            state.apply(seat, state.random_move(seat, rng))
            states.append(state.clone())
    return states


def _per_call(call: Callable[[], Any], repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        call()
    return (time.perf_counter() - start) / repeat


def tensor_rates(
    game_id: str, players: int, options: Mapping[str, Any] | None = None, seconds: float = 2.0
) -> dict[str, Any]:
    """The cost of ``game_id``'s tensors for ``players`` seats and ``options``, measured for
    about ``seconds``: a dict of ``observation_us`` (median µs per call over states and
    seats), ``info_state_fresh_us`` (a new tracker per call, reading the whole log),
    ``tracker_us`` (one tracker per seat following whole games state by state: mean µs
    per call, median over games), sizes of both tensors, and how many states were timed."""
    options = dict(options or {})
    encoder = encoder_for(game_id, players, **options)
    states = _states(game_id, players, options, 200, seed=1)
    obs = encoder.observation_layout.zeros()
    info = encoder.info_state_layout.zeros()
    half = time.perf_counter() + seconds / 2
    budget = half + seconds / 2
    observation: list[float] = []
    fresh: list[float] = []
    rng = random.Random(2)
    while time.perf_counter() < half or not observation:
        state = rng.choice(states)
        seat = rng.randrange(players)
        observation.append(_per_call(functools.partial(encoder.observation, state, seat, obs), 20))
        fresh.append(_per_call(functools.partial(encoder.info_state, state, seat, info), 5))
    game_costs: list[float] = []
    while time.perf_counter() < budget or not game_costs:
        trackers = [encoder.info_state_tracker(s) for s in range(players)]
        game = _game_states(states, rng)
        start = time.perf_counter()
        for state in game:
            for tracker in trackers:
                tracker(state, info)
        game_costs.append((time.perf_counter() - start) / len(game) / players)
    return {
        "game": game_id,
        "players": players,
        "options": options,
        "observation_size": encoder.observation_layout.size,
        "info_state_size": encoder.info_state_layout.size,
        "observation_us": statistics.median(observation) * 1e6,
        "info_state_fresh_us": statistics.median(fresh) * 1e6,
        "tracker_us": statistics.median(game_costs) * 1e6,
        "states": len(observation),
    }


def _game_states(states: list[State], rng: random.Random) -> list[State]:
    """The states of one whole game among ``states`` (they are stored game after game)."""
    starts = [i for i, s in enumerate(states) if not s.history]
    k = rng.randrange(len(starts))
    end = starts[k + 1] if k + 1 < len(starts) else len(states)
    return states[starts[k] : end]


def aec_rates(
    game_id: str,
    players: int,
    options: Mapping[str, Any] | None = None,
    seconds: float = 4.0,
    rounds: int = 8,
    observation: str = "tensor",
    timer: Callable[[], float] = time.perf_counter,
) -> dict[str, Any]:
    """PettingZoo AEC steps per second (:func:`kiti.rl.pettingzoo.env`, a random masked
    policy through ``last()`` and ``step()``: the loop a learner runs) against the engine's
    random-play moves per second (:func:`kiti.core.turns.play_random_game`), measured in
    ``rounds`` interleaved rounds of both within about ``seconds`` of ``timer`` (wall time;
    ``time.thread_time``: this thread's CPU time, which a loaded machine's other work does
    not count): medians of each round's rates and of their same-round ratio (``ratio``: AEC
    steps/s over engine moves/s), and every round's ratio (``ratios``, for the spread)."""
    from ..core.turns import play_random_game
    from .pettingzoo import env as aec_env

    options = dict(options or {})
    game = load(game_id, players=players, **options)
    env = aec_env(game, observation=observation)
    rng = random.Random(3)
    slice_s = seconds / rounds / 2
    engine: list[float] = []
    aec: list[float] = []
    for _ in range(rounds):
        moves, start = 0, timer()
        while timer() - start < slice_s:
            moves += len(play_random_game(game.new_state(rng.randrange(1 << 30)), rng).history)
        engine.append(moves / (timer() - start))
        steps, start = 0, timer()
        while timer() - start < slice_s:
            steps += _aec_game(env, rng)
        aec.append(steps / (timer() - start))
    return {
        "game": game_id,
        "players": players,
        "options": options,
        "observation": observation,
        "engine_moves_per_s": statistics.median(engine),
        "aec_steps_per_s": statistics.median(aec),
        "ratio": statistics.median(a / e for a, e in zip(aec, engine)),
        "ratios": [a / e for a, e in zip(aec, engine)],
        "rounds": rounds,
    }


def _aec_game(env: Any, rng: random.Random) -> int:
    """One whole game through ``env`` with a random masked policy; its live steps."""
    env.reset(seed=rng.randrange(1 << 30))
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].view(bool).nonzero()[0]  # a 0/1 int8 mask read as bool: 25x faster
        env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
    return steps


def vector_rates(
    game_id: str,
    num_envs: int,
    workers: int | None,
    seconds: float = 3.0,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    observation: str = "tensor",
    backend: str = "engine",
    copy: bool = True,
) -> dict[str, Any]:
    """Env steps per second of :func:`kiti.rl.vector.make` (``num_envs`` games over
    ``workers`` processes, 0: in this process; ``backend="batch"``: Miaui's batch simulator;
    ``copy=False``: the env hands out its own arrays instead of copies) for about ``seconds`` of
    stepping after a warm-up step, a random masked policy choosing each batch's actions:
    ``env_steps_per_s`` counts only the time inside ``step()`` (the env's own rate),
    ``loop_steps_per_s`` the whole loop (the policy's draws too); ``games_per_s`` counts the
    games that ended."""
    import numpy as np

    from .vector import make

    env = make(
        game_id,
        num_envs,
        players=players,
        options=dict(options or {}),
        observation=observation,
        seed=1,
        workers=workers,
        backend=backend,
        copy=copy,
    )
    try:
        rng = np.random.default_rng(4)
        _obs, mask, _player = env.reset()
        mask, _ = _vector_step(env, mask, rng)
        steps = games = 0
        in_step = 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            mask, (took, ended) = _vector_step(env, mask, rng)
            in_step += took
            games += ended
            steps += 1
        total = time.perf_counter() - start
    finally:
        env.close()
    return {
        "game": game_id,
        "players": env.players,
        "num_envs": num_envs,
        "workers": env.workers,
        "observation": observation,
        "backend": backend,
        "copy": copy,
        "env_steps_per_s": steps * num_envs / in_step,
        "loop_steps_per_s": steps * num_envs / total,
        "games_per_s": games / total,
        "batches": steps,
    }


def _vector_step(env: Any, mask: Any, rng: Any) -> tuple[Any, tuple[float, int]]:
    """One step of a random masked policy: the next mask, the time inside step(), games ended."""
    import numpy as np

    choice = np.argmax(rng.random(mask.shape, dtype=np.float32) * mask, axis=1)
    start = time.perf_counter()
    _obs, mask, _player, _rewards, terminated, truncated = env.step(choice)
    took = time.perf_counter() - start
    return mask, (took, int(terminated.sum() + truncated.sum()))


def run_rl_bench(game_id: str, seat_counts: list[int], seconds: float = 2.0) -> list[dict[str, Any]]:
    """``kiti bench GAME --rl``: per seat count, the tensors' cost (:func:`tensor_rates`) and
    the PettingZoo AEC loop against the engine's random play (:func:`aec_rates`), run right
    after the engine's own figures in the same process."""
    rows = []
    for players in seat_counts:
        tensors = tensor_rates(game_id, players, {}, seconds)
        aec = aec_rates(game_id, players, {}, seconds=2 * seconds)
        rows.append({**tensors, **{k: aec[k] for k in ("engine_moves_per_s", "aec_steps_per_s", "ratio")}})
    return rows


def print_rl(name: str, rows: list[dict[str, Any]]) -> None:
    """The rows of :func:`run_rl_bench` as a table, with what each column means."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{name}: tensors and the PettingZoo AEC env", title_justify="left")
    for col in (
        "seats",
        "obs size",
        "obs µs",
        "info state µs",
        "tracker µs",
        "AEC steps/s",
        "engine moves/s",
        "AEC/engine",
    ):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["players"]),
            f"{r['observation_size']:,}",
            f"{r['observation_us']:,.1f}",
            f"{r['info_state_fresh_us']:,.1f}",
            f"{r['tracker_us']:,.1f}",
            f"{r['aec_steps_per_s']:,.0f}",
            f"{r['engine_moves_per_s']:,.0f}",
            f"{r['ratio']:.2f}",
        )
    console = Console(highlight=False)
    console.print(table)
    console.print(
        "obs µs: one observation into a preallocated buffer (median over random states and seats); "
        "info state µs: one built from the first event; tracker µs: one incremental call following a "
        "game. ratio: PettingZoo AEC steps per second (random masked policy, observation at "
        "every step) over the engine's random-play moves per second, median of interleaved rounds.",
        markup=False,
    )
