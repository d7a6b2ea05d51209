"""Kiti's game-agnostic engine: protocol, events, results, moves, options, records, replay."""

from .errors import (
    GameOverError,
    IllegalMoveError,
    KitiError,
    MissingPartError,
    NotationError,
    NotYourTurnError,
    OptionError,
    RecordError,
    SetupError,
    UndoError,
)
from .events import EVERYONE, NOBODY, REFEREE
from .game import GameInfo, State
from .moves import ActionCodec, Move, Step
from .options import OptionSpec
from .records import load_record, replay, save_record
from .registry import GameParts, game_ids, game_part, get_game, register
from .results import Party, Result
from .seatview import SeatView
from .turns import play_random_game, turns

__all__ = [
    "EVERYONE",
    "NOBODY",
    "REFEREE",
    "ActionCodec",
    "GameInfo",
    "GameOverError",
    "GameParts",
    "IllegalMoveError",
    "KitiError",
    "MissingPartError",
    "Move",
    "NotYourTurnError",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "Party",
    "RecordError",
    "Result",
    "SeatView",
    "SetupError",
    "State",
    "Step",
    "UndoError",
    "game_ids",
    "game_part",
    "get_game",
    "load_record",
    "play_random_game",
    "register",
    "replay",
    "save_record",
    "turns",
]
