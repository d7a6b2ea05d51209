"""Policies over a whole batch: each returns ``[N, P]`` actions, read for the seats to act."""

from __future__ import annotations

import numpy as np

from . import tables as T
from .state import BatchState

_SEAGULL = int(np.flatnonzero(T.EATS)[0])


def random_actions(state: BatchState, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action for every seat to act."""
    noise = rng.random(state.hands.shape, dtype=np.float32)
    actions: np.ndarray = T.HAND_PICK[state.hands, (noise * T.HAND_SIZE[state.hands]).astype(np.intp)]
    taking = np.flatnonzero(~state.terminated & (state.taker >= 0))
    if taking.size:
        noise = rng.random((taking.size, len(T.CODES)), dtype=np.float32)
        pick = np.where(state.taking[taking] > 0, noise, -1.0).argmax(-1)
        actions[taking, state.taker[taking]] = T.ROUNDS + pick
    return actions


def greedy_actions(state: BatchState) -> np.ndarray:
    """A simple greedy play from what each seat sees: aim at the space whose fish are worth
    most (a face-down card counts the deck's mean, or its value for the seat that saw it):
    the highest diver for Deepest, the second highest for Deep, the lowest for Shallow, and
    the middle diver when nothing is worth taking.  A taker adds her catch cheapest card
    first, and a Seagull once her pile's top is worth no more than the cards still waiting."""
    worth = _worth(state)
    hands = state.hands
    size = T.HAND_SIZE[hands].astype(np.intp)
    highest = T.HAND_PICK[hands, size - 1]
    second = T.HAND_PICK[hands, np.maximum(size - 2, 0)]
    lowest = T.HAND_PICK[hands, 0]
    middle = T.HAND_PICK[hands, (size - 1) // 2]
    aim = worth.argmax(-1)
    actions: np.ndarray = np.where(worth.max(-1) > 0, np.choose(aim, [highest, second, lowest]), middle)
    taking = np.flatnonzero(~state.terminated & (state.taker >= 0))
    if taking.size:
        actions[taking, state.taker[taking]] = T.ROUNDS + _greedy_take(state, taking)
    return actions


def _worth(state: BatchState) -> np.ndarray:
    """[N, P, 3]: what each seat reckons each space's fish are worth."""
    values = T.VALUES[state.lagoon]
    held = np.arange(T.ROUNDS) < state.lagoon_len[..., None]
    veiled = state.veil >= 0
    up = held.copy()
    up[..., 0] &= ~veiled
    public = (values * up).sum(-1).astype(np.float32)
    seats = np.arange(state.players)[None, :, None]
    guess = np.where(state.veil[:, None, :] == seats, values[:, None, :, 0], T.MEAN_VALUE)
    worth: np.ndarray = public[:, None, :] + np.where(veiled[:, None, :], guess, 0.0)
    return worth


def _greedy_take(state: BatchState, games: np.ndarray) -> np.ndarray:
    """The card each taker adds next (a code index)."""
    waiting = state.taking[games] > 0
    seat = state.taker[games]
    n = state.pile_len[games, seat].astype(np.intp)
    top = np.where(n > 0, T.VALUES[state.piles[games, seat, np.maximum(n - 1, 0)]], np.iinfo(np.int16).min)
    others = waiting.copy()
    others[:, _SEAGULL] = False
    cheapest = np.where(others, T.VALUES, np.iinfo(np.int16).max).argmin(-1)
    gull = waiting[:, _SEAGULL] & (top <= T.VALUES[cheapest])
    take: np.ndarray = np.where(gull | ~others.any(-1), _SEAGULL, cheapest)
    return take
