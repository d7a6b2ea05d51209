"""Every game Kiti plays: the registry (:mod:`kiti.core.registry`) finds them by entry point."""

from ..core.registry import game_ids, game_part, get_game, has_part

__all__ = ["game_ids", "game_part", "get_game", "has_part"]
