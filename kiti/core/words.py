"""How a sentence names a seat for one viewer: ``you``, the player's name, or ``seat N``.

The terminal, the game renderers and the server's sentences all name seats this way.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from .errors import quoted

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


#: A player's name that sentences would read as a seat: "you", "seat 2" (any case).
SEAT_LIKE = re.compile(r"(seat\s*\d+|you)", re.IGNORECASE)


def name_refusal(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (it reads as a seat), or None if it can.

    The terminal's ``--names`` and the server's lobby both refuse with this reason."""
    if SEAT_LIKE.fullmatch(name.strip()):
        return f"{quoted(name)} would be read as a seat; choose another name"
    return None


def same_name(name: str, others: Sequence[str | None]) -> bool:
    """True if ``name`` is one of ``others`` (names are compared without case or edge spaces)."""
    key = name.strip().casefold()
    return any(o is not None and o.strip().casefold() == key for o in others)


def folded(line: str, width: int) -> list[str]:
    """A line broken between words to ``width`` columns (as rich breaks a Text)."""
    return textwrap.wrap(line, max(width, 1), break_on_hyphens=False) or [""]


def latest(lines: Sequence[str], width: int, room: int) -> list[str]:
    """The most recent of ``lines`` that fit ``room`` screen lines once broken between words
    at ``width`` columns (a line is shown whole or not at all, never cut mid-word): a game's
    log under its table."""
    out: list[list[str]] = []
    for line in reversed(lines):
        rows = folded(line, width)
        room -= len(rows)
        if room < 0:
            break
        out.append(rows)
    return [row for rows in reversed(out) for row in rows]
