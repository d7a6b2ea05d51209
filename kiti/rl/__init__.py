"""Kiti for reinforcement learning (the optional extra ``[rl]``: numpy, gymnasium, pettingzoo,
open-spiel). See ``docs/rl.md``.

- :mod:`kiti.rl.tensors`: observation and information-state tensors of a seat's sight;
- :mod:`kiti.rl.spaces`: actions (the codec, NOOP, masks, factored heads, illegal actions);
- :mod:`kiti.rl.pettingzoo`, :mod:`kiti.rl.gym`, :mod:`kiti.rl.openspiel`,
  :mod:`kiti.rl.vector`: the faces; :mod:`kiti.rl.policy`: policies as bots;
- :mod:`kiti.rl.bench`: what they cost (``kiti bench GAME --rl``).

Importing :mod:`kiti.rl` imports none of the extra's packages; each face is its own module."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import KitiError, quoted
from ..core.game import State
from ..core.load import Game, load
from ..core.moves import Move


def load_game(game: Game | str, players: int | None, options: dict[str, Any] | None) -> Game:
    """``game`` as a loaded :class:`kiti.Game` (an id is loaded with players and options, a
    mapping of option names to values); KitiError naming what is wrong."""
    if options is not None and not isinstance(options, Mapping):
        raise KitiError(f"options must be a dict of option names to values, not {quoted(options)}")
    if isinstance(game, Game):
        if players is not None or options:
            raise KitiError("players and options go with a game id, not with a loaded Game")
        return game
    if not isinstance(game, str):
        raise KitiError(f"game must be a game id or a kiti.Game, not {quoted(game)}")
    return load(game, players=players, **(options or {}))


def play_bots_until(state: State, seat: int, choose: Callable[[int], Move]) -> dict[int, Move]:
    """Let the other seats' bots (``choose(s)``: seat ``s``'s move, from its own view) play
    until ``seat`` must act or the game ends.  Returns the bots' part of a simultaneous choice
    that includes ``seat`` (chosen before anyone's choice is seen; to apply with its move),
    else nothing.  Used by the Gymnasium and vector envs."""
    while not state.over:
        acting = state.acting
        choices = {s: choose(s) for s in sorted(acting) if s != seat}
        if seat in acting:
            return choices
        if len(choices) == 1:
            ((s, move),) = choices.items()
            state.apply(s, move)
        else:
            state.apply_all(choices)
    return {}
