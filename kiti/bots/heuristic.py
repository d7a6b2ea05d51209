"""The ``heuristic`` bot: the game's own rules-aware strategy, from the seat's view only.

Each game declares its strategy as the ``heuristic`` part of its package (see
:mod:`kiti.core.registry`); asking for the heuristic of a game that declares none fails at
once with :class:`~kiti.core.errors.MissingPartError`.  A strategy is a class with

- ``params``: a tuple of :class:`~kiti.core.options.OptionSpec` (its parameters, with
  defaults, checked when the bot is made: ``heuristic:samples=64``);
- ``choose(view, rng) -> Move``: the decision, from a :class:`~kiti.core.seatview.SeatView`;
- ``rollout(state, seat, rng) -> Move``: a much cheaper rule of thumb on a determinised
  state, used by ISMCTS with ``rollout=heuristic``;
- optionally ``priors(view, rng) -> {seat: {move: weight}}``: what it expects the seats to
  play at the current decision (the viewing seat's own choice, and in a simultaneous
  choice its models of the others), which ISMCTS uses as priors at its roots (``prior=...``);
- optionally ``evaluate(state) -> [value per party]``: each party's expected final score on
  a (determinised) state, which lets ISMCTS stop its rollouts early and score them.

Strategies call the game's rule functions (in its ``rules.py``); they never restate a rule.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..core.game import State
from ..core.moves import Move
from ..core.options import OptionSpec
from ..core.registry import game_part
from ..core.seatview import SeatView


class Strategy(Protocol):
    params: tuple[OptionSpec, ...]

    def choose(self, view: SeatView, rng: random.Random) -> Move: ...

    def rollout(self, state: State, seat: int, rng: random.Random) -> Move: ...


def strategy_class(game: type[State]) -> Any:
    """The game's heuristic strategy class (MissingPartError if it has none)."""
    return game_part(game, "heuristic")


class HeuristicBot:
    """Plays the game's strategy; its random choices come from its own seed."""

    name = "heuristic"

    def __init__(self, game: type[State], seed: int | None = None, **params: Any) -> None:
        self.strategy: Strategy = strategy_class(game)(**params)
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        return self.strategy.choose(view, self.rng)
