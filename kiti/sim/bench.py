"""``kiti bench GAME``: random full games per second through the public engine API.

For each benchmarked seat count (the game's smallest, 4 or the nearest, and its largest):

- ``games_per_s``: complete games with uniform-random moves for every seat
  (:func:`kiti.core.turns.play_random_game`: ``to_act`` -> ``random_move`` -> the core's
  unchecked Move path, a simultaneous choice applied at once as OpenSpiel's loop uses
  ``apply_actions``), each game a fresh ``State.new`` with its own seed;
- ``actions_games_per_s``: the same through the integer fast path (``random_action``,
  ``step``), the path reinforcement-learning adapters use;
- ``moves_per_s`` and ``actions_moves_per_s``: the moves of those games per second (the
  two paths play different random games, so compare these per-move figures);
- ``reference_games_per_s``: when OpenSpiel is installed (the ``[bench]`` extra), its
  goofspiel (12 cards, the same seat count, imp_info, random points order: a 12-round game
  of simultaneous secret bids, like Miaui) driven by the usual Python loop over ``pyspiel``
  (chance outcomes, ``legal_actions(p)`` per player, ``apply_actions``), measured back to
  back in the same process;
- ``ratio``: ``games_per_s / reference_games_per_s`` (``actions_ratio`` for the integer
  path).  Above 1, Kiti plays random games faster than OpenSpiel's C++ goofspiel driven
  from Python; the ratio cancels most of the machine's speed and load, not OpenSpiel's
  version: ``reference_version`` names it (a goofspiel game through open-spiel 1.5's
  bindings costs about 1.5 times the machine instructions of one through 1.6 or 2.0, so
  the same Kiti measures a ratio about 1.5 times higher against 1.5).

It also measures ISMCTS iterations per second for the game (one core, first decision of a
fresh game, random rollouts), see :func:`ismcts_iterations_per_second`, and any extra figures
the game declares as its ``bench`` part (a function ``(seconds) -> [{"name", "value", "unit"}]``,
e.g. MOTU's legal-placement enumeration), kept under ``extras`` in the middle row.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ..core.game import State
from ..core.registry import game_part, has_part
from ..core.turns import play_random_actions, play_random_game

REFERENCE = "open_spiel goofspiel(num_cards=12, imp_info, points_order=random), Python loop"


def bench_seat_counts(cls: type[State]) -> list[int]:
    lo, hi = cls.info.min_seats, cls.info.max_seats
    return sorted({lo, min(max(4, lo), hi), hi})


def _rates(play_one: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Games and moves per second of ``play_one`` (which returns its game's move count)
    over about ``seconds``, after a short warm-up."""
    for _ in range(10):
        play_one()
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            moves += play_one()
        games += 20
        now = time.perf_counter()
        if now >= deadline:
            return games / (now - start), moves / (now - start)


def kiti_rates(
    cls: type[State],
    players: int,
    seconds: float,
    options: dict[str, Any] | None = None,
    actions: bool = False,
) -> tuple[float, float]:
    """Random games and moves per second: the object path, or the integer path (``actions``)."""
    rng = random.Random(12345)
    seeds = iter(range(10**12))
    play = play_random_actions if actions else play_random_game

    def play_one() -> int:
        return len(play(cls.new(players, options, next(seeds)), rng).history)

    return _rates(play_one, seconds)


def reference_version() -> str | None:
    """The installed open-spiel's version (the reference's), None without it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return None


def goofspiel_games_per_second(players: int, seconds: float) -> float | None:
    """OpenSpiel goofspiel through a Python loop over pyspiel; None without open-spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(
        "goofspiel",
        {"num_cards": 12, "players": players, "imp_info": True, "points_order": "random"},
    )
    rng = random.Random(12345)
    choice = rng.choice
    everyone = range(players)

    def play_one() -> int:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(choice(state.chance_outcomes())[0])
            elif state.is_simultaneous_node():
                state.apply_actions([choice(state.legal_actions(p)) for p in everyone])
            else:
                state.apply_action(choice(state.legal_actions()))
        return 0

    return _rates(play_one, seconds)[0]


