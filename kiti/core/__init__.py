"""Kiti's game-agnostic engine: protocol, options, records and replay."""

from .errors import (
    IllegalMoveError,
    KitiError,
    NotationError,
    OptionError,
    RecordError,
    SetupError,
)
from .game import GameInfo, Move, State
from .options import OptionSpec
from .random_player import play_random_game, turns
from .records import load_record, replay, save_record
from .registry import get_game, register

__all__ = [
    "GameInfo", "IllegalMoveError", "KitiError", "Move", "NotationError", "OptionError",
    "OptionSpec", "RecordError", "SetupError", "State", "get_game",
    "load_record", "play_random_game", "register", "replay", "save_record", "turns",
]
