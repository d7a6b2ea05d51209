"""The bots of a table: each bot-played seat to act thinks in the pool, then moves.

A seat is bot-played when it is a bot seat, when its human left or timed out at a table
that chose takeover (until the human is back), or for one move after a timeout at a
table without takeover.  The move goes through :meth:`Table.submit`, the same checked,
commit-then-broadcast path as a human's.  A bot that overruns the server's time limit,
fails or answers an illegal move is replaced for that move by a uniform legal move.
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING

from ..core.seatview import SeatView, seat_view
from .botpool import bot_seed
from .protocol import ProtocolError

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("kiti.server")


class BotDriver:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.thinking: dict[int, asyncio.Task[None]] = {}

    def schedule(self) -> None:
        """Start a turn for every bot-played seat to act that is not thinking yet."""
        table = self.table
        if not table.playing():
            return
        for seat in sorted(table.state.to_act()):
            if table.plays(seat) and seat not in self.thinking:
                self.thinking[seat] = table.spawn(self._turn(seat))

    def cancel(self) -> None:
        for task in self.thinking.values():
            task.cancel()
        self.thinking.clear()

    async def _turn(self, seat: int) -> None:
        try:
            await self._play(seat)
        finally:
            if self.thinking.get(seat) is asyncio.current_task():
                del self.thinking[seat]
            if not self.table.closed:
                self.schedule()

    async def _play(self, seat: int) -> None:
        table = self.table
        async with table.lock:  # a committed state (a move may be on its way to the database)
            if not (table.plays(seat) and table.playing() and seat in table.state.to_act()):
                return
            seed = bot_seed(table.row.seed, seat, len(table.state.history))
            view = seat_view(table.state, seat)
        text = await self._think(seat, seed, view)
        try:
            if text is not None:
                await table.submit(seat, text, bot=True)
                return
        except ProtocolError as exc:
            if exc.code not in ("illegal_move", "bad_move"):
                return
            log.warning("table %s: bot at seat %d played %r: %s", table.id, seat, text, exc.message)
        await self._fallback(seat, seed)

    async def _think(self, seat: int, seed: int, view: SeatView) -> str | None:
        """The bot's move from the seat's view, or None if it overran or failed."""
        table = self.table
        services = table.services
        try:
            job = services.bots.choose(table.row.game, table.bot_spec(seat), seed, view)
            return await asyncio.wait_for(job, services.config.bot_time_limit)
        except TimeoutError:
            log.warning("table %s: the bot at seat %d overran its time", table.id, seat)
        except Exception:  # a bot bug must not stop the table
            log.exception("table %s: the bot at seat %d failed", table.id, seat)
        return None

    async def _fallback(self, seat: int, seed: int) -> None:
        """A uniform legal move for the seat, instead of the bot's."""
        table = self.table
        async with table.lock:
            if seat not in table.state.to_act():
                return
            move = str(table.state.random_move(seat, random.Random(seed)))
        try:
            await table.submit(seat, move, bot=True)
        except ProtocolError as exc:
            log.warning("table %s: no fallback move for seat %d: %s", table.id, seat, exc.message)
