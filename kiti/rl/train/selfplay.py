"""Self-play rollouts: whole games, every seat played by an agent (the network being trained,
a past self from the pool, a frozen policy or Kiti's heuristic), the trained seats' decisions
kept with what PPO needs.  NumPy only (the forward pass of :class:`kiti.rl.learned.Network`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...bots.registry import make_bot
from ...core.game import State
from ...core.load import Game
from ...core.moves import Move
from ...core.seatview import seat_view
from ..learned import ActionHeads, Features, Network, softmax

LEARNER = "self"
HEURISTIC = "heuristic"


@dataclass
class Batch:
    """The trained seats' decisions of an iteration, flat (N decisions)."""

    x: list[np.ndarray] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    logp: list[float] = field(default_factory=list)
    tokens: list[tuple[int, ...]] = field(default_factory=list)
    legal: list[tuple[np.ndarray, ...]] = field(default_factory=list)
    advantage: list[float] = field(default_factory=list)
    ret: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.x)


@dataclass
class Seat:
    agent: str  # LEARNER, HEURISTIC or a pool key
    bot: Any = None
    tracker: Any = None
    steps: list[int] = field(default_factory=list)  # indices into Batch, this game


class Rollouts:
    """Plays whole games for the trainer and gathers the learner's decisions."""

    def __init__(self, game: Game, observation: str, features: Features) -> None:
        self.game = game
        self.cls: type[State] = game.rules
        self.heads = ActionHeads(game)
        from ..tensors import encoder_for

        self.encoder = encoder_for(game)
        self.observation = observation
        self.features = features

    def _tensor(self, state: State, seat: int, info: Seat) -> np.ndarray:
        if self.observation == "info_state":
            if info.tracker is None:
                info.tracker = self.encoder.info_state_tracker(seat)
            return info.tracker(state)  # type: ignore[no-any-return]
        return self.encoder.observation(state, seat)

    def play(
        self,
        lineups: list[list[str]],
        seeds: list[int],
        nets: dict[str, Network],
        rng: np.random.Generator,
        batch: Batch,
        gamma_lambda: tuple[float, float] = (1.0, 0.95),
        margin: float = 0.0,
    ) -> list[dict[str, Any]]:
        """Play one game per lineup (an agent per seat) with the given deal seeds; append
        the learner's decisions to ``batch`` (advantages and returns filled in at the end:
        each seat's reward is its share, plus ``margin`` times its :func:`score_margins`).
        Returns each game's outcome (its lineup and returns)."""
        states = [self.game.new_state(s) for s in seeds]
        seats = [[Seat(a) for a in lineup] for lineup in lineups]
        for g, lineup in enumerate(lineups):
            for s, agent in enumerate(lineup):
                if agent == HEURISTIC:
                    seats[g][s].bot = make_bot(HEURISTIC, self.cls, int(rng.integers(2**31)))
        live = list(range(len(states)))
        while live:
            self._tick(live, states, seats, nets, rng, batch)
            live = [g for g in live if not states[g].over]
        outcomes = []
        for g, state in enumerate(states):
            returns = state.returns()
            margins = score_margins(state) if margin else [0.0] * len(returns)
            for s, info in enumerate(seats[g]):
                _advantages(batch, info.steps, float(returns[s]) + margin * margins[s], *gamma_lambda)
            outcomes.append({"lineup": lineups[g], "returns": [float(r) for r in returns]})
        return outcomes

    def _tick(
        self,
        live: list[int],
        states: list[State],
        seats: list[list[Seat]],
        nets: dict[str, Network],
        rng: np.random.Generator,
        batch: Batch,
    ) -> None:
        """Every live game's seats to act choose, then each game moves on."""
        asks = [(g, s) for g in live for s in sorted(states[g].acting)]
        moves: dict[tuple[int, int], Move] = {}
        by_agent: dict[str, list[tuple[int, int]]] = {}
        for g, s in asks:
            info = seats[g][s]
            if info.bot is not None:
                moves[g, s] = info.bot.choose(seat_view(states[g], s))
            else:
                by_agent.setdefault(info.agent, []).append((g, s))
        for agent, group in by_agent.items():
            tensors = np.stack([self._tensor(states[g], s, seats[g][s]) for g, s in group])
            x = self.features(tensors)
            net = nets[agent]
            hidden = net.trunk(x)
            values = net.value(hidden) if agent == LEARNER else None
            for i, (g, s) in enumerate(group):
                tokens, legal, logp, action = self._sample(net, hidden[i], states[g], s, rng)
                moves[g, s] = self.game.codec.moves[action]
                if agent == LEARNER and values is not None:
                    seats[g][s].steps.append(len(batch))
                    batch.x.append(x[i])
                    batch.value.append(float(values[i]))
                    batch.logp.append(logp)
                    batch.tokens.append(tokens)
                    batch.legal.append(legal)
        for g in live:
            chosen = {s: moves[g, s] for s in sorted(states[g].acting)}
            if len(chosen) == 1:
                ((s, move),) = chosen.items()
                states[g].apply(s, move)
            else:
                states[g].apply_all(chosen)

    def _sample(
        self, net: Network, h: np.ndarray, state: State, seat: int, rng: np.random.Generator
    ) -> tuple[tuple[int, ...], tuple[np.ndarray, ...], float, int]:
        prefix: tuple[int, ...] = ()
        legals: list[np.ndarray] = []
        logp = 0.0
        while True:
            legal = self.heads.legal(state, seat, prefix)
            probs = softmax(net.logits(h, len(prefix), prefix, legal))
            i = int(rng.choice(len(legal), p=probs / probs.sum())) if len(legal) > 1 else 0
            logp += float(np.log(max(probs[i], 1e-30)))
            legals.append(legal.astype(np.int32))
            prefix = (*prefix, int(legal[i]))
            action = self.heads.action(state, seat, prefix)
            if action is not None:
                return prefix, tuple(legals), logp, action


