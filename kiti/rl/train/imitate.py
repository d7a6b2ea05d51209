"""Imitation warm start (``kiti train --imitate heuristic``): games with Kiti's heuristic in
every seat, each decision kept as the network sees it (the seat's own tensor, built as the
trainer builds it) with the move the heuristic chose, then epochs of cross-entropy on the
policy heads and squared error on the value head (the seat's final share).

The games are seeded from the run's seed alone (a generator of their own), so a run resumed
in the middle of its imitation records the very same decisions again."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ...bots.registry import make_bot
from ...core.game import State
from ...core.load import Game
from ...core.seatview import seat_view
from ..learned import ActionHeads, Features
from .selfplay import HEURISTIC, Batch, Rollouts, Seat

#: The only player a run can imitate (what ``--imitate`` accepts).
TEACHERS = (HEURISTIC,)


@dataclass
class Demos:
    """The recorded decisions: network inputs, the chosen tokens with each head's legal
    tokens (as :class:`~.selfplay.Batch` keeps them), and the seat's final share."""

    batch: Batch = field(default_factory=Batch)
    games: int = 0

    @property
    def x(self) -> np.ndarray:
        return np.stack(self.batch.x)

    @property
    def share(self) -> np.ndarray:
        return np.array(self.batch.ret, np.float32)


def record(game: Game, observation: str, features: Features, games: int, seed: int) -> Demos:
    """Play ``games`` games with the heuristic in every seat (deals and bots seeded from
    ``seed``) and keep every decision of every seat."""
    rng = np.random.default_rng([seed, 21])
    rollouts = Rollouts(game, observation, features)
    heads = ActionHeads(game)
    demos = Demos()
    for _ in range(games):
        state = game.new_state(int(rng.integers(2**31)))
        seats = [
            Seat(HEURISTIC, make_bot(HEURISTIC, game.rules, int(rng.integers(2**31))))
            for _ in range(game.players)
        ]
        while not state.over:
            chosen = {}
            for s in sorted(state.acting):
                info = seats[s]
                x = features(rollouts._tensor(state, s, info)[None, :])[0]
                move = info.bot.choose(seat_view(state, s))
                _keep(demos.batch, x, _path(heads, game.codec.encode(move)), heads, state, s)
                info.steps.append(len(demos.batch) - 1)
                chosen[s] = move
            if len(chosen) == 1:
                ((s, move),) = chosen.items()
                state.apply(s, move)
            else:
                state.apply_all(chosen)
        returns = state.returns()
        demos.batch.ret.extend([0.0] * (len(demos.batch) - len(demos.batch.ret)))
        for s, info in enumerate(seats):
            for t in info.steps:
                demos.batch.ret[t] = float(returns[s])
        demos.games += 1
    return demos


def _path(heads: ActionHeads, action: int) -> tuple[int, ...]:
    return (action,) if heads.fac is None else heads.fac.tokens(action)


def _keep(
    batch: Batch, x: np.ndarray, path: tuple[int, ...], heads: ActionHeads, state: State, seat: int
) -> None:
    """One decision: its input, the chosen tokens, and each head's legal tokens before them."""
    batch.x.append(x)
    batch.tokens.append(path)
    batch.legal.append(tuple(heads.legal(state, seat, path[:k]).astype(np.int32) for k in range(len(path))))
