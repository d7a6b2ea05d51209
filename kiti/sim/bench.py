"""``kiti bench GAME``: random full games per second through the public engine API.

For each benchmarked seat count (the game's smallest, 4 or the nearest, and its largest):

- ``games_per_s``: complete games with uniform-random moves for every seat
  (:func:`kiti.core.turns.play_random_game`: ``to_act`` -> ``random_move`` -> the core's
  unchecked Move path, a simultaneous choice applied at once as OpenSpiel's loop uses
  ``apply_actions``), each game a fresh ``State.new`` with its own seed;
- ``actions_games_per_s``: the same games through the integer fast path (``random_action``,
  ``step``), the path reinforcement-learning adapters use: same seeds, same generator, and
  ``random_action`` draws what ``random_move`` draws, so both paths play the very same games;
- ``moves_per_s`` and ``actions_moves_per_s``: the moves of those games per second;
- ``legal_games_per_s`` and ``legal_moves_per_s``: the like-for-like loop
  (:func:`legal_runner`): random games played as goofspiel's Python loop plays them, listing
  ``legal_actions`` for every seat to act and choosing one, then the checked API
  (``apply_all``, ``apply``);
- ``reference_games_per_s``: when OpenSpiel is installed (the ``[bench]`` extra), its
  goofspiel (12 cards, the same seat count, imp_info, random points order: a 12-round game
  of simultaneous secret bids, like Miaui) driven by the usual Python loop over ``pyspiel``
  (chance outcomes, ``legal_actions(p)`` per player, ``apply_actions``), in the same process;
  ``reference_moves_per_s``: its players' actions per second.  No reference for fewer seats
  than goofspiel has (2): pyspiel would load a 1-player goofspiel, nothing like a solo game;
- ``int_over_object``: the integer path's games per second over the object path's;
  ``ratio``: ``games_per_s / reference_games_per_s`` (``actions_ratio`` for the integer
  path, ``legal_ratio`` for the like-for-like loop); ``moves_ratio`` and ``legal_moves_ratio``:
  the same per move (Mauw plays far more moves a game than goofspiel's 11 bids a seat).
  Above 1, Kiti plays random games faster than OpenSpiel's C++ goofspiel driven
  from Python; the ratio cancels most of the machine's speed and load, not OpenSpiel's
  version: ``reference_version`` names it (a goofspiel game through open-spiel 1.5's
  bindings costs about 1.5 times the machine instructions of one through 1.6 or 2.0, so
  the same Kiti measures a ratio about 1.5 times higher against 1.5).

The paths are measured in interleaved rounds (:func:`interleaved`): each round runs every
path once for about ``seconds / rounds`` (the object and integer paths on the same games),
starting with a different one each round, so a busy moment of a shared machine falls on one
round of each path instead of on one path.  Every figure is the median over the rounds, and
every ratio the median of the ratios taken within each round; the ``..._spread`` keys and
``int_over_object`` hold ``{"median", "low", "high"}`` with ``low`` and ``high`` the first and
third quartiles of the rounds' figures (see :func:`spread`).

``batch`` (Miaui): the batch simulator :mod:`kiti.sim.batch`, batches of 10,000 random games,
against goofspiel played wholly in C++ by ``pyspiel.evaluate_bots`` with C++ uniform random bots,
in its own interleaved rounds: games and moves per second, spreads and the same-round ``ratio``
(see :func:`kiti.sim.batch.bench.batch_comparison`); None for the other games.

It also measures ISMCTS iterations per second for the game (one core, searches of 200
iterations from the first decision of fresh games, random rollouts) against OpenSpiel's Python
``MCTSBot`` on goofspiel with the same seats, in interleaved rounds with a same-round ratio
(``ismcts_ratio``, see :func:`ismcts_comparison`).  Both searches run one rollout an
iteration with uniform random moves, but not always to the end: ``MCTSBot`` plays goofspiel out
(48 actions at four seats, and its chance draws), ISMCTS keeps its default depth (two turns of
each seat, then the game heuristic's evaluation, where the game has one: Mauw and MOTU; else
120 moves: Miaui's 44 are played out), and draws a
determinisation each iteration, which ``MCTSBot`` (searching the true state) does not.  Any
extra figures the game declares as its ``bench`` part (a function ``(seconds) -> [{"name",
"value", "unit"}]``, e.g. MOTU's legal-placement enumeration) are kept under ``extras`` in the
middle row.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from ..core.game import State
from ..core.registry import game_part, has_part
from ..core.turns import play_random_actions, play_random_game

REFERENCE = "open_spiel goofspiel(num_cards=12, imp_info, points_order=random), Python loop"
#: About how long one round of one path takes (``--seconds`` is split into such rounds).
ROUND_SECONDS = 0.25
#: The first game's seed (and the first round's generator's).
SEED = 12345


def bench_seat_counts(cls: type[State]) -> list[int]:
    lo, hi = cls.info.min_seats, cls.info.max_seats
    return sorted({lo, min(max(4, lo), hi), hi})


Runner = Callable[[int, int], tuple[float, int]]
"""Plays ``games`` games from seed ``first`` on; returns the seconds they took and their moves."""


def kiti_runner(
    cls: type[State], players: int, options: dict[str, Any] | None = None, actions: bool = False
) -> Runner:
    """Random games of ``cls``: the object path, or the integer path (``actions``).  Both
    draw from ``random.Random(first)`` and play seeds ``first, first + 1, ...``, so for the
    same arguments they play the same games (see :func:`~kiti.core.turns.play_random_actions`)."""
    play = play_random_actions if actions else play_random_game
    new = cls.new

    def run(first: int, games: int) -> tuple[float, int]:
        rng = random.Random(first)
        moves = 0
        start = time.perf_counter()
        for seed in range(first, first + games):
            moves += len(play(new(players, options, seed), rng).history)
        return time.perf_counter() - start, moves

    return run


def legal_runner(cls: type[State], players: int, options: dict[str, Any] | None = None) -> Runner:
    """Random games as goofspiel's Python loop plays them (the like-for-like loop): for every
    seat to act, ``legal_actions(seat)`` and ``rng.choice``; then the moves through the
    checked API (``apply_all`` for a simultaneous choice, ``apply`` for one seat)."""
    new = cls.new

    def run(first: int, games: int) -> tuple[float, int]:
        choice = random.Random(first).choice
        moves = 0
        start = time.perf_counter()
        for seed in range(first, first + games):
            state = new(players, options, seed)
            codec = state.codec().moves
            while seats := state.to_act():
                if len(seats) == 1:
                    for seat in seats:
                        state.apply(seat, codec[choice(state.legal_actions(seat))])
                else:
                    state.apply_all({s: codec[choice(state.legal_actions(s))] for s in seats})
            moves += len(state.history)
        return time.perf_counter() - start, moves

    return run


def _games_per_round(run: Runner, seconds: float) -> int:
    """How many games of ``run`` take about ``seconds`` (playing a few first: the warm-up)."""
    games, took = 1, 0.0
    while True:
        took = run(SEED, games)[0]
        if took >= min(seconds, 0.05) / 2 or games >= 1 << 20:
            return max(1, round(games * seconds / max(took, 1e-9)))
        games *= 2


def interleaved(runners: dict[str, tuple[Runner, int]], rounds: int) -> dict[str, list[tuple[float, float]]]:
    """Per runner, (games/s, moves/s) of each of ``rounds`` rounds of its number of games.

    Round ``k`` runs every runner once, starting with a different one each round (so none
    always goes first), each on the games of seeds ``SEED + k * games`` on: runners given
    the same number of games play the same games in each round, and a slow moment of the
    machine falls on one round of each, not on one runner."""
    names = list(runners)
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for k in range(rounds):
        shift = k % len(names)
        for name in names[shift:] + names[:shift]:
            run, games = runners[name]
            took, moves = run(SEED + k * games, games)
            rates[name].append((games / took, moves / took))
    return rates


def spread(values: list[float], digits: int = 1) -> dict[str, float]:
    """``median`` and the interquartile range (``low``: first quartile, ``high``: third) of
    per-round figures, rounded to ``digits``; ``low <= median <= high``."""
    ordered = sorted(values)
    if len(ordered) < 2:
        low = mid = high = ordered[0]
    else:
        low, mid, high = statistics.quantiles(ordered, n=4, method="inclusive")
    return {"median": round(mid, digits), "low": round(low, digits), "high": round(high, digits)}


def reference_version() -> str | None:
    """The installed open-spiel's version (the reference's), None without it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("open_spiel")
    except PackageNotFoundError:
        return None


