"""The batch simulator checked against the engine: the same deals, the same moves, the same scores.

:func:`compare` plays a batch of games with every option drawn per game (No Fighting, its
taker ordering catches, Kiti's start, Open Baskets) and half the games greedy, half random;
then plays every game again through the engine's checked API (``State.new`` with the same
deck as setup, ``apply_all`` for a round's dives, ``apply`` for a take) and counts the games
where the seats to act, the scores or the shares of the victory differ.

``python -m kiti.sim.batch.check --games 10000`` runs it for every seat count.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np

from ...games.miaui.rules import MiauiState
from . import tables as T
from .policies import greedy_actions, random_actions
from .state import BatchState, init, step_in_place


@dataclass
class Played:
    """A batch played to its end, with what the engine needs to play it again."""

    state: BatchState
    decks: np.ndarray  # [N, 37]: the burned card, then the stock in order
    options: dict[str, np.ndarray]
    actions: list[np.ndarray]  # per step, [N, P]
    acting: list[np.ndarray]  # per step, [N, P] bool
    returns: np.ndarray  # [N, P]


def random_options(rng: np.random.Generator, games: int, players: int) -> dict[str, np.ndarray]:
    """Every option drawn per game, each combination the engine allows."""
    no_fighting = rng.random(games) < 0.5
    return {
        "open_baskets": rng.random(games) < 0.5,
        "no_fighting": no_fighting,
        "taker_chooses_order": no_fighting & (rng.random(games) < 0.5),
        "kiti_start": np.where(no_fighting, 0, rng.integers(0, players, games)),
    }


def play(games: int, players: int, seed: int) -> Played:
    """A batch with options drawn per game, played to the end: greedy in half the games."""
    rng = np.random.default_rng(seed)
    options = random_options(rng, games, players)
    state = init(rng, games, players, options)
    decks = np.concatenate([state.burned[:, None], state.stock], axis=1)
    greedy = (np.arange(games) % 2 == 1)[:, None]
    played = Played(state, decks, options, [], [], np.zeros((games, players)))
    while not state.terminated.all():
        actions = np.where(greedy, greedy_actions(state), random_actions(state, rng))
        played.actions.append(actions)
        played.acting.append(state.acting)
        step_in_place(state, actions)
        played.returns += state.rewards
    return played


def replay(played: Played, game: int) -> MiauiState:
    """Game ``game`` of the batch through the engine's checked API; raises AssertionError
    where the seats to act differ from the batch's."""
    opts = {name: value[game].item() for name, value in played.options.items()}
    deck = [T.CODES[c] for c in played.decks[game]]
    state = MiauiState.new(played.state.players, opts, 0, setup={"deck": deck})
    assert isinstance(state, MiauiState)
    moves = state.codec().moves
    for actions, acting in zip(played.actions, played.acting):
        seats = sorted(state.to_act())
        assert seats == list(np.flatnonzero(acting[game])), (game, seats)
        if not seats:
            break
        if len(seats) > 1:
            state.apply_all({s: moves[actions[game, s]] for s in seats})
        else:
            state.apply(seats[0], moves[actions[game, seats[0]]])
    assert state.over, game
    return state


def compare(games: int, players: int, seed: int = 0) -> dict[str, int]:
    """Play a batch, replay each game through the engine; count the games that differ."""
    played = play(games, players, seed)
    scores = played.state.scores()
    differ = {"games": games, "players": players, "turns": 0, "scores": 0, "returns": 0}
    for g in range(games):
        try:
            state = replay(played, g)
        except AssertionError:
            differ["turns"] += 1
            continue
        differ["scores"] += state.scores() != scores[g].tolist()
        differ["returns"] += not np.allclose(state.returns(), played.returns[g])
    return differ


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, nargs="*", default=list(range(T.MIN_SEATS, T.MAX_SEATS + 1)))
    args = parser.parse_args()
    for players in args.players:
        start = time.perf_counter()
        result = compare(args.games, players, args.seed)
        print(result, f"{time.perf_counter() - start:.1f} s", flush=True)


if __name__ == "__main__":
    main()
