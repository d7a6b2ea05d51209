"""The ``ismcts`` bot: information-set Monte Carlo tree search, generic over games.

Algorithm (a multi-observer, open-loop ISMCTS with decoupled simultaneous choices):

* **Fresh determinisation every iteration.**  Each iteration starts from
  ``view.determinize(rng)``: a full state drawn from the searching seat's information
  set by the engine (hidden cards, and the divers other seats have already committed
  face down this round, are redrawn).  The search never sees the true state.
* **One tree per seat, keyed by that seat's own information.**  Seat ``s``'s tree is
  indexed by the sequence of ``s``'s *own* moves since the root (an open-loop key: what a
  seat always knows about its own line of play; everything else it learns, the cards
  and the others' revealed choices, is averaged over by the determinisations).  When
  seat ``s`` acts in an iteration, it selects from *its* current node with UCB1 using
  only its own statistics: its choice never depends on another seat's choice in that
  iteration, so a seat's committed-but-hidden move is invisible to the others, exactly
  as at the table.  Simultaneous steps (``to_act`` holding several seats, each
  committing separately, as in Miaui) are thus decoupled: every acting seat picks from
  its own node, then the moves are applied one by one.  For Miaui, whose dives are
  revealed together at the end of each round, this is the standard decoupled-UCT
  treatment of simultaneous moves; for turn-based games it is a multi-observer
  ISMCTS in which no seat's tree branches on information it lacks.
* **Availability.**  A move's UCB exploration term uses the number of iterations in which
  it was legal at that node (``avail``), not the node's visits, since legal moves can
  differ between determinisations (Cowling, Powley & Whitehouse 2012).
* **Expansion and rollouts.**  Each seat's tree grows by at most one node per iteration;
  once a seat has left its tree it plays the rollout policy: ``rollout=random`` (uniform
  over legal moves, the default) or ``rollout=heuristic`` (the game's cheap rule of thumb
  in :mod:`kiti.bots.heuristic`).
* **Rewards.**  ``reward=win`` (default): ``State.returns()``, each seat's share of the
  victory (1/k for k tied winners), the quantity tournaments measure.  ``reward=margin``:
  ``0.5 + 0.5 * clip((own score - best other score) / 50, -1, 1)``, a denser signal.
  Each seat's tree is updated with its own reward (every seat plays for itself).
* **Final choice**: the most visited root move of the searching seat (ties: the first in
  the order of ``legal_moves``).
* **Budget**: ``iters=N`` iterations per move (deterministic for a given bot seed: the
  search generator is seeded from the bot's generator) or ``time=S`` seconds per move
  (then the result depends on the machine's speed).  ``c`` is the UCB1 exploration
  constant (default 0.7 on rewards in [0, 1]).

Speed: an iteration is one determinisation, a few dictionary look-ups per in-tree
decision and a full playout through ``clone``-free ``apply(check=False)`` on the
determinised copy; see :func:`kiti.sim.bench_bots.ismcts_iterations_per_second`.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..core.game import Move, State
from ..core.random_player import turns
from .base import SeatView


class _Node:
    """A node of one seat's tree: move -> [visits, total reward, availability, child]."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[Move, list[Any]] = {}


class ISMCTSBot:
    """Information-set MCTS; see the module docstring for the algorithm."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iters: int | None = None,
        seconds: float | None = None,
        rollout: str = "random",
        c: float = 0.7,
        reward: str = "win",
    ) -> None:
        if iters is None and seconds is None:
            iters = 1000
        if iters is not None and iters < 1:
            raise ValueError("iters must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("time must be positive")
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"rollout must be random or heuristic, not {rollout!r}")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward must be win or margin, not {reward!r}")
        self.rng = random.Random(seed)
        self.iters = iters
        self.seconds = seconds
        self.rollout = rollout
        self.c = float(c)
        self.reward = reward
        self.last_iterations = 0

    # ------------------------------------------------------------------ search
    def choose(self, view: SeatView) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        rng = random.Random(self.rng.getrandbits(64))
        policy = None
        if self.rollout == "heuristic":
            from .heuristic import rollout_policy_for

            policy = rollout_policy_for(view.game.info.id)
        roots = [_Node() for _ in range(view.players)]
        me = view.seat
        done = 0
        if self.iters is not None and self.seconds is None:
            for _ in range(self.iters):
                self._iterate(view, roots, rng, policy)
            done = self.iters
        else:
            deadline = time.perf_counter() + float(self.seconds or 0.0)
            cap = self.iters if self.iters is not None else 10**12
            while done < cap:
                for _ in range(8):
                    self._iterate(view, roots, rng, policy)
                done += 8
                if time.perf_counter() >= deadline:
                    break
        self.last_iterations = done
        edges = roots[me].edges
        best, best_n = legal[0], -1
        for m in legal:
            e = edges.get(m)
            n = e[0] if e is not None else 0
            if n > best_n:
                best, best_n = m, n
        return best

    def root_statistics(self, view: SeatView, iterations: int) -> dict[str, tuple[int, float]]:
        """Run ``iterations`` from ``view`` and return move -> (visits, mean reward) (for tests/tools)."""
        rng = random.Random(self.rng.getrandbits(64))
        roots = [_Node() for _ in range(view.players)]
        for _ in range(iterations):
            self._iterate(view, roots, rng, None)
        return {str(m): (e[0], e[1] / e[0] if e[0] else 0.0) for m, e in roots[view.seat].edges.items()}

    def _iterate(self, view: SeatView, roots: list[_Node], rng: random.Random, policy: Any) -> None:
        state: State = view.determinize(rng)
        players = view.players
        cur: list[_Node | None] = list(roots)
        paths: list[list[list[Any]]] = [[] for _ in range(players)]
        c = self.c
        log = math.log
        sqrt = math.sqrt
        choice = rng.choice
        apply = state.apply
        legal_moves = state.legal_moves
        # One pass over the seats as they act: a seat still in its tree selects there;
        # once it has left its tree (a new node), it plays the rollout policy.
        for s in turns(state):
            node = cur[s]
            if node is None:
                move = policy(state, s, rng) if policy is not None else choice(legal_moves(s))
                apply(s, move, False)
                continue
            moves = legal_moves(s)
            edges = node.edges
            fresh = None
            best_e = None
            best_v = -1.0
            move = moves[0]
            for m in moves:
                e = edges.get(m)
                if e is None:
                    e = edges[m] = [0, 0.0, 0, None]
                e[2] += 1
                n = e[0]
                if n == 0:
                    if fresh is None:
                        fresh = []
                    fresh.append((m, e))
                elif fresh is None:
                    v = e[1] / n + c * sqrt(log(e[2]) / n)
                    if v > best_v:
                        best_v, best_e, move = v, e, m
            if fresh is not None:
                move, best_e = fresh[0] if len(fresh) == 1 else choice(fresh)
            paths[s].append(best_e)
            child = best_e[3]  # type: ignore[index]
            if child is None:
                best_e[3] = _Node()  # type: ignore[index]
                cur[s] = None
            else:
                cur[s] = child
            apply(s, move, False)
        rewards = self._rewards(state)
        for s in range(players):
            r = rewards[s]
            for e in paths[s]:
                e[0] += 1
                e[1] += r

    def _rewards(self, state: State) -> list[float]:
        if self.reward == "win":
            return state.returns()
        scores = state.scores()
        out = []
        for s, v in enumerate(scores):
            best_other = max(x for i, x in enumerate(scores) if i != s)
            out.append(0.5 + 0.5 * max(-1.0, min(1.0, (v - best_other) / 50.0)))
        return out