def goofspiel_runner(players: int) -> Runner | None:
    """OpenSpiel goofspiel through a Python loop over pyspiel; its moves are the players'
    actions (chance outcomes are not moves).  None without open-spiel, and for fewer seats
    than goofspiel has (pyspiel loads a 1-player goofspiel, a game of no interest)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(
        "goofspiel",
        {"num_cards": 12, "players": players, "imp_info": True, "points_order": "random"},
    )
    if players < game.get_type().min_num_players:
        return None
    everyone = range(players)

    def run(first: int, games: int) -> tuple[float, int]:
        choice = random.Random(first).choice
        moves = 0
        start = time.perf_counter()
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                elif state.is_simultaneous_node():
                    state.apply_actions([choice(state.legal_actions(p)) for p in everyone])
                    moves += players
                else:
                    state.apply_action(choice(state.legal_actions()))
                    moves += 1
        return time.perf_counter() - start, moves

    return run


#: What ISMCTS's iterations per second are compared with.
MCTS_REFERENCE = (
    "open_spiel MCTSBot (Python, uct_c=2, one random rollout a leaf) on goofspiel(num_cards=12, "
    "imp_info, points_order=random) made turn-based, same seats"
)
#: Iterations a search, for ISMCTS and for the reference alike.
SEARCH_ITERS = 200


def ismcts_runner(cls: type[State], players: int, rollout: str = "random", seed: int = SEED) -> Runner:
    """ISMCTS searches of :data:`SEARCH_ITERS` iterations from the first decision of eight
    fresh games (random rollouts by default): ``run(first, searches)`` returns the seconds they
    took and the iterations they ran."""
    from ..bots.ismcts import ISMCTSBot
    from ..core.seatview import seat_view

    rng = random.Random(seed)
    bot = ISMCTSBot(seed, iters=SEARCH_ITERS, rollout=rollout)
    views = []
    for _ in range(8):
        state = cls.new(players, None, rng.getrandbits(32))
        views.append(seat_view(state, min(state.to_act())))
    bot.choose(views[0])  # warm-up

    def run(first: int, searches: int) -> tuple[float, int]:
        iters = 0
        start = time.perf_counter()
        for k in range(first, first + searches):
            bot.choose(views[k % len(views)])
            iters += bot.last_iterations
        return time.perf_counter() - start, iters

    return run


def mcts_reference_runner(players: int, seed: int = SEED) -> Runner | None:
    """OpenSpiel's Python ``MCTSBot`` (:data:`MCTS_REFERENCE`), searches of
    :data:`SEARCH_ITERS` simulations from the first decision of eight fresh games, as
    :func:`ismcts_runner`; None without open-spiel."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.convert_to_turn_based(
        pyspiel.load_game(
            "goofspiel", {"num_cards": 12, "players": players, "imp_info": True, "points_order": "random"}
        )
    )
    draws = random.Random(seed)
    states = []
    for _ in range(8):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(draws.choice(state.chance_outcomes())[0])
        states.append(state)
    numbers = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, numbers)
    bot = mcts.MCTSBot(game, 2.0, SEARCH_ITERS, evaluator, random_state=numbers)
    bot.step(states[0])  # warm-up

    def run(first: int, searches: int) -> tuple[float, int]:
        start = time.perf_counter()
        for k in range(first, first + searches):
            bot.step(states[k % len(states)])
        return time.perf_counter() - start, searches * SEARCH_ITERS

    return run


