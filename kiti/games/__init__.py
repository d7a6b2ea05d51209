"""Every game Kiti plays.  Importing this package registers them all."""

from ..core.records import replay as _replay
from ..core.registry import game_ids, get_game
from . import miaui  # noqa: F401  (registers the game)


def replay(record):  # type: ignore[no-untyped-def]
    """Replay a record of any registered game."""
    return _replay(record, get_game)


__all__ = ["game_ids", "get_game", "replay"]
