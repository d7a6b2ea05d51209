"""The JAX batch step measured where it runs (a GPU when there is one), against NumPy's on the CPU.

Prints the devices, then, in interleaved rounds, the games per second of ``play_random``
(random games of Miaui dealt and played on the device in one ``lax.while_loop``; a warm-up
call compiles each size first, and each timing ends with ``block_until_ready``) at each N, and
of the NumPy batch simulator at N = 10,000 on the CPU in the same round (``init`` and
``step_in_place`` with ``random_actions``, legality checked, as ``kiti bench`` plays it); each
N's median over the rounds, with the lowest and highest, and the median of the same-round
ratios.  Then the differential check (``jax_step.compare``: the same deals and actions
through NumPy's step and this one, options drawn per game) on the device, with the count of
games that differ.  ``--budget`` (210 s) bounds the whole run: the timed rounds stop after a
quarter of it (3 rounds at least), and no seat count's check starts in its last 30 s.  Needs
jax and numpy only (run from the checkout: ``PYTHONPATH=.``)::

    PYTHONPATH=. python3 tools/batch_jax_gpu.py --out results/
    PYTHONPATH=. python3 tools/batch_jax_gpu.py --small  # a quick run on a CPU
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import jax

from kiti.sim.batch import jax_step as J
from kiti.sim.batch import tables as T
from kiti.sim.batch.bench import batch_runner

PLAYERS = 4
NUMPY_GAMES = 10_000


def jax_rate(games: int, seed: int) -> float:
    """Games per second of one ``play_random`` batch (compiled already)."""
    start = time.perf_counter()
    state, returns = J.play_random(jax.random.key(seed), games, PLAYERS)
    for array in (*state, returns):
        array.block_until_ready()
    return games / (time.perf_counter() - start)


def numpy_rate(games: int, seed: int) -> float:
    """Games per second of one NumPy batch of random games on the CPU (``kiti bench``'s)."""
    seconds, _ = batch_runner(PLAYERS)(seed, games)
    return games / seconds


def summary(values: list[float], digits: int = 0) -> dict[str, float]:
    """Median, lowest and highest of a measurement's rounds."""
    return {
        name: round(f(values), digits)
        for name, f in (("median", statistics.median), ("min", min), ("max", max))
    }


def measure(sizes: list[int], rounds: int, budget_s: float) -> dict[str, Any]:
    """Interleaved rounds (each size of ``play_random``, then NumPy at :data:`NUMPY_GAMES`),
    after one compiling call per size; stops early past ``budget_s`` seconds (3 rounds at least)."""
    compile_s = {}
    for games in list(sizes):
        start = time.perf_counter()
        try:
            jax_rate(games, 0)
        except Exception as error:  # out of device memory, say: measure the other sizes
            print(f"play_random N={games:,} failed, left out: {type(error).__name__}: {error}", flush=True)
            sizes.remove(games)
            continue
        compile_s[games] = round(time.perf_counter() - start, 2)
        print(f"play_random N={games:,}: first call (compile and run) {compile_s[games]} s", flush=True)
    numpy_rate(1000, 0)  # warm-up
    rates: dict[str, list[float]] = {str(games): [] for games in sizes}
    rates["numpy"] = []
    began = time.perf_counter()
    for r in range(rounds):
        if r >= 3 and time.perf_counter() - began > budget_s:
            break
        for games in sizes:
            rates[str(games)].append(jax_rate(games, r + 1))
        rates["numpy"].append(numpy_rate(NUMPY_GAMES, r + 1))
        line = ", ".join(f"N={k}: {v[-1]:,.0f}" for k, v in rates.items() if k != "numpy")
        print(
            f"round {r + 1}: JAX games/s {line}; NumPy N={NUMPY_GAMES:,}: {rates['numpy'][-1]:,.0f}",
            flush=True,
        )
    out: dict[str, Any] = {"compile_s": compile_s, "rounds": len(rates["numpy"]), "raw": rates}
    out["numpy_games_per_s"] = summary(rates["numpy"])
    for games in sizes:
        ours = rates[str(games)]
        out[f"jax_{games}"] = {
            "games_per_s": summary(ours),
            "ratio_to_numpy": summary([a / b for a, b in zip(ours, rates["numpy"])], 2),
        }
    return out


def check(games: int, deadline: float) -> dict[str, Any]:
    """The differential check at every seat count, the next one started only before
    ``deadline`` (``time.perf_counter()``); the games that differ, in all."""
    results: list[dict[str, Any]] = []
    for players in range(T.MIN_SEATS, T.MAX_SEATS + 1):
        if results and time.perf_counter() > deadline:
            print(f"check: stopped before {players} seats (time)", flush=True)
            break
        start = time.perf_counter()
        result = J.compare(games, players, seed=2026 + players)
        result["seconds"] = round(time.perf_counter() - start, 1)
        print(f"check: {result}", flush=True)
        results.append(result)
    differences = sum(sum(r["differ"].values()) for r in results)
    print(f"check: {sum(r['games'] for r in results):,} games, {differences} differences", flush=True)
    return {"per_seats": results, "differences": differences}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="small sizes, for a CPU")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=None, help="the N measured")
    parser.add_argument("--check-games", type=int, default=None, help="games per seat count")
    parser.add_argument("--budget", type=float, default=210, help="seconds in all, about (default 210)")
    parser.add_argument("--out", type=Path, default=None, help="a folder for batch_jax_gpu.json")
    args = parser.parse_args()
    began = time.perf_counter()
    devices = [str(d) for d in jax.devices()]
    print(f"jax {jax.__version__}, backend {jax.default_backend()}, devices: {devices}", flush=True)
    sizes = args.sizes or ([1_000, 10_000] if args.small else [10_000, 100_000, 1_000_000])
    result: dict[str, Any] = {"jax": jax.__version__, "devices": devices, "players": PLAYERS, "sizes": sizes}
    result["speed"] = measure(sizes, args.rounds, budget_s=args.budget / 4)
    deadline = began + args.budget - 30  # a seat count's check takes well under 30 s
    result["check"] = check(args.check_games or (200 if args.small else 1000), deadline)
    result["seconds"] = round(time.perf_counter() - began, 1)
    speed = result["speed"]
    numpy_figure = speed["numpy_games_per_s"]
    print(f"\nNumPy (CPU) N={NUMPY_GAMES:,}: {numpy_figure['median']:,.0f} games/s", end="")
    print(f" ({numpy_figure['min']:,.0f}-{numpy_figure['max']:,.0f}), {speed['rounds']} rounds")
    for games in sizes:
        rate, ratio = speed[f"jax_{games}"]["games_per_s"], speed[f"jax_{games}"]["ratio_to_numpy"]
        print(
            f"JAX ({devices[0]}) N={games:,}: {rate['median']:,.0f} games/s ({rate['min']:,.0f}-{rate['max']:,.0f});"
            f" ratio to NumPy {ratio['median']} ({ratio['min']}-{ratio['max']})"
        )
    print(f"differential check: {result['check']['differences']} differences; {result['seconds']} s in all")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "batch_jax_gpu.json").write_text(json.dumps(result, indent=2))
        print(f"wrote {args.out / 'batch_jax_gpu.json'}")


if __name__ == "__main__":
    main()