def ismcts_iterations_per_second(
    cls: type[State], players: int, seconds: float = 2.0, rollout: str = "random", seed: int = SEED
) -> float:
    """ISMCTS iterations per second on one core, from the first decision of fresh games."""
    run = ismcts_runner(cls, players, rollout, seed)
    iters, took, k = 0, 0.0, 0
    while took < seconds:
        spent, done = run(k, 1)
        iters, took, k = iters + done, took + spent, k + 1
    return iters / took


def ismcts_comparison(cls: type[State], players: int, seconds: float, rounds: int) -> dict[str, Any]:
    """ISMCTS's iterations per second and, with open-spiel, OpenSpiel's Python MCTSBot's
    (:data:`MCTS_REFERENCE`) in ``rounds`` interleaved rounds (:func:`interleaved`): medians,
    spreads and the same-round ratio ``ismcts_ratio`` (ISMCTS over MCTSBot)."""
    runners = {"ismcts": ismcts_runner(cls, players)}
    reference = mcts_reference_runner(players)
    if reference is not None:
        runners["mcts"] = reference
    per_round = seconds / rounds
    rates = interleaved({k: (run, _games_per_round(run, per_round)) for k, run in runners.items()}, rounds)
    ours = [i for _, i in rates["ismcts"]]
    row: dict[str, Any] = {
        "ismcts_iterations_per_s": round(statistics.median(ours), 1),
        "ismcts_iterations_per_s_spread": spread(ours),
        "ismcts_reference": MCTS_REFERENCE,
        "ismcts_reference_iterations_per_s": None,
        "ismcts_reference_iterations_per_s_spread": None,
        "ismcts_ratio": None,
        "ismcts_ratio_spread": None,
    }
    if reference is not None:
        theirs = [i for _, i in rates["mcts"]]
        row["ismcts_reference_iterations_per_s"] = round(statistics.median(theirs), 1)
        row["ismcts_reference_iterations_per_s_spread"] = spread(theirs)
        row["ismcts_ratio_spread"] = ratios = spread([o / t for o, t in zip(ours, theirs)], 3)
        row["ismcts_ratio"] = ratios["median"]
    return row