def score_margins(state: State) -> list[float]:
    """Per seat, how far its party's score is ahead of the best other party's (behind:
    negative), over the spread of the scores plus one: between -1 and 1, a denser signal
    than the share where most games are lost (``kiti train --margin``)."""
    scores = state.party_scores()
    scale = max(scores) - min(scores) + 1.0
    party_of = {seat: p for p, party in enumerate(state.parties()) for seat in party.seats}
    out = []
    for seat in range(state.players):
        p = party_of[seat]
        best_other = max((x for q, x in enumerate(scores) if q != p), default=scores[p])
        out.append((scores[p] - best_other) / scale)
    return out


def _advantages(batch: Batch, steps: list[int], reward: float, gamma: float, lam: float) -> None:
    """GAE over one seat's decisions of a game, the reward (its share) at the end."""
    if not steps:
        return
    batch.advantage.extend([0.0] * (len(batch) - len(batch.advantage)))
    batch.ret.extend([0.0] * (len(batch) - len(batch.ret)))
    gae = 0.0
    next_value = reward  # after the last decision: the game's outcome, no bootstrap
    for t in reversed(steps):
        v = batch.value[t]
        delta = (next_value if t == steps[-1] else gamma * next_value) - v
        gae = delta + gamma * lam * gae
        batch.advantage[t] = gae
        batch.ret[t] = gae + v
        next_value = v


def lineup_for(
    players: int,
    rng: np.random.Generator,
    pool: list[str],
    against: str | None,
    mix: tuple[float, float],
    teams: Sequence[Sequence[int]] = (),
) -> list[str]:
    """A game's agents: with ``against``, one learner party and that agent elsewhere; else
    each other seat the heuristic (``mix[0]``), a past self (``mix[1]``) or the learner.

    The learner's party is its seat, or in a team game (``teams``: the seats of each team)
    its whole team: its teammates are the learner too, as when the policy plays (a policy
    plays every seat of its team), so it learns to play beside itself, not beside another."""
    learner = int(rng.integers(players))
    mates = next((set(team) for team in teams if learner in team), {learner})
    lineup = []
    for s in range(players):
        if s in mates:
            lineup.append(LEARNER)
        elif against is not None:
            lineup.append(against)
        else:
            r = float(rng.random())
            if r < mix[0]:
                lineup.append(HEURISTIC)
            elif r < mix[0] + mix[1] and pool:
                lineup.append(pool[int(rng.integers(len(pool)))])
            else:
                lineup.append(LEARNER)
    return lineup
