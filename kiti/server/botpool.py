"""Bots play in a worker pool, so the event loop never waits on a search.

A worker receives the seat's :class:`~kiti.core.seatview.SeatView` (a guess drawn from what
the seat knows, never the true state), the bot spec and a seed, and returns the notation
of its move; the table then applies it through the same checked path as a human's move.
Processes by default (a search holds the GIL for its whole budget), threads for tests.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from ..core.errors import quoted
from ..core.seatview import SeatView


def _warm() -> None:
    import kiti.games  # noqa: F401  (registers every game in the worker)


def choose(game: str, spec: str, seed: int, view: SeatView) -> str:
    """The move ``spec`` plays from ``view`` (runs in a worker)."""
    from ..bots.registry import make_bot
    from ..games import get_game

    bot = make_bot(spec, get_game(game), seed)
    return str(bot.choose(view))


def bot_seed(table_seed: int, seat: int, moves: int) -> int:
    """Each decision's seed: a bot plays the same after a restart."""
    return random.Random(f"kiti-bot:{table_seed}:{seat}:{moves}").getrandbits(63)


class BotPool:
    def __init__(self, workers: int = 1, mode: str = "process") -> None:
        if mode not in ("process", "thread"):
            raise ValueError(f"bot mode must be process or thread, not {quoted(mode)}")
        workers = max(1, workers)
        self.executor: Executor
        if mode == "process":
            self.executor = ProcessPoolExecutor(
                workers, multiprocessing.get_context("spawn"), initializer=_warm
            )
        else:
            self.executor = ThreadPoolExecutor(workers, thread_name_prefix="kiti-bot")

    async def choose(self, game: str, spec: str, seed: int, view: SeatView) -> str:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, choose, game, spec, seed, view)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