def run_bench(
    cls: type[State],
    seconds: float = 2.0,
    progress: bool = True,
    ismcts: bool = True,
    rounds: int | None = None,
    batch: bool = True,
) -> list[dict[str, Any]]:
    """Measure every bench seat count, each path for about ``seconds`` in ``rounds``
    interleaved rounds (default: one per :data:`ROUND_SECONDS`, at least 3); print a table
    when ``progress``; return one row per seat count (the row of the middle count also
    holds ``ismcts_iterations_per_s``)."""
    count = rounds or max(3, round(seconds / ROUND_SECONDS))
    version = reference_version()
    rows = [_measure(cls, players, seconds / count, count, version) for players in bench_seat_counts(cls)]
    if batch and _has_numpy():
        from .batch.bench import batch_comparison

        for r in rows:
            r["batch"] = batch_comparison(cls.info.id, r["players"], seconds / count, count)
    row = rows[len(rows) // 2]
    if ismcts:
        row.update(ismcts_comparison(cls, row["players"], seconds, count))
    if has_part(cls, "bench"):
        row["extras"] = game_part(cls, "bench")(seconds)
    if progress:
        _print(cls, rows)
    return rows


def _has_numpy() -> bool:
    """Whether the batch simulator can run (it needs numpy: the [sim] or [bench] extra)."""
    from importlib.util import find_spec

    return find_spec("numpy") is not None


RATES = ("games_per_s", "actions_games_per_s", "reference_games_per_s", "ratio", "actions_ratio")


def _measure(
    cls: type[State], players: int, per_round: float, rounds: int, version: str | None
) -> dict[str, Any]:
    """One row: the object and integer paths on the same games, and the reference, in
    interleaved rounds of about ``per_round`` seconds each; medians, spreads, ratios."""
    objects, ints = kiti_runner(cls, players), kiti_runner(cls, players, actions=True)
    games = _games_per_round(objects, per_round)
    ints(SEED, min(games, 20))  # the integer path's warm-up
    runners = {"object": (objects, games), "int": (ints, games)}
    legal = legal_runner(cls, players)
    runners["legal"] = (legal, _games_per_round(legal, per_round))
    reference = goofspiel_runner(players)
    if reference is not None:
        runners["reference"] = (reference, _games_per_round(reference, per_round))
    rates = interleaved(runners, rounds)
    obj, ins, leg = rates["object"], rates["int"], rates["legal"]
    row: dict[str, Any] = {
        "game": cls.info.id,
        "players": players,
        "rounds": rounds,
        "games_per_s": 0.0,
        "games_per_s_spread": spread([g for g, _ in obj]),
        "actions_games_per_s": 0.0,
        "actions_games_per_s_spread": spread([g for g, _ in ins]),
        "moves_per_s": round(statistics.median(m for _, m in obj)),
        "actions_moves_per_s": round(statistics.median(m for _, m in ins)),
        "int_over_object": spread([i[0] / o[0] for o, i in zip(obj, ins)], 3),
        "legal_games_per_s": 0.0,
        "legal_games_per_s_spread": spread([g for g, _ in leg]),
        "legal_moves_per_s": round(statistics.median(m for _, m in leg)),
        "reference": REFERENCE,
        "reference_version": None,
        "reference_games_per_s": None,
        "reference_games_per_s_spread": None,
        "reference_moves_per_s": None,
        "ratio": None,
        "ratio_spread": None,
        "actions_ratio": None,
        "actions_ratio_spread": None,
        "legal_ratio": None,
        "legal_ratio_spread": None,
        "moves_ratio": None,
        "moves_ratio_spread": None,
        "legal_moves_ratio": None,
        "legal_moves_ratio_spread": None,
        "batch": None,
        "ismcts_iterations_per_s": None,
        "extras": None,
    }
    if "reference" in rates:
        ref = rates["reference"]
        row["reference_version"] = version
        row["reference_games_per_s_spread"] = spread([g for g, _ in ref])
        row["ratio_spread"] = spread([o[0] / r[0] for o, r in zip(obj, ref)], 3)
        row["actions_ratio_spread"] = spread([i[0] / r[0] for i, r in zip(ins, ref)], 3)
        row["legal_ratio_spread"] = spread([g[0] / r[0] for g, r in zip(leg, ref)], 3)
        row["reference_moves_per_s"] = round(statistics.median(m for _, m in ref))
        row["moves_ratio_spread"] = spread([o[1] / r[1] for o, r in zip(obj, ref)], 3)
        row["legal_moves_ratio_spread"] = spread([g[1] / r[1] for g, r in zip(leg, ref)], 3)
    for key in (*RATES, "legal_games_per_s", "legal_ratio", "moves_ratio", "legal_moves_ratio"):
        if row[f"{key}_spread"] is not None:
            row[key] = row[f"{key}_spread"]["median"]
    return row


def _print(cls: type[State], rows: list[dict[str, Any]]) -> None:
    from rich.console import Console

    console = Console(highlight=False)
    console.print(_games_table(cls, rows))
    console.print(_legal_table(rows))
    console.print(_moves_table(rows))
    version = next((r["reference_version"] for r in rows if r["reference_version"]), None)
    if reference_version() is None:
        console.print(
            "goofspiel: pip install 'kiti[bench]' to measure the reference (OpenSpiel).", markup=False
        )
    paths = "object, int, legal and goofspiel" if version else "object, int and legal"
    for line in (
        f"Medians of {rows[0]['rounds']} rounds, each running the {paths} paths in turn (a "
        "different one first each round); ±: half the interquartile range of the rounds' figures.",
        "int path: the same random games (same seeds, same draws) through the integer action "
        "codec (random_action and step), as RL adapters play.",
        "int/object: the int path's games/s over the object path's on the same games in the "
        "same round; 1.00 means as fast, below 1 the int path is slower.",
        "legal loop: as goofspiel's loop plays, legal_actions and a random choice for every seat "
        "to act, then apply_all (or apply) through the checked API; ratio and per move: against "
        "goofspiel's games/s and moves/s.",
        "ratio: Kiti's games/s over OpenSpiel goofspiel's (12 rounds of secret bids, C++ "
        "driven from Python), round by round; 1.0 means as fast"
        + (f" (open-spiel {version}: compare ratios measured with the same version)." if version else "."),
        "per move: the same rounds' moves/s (goofspiel: the players' actions, 11 a seat); a game "
        "with more moves than goofspiel's has a lower games/s ratio than per-move ratio.",
    ):
        console.print(line, markup=False)
    if any(r["reference"] and r["reference_games_per_s"] is None for r in rows) and version:
        console.print("n/a: goofspiel needs 2 players at least; no reference for fewer.", markup=False)
    batch = [r for r in rows if r["batch"]]
    if batch:
        console.print(_batch_table(cls, batch))
        console.print(
            f"batch: {batch[0]['batch']['games_per_batch']:,} random games at once (kiti.sim.batch, "
            "NumPy, legality checked each step) against goofspiel played wholly in C++ by "
            "pyspiel.evaluate_bots with C++ uniform random bots, in interleaved rounds.",
            markup=False,
        )
    for r in rows:
        if r["ismcts_iterations_per_s"] is not None:
            against = r.get("ismcts_ratio_spread")
            console.print(
                f"ISMCTS, {r['players']} seats, first decision, one core, random rollouts: "
                f"{r['ismcts_iterations_per_s']:,.0f} iterations/s"
                + (
                    f"; OpenSpiel's Python MCTSBot on goofspiel, same seats: "
                    f"{r['ismcts_reference_iterations_per_s']:,.0f}/s; ratio {_ratio(against)}"
                    if against
                    else ""
                ),
                markup=False,
            )
        for extra in r["extras"] or []:
            value = extra["value"]
            shown = f"{value:,.0f}" if abs(value) >= 100 else f"{value:,.1f}"
            console.print(f"{extra['name']}: {shown} {extra['unit']}")


def _games_table(cls: type[State], rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title=f"{cls.info.name}: random full games per second", title_justify="left")
    for col in ("seats", "games/s", "int path", "int/object", "goofspiel", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["players"]),
            _rate(r["games_per_s_spread"]),
            _rate(r["actions_games_per_s_spread"]),
            _ratio(r["int_over_object"]),
            _rate(r["reference_games_per_s_spread"]),
            _ratio(r["ratio_spread"]),
        )
    return table


