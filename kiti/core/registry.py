"""The games Kiti knows, by id.  Games register themselves on import."""

from __future__ import annotations

from .errors import KitiError
from .game import State

_GAMES: dict[str, type[State]] = {}


def register(cls: type[State]) -> type[State]:
    _GAMES[cls.info.id] = cls
    return cls


def get_game(game_id: str) -> type[State]:
    """The registered game ``game_id`` (import ``kiti.games`` first to load them all)."""
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise KitiError(f"unknown game {game_id!r} (known games: {known})") from None


def game_ids() -> list[str]:
    return sorted(_GAMES)
