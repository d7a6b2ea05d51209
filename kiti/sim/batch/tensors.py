"""Miaui's observation tensor for every game of a batch at once (:class:`BatchObserver`).

The same values, at the same places, as Miaui's encoder
(:class:`kiti.games.miaui.tensors.MiauiEncoder`) gives for one state: every offset is read
from the encoder's layout and the options' values from one of its observations, so the
layout is declared once; ``tests/test_sim_batch_vector.py`` holds the two equal, value for
value, over whole games of every option and seat count.

Only what the viewer's view holds goes in, as in the encoder: its own divers, a face-down
card only for the seat that peeked at it, the other piles' cards and points only where the
view shows them (Open Baskets, the end, a pile of one card).  A batch never holds half of a
simultaneous choice (a round's dives are applied together), so "my dive" and "committed"
are always 0, as in the engine's vector env, which holds each choice until its last seat.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.tensors import FLOAT
from . import tables as T
from .state import BatchState

C = len(T.CODES)
#: Per lagoon slot: the card's code (C values), face down and unseen, face down and peeked.
SLOT = C + 2


class BatchObserver:
    """Writes Miaui's observation tensor of one seat per game (``viewer[g]``) for a batch."""

    def __init__(self, encoder: Any, options: dict[str, Any]) -> None:
        layout = encoder.observation_layout
        self.size = layout.size
        self.at = {s.name: s.offset for s in layout}
        self.slots = encoder.slots
        self.players = encoder.players
        self.open_baskets = bool(options["open_baskets"])
        fresh = encoder.game.new_state(0)
        options_segment = next(s for s in layout if s.name == "options")
        self._options = slice(options_segment.offset, options_segment.stop)
        self._option_values = encoder.observation(fresh, 0)[self._options]

    def write(self, state: BatchState, viewer: np.ndarray, out: np.ndarray) -> None:
        """``out[g]`` = the observation of seat ``viewer[g]`` in game ``g``."""
        at, n = self.at, self.players
        games = np.arange(state.num_games)
        out.fill(0.0)
        out[:, self._options] = self._option_values
        out[games, at["round"] + state.round.astype(np.intp) - 1] = 1.0
        over = state.terminated
        out[:, at["over"]] = over
        ego = (np.arange(n)[None, :] + viewer[:, None]) % n  # ego[g, r]: the seat in row r
        kiti = np.flatnonzero(state.kiti >= 0)
        out[kiti, at["kiti"] + (state.kiti[kiti] - viewer[kiti]) % n] = 1.0
        out[:, at["hand"] : at["hand"] + T.ROUNDS] = T.HAND_BITS[state.hands[games, viewer]]
        out[:, at["to_act"] : at["to_act"] + n] = state.acting[games[:, None], ego]
        self._lagoon(state, viewer, out)
        self._piles(state, ego, out)
        shown = over | self.open_baskets
        used = T.HAND_BITS[T.FULL_HAND & ~state.hands[games[:, None], ego]]  # [G, n, ROUNDS]
        width = n * T.ROUNDS
        out[:, at["discards"] : at["discards"] + width] = (used & shown[:, None, None]).reshape(-1, width)
        self._pending(state, viewer, out)
        stocked = T.SPACES * state.round.astype(np.int64)
        out[:, at["deck"]] = T.STOCKED - stocked
        held = state.lagoon_len.sum(1) + state.taking.sum(1) + state.pile_len.sum(1)
        out[:, at["box"]] = stocked - held

    def _lagoon(self, state: BatchState, viewer: np.ndarray, out: np.ndarray) -> None:
        """Each depth's cards, oldest first; the face-down one as "unseen", or its code and
        "peeked" for the seat that saw it."""
        base, slots = self.at["lagoon"], self.slots
        over = state.terminated
        for space in range(T.SPACES):
            for i in range(min(slots, state.lagoon.shape[2])):
                g = np.flatnonzero(state.lagoon_len[:, space] > i)
                if not g.size:
                    continue
                card = state.lagoon[g, space, i].astype(np.intp)
                slot = base + (space * slots + i) * SLOT
                seer = state.veil[g, space] if i == 0 else np.full(g.size, -1)
                down = (seer >= 0) & ~over[g]
                mine = (seer >= 0) & (seer == viewer[g])
                out[g, slot + np.where(down & ~mine, C, card)] = 1.0
                out[g[mine], slot + C + 1] = 1.0
                out[g[mine], slot + card[mine]] = 1.0

    def _piles(self, state: BatchState, ego: np.ndarray, out: np.ndarray) -> None:
        """Every pile in ego order: cards seen (by code), top card, size, points, known."""
        at, n = self.at, self.players
        games = np.arange(state.num_games)[:, None]
        length = state.pile_len[games, ego].astype(np.intp)  # [G, n]
        cards = state.piles[games, ego].astype(np.intp)  # [G, n, STOCKED]
        held = np.arange(cards.shape[2]) < length[..., None]
        piles = np.arange(length.size).reshape(length.shape)[..., None] * C  # [G, n, 1]
        counts = np.bincount((piles + cards)[held], minlength=length.size * C)
        counts = counts.reshape(*length.shape, C).astype(FLOAT)
        top = np.zeros_like(counts)
        g, r = np.nonzero(length > 0)
        top[g, r, cards[g, r, length[g, r] - 1]] = 1.0
        known = (length <= 1) | (state.terminated | self.open_baskets)[:, None]
        known[:, 0] = True  # its own pile: always
        seen = np.where(known[..., None], counts, top)
        out[:, at["pile_cards"] : at["pile_cards"] + n * C] = seen.reshape(-1, n * C)
        out[:, at["pile_top"] : at["pile_top"] + n * C] = top.reshape(-1, n * C)
        out[:, at["pile_size"] : at["pile_size"] + n] = length
        points = state.points[games, ego]
        out[:, at["score"] : at["score"] + n] = np.where(known, points, 0)
        out[:, at["score_known"] : at["score_known"] + n] = known

    def _pending(self, state: BatchState, viewer: np.ndarray, out: np.ndarray) -> None:
        """A No Fighting catch being ordered: its taker, its depth, its cards still to join."""
        at, n = self.at, self.players
        g = np.flatnonzero(state.taker >= 0)
        if not g.size:
            return
        out[g, at["pending_seat"] + (state.taker[g] - viewer[g]) % n] = 1.0
        out[g, at["pending_space"] + state.taker_space[g].astype(np.intp)] = 1.0
        out[g, at["pending_cards"] : at["pending_cards"] + C] = state.taking[g]