def _legal_table(rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title="legal loop (goofspiel's loop, like for like)", title_justify="left")
    for col in ("seats", "games/s", "ratio", "moves/s", "per move"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(
            str(r["players"]),
            _rate(r["legal_games_per_s_spread"]),
            _ratio(r["legal_ratio_spread"]),
            f"{r['legal_moves_per_s']:,.0f}",
            _ratio(r["legal_moves_ratio_spread"]),
        )
    return table


def _moves_table(rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title="per move: moves per second", title_justify="left")
    for col in ("seats", "moves/game", "moves/s", "int path", "goofspiel", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        per_game = r["moves_per_s"] / r["games_per_s"] if r["games_per_s"] else 0.0
        goof = r["reference_moves_per_s"]
        table.add_row(
            str(r["players"]),
            f"{per_game:,.0f}",
            f"{r['moves_per_s']:,.0f}",
            f"{r['actions_moves_per_s']:,.0f}",
            "n/a" if goof is None else f"{goof:,.0f}",
            _ratio(r["moves_ratio_spread"]),
        )
    return table


def _batch_table(cls: type[State], rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(
        title=f"{cls.info.name}: batch simulator against goofspiel's C++ loop", title_justify="left"
    )
    for col in ("seats", "games/s", "moves/s", "C++ loop", "C++ moves/s", "ratio"):
        table.add_column(col, justify="right")
    for r in rows:
        b = r["batch"]
        theirs = b["reference_moves_per_s"]
        table.add_row(
            str(r["players"]),
            _rate(b["games_per_s_spread"]),
            f"{b['moves_per_s']:,.0f}",
            _rate(b["reference_games_per_s_spread"]),
            "n/a" if theirs is None else f"{theirs:,.0f}",
            _ratio(b["ratio_spread"]),
        )
    return table


def _rate(figure: dict[str, float] | None) -> str:
    """``9,526±2%``: a median rate and half its interquartile range, relative."""
    if figure is None:
        return "n/a"
    half = (figure["high"] - figure["low"]) / 2 / figure["median"] if figure["median"] else 0.0
    return f"{figure['median']:,.0f}±{half:.0%}"


def _ratio(figure: dict[str, float] | None) -> str:
    """``1.02 ±0.03``: a median ratio and half its interquartile range (three decimals
    below 0.1: ``0.012 ±0.001``)."""
    if figure is None:
        return "n/a"
    digits = 3 if abs(figure["median"]) < 0.1 else 2
    return f"{figure['median']:.{digits}f} ±{(figure['high'] - figure['low']) / 2:.{digits}f}"
