"""Every game Kiti plays.  Importing this package registers them all."""

from typing import Any

from ..core.game import State
from ..core.records import replay as _replay
from ..core.registry import game_ids, game_part, get_game, has_part
from . import mauw, miaui, motu  # noqa: F401  (registers the games)


# kept until the game tests move to the new name (issue 18)
def replay(record: Any) -> State:
    """Old name: :func:`kiti.core.records.replay`."""
    return _replay(record, get_game)


__all__ = ["game_ids", "game_part", "get_game", "has_part", "replay"]
