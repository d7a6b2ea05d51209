"""The ISMCTS search as it was before its speed-ups (issue 20): a reference that the
optimised bot must match move for move and visit for visit (tests/test_ismcts_speed.py).
Frozen on purpose: it is the specification of the search's choices, not code in use."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from typing import Any

from kiti.core.events import key_since
from kiti.core.game import State
from kiti.core.moves import Move
from kiti.core.registry import has_part
from kiti.core.seatview import SeatView
from kiti.core.turns import turns


class _Node:
    """A decision node of one seat: move -> edge [visits, total reward, availability, children];
    ``priors``: the heuristic's opinion of its moves (the searching seat's root only)."""

    __slots__ = ("edges", "priors", "visits")

    def __init__(self) -> None:
        self.edges: dict[Move, list[Any]] = {}
        self.visits = 0
        self.priors: dict[Move, float] | None = None


class ReferenceISMCTS:
    """Information-set MCTS; see the module docstring for the algorithm."""

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iters: int | None = None,
        seconds: float | None = None,
        rollout: str = "auto",
        c: float = 0.7,
        reward: str = "win",
        width: float = 2.0,
        depth: int = 0,
        keys: str = "seen",
        prior: float = 1.0,
        mix: float = 3.0,
    ) -> None:
        if iters is None and seconds is None:
            iters = 1000
        if iters is not None and iters < 1:
            raise ValueError("iters must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("time must be positive")
        if rollout not in ("auto", "random", "heuristic"):
            raise ValueError(f"rollout must be auto, random or heuristic, not {rollout!r}")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward must be win or margin, not {reward!r}")
        self.rng = random.Random(seed)
        self.iters = iters
        self.seconds = seconds
        self.rollout = rollout
        self.c = float(c)
        self.reward = reward
        self.width = float(width)
        self.depth = int(depth)
        self.keys = keys
        self.prior = float(prior)
        self.mix = float(mix)
        self.last_iterations = 0
        self._evaluate: Any = None
        self._depth = depth or 120
        self._action: Mapping[Move, int] = {}  # the game's action numbers, set per search

    # ------------------------------------------------------------------ search
    def choose(self, view: SeatView) -> Move:
        legal = view.legal_moves if not view.many_moves() else None
        if legal is not None and len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        roots = self._search(view, random.Random(self.rng.getrandbits(64)))
        counts = [
            (move, edge[0])
            for move, edge in roots[view.seat].edges.items()
            if edge[0] > 0 and (legal is None or move in legal)
        ]
        if not counts:
            return view.random_move(self.rng)
        most = max(n for _, n in counts)
        if view.secret_choice():
            pool = [(m, n) for m, n in counts if n * 10 >= most]
            return self.rng.choices([m for m, _ in pool], [(n / most) ** self.mix for _, n in pool])[0]
        return next(m for m, n in counts if n == most)  # ties: the first opened

    def root_statistics(self, view: SeatView, iterations: int) -> dict[str, tuple[int, float]]:
        """Run ``iterations`` from ``view``; move -> (visits, mean reward) (for tests and tools)."""
        saved = self.iters, self.seconds
        self.iters, self.seconds = iterations, None
        try:
            roots = self._search(view, random.Random(self.rng.getrandbits(64)))
        finally:
            self.iters, self.seconds = saved
        return {str(m): (e[0], e[1] / e[0] if e[0] else 0.0) for m, e in roots[view.seat].edges.items()}

    def _search(self, view: SeatView, rng: random.Random) -> list[_Node]:
        policy = None
        strategy = None
        if has_part(view.game, "heuristic"):
            from kiti.bots.heuristic import strategy_class

            strategy = strategy_class(view.game)()
        if self.rollout == "heuristic" or (self.rollout == "auto" and strategy is not None):
            policy = strategy.rollout if strategy is not None else None
        self._evaluate = getattr(strategy, "evaluate", None)
        self._depth = self.depth or (2 * view.players if self._evaluate else 120)
        self._action = view.codec().index  # moves go in through the unchecked integer path
        roots = [_Node() for _ in range(view.players)]
        for seat, priors in self._priors(view, rng).items():
            roots[seat].priors = priors
            for move in priors:  # opened at once: widening alone would seldom draw them
                roots[seat].edges[move] = [0, 0.0, 0, {}]
        done = 0
        if self.seconds is None:
            for _ in range(self.iters or 1):
                self._iterate(view, roots, rng, policy)
            done = self.iters or 1
        else:
            deadline = time.perf_counter() + self.seconds
            cap = self.iters if self.iters is not None else 10**12
            while done < cap:
                for _ in range(8):
                    self._iterate(view, roots, rng, policy)
                done += 8
                if time.perf_counter() >= deadline:
                    break
        self.last_iterations = done
        return roots

    def _priors(self, view: SeatView, rng: random.Random) -> dict[int, dict[Move, float]]:
        """The game heuristic's expectations for the seats' root moves, if it has any."""
        if self.prior <= 0 or not has_part(view.game, "heuristic"):
            return {}
        from kiti.bots.heuristic import strategy_class

        strategy = strategy_class(view.game)()
        found = strategy.priors(view, rng) if hasattr(strategy, "priors") else {}
        out = {}
        for seat, priors in found.items():
            if priors:
                floor = 0.1 / len(priors)  # every move keeps a chance
                out[seat] = {m: 0.9 * p + floor for m, p in priors.items()}
        return out

    def _iterate(self, view: SeatView, roots: list[_Node], rng: random.Random, policy: Any) -> None:
        state: State = view.determinize(rng)
        players = view.players
        start = len(state.log)
        node: list[_Node | None] = list(roots)
        taken: list[list[Any] | None] = [None] * players  # the edge a seat took last
        since = [start] * players  # where each seat's next observation begins
        paths: list[list[tuple[_Node, list[Any]]]] = [[] for _ in range(players)]
        random_move = state.random_move
        step = state.step
        action = self._action
        left = self._depth
        for seat in turns(state):
            edge = taken[seat]
            if edge is not None:  # the seat is back: what did it see since its last move?
                children = edge[3]
                key = key_since(state.log, seat, since[seat]) if self.keys == "seen" else ()
                child = children.get(key)
                if child is None:
                    child = children[key] = _Node()
                    node[seat] = child
                    taken[seat] = None
                    move, chosen = self._select(state, seat, child, rng)
                    paths[seat].append((child, chosen))
                    node[seat] = None  # a new node: this seat leaves its tree
                    step(seat, action[move])
                    continue
                node[seat] = child
            current = node[seat]
            if current is None:  # out of the tree: roll out
                left -= 1
                if left < 0:
                    break
                move = policy(state, seat, rng) if policy is not None else random_move(seat, rng)
                step(seat, action[move])
                continue
            move, chosen = self._select(state, seat, current, rng)
            paths[seat].append((current, chosen))
            if chosen[0] == 0:
                node[seat] = None  # first visit of this move: roll out from here
                taken[seat] = None
            else:
                taken[seat] = chosen
            step(seat, action[move])
            since[seat] = len(state.log)
        rewards = self._rewards(state)
        for seat in range(players):
            r = rewards[seat]
            for owner, e in paths[seat]:
                owner.visits += 1
                e[0] += 1
                e[1] += r

    def _select(self, state: State, seat: int, node: _Node, rng: random.Random) -> tuple[Move, list[Any]]:
        """UCB1 with availability among the moves legal here (progressive widening if wide)."""
        edges = node.edges
        if state.many_moves(seat):
            limit = max(1, math.ceil(self.width * math.sqrt(node.visits + 1)))
            if len(edges) < limit:
                edges.setdefault(state.random_move(seat, rng), [0, 0.0, 0, {}])
            moves = [m for m in edges if state.illegal_reason(seat, m) is None] or [
                state.random_move(seat, rng)
            ]
        else:
            moves = state.legal_moves(seat)
        offered = _offered(edges, moves)
        if node.priors is not None:
            return self._select_with_priors(node, offered)
        c = self.c
        log = math.log
        sqrt = math.sqrt
        unvisited: list[tuple[Move, list[Any]]] = []
        best: tuple[Move, list[Any]] | None = None
        best_v = -1.0
        for m, e in offered:
            n = e[0]
            if n == 0:
                unvisited.append((m, e))
            elif not unvisited:
                v = e[1] / n + c * sqrt(log(e[2]) / n)
                if v > best_v:
                    best_v, best = v, (m, e)
        if unvisited:
            return unvisited[0] if len(unvisited) == 1 else rng.choice(unvisited)
        assert best is not None
        return best

    def _select_with_priors(
        self, node: _Node, offered: list[tuple[Move, list[Any]]]
    ) -> tuple[Move, list[Any]]:
        """PUCT: mean reward plus ``prior * P(move) * sqrt(visits) / (1 + n)``."""
        edges = node.edges
        priors = node.priors or {}
        total = sum(e[0] for e in edges.values())
        mean = sum(e[1] for e in edges.values()) / total if total else 0.5
        scale = self.prior * math.sqrt(total + 1)
        best: tuple[Move, list[Any]] | None = None
        best_v = -1e18
        for m, e in offered:
            n = e[0]
            q = e[1] / n if n else mean
            v = q + scale * priors.get(m, 0.0) / (1 + n)
            if v > best_v:
                best_v, best = v, (m, e)
        assert best is not None
        return best

    def _rewards(self, state: State) -> list[float]:
        result = state.result()
        if not state.over and self._evaluate is not None:  # stopped early: the heuristic's estimate
            from kiti.core.results import make_result

            result = make_result(result.parties, self._evaluate(state))
        if self.reward == "win":
            return result.seat_returns(state.players)
        scale = state.info.margin_scale
        scores = result.scores
        out = [0.0] * state.players
        for i, party in enumerate(result.parties):
            others = [v for j, v in enumerate(scores) if j != i]
            diff = scores[i] - (max(others) if others else 0.0)
            r = 0.5 + 0.5 * max(-1.0, min(1.0, diff / scale))
            for s in party.seats:
                out[s] = r
        return out


def _offered(edges: dict[Move, list[Any]], moves: list[Move]) -> list[tuple[Move, list[Any]]]:
    """Each move offered at a node with its edge (made when first seen), its availability
    counted once more."""
    out = []
    for m in moves:
        e = edges.get(m)
        if e is None:
            e = edges[m] = [0, 0.0, 0, {}]
        e[2] += 1
        out.append((m, e))
    return out
