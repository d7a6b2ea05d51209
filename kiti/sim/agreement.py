"""How often do bots make the same simultaneous secret choice? (A bot playing a fixed rule
ties with its own copies and is easy to read; a good bot mixes.)

For every simultaneous step of a game (several seats in ``to_act``), every pair of seats
that both chose counts once, and "same" when their moves are equal.  Generic over games.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from ..bots.registry import make_bot
from ..core.game import State
from ..core.seatview import seat_view


def same_choice_share(
    cls: type[State], specs: list[str], games: int, seed: int = 0, options: dict[str, Any] | None = None
) -> dict[str, float]:
    """Play ``games`` games with one bot per seat (``specs``); return the share of seat pairs
    that made the same simultaneous choice, with the number of pairs counted."""
    rng = random.Random(seed)
    same = pairs = 0
    for _ in range(games):
        state = cls.new(len(specs), options, rng.getrandbits(63))
        bots = [make_bot(spec, cls, rng.getrandbits(63)) for spec in specs]
        while not state.over:
            acting = sorted(state.to_act())
            chosen = {seat: bots[seat].choose(seat_view(state, seat)) for seat in acting}
            if len(acting) > 1:
                for a, b in itertools.combinations(acting, 2):
                    pairs += 1
                    same += chosen[a] == chosen[b]
            for seat in acting:
                state.apply(seat, chosen[seat])
    return {"share": same / pairs if pairs else 0.0, "pairs": pairs}
