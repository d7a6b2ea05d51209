"""A game's tensor encoder, found through its ``tensors`` part (:mod:`kiti.core.tensors` holds
the :class:`~kiti.core.tensors.Encoder` contract the games implement, its layouts and its
incremental information-state tracker)."""

from __future__ import annotations

import functools
from typing import Any

from ..core.load import Game, load
from ..core.registry import game_part
from ..core.tensors import Encoder


@functools.cache
def _encoder(game: Game) -> Encoder:
    cls = game_part(game.rules, "tensors")
    return cls(game)  # type: ignore[no-any-return]


def encoder_for(game: Game | str, players: int | None = None, **options: Any) -> Encoder:
    """The tensor encoder of ``game`` (a :class:`kiti.Game`, or a game id loaded with
    ``players`` and ``options``), through the game's ``tensors`` part; one per game, kept.

    Raises :class:`~kiti.core.errors.MissingPartError` for a game that declares none."""
    if isinstance(game, str):
        game = load(game, players=players, **options)
    elif players is not None or options:
        raise TypeError("players and options go with a game id, not with a loaded Game")
    return _encoder(game)
