"""Typed errors. Every message names what was wrong."""

from __future__ import annotations


class KitiError(Exception):
    """Base class of every error Kiti raises on bad input."""


class OptionError(KitiError, ValueError):
    """An unknown option, or a bad value for a known one."""


class SetupError(KitiError, ValueError):
    """A bad seat count, seed or explicit setup."""


class NotationError(KitiError, ValueError):
    """Text that is not a move of this game."""


class IllegalMoveError(KitiError, ValueError):
    """A well-formed move that the rules do not allow now.

    The state it was offered to is left exactly as it was.
    """

    def __init__(self, seat: int, move: object, reason: str) -> None:
        self.seat = seat
        self.move = move
        self.reason = reason
        super().__init__(reason)


class RecordError(KitiError, ValueError):
    """A record that cannot be replayed. ``index`` is the 0-based move index, if any."""

    def __init__(self, reason: str, index: int | None = None, move: object = None) -> None:
        self.reason = reason
        self.index = index
        self.move = move
        where = "" if index is None else f"move {index} ({move!r}): "
        super().__init__(where + reason)