def ismcts_iterations_per_second(
    cls: type[State], players: int, seconds: float = 2.0, rollout: str = "random", seed: int = 12345
) -> float:
    """ISMCTS iterations per second on one core, from the first decision of fresh games."""
    from ..bots.ismcts import ISMCTSBot
    from ..core.seatview import seat_view

    rng = random.Random(seed)
    per_search = 200
    bot = ISMCTSBot(seed, iters=per_search, rollout=rollout)
    views = []
    for _ in range(8):
        state = cls.new(players, None, rng.getrandbits(32))
        views.append(seat_view(state, min(state.to_act())))
    bot.choose(views[0])  # warm-up
    iters = 0
    searches = 0
    start = time.perf_counter()
    while True:
        bot.choose(views[searches % len(views)])
        iters += bot.last_iterations
        searches += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return iters / elapsed


def run_bench(
    cls: type[State], seconds: float = 2.0, progress: bool = True, ismcts: bool = True
) -> list[dict[str, Any]]:
    """Measure every bench seat count; print a table when ``progress``; return one row per
    seat count (the row of the middle count also holds ``ismcts_iterations_per_s``)."""
    rows: list[dict[str, Any]] = []
    version = reference_version()
    for players in bench_seat_counts(cls):
        ref = goofspiel_games_per_second(players, seconds)
        ours, moves = kiti_rates(cls, players, seconds)
        ints, steps = kiti_rates(cls, players, seconds, actions=True)
        rows.append(
            {
                "game": cls.info.id,
                "players": players,
                "games_per_s": round(ours, 1),
                "actions_games_per_s": round(ints, 1),
                "moves_per_s": round(moves),
                "actions_moves_per_s": round(steps),
                "reference": REFERENCE,
                "reference_version": None if ref is None else version,
                "reference_games_per_s": None if ref is None else round(ref, 1),
                "ratio": None if ref is None else round(ours / ref, 3),
                "actions_ratio": None if ref is None else round(ints / ref, 3),
                "ismcts_iterations_per_s": None,
                "extras": None,
            }
        )
    row = rows[len(rows) // 2]
    if ismcts:
        row["ismcts_iterations_per_s"] = round(ismcts_iterations_per_second(cls, row["players"], seconds), 1)
    if has_part(cls, "bench"):
        row["extras"] = game_part(cls, "bench")(seconds)
    if progress:
        _print(cls, rows)
    return rows


def _print(cls: type[State], rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{cls.info.name}: random full games per second", title_justify="left")
    for col in ("players", "games/s", "int path", "moves/s", "int path", "goofspiel", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        ref = r["reference_games_per_s"]
        table.add_row(
            str(r["players"]),
            f"{r['games_per_s']:,.0f}",
            f"{r['actions_games_per_s']:,.0f}",
            f"{r['moves_per_s']:,.0f}",
            f"{r['actions_moves_per_s']:,.0f}",
            "n/a" if ref is None else f"{ref:,.0f}",
            "n/a" if r["ratio"] is None else f"{r['ratio']:.2f}",
        )
    console = Console(highlight=False)
    console.print(table)
    if rows[0]["reference_games_per_s"] is None:
        console.print(
            "goofspiel: pip install 'kiti[bench]' to measure the reference (OpenSpiel).", markup=False
        )
    console.print(
        "int path: the same random games through the integer action codec "
        "(random_action and step), as RL adapters play.",
        markup=False,
    )
    version = rows[0]["reference_version"]
    console.print(
        "ratio: Kiti's games/s over OpenSpiel goofspiel's (12 rounds of secret bids, C++ "
        "driven from Python), same run; 1.0 means as fast"
        + (f" (open-spiel {version}: compare ratios measured with the same version)." if version else "."),
        markup=False,
    )
    for r in rows:
        if r["ismcts_iterations_per_s"] is not None:
            console.print(
                f"ISMCTS, {r['players']} seats, first decision, one core, random rollouts: "
                f"{r['ismcts_iterations_per_s']:,.0f} iterations/s"
            )
        for extra in r["extras"] or []:
            value = extra["value"]
            shown = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"
            console.print(f"{extra['name']}: {shown} {extra['unit']}")
