"""The batch simulator checked against the engine: the same deals, the same moves, the same scores.

:func:`compare` plays a batch of games with every option drawn per game (No Fighting, its
taker ordering catches, Kiti's start, Open Baskets) and each seat greedy or random at random;
then plays every game again through the engine's checked API (``State.new`` with the same
deck as setup, ``apply_all`` for a round's dives, ``apply`` for a take) and counts the games
where the seats to act or their legal actions (at every step), the scores or the shares of
the victory differ.  It also counts, from the engine's events, how often each ruling that
changes play came up (Kiti breaking a tie, a No Fighting tie, fish carried over, a taker
ordering her catch, a Seagull eating, three Jellyfish leaving, a Lantern hiding a card), so
that a run shows what it covered.

``python -m kiti.sim.batch.check --games 10000`` runs it for every seat count.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.events import REFEREE
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
    acting: list[np.ndarray]  # per step, [N]: the seats to act, as a bit mask
    hands: list[np.ndarray]  # per step, [N, P] the divers in hand (bit masks)
    taking: list[np.ndarray]  # per step, [N, codes] the cards a taker is ordering
    returns: np.ndarray  # [N, P]
    rulings: Counter[str] = field(default_factory=Counter)


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
    """A batch with options drawn per game, played to the end, each seat greedy or random."""
    rng = np.random.default_rng(seed)
    options = random_options(rng, games, players)
    state = init(rng, games, players, options)
    decks = np.concatenate([state.burned[:, None], state.stock], axis=1)
    greedy = rng.random((games, players)) < 0.5  # which seats play greedy, which random
    played = Played(state, decks, options, [], [], [], [], np.zeros((games, players)))
    while not state.terminated.all():
        actions = np.where(greedy, greedy_actions(state), random_actions(state, rng))
        played.actions.append(actions)
        played.acting.append(state.acting @ (1 << np.arange(players)))
        played.hands.append(state.hands.copy())
        played.taking.append(state.taking.copy())
        step_in_place(state, actions)
        played.returns += state.rewards
    return played


def replay(played: Played, game: int) -> MiauiState:
    """Game ``game`` of the batch through the engine's checked API; raises AssertionError
    where the seats to act or their legal actions differ from the batch's."""
    opts = {name: value[game].item() for name, value in played.options.items()}
    deck = [T.CODES[c] for c in played.decks[game]]
    state = MiauiState.new(played.state.players, opts, 0, setup={"deck": deck})
    assert isinstance(state, MiauiState)
    moves = state.codec().moves
    for t, actions in enumerate(played.actions):
        seats = sorted(state.to_act())
        assert seats == _ACTING[played.acting[t][game]], (game, t, seats)
        if not seats:
            break
        row = actions[game].tolist()
        if len(seats) > 1:  # a round's dives
            hands = played.hands[t][game].tolist()
            for seat in seats:
                assert state.legal_actions(seat) == _HAND_ACTIONS[hands[seat]], (game, t, seat)
            state.apply_all({s: moves[row[s]] for s in seats})
        else:  # a take
            waiting = np.flatnonzero(played.taking[t][game]) + T.ROUNDS
            assert state.legal_actions(seats[0]) == waiting.tolist(), (game, t)
            state.apply(seats[0], moves[row[seats[0]]])
    assert state.over, game
    return state


#: The actions of each hand (bit mask), and the seats of each set of seats to act (bit mask).
_HAND_ACTIONS = [np.flatnonzero(bits).tolist() for bits in T.HAND_BITS]
_ACTING = [[s for s in range(T.MAX_SEATS) if mask >> s & 1] for mask in range(1 << T.MAX_SEATS)]


def compare(games: int, players: int, seed: int = 0) -> dict[str, Any]:
    """Play a batch, replay each game through the engine; count the games that differ
    (``turns``: the seats to act or their legal actions) and the rulings that came up."""
    played = play(games, players, seed)
    scores = played.state.scores()
    differ: dict[str, Any] = {"games": games, "players": players, "turns": 0, "scores": 0, "returns": 0}
    for g in range(games):
        try:
            state = replay(played, g)
        except AssertionError:
            differ["turns"] += 1
            continue
        differ["scores"] += state.scores() != scores[g].tolist()
        differ["returns"] += not np.allclose(state.returns(), played.returns[g])
        _count_rulings(played.rulings, state)
    differ["rulings"] = dict(sorted(played.rulings.items()))
    return differ


def _count_rulings(counts: Counter[str], state: MiauiState) -> None:
    """The games in which each ruling that changes play came up (from the engine's events)."""
    seen = set()
    for e in state.events(REFEREE):
        kind = e["type"]
        if kind == "catch":
            if e["tied"]:
                seen.add("kiti_tie")
            if len(e["cards"]) > 1:
                seen.add("carried_over")
        elif kind == "seagull" and e["ate"] is not None:
            seen.add("seagull_ate")
        elif kind in ("tie", "take", "jellyfish", "peek"):
            seen.add(kind)
    counts.update(seen)


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
