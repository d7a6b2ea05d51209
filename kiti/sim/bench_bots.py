"""Bot speed: ISMCTS iterations per second (wired into ``kiti bench``)."""

from __future__ import annotations

import random
import time
from typing import Any


def ismcts_iterations_per_second(players: int = 4, seconds: float = 2.0, game: str = "miaui",
                                 rollout: str = "random", seed: int = 12345) -> dict[str, Any]:
    """ISMCTS iterations per second on one core, from the first decision of a fresh game.

    Runs repeated searches of 500 iterations from seat 0's view at the start of a game
    (the most expensive point: full-length playouts) for about ``seconds``, on new deals.
    """
    from ..core.seatview import seat_view
    from ..bots.ismcts import ISMCTSBot
    from ..games import get_game

    cls = get_game(game)
    rng = random.Random(seed)
    per_search = 500
    bot = ISMCTSBot(seed, iters=per_search, rollout=rollout)
    views = [seat_view(cls.new(players, None, rng.getrandbits(32)), 0) for _ in range(8)]
    bot.choose(views[0])  # warm-up
    iters = 0
    searches = 0
    start = time.perf_counter()
    while True:
        bot.choose(views[searches % len(views)])
        iters += per_search
        searches += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return {
        "game": game,
        "players": players,
        "rollout": rollout,
        "iterations": iters,
        "seconds": round(elapsed, 3),
        "iterations_per_s": round(iters / elapsed, 1),
    }
