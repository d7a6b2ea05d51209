"""The bot interface.  A bot never receives the game state: only a :class:`SeatView`.

See :mod:`kiti.core.seatview` for what a SeatView holds (a guess drawn from the seat's
information set, never the true state) and why bots may query it freely.
"""

from __future__ import annotations

from typing import Protocol

from ..core.moves import Move
from ..core.seatview import SeatView


class Bot(Protocol):
    """A player program.  ``choose`` sees a SeatView, never the state."""

    name: str

    def choose(self, view: SeatView) -> Move: ...


__all__ = ["Bot", "SeatView"]
