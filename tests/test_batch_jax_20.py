"""The JAX port of the batch step (kiti/sim/batch/jax_step.py) against the NumPy simulator.

The same deals and the same actions (NumPy's random and greedy policies choosing) go to both,
with every option drawn per game as check.py draws them (``jax_step.compare``); at every step
the legal masks and the seats to act must be equal (and the JAX random policy's actions
legal), and at the end the scores, the shares of the victory, the moves and the whole table.
Whole games played on the device by ``play_random`` must end in states the rules can reach.
"""

from __future__ import annotations

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from kiti.sim.batch import jax_step as J  # noqa: E402
from kiti.sim.batch import tables as T  # noqa: E402
from kiti.sim.batch.check import random_options  # noqa: E402

GAMES = 300


@pytest.mark.parametrize("players", range(T.MIN_SEATS, T.MAX_SEATS + 1))
def test_jax_step_plays_the_numpy_games(players: int) -> None:
    result = J.compare(GAMES, players, seed=players)
    assert result["differ"] == dict.fromkeys(result["differ"], 0), result
    assert result["steps"] > T.ROUNDS
    # What the games covered: takers ordering catches, fish carried over, a Lantern's veil,
    # and piles losing cards (a Seagull eating, three Jellyfish leaving).
    assert min(result["seen"].values()) >= 10, result


def test_jax_init_deals_as_numpy_deals() -> None:
    """Deals made on the device are decks NumPy accepts (no round-1 Seagull) and dealt alike."""
    options = random_options(np.random.default_rng(1), 500, 4)
    dealt = J.init(jax.random.key(1), 500, 4, options)
    decks = np.concatenate([np.asarray(dealt.burned)[:, None], np.asarray(dealt.stock)], axis=1)
    again = J.to_numpy(J.init_from_decks(decks, 4, options))
    assert J.same_table(J.to_numpy(dealt), again).all()
    assert len({d.tobytes() for d in decks}) == 500


@pytest.mark.parametrize("players", [T.MIN_SEATS, T.MAX_SEATS])
def test_play_random_ends_in_legal_states(players: int) -> None:
    options = random_options(np.random.default_rng(players), 200, players)
    last, returns = J.play_random(jax.random.key(players), 200, players, options)
    end = J.to_numpy(last)
    slots = np.arange(T.STOCKED) < end.pile_len[..., None]
    cards = np.where(slots, end.piles, 0)
    assert end.terminated.all() and (end.round == T.ROUNDS).all() and (end.hands == 0).all()
    assert (end.taker == -1).all() and (end.taking == 0).all() and (end.catches == -1).all()
    assert (end.points == (T.VALUES[cards] * slots).sum(-1)).all()
    assert (end.jellies == (T.JELLY[cards] & slots).sum(-1)).all() and (end.jellies < T.JELLY_LIMIT).all()
    assert not (T.EATS[cards] & slots).any()
    assert (end.moves >= (T.ROUNDS - 1) * players).all()
    shares = np.asarray(returns)
    assert np.allclose(shares.sum(1), 1)
    assert ((shares > 0) == (end.points == end.points.max(1, keepdims=True))).all()
    codes = np.arange(len(T.CODES))
    in_piles = ((cards[..., None] == codes) & slots[..., None]).sum((1, 2))
    in_stock = (end.stock[..., None] == codes).sum(1)
    assert (in_piles <= in_stock).all()  # the piles hold cards of the game's own deck
