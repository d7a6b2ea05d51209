"""The turn timer of a table: a deadline for each human-played seat that is to act.

A seat gets a fresh deadline when it comes to act (and again after its own move, or when
its human takes it back from a bot); the deadline goes when the seat no longer acts.  At
the deadline the table hands the seat to a bot (see :meth:`Table.timed_out`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .tables import Table


class TurnClock:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.deadlines: dict[int, float] = {}
        self.handle: asyncio.TimerHandle | None = None

    @property
    def seconds(self) -> float | None:
        return self.table.row.timer

    def update(self) -> None:
        """Deadlines for exactly the human-played seats to act now."""
        table = self.table
        if self.seconds is None:
            return
        if not table.playing():
            self.cancel()
            return
        loop = asyncio.get_running_loop()
        acting = table.state.to_act()
        for seat in list(self.deadlines):
            if seat not in acting or table.plays(seat):
                del self.deadlines[seat]
        for seat in acting:
            if not table.plays(seat):
                self.deadlines.setdefault(seat, loop.time() + self.seconds)
        self._arm(loop)

    def restart(self, seat: int) -> None:
        """Forget the seat's deadline: the next update gives it a fresh one."""
        self.deadlines.pop(seat, None)

    def left(self) -> dict[str, Any] | None:
        """The clock as clients see it: the timer and the seconds left per seat."""
        if self.seconds is None:
            return None
        now = asyncio.get_running_loop().time() if self.deadlines else 0.0
        return {"seconds": self.seconds,
                "left": {str(s): round(max(0.0, d - now), 1) for s, d in sorted(self.deadlines.items())}}

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self.deadlines.clear()

    def _arm(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        if self.deadlines:
            self.handle = loop.call_at(min(self.deadlines.values()), self._fire)

    def _fire(self) -> None:
        self.handle = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        for seat, deadline in sorted(self.deadlines.items()):
            if deadline <= now + 0.001:
                del self.deadlines[seat]
                self.table.timed_out(seat)
        self._arm(loop)
