"""The uniform-random bot."""

from __future__ import annotations

import random

from ..core.moves import Move
from ..core.seatview import SeatView


class RandomBot:
    """Uniform over the legal moves, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        return view.random_move(self.rng)
