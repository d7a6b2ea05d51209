"""How a sentence names a seat for one viewer: ``you``, the player's name, or ``seat N``.

The terminal, the game renderers and the server's sentences all name seats this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Names = Sequence[str | None] | None  # a player's name per seat (None: unnamed)


def seat_word(seat: int, viewer: Any = None, names: Names = None) -> str:
    """'you' for the viewer's own seat, else the player's name, else 'seat N'."""
    if seat == viewer:
        return "you"
    name = names[seat] if names and 0 <= seat < len(names) else None
    return name or f"seat {seat}"


def seat_possessive(seat: int, viewer: Any = None, names: Names = None) -> str:
    """'your', or "Ann's" / "seat 2's"."""
    return "your" if seat == viewer else f"{seat_word(seat, viewer, names)}'s"
