"""The batch simulator against OpenSpiel's C++ loop, for ``kiti bench`` (see :mod:`kiti.sim.bench`).

:func:`batch_comparison` plays batches of :data:`BATCH_GAMES` random games and OpenSpiel's
goofspiel through ``pyspiel.evaluate_bots`` with C++ uniform random bots (the whole game in
C++, one Python call a game), in interleaved rounds, and reports the median games per second
of each, with spreads, and the median of the same-round ratios.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import numpy as np

from ..bench import Runner, interleaved, spread
from . import tables as T
from .policies import random_actions
from .state import init, step_in_place

#: The games the batch simulator plays (by game id).
GAMES = ("miaui",)
CARDS = 12
#: Games per batch in ``kiti bench``.
BATCH_GAMES = 10_000
CPP_REFERENCE = (
    "open_spiel goofspiel(num_cards=12, imp_info, points_order=random), pyspiel.evaluate_bots "
    "with C++ uniform random bots (one call a game)"
)


def batch_runner(players: int) -> Runner:
    """Random games of Miaui in one batch (``step_in_place``, legality checked each step),
    from the seed ``first``; returns the seconds and the moves (the engine's count)."""

    def run(first: int, games: int) -> tuple[float, int]:
        rng = np.random.default_rng(first)
        start = time.perf_counter()
        state = init(rng, games, players)
        while not state.terminated.all():
            step_in_place(state, random_actions(state, rng))
        return time.perf_counter() - start, int(state.moves.sum())

    return run


def cpp_runner(players: int) -> Runner | None:
    """Goofspiel played wholly in C++ by ``evaluate_bots``; None without open-spiel (or for
    fewer seats than goofspiel has).  Moves: the players' actions (11 bids a seat a game)."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(
        "goofspiel", {"num_cards": CARDS, "players": players, "imp_info": True, "points_order": "random"}
    )
    if players < game.get_type().min_num_players:
        return None
    bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(players)]
    evaluate, new = pyspiel.evaluate_bots, game.new_initial_state
    actions = _actions_per_game(game, players)

    def run(first: int, games: int) -> tuple[float, int]:
        start = time.perf_counter()
        for seed in range(first, first + games):
            evaluate(new(), bots, seed)
        return time.perf_counter() - start, games * actions

    return run


def _actions_per_game(game: Any, players: int) -> int:
    """The players' actions in one goofspiel game (every game has as many: one bid a seat
    a turn, the last card played by the game itself)."""
    state, actions = game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_actions([state.legal_actions(p)[0] for p in range(players)])
            actions += players
    return actions


def batch_comparison(game: str, players: int, per_round: float, rounds: int) -> dict[str, Any] | None:
    """The batch simulator's games and moves per second against :data:`CPP_REFERENCE`'s, in
    ``rounds`` interleaved rounds; None for a game the batch simulator does not play or a
    seat count it does not have."""
    if game not in GAMES or not T.MIN_SEATS <= players <= T.MAX_SEATS:
        return None
    ours = batch_runner(players)
    ours(0, 100)  # warm-up
    runners = {"batch": (ours, BATCH_GAMES)}
    cpp = cpp_runner(players)
    if cpp is not None:
        cpp(0, 10)
        games = max(1, round(per_round * 10 / max(cpp(0, 10)[0], 1e-9)))
        runners["cpp"] = (cpp, games)
    rates = interleaved(runners, rounds)
    batch = rates["batch"]
    out: dict[str, Any] = {
        "games_per_batch": BATCH_GAMES,
        "games_per_s_spread": spread([g for g, _ in batch], 0),
        "moves_per_s": round(statistics.median(m for _, m in batch)),
        "reference": CPP_REFERENCE,
        "reference_games_per_s_spread": None,
        "reference_moves_per_s": None,
        "ratio_spread": None,
    }
    if cpp is not None:
        theirs = rates["cpp"]
        out["reference_games_per_s_spread"] = spread([g for g, _ in theirs], 0)
        out["reference_moves_per_s"] = round(statistics.median(m for _, m in theirs))
        out["ratio_spread"] = spread([b[0] / c[0] for b, c in zip(batch, theirs)], 3)
    for key in ("games_per_s", "reference_games_per_s", "ratio"):
        figure = out[f"{key}_spread"]
        out[key] = None if figure is None else figure["median"]
    return out
