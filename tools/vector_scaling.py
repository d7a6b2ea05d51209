"""How the vector env scales over worker processes: env steps per second per game and workers.

    python tools/vector_scaling.py [--seconds 4] [--max-workers 16] [--out scaling.json]

For Miaui (4 seats), Mauw (4) and MOTU (2): ``kiti.rl.bench.vector_rates`` with 32 envs in the
main process (``workers=0``), then 32 envs per worker for 1, 2, 4, ... workers, then 256 envs
in all over the same worker counts; last, Miaui's batch simulator at 1,024 and 16,384 envs.
Prints one line per run and writes every row to ``--out`` (JSON) as it goes.  Run it where the
cores are idle: the figures in docs/rl.md ("Vector env", "On many cores") come from it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from typing import Any

sys.path.insert(0, os.getcwd())
os.environ.setdefault("PYTHONPATH", os.getcwd())  # the spawned workers import kiti from here too

from kiti.rl.bench import vector_rates

GAMES = (("miaui", 4), ("mauw", 4), ("motu", 2))


def _line(r: dict[str, Any]) -> str:
    return (
        f"{r['game']} {r['players']} {r['backend']} workers {r['workers']} envs {r['num_envs']}: "
        f"env steps/s {r['env_steps_per_s']:,.0f}, loop {r['loop_steps_per_s']:,.0f}, games/s {r['games_per_s']:,.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--max-workers", type=int, default=16)
    parser.add_argument("--out", default="vector_scaling.json")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, Python {platform.python_version()}", flush=True)
    counts = [w for w in (1, 2, 4, 8, 16, 32, 64) if w <= args.max_workers]
    rows: list[dict[str, Any]] = []
    runs = [
        (g, p, w, n, "engine")
        for g, p in GAMES
        for w, n in [(0, 32), *((w, 32 * w) for w in counts), *((w, 256) for w in counts)]
    ]
    runs += [("miaui", 4, 0, n, "batch") for n in (1024, 16384)]
    for game, players, workers, envs, backend in runs:
        row = vector_rates(game, envs, workers, args.seconds, players=players, backend=backend)
        rows.append(row)
        print(_line(row), flush=True)
        with open(args.out, "w") as out:
            json.dump(rows, out, indent=1)


if __name__ == "__main__":
    main()
