"""The clock of a table: a time bank per person, as on Board Game Arena, and the stand-ins' tally.

A timed table gives each decision ``move`` seconds (its :class:`~.config.TimerPreset`); a
person who takes less adds the rest to their reserve (the bank, at most ``cap``), one who
takes more draws on it.  A human-played seat to act has a deadline: now + ``move`` + its
bank.  At the deadline the table has the stand-in play that one decision (see
:meth:`Table.timed_out`) and the bank is empty.  Every time comes from the event loop's
clock (monotonic).

Per human seat the clock also counts the decisions a stand-in made (``stand_ins``) and how
many of the last ones in a row (``streak``).  Bank and counts are stored (``kiti_clocks``)
with the move that changes them, so a restart keeps them; the decision that was running
when the server stopped starts afresh (its ``move`` seconds plus the stored bank); in a
cluster, a table claimed from a dead instance resumes it from its last move's stored time
(``carried``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, insert, select

from . import models
from .config import TimerPreset, timer_preset
from .store import Op

if TYPE_CHECKING:
    from .tables import Table


@dataclass(frozen=True)
class SeatTime:
    bank: float  # seconds in reserve
    stand_ins: int = 0  # decisions a stand-in made for this seat
    streak: int = 0  # how many of the seat's last decisions a stand-in made in a row


def save_op(table_id: str, seat: int, t: SeatTime) -> Op:
    def op(conn: Connection) -> None:
        c = models.clocks
        conn.execute(delete(c).where(c.c.table_id == table_id, c.c.seat == seat))
        conn.execute(
            insert(c).values(
                table_id=table_id, seat=seat, bank=t.bank, stand_ins=t.stand_ins, streak=t.streak
            )
        )

    return op


def load_op(table_id: str) -> Op:
    def op(conn: Connection) -> dict[int, SeatTime]:
        c = models.clocks
        rows = conn.execute(select(c).where(c.c.table_id == table_id))
        return {r.seat: SeatTime(r.bank, r.stand_ins, r.streak) for r in rows}

    return op


class TurnClock:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.preset: TimerPreset | None = None if table.row.timer is None else timer_preset(table.row.timer)
        self.times: dict[int, SeatTime] = {}  # per human seat, once it differs from the start
        self.started: dict[int, float] = {}  # when the running decision of a seat began
        self.deadlines: dict[int, float] = {}
        self.handle: asyncio.TimerHandle | None = None
        #: cluster: seconds the running decisions had already lasted when another instance
        #: stopped (the table was claimed from it); used once, by the next update
        self.carried = 0.0
        #: a fresh game has nothing stored, nor does a table without timer and takeover
        self.restored = not table.state.history or (table.row.timer is None and not table.row.takeover)

    @property
    def seconds(self) -> float | None:
        return self.table.row.timer

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def time(self, seat: int) -> SeatTime:
        return self.times.get(seat) or SeatTime(self.preset.bank if self.preset else 0.0)

    async def restore(self) -> None:
        """Read the stored banks and counts (once, under the table's lock, before any use)."""
        if self.restored:
            return
        self.restored = True
        stored = await self.table.services.store.read(load_op(self.table.id))
        for seat, t in stored.items():
            self.times.setdefault(seat, t)

    # ------------------------------------------------------------ moves
    def after_move(self, seat: int, stand_in: bool) -> SeatTime:
        """The seat's time once its move is made: a person's unused time goes to the bank and the
        streak ends; a stand-in's move is counted."""
        t = self.time(seat)
        if stand_in:
            return replace(t, stand_ins=t.stand_ins + 1, streak=t.streak + 1)
        bank = t.bank
        if self.preset is not None and seat in self.started:
            spent = self.now() - self.started[seat]
            bank = min(self.preset.cap, max(0.0, bank + self.preset.move - spent))
        return replace(t, bank=round(bank, 3), streak=0)

    def settle(self, seat: int, t: SeatTime) -> None:
        """Keep the seat's time after its move was stored; its next decision gets a fresh count."""
        self.times[seat] = t
        self.restart(seat)

    def timed_out(self, seat: int) -> None:
        """The seat's time ran out: its bank is spent."""
        self.times[seat] = replace(self.time(seat), bank=0.0)
        self.restart(seat)

    def came_back(self, seat: int) -> None:
        self.times[seat] = replace(self.time(seat), streak=0)
        self.restart(seat)

    # ------------------------------------------------------------ deadlines
    def update(self) -> None:
        """Deadlines for exactly the human-played seats to act now."""
        table = self.table
        if self.preset is None:
            return
        if not table.playing():
            self.cancel()
            return
        now, acting = self.now(), table.state.to_act()
        for seat in list(self.deadlines):
            if seat not in acting or table.plays(seat):
                self.restart(seat)
        start, self.carried = now - self.carried, 0.0
        for seat in acting:
            if not table.plays(seat) and seat not in self.deadlines:
                self.started[seat] = start
                self.deadlines[seat] = start + self.preset.move + self.time(seat).bank
        self._arm(asyncio.get_running_loop())

    def restart(self, seat: int) -> None:
        """Forget the seat's running decision: the next update gives it a fresh one."""
        self.deadlines.pop(seat, None)
        self.started.pop(seat, None)

    def left(self) -> dict[str, Any] | None:
        """The clock as clients see it: the time per decision, the seconds left for each seat to
        act (its decision's and its bank's) and every person's bank."""
        if self.preset is None:
            return None
        now = self.now() if self.deadlines else 0.0
        humans = [i for i, s in enumerate(self.table.seats) if s.human]
        return {
            "seconds": self.preset.move,
            "bank": self.preset.bank,
            "cap": self.preset.cap,
            "left": {str(s): round(max(0.0, d - now), 1) for s, d in sorted(self.deadlines.items())},
            "banks": {str(s): round(self.time(s).bank, 1) for s in humans},
        }

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        self.deadlines.clear()
        self.started.clear()

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
                self.timed_out(seat)
                self.table.timed_out(seat)
        self._arm(loop)
