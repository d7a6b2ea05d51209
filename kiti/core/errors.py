"""Typed errors. Every message names what was wrong."""

from __future__ import annotations

from typing import Any

#: The most characters of a bad value an error message quotes.
QUOTE_LIMIT = 80


def quoted(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """A bad value as an error message quotes it: its ``repr``, cut to about ``limit``
    characters with an ellipsis (a record holding a 1 MB move prints a line, not 1 MB).

    Never fails: an integer too long to print in full is described by its length.
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 3 * limit:
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    try:
        text = repr(value)
    except Exception:
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class KitiError(Exception):
    """Base class of every error Kiti raises on bad input."""


class OptionError(KitiError, ValueError):
    """An unknown option, or a bad value for a known one."""


class SetupError(KitiError, ValueError):
    """A bad seat count, seed, viewer or explicit setup."""


class NotationError(KitiError, ValueError):
    """Text that is not a move of this game."""


class IllegalMoveError(KitiError, ValueError):
    """A move that the rules do not allow now.

    The state it was offered to is left exactly as it was (its generator included).
    """

    def __init__(self, seat: object, move: object, reason: str) -> None:
        self.seat = seat
        self.move = move
        self.reason = reason
        super().__init__(reason)


class NotYourTurnError(IllegalMoveError):
    """A seat that exists but is not to act now."""


class GameOverError(IllegalMoveError):
    """A move offered after the end of the game."""


class UndoError(KitiError, ValueError):
    """A take-back the engine refuses (the reason says why)."""


class RecordError(KitiError, ValueError):
    """A record that cannot be replayed.

    ``index`` is the 0-based index of the bad move, if any; messages number moves from 1
    as people do ("move 5" is the fifth move of the record).
    """

    def __init__(self, reason: str, index: int | None = None, move: object = None) -> None:
        self.reason = reason
        self.index = index
        self.move = move
        where = "" if index is None else f"move {index + 1} ({quoted(move)}): "
        super().__init__(where + reason)


class MissingPartError(KitiError, LookupError):
    """A game asked for a part (renderer, heuristic) it does not declare."""
