"""The batch simulator (kiti.sim.batch): the engine's games, many at once.

The differential test plays 2,500 games per seat count here (10,000 in all, every option drawn
per game); ``python -m kiti.sim.batch.check --games 10000`` runs 10,000 per seat count (see
docs/batch.md for the runs reported)."""

from __future__ import annotations

import numpy as np
import pytest

from kiti.core.errors import OptionError, SetupError
from kiti.games.miaui.rules import INFO, MiauiState
from kiti.sim import batch as B
from kiti.sim.batch import check
from kiti.sim.batch import tables as T

SEATS = range(INFO.min_seats, INFO.max_seats + 1)
RULINGS = ("kiti_tie", "tie", "carried_over", "take", "seagull_ate", "jellyfish", "peek")


@pytest.mark.parametrize("players", SEATS)
def test_the_batch_plays_every_game_as_the_engine_does(players: int) -> None:
    """Same deals, same moves through the engine's checked API: the same seats to act with
    the same legal actions at every step, the same scores and the same shares of victory."""
    result = check.compare(2_500, players, seed=players)
    assert (result["turns"], result["scores"], result["returns"]) == (0, 0, 0), result
    for ruling in RULINGS:  # every ruling that changes play came up, in many games
        assert result["rulings"].get(ruling, 0) >= 50, (ruling, result["rulings"])


def test_a_fresh_batch_is_the_engines_fresh_game() -> None:
    """A new batch's legal actions are the engine's, action for action (the codec's numbers)."""
    state = B.init(1, 4, 4, {"no_fighting": True, "taker_chooses_order": True})
    engine = MiauiState.new(4, {"no_fighting": True, "taker_chooses_order": True}, 0)
    assert len(engine.codec().moves) == B.NUM_ACTIONS
    for seat in range(4):
        assert np.flatnonzero(state.legal_action_mask[0, seat]).tolist() == engine.legal_actions(seat)
    assert state.acting.all() and not state.terminated.any()


def test_decks_are_the_miaui_deck_and_round_one_stocks_no_seagull() -> None:
    state = B.init(7, 3_000, 3)
    decks = np.concatenate([state.burned[:, None], state.stock], axis=1)
    assert (np.sort(decks, axis=1) == np.sort(T.DECK)).all()
    assert not T.EATS[state.stock[:, :3]].any()
    assert T.EATS[state.burned].any()  # a Seagull may be burned, as in the engine


def test_step_returns_a_new_state_and_refuses_an_illegal_action() -> None:
    rng = np.random.default_rng(0)
    state = B.init(rng, 5, 3)
    actions = B.random_actions(state, rng)
    after = B.step(state, actions)
    assert state.hands.tolist() == [[T.FULL_HAND] * 3] * 5  # unchanged
    assert (after.round == 2).all() and (after.moves == 3).all()
    after.hands[0, 1] = T.FULL_HAND ^ 1  # seat 1 of game 0 has played diver 1 ...
    bad = B.random_actions(after, rng)
    bad[0, 1] = 0  # ... and dives it again
    hands = after.hands.copy()
    with pytest.raises(ValueError, match="game 0: action 0 is not legal for seat 1"):
        B.step_in_place(after, bad)
    assert (after.hands == hands).all() and (after.round == 2).all()  # nothing changed
    with pytest.raises(ValueError, match="actions must be"):
        B.step(state, actions[:, :2])


def test_options_are_miaui_options_checked_by_the_engine() -> None:
    with pytest.raises(OptionError, match="no option 'fighting'"):
        B.init(0, 2, 4, {"fighting": True})
    with pytest.raises(OptionError, match="taker_chooses_order only applies with no_fighting"):
        B.init(0, 2, 4, {"taker_chooses_order": [False, True]})
    with pytest.raises(OptionError, match="kiti_start must be a seat"):
        B.init(0, 2, 3, {"kiti_start": 5})
    with pytest.raises(SetupError, match="3-6 players"):
        B.init(0, 2, 7)
    state = B.init(0, 2, 4, {"no_fighting": [True, False], "kiti_start": [0, 3]})
    assert state.kiti.tolist() == [-1, 3]


def test_a_deck_stocking_a_seagull_in_round_one_is_refused() -> None:
    deck = np.array(T.DECK)
    gull = int(np.flatnonzero(T.EATS[deck])[0])
    deck[[1, gull]] = deck[[gull, 1]]
    with pytest.raises(SetupError, match="Seagull in round 1"):
        B.init_from_decks(deck[None], 4)


def test_every_game_ends_with_the_victory_shared_by_the_top_scorers() -> None:
    rng = np.random.default_rng(5)
    state = B.init(rng, 2_000, 4, {"no_fighting": True, "taker_chooses_order": True})
    shares = np.zeros((2_000, 4))
    while not state.terminated.all():
        state = B.step(state, B.random_actions(state, rng))
        shares += state.rewards
    scores = state.scores()
    top = scores == scores.max(1, keepdims=True)
    assert np.allclose(shares, top / top.sum(1, keepdims=True))
    assert (top.sum(1) > 1).any()  # shared victories happen and are shared
    assert (state.round == T.ROUNDS).all() and (state.hands == 0).all()


def test_the_greedy_policy_beats_random_play() -> None:
    """One greedy seat among three random ones wins far more than its fair quarter."""
    rng = np.random.default_rng(11)
    state = B.init(rng, 2_000, 4)
    shares = np.zeros(4)
    while not state.terminated.all():
        actions = B.random_actions(state, rng)
        actions[:, 0] = B.greedy_actions(state)[:, 0]
        B.step_in_place(state, actions)
        shares += state.rewards.sum(0)
    assert shares[0] / 2_000 > 0.4 > shares[1:].max() / 2_000


def test_the_round_one_seagull_rule_deals_as_the_engine_does() -> None:
    """The engine puts a round-1 Seagull back and reshuffles: the burned card is any card, the
    first three stocked are others, and the rest are shuffled afresh, Seagulls included."""
    games, gulls, cards = 40_000, int(T.EATS[T.DECK].sum()), len(T.DECK)
    state = B.init(3, games, 4)
    burned = T.EATS[state.burned].mean()
    fourth = T.EATS[state.stock[:, 3]].mean()  # the first card of round 2
    last = T.EATS[state.stock[:, -1]].mean()
    sigma = (0.25 / games) ** 0.5
    assert abs(burned - gulls / cards) < 4 * sigma
    expected = (gulls - gulls / cards) / (cards - 4)  # the Seagulls left, among the 33 others
    assert abs(fourth - expected) < 4 * sigma and abs(last - expected) < 4 * sigma
