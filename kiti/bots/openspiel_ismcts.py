"""The ``openspiel-ismcts`` bot: OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts``)
playing a Kiti game through :mod:`kiti.rl.openspiel`, so Kiti's bots meet an outside search.

What it is given is a seat's view only, as every bot (:class:`~kiti.core.seatview.SeatView`):
its search starts from ``view.determinize``, a full state drawn among those the seat cannot
tell from the true one, wrapped as a state of the turn-based OpenSpiel game ``kiti_<id>``.
Every simulation then draws a new world with that state's ``resample_from_infostate`` (the
game's ``resample`` for the seat: nothing beyond the seat's information ever enters), with
no resampler callback; the bot only hands the search a seeded sampler, so that it plays
the same moves for the same bot seed.

The search is OpenSpiel's, unchanged: one tree keyed by (player, information-state string),
UCT selection, one node added per simulation, the most visited root action played.  Leaves
are valued by uniform random rollouts: ``rollout=engine`` (the default) plays them with the
engine's own random actions (``kiti.core.turns.play_random_actions``, fast), ``rollout=openspiel``
with OpenSpiel's ``RandomRolloutEvaluator`` (through the OpenSpiel state, slower); rewards
are Kiti's returns (each seat's share of the victory, 0..1).

In a secret choice the turn-based shape lets the lowest seat commit first; a bot asked while
a lower seat has yet to commit (a server asks seats at once) gives that seat a random move in
its guess first: that move is hidden from the bot, and every simulation redraws it.

Needs open-spiel (the ``[rl]`` extra); without it the bot spec is refused with that reason.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.errors import KitiError
from ..core.moves import Move
from ..core.options import OptionSpec
from ..core.seatview import SeatView

#: The most simulations a move may be given (more would seem to hang).
MAX_SIMS = 20_000
_WHAT = "bot openspiel-ismcts parameter"

PARAMS = (
    OptionSpec("sims", int, 200, "ISMCTS simulations per move", minimum=1, maximum=MAX_SIMS, what=_WHAT),
    OptionSpec("c", float, 0.7, "UCT exploration constant", minimum=0.0, maximum=100.0, what=_WHAT),
    OptionSpec("rollouts", int, 1, "random rollouts per leaf", minimum=1, maximum=100, what=_WHAT),
    OptionSpec(
        "rollout",
        str,
        "engine",
        "leaf rollouts by the engine's random actions (fast) or OpenSpiel's RandomRolloutEvaluator",
        choices=("engine", "openspiel"),
        what=_WHAT,
    ),
)


def _spiel() -> tuple[Any, Any, Any]:
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts
    except ImportError:
        raise KitiError("it needs open-spiel: pip install 'kiti[rl]'") from None
    return np, pyspiel, ismcts


class EngineRollouts:
    """An ISMCTS evaluator: uniform priors, leaves valued by random playouts of the engine."""

    def __init__(self, rollouts: int, rng: random.Random) -> None:
        self.rollouts = rollouts
        self.rng = rng

    def evaluate(self, state: Any) -> Any:
        import numpy as np

        from ..core.turns import play_random_actions

        kiti = state.kiti_state
        total = np.zeros(kiti.players)
        for _ in range(self.rollouts):
            total += play_random_actions(kiti.clone(), self.rng).returns()
        return total / self.rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class OpenSpielISMCTSBot:
    """OpenSpiel's ISMCTS from a seat's view (see the module doc)."""

    name = "openspiel-ismcts"

    def __init__(
        self,
        seed: int | None = None,
        sims: int = 200,
        c: float = 0.7,
        rollouts: int = 1,
        rollout: str = "engine",
    ) -> None:
        _spiel()
        self.rng = random.Random(seed)
        self.sims = sims
        self.c = c
        self.rollouts = rollouts
        self.rollout = rollout
        self._games: dict[tuple[Any, ...], Any] = {}

    def _game(self, view: SeatView) -> Any:
        key = (view.game.info.id, view.players, tuple(sorted(view.options.items())))
        game = self._games.get(key)
        if game is None:
            from ..core.load import load
            from ..rl.openspiel import load_game

            game = self._games[key] = load_game(load(view.game.info.id, view.players, **view.options))
        return game

    def choose(self, view: SeatView) -> Move:
        if not view.many_moves():
            legal = view.legal_moves
            if len(legal) == 1:
                return legal[0]
        np, _, ismcts = _spiel()
        game = self._game(view)
        rng = random.Random(self.rng.getrandbits(64))
        guess = view.determinize(rng)
        while min(guess.to_act()) != view.seat:  # a lower seat still to commit (see the doc)
            first = min(guess.to_act())
            guess.step(first, guess.random_action(first, rng))
        state = game.state_from_kiti(guess)
        seed = rng.getrandbits(32)
        if self.rollout == "engine":
            evaluator: Any = EngineRollouts(self.rollouts, rng)
        else:
            from open_spiel.python.algorithms.mcts import RandomRolloutEvaluator

            evaluator = RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, self.c, self.sims, random_state=np.random.RandomState(seed))
        draw = random.Random(seed).random  # the sampler the state's resample seeds itself from
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, draw))
        action = int(bot.step(state))
        return game.shared.codec.moves[action]  # type: ignore[no-any-return]
