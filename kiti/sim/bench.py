"""``kiti bench``: random full games per second through the public engine API.

Each measurement plays complete games with uniform-random moves for every
seat through the public API (:func:`kiti.core.play_random_game`: ``turns`` ->
``legal_moves`` -> ``random.choice`` -> ``apply(check=False)``).
When OpenSpiel is installed (the ``[bench]`` extra) the same run measures a
reference: OpenSpiel's goofspiel (12 cards, the same seat count, imp_info,
random points order) driven by an equivalent Python loop over ``pyspiel``
(chance outcomes, ``legal_actions(p)`` per player, ``apply_actions``).
The ratio is Kiti's games/s over the reference's, measured back to back on
the same machine, so machine speed and load cancel out to first order.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..core.game import State
from ..core.turns import play_random_game


def bench_seat_counts(cls: type[State]) -> list[int]:
    lo, hi = cls.info.min_seats, cls.info.max_seats
    return sorted({lo, min(max(4, lo), hi), hi})


def _rate(play_one: Any, seconds: float) -> float:
    """Games per second of ``play_one`` over about ``seconds`` (after a short warm-up)."""
    for _ in range(20):
        play_one()
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            play_one()
        games += 50
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start)


def kiti_games_per_second(cls: type[State], players: int, seconds: float, options: dict | None = None) -> float:
    rng = random.Random(12345)
    seeds = iter(range(10**12))

    def play_one() -> None:
        play_random_game(cls.new(players, options, next(seeds)), rng)

    return _rate(play_one, seconds)


def goofspiel_games_per_second(players: int, seconds: float) -> float | None:
    """OpenSpiel goofspiel through a Python loop over pyspiel; None without open-spiel."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(
        "goofspiel",
        {"num_cards": 12, "players": players, "imp_info": True, "points_order": "random"},
    )
    rng = random.Random(12345)
    choice = rng.choice
    everyone = range(players)

    def play_one() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            elif state.is_simultaneous_node():
                state.apply_actions([choice(state.legal_actions(p)) for p in everyone])
            else:
                state.apply_action(choice(state.legal_actions()))

    return _rate(play_one, seconds)


def run_bench(cls: type[State], seconds: float = 2.0, progress: bool = True,
              ismcts: bool = True) -> list[dict[str, Any]]:
    """Measure every bench seat count; print a table when ``progress``; return the figures."""
    results: list[dict[str, Any]] = []
    for players in bench_seat_counts(cls):
        ours = kiti_games_per_second(cls, players, seconds)
        ref = goofspiel_games_per_second(players, seconds)
        results.append({
            "game": cls.info.id,
            "players": players,
            "games_per_s": round(ours, 1),
            "reference": "open_spiel goofspiel(num_cards=12, imp_info, points_order=random)",
            "reference_games_per_s": None if ref is None else round(ref, 1),
            "ratio": None if ref is None else round(ours / ref, 3),
        })
    if progress:
        from rich.console import Console
        from rich.table import Table

        table = Table(title=f"{cls.info.name}: random full games per second (public API)")
        for col in ("players", "kiti games/s", "goofspiel games/s", "ratio"):
            table.add_column(col, justify="right")
        for r in results:
            ref = r["reference_games_per_s"]
            table.add_row(str(r["players"]), f"{r['games_per_s']:,.0f}",
                          "n/a: pip install 'kiti\\[bench]'" if ref is None else f"{ref:,.0f}",
                          "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}")
        console = Console()
        console.print(table)
        if ismcts:
            try:
                from .bench_bots import ismcts_iterations_per_second
            except ImportError:
                pass
            else:
                figures = ismcts_iterations_per_second(players=4, seconds=seconds)
                console.print(
                    f"ISMCTS on {cls.info.name}, 4 seats, first move, one core, "
                    f"{figures.get('rollout', 'random')} rollouts: "
                    f"{figures['iterations_per_s']:,.0f} iterations/s"
                )
    return results
