"""Miaui simulated over N games at once with NumPy (see docs/batch.md).

pgx's shape: :func:`init` gives a :class:`BatchState` (a dataclass of arrays, game first),
``state.legal_action_mask`` ([N, P, A]), :func:`step` ``(state, actions) -> state`` with
``actions`` [N, P], ``state.rewards`` and ``state.terminated``.  Policies: :func:`random_actions`
and :func:`greedy_actions`.  :mod:`.check` plays the same deals and moves through the engine.
"""

from __future__ import annotations

from .policies import greedy_actions, random_actions
from .state import BatchState, init, init_from_decks, step, step_in_place
from .tables import CODES, NUM_ACTIONS

__all__ = [
    "CODES",
    "NUM_ACTIONS",
    "BatchState",
    "greedy_actions",
    "init",
    "init_from_decks",
    "random_actions",
    "step",
    "step_in_place",
]
