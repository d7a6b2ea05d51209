"""The ``ismcts`` bot: information-set Monte Carlo tree search, generic over games.

Algorithm: multi-observer ISMCTS with decoupled simultaneous choices.

* **A fresh determinisation every iteration.**  Each iteration starts from
  ``view.determinize(rng)``: a full state drawn from the searching seat's information set
  by the engine.  The search never sees the true state.
* **One tree per seat, keyed by what that seat can tell apart.**  A seat's tree alternates
  its decisions (edges, one per move) and what it then observes: the events it saw from
  its move to its next decision (``kiti.core.events.key_since``: kinds and arguments of
  the events visible to that seat).  Two lines of play reach the same node of seat ``s``
  exactly when ``s`` cannot tell them apart from its own moves and observations, so in
  Mauw a defender knows which card attacks which column, and a seat never branches on
  another seat's hidden choice.
* **Simultaneous choices** (``to_act`` holding several seats) are decoupled: each seat
  selects from its own node with its own statistics and nothing it has not seen.
* **Availability.**  The exploration term of a move counts the iterations in which it was
  legal at that node, not the node's visits (Cowling, Powley & Whitehouse 2012).
* **Wide positions.**  Where the game says a seat has very many moves
  (``State.many_moves``), a node opens moves progressively: at most
  ``width * sqrt(visits)`` edges, each new one drawn with ``State.random_move``, so an
  iteration never lists thousands of moves (progressive widening).
* **Rollouts** play the game's declared cheap policy (``rollout=heuristic``, and by default
  when the game has a heuristic) or uniform random moves (``rollout=random``,
  ``State.random_move``), and stop after ``depth`` moves; a game cut short is scored by the
  heuristic's ``evaluate`` (each party's expected final score) where the game has one,
  else by its provisional result (the leaders share the win).  By default a game with an
  evaluation stops after two turns of each seat, others after 120 moves.
* **Rewards** come from the core's results model: ``reward=win`` uses each seat's share
  of the victory (teams share; a non-seat party such as a solo opponent can win);
  ``reward=margin`` uses ``0.5 + 0.5*clip((own party score - best other party score) /
  scale, -1, 1)`` where ``scale`` is the game's declared ``margin_scale``.
* **Final choice**: the most visited move at the root; in a simultaneous secret choice
  (``State.secret_choice``) a move drawn in proportion to its visits instead, among those
  with at least a tenth of the most visits, weighted by visits to the power ``mix`` (3 by
  default: at 3 seats of Miaui with No Fighting, 0.43 of the wins against two heuristics,
  against 0.35 with plain visit counts, ``mix=1``): a fixed choice there is easy to read and
  ties with its own copies, so the bot mixes, leaning on its best moves.  **Budget**: ``iters=N`` iterations (deterministic
  for a bot seed) or ``time=S`` seconds per move, at most :data:`MAX_ITERS` and
  :data:`MAX_SECONDS`: declared with the parameters, so a spec from the command line, a
  record's lineup or a server request is refused above them (a server may allow less time).
* **Priors**: where the game's heuristic offers ``priors(view, rng)`` (what it expects each
  seat to play at the current decision), those seats' roots select by PUCT (mean reward plus
  ``prior * P(move) * sqrt(visits) / (1 + n)``), so the search starts from the heuristic's
  opinion of the seat and of its opponents, and corrects it.  Every move with a prior is opened
  at once, also on wide positions (where widening alone draws random moves).
* **A learned policy** (``policy=miaui``: the policy the game ships for the table being played,
  as ``policy:miaui`` picks it; ``policy=mauw.teams``: that variant; see :mod:`kiti.rl.learned`;
  any object with ``probabilities(view)`` and ``value(view)``, :class:`Guide`, in code) guides
  the search as in AlphaZero: its probabilities are the priors (PUCT as above, floored the same
  way; at most :data:`WIDE_PRIORS` likeliest moves where moves are many) of the searching seat's
  root and of every node the search opens, other seats' roots included; its value (the seat's
  expected share of the victory) scores each seat when every seat has left its tree, instead
  of a rollout (``value=1``, the default) or mixed with the rollout's result as ``value * v +
  (1 - value) * rollout`` (``value`` below 1; ``0``: rollouts only, the value never asked).
  **What it sees**: only :class:`~kiti.core.seatview.SeatView` objects, the searching seat's
  own view at the root and, elsewhere, the view of the seat to act (for the value: of each
  seat) in the determinisation being played, a state drawn from the searching seat's
  information: never the true state.  The budget stays ``iters`` or ``time``; each opened node
  costs one call of ``probabilities``, each leaf one ``value`` per seat.  NumPy is imported
  only when a ``policy`` is named.
* **Bookkeeping**: a node's edges are keyed by the game's action integers (moves are stepped
  through the unchecked integer path, rollouts draw ``random_action``; a node's moves come
  from the game's own ``legal_actions`` where it has one), and a node's legal moves are
  offered, counted and scored in one pass.  A node met for the first time makes only the
  chosen move's edge (the others, if its seat comes back); an edge's children are made when
  its seat comes back; PUCT keeps each offered move's edge and prior in a list on the node.
  A uniform random rollout is the game's ``State._random_finish``: each simultaneous choice
  applied at once (the same draws, lowest seat first, as
  :func:`~kiti.core.turns.play_random_actions`), played quietly where the game can (Miaui:
  no events or history; the state is then only scored).  The choices and statistics
  for a seed are those of the plain version (tests/test_ismcts_speed.py and
  tests/test_ismcts_rollout_20.py keep it as a reference).  Python's cyclic garbage
  collector is paused while a search iterates (:func:`_collector_paused`: a search makes no
  reference cycles, so reference counting frees all it makes).
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from itertools import islice
from typing import Any, Protocol

from ..core.errors import KitiError, quoted
from ..core.events import key_since
from ..core.game import State
from ..core.moves import Move
from ..core.options import OptionSpec
from ..core.registry import has_part
from ..core.results import make_result
from ..core.seatview import SeatView, seat_view
from ..core.turns import turns

#: The most iterations and seconds a move may be given (a bigger budget would seem to hang).
MAX_ITERS = 100_000
MAX_SECONDS = 120.0

PARAMS = (
    OptionSpec(
        "iters", int, 1000, "iterations per move", minimum=1, maximum=MAX_ITERS, what="bot ismcts parameter"
    ),
    OptionSpec(
        "time",
        float,
        None,
        "seconds per move (instead of iters)",
        minimum=0.0,
        maximum=MAX_SECONDS,
        above_minimum=True,
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "rollout",
        str,
        "auto",
        "rollout policy: the game heuristic's cheap policy (auto: when the game has one), or random",
        choices=("auto", "random", "heuristic"),
        what="bot ismcts parameter",
    ),
    OptionSpec("c", float, 0.7, "UCB exploration constant", minimum=0.0, what="bot ismcts parameter"),
    OptionSpec(
        "reward",
        str,
        "win",
        "win share or score margin",
        choices=("win", "margin"),
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "width",
        float,
        2.0,
        "widening: edges opened per sqrt(visit) on wide positions",
        minimum=0.1,
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "prior",
        float,
        1.0,
        "weight of the game heuristic's priors at the root (0: none)",
        minimum=0.0,
        maximum=100.0,
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "keys",
        str,
        "seen",
        "what a seat's tree branches on: seen (everything the seat saw) or "
        "own (its own moves only: open loop)",
        choices=("seen", "own"),
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "mix",
        float,
        3.0,
        "in a secret choice, play a move with probability proportional to "
        "its visits to this power (among moves with a tenth of the most visits or more): 1 "
        "mixes widely, higher values favour the best moves more",
        minimum=0.5,
        maximum=8.0,
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "policy",
        str,
        None,
        "a learned policy shipped with the game (its id, or id.variant such as mauw.teams): "
        "its probabilities as priors at every node the search opens, its value at the leaves",
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "value",
        float,
        1.0,
        "with a policy: the weight of its value at a leaf, the rest a rollout's result (1: no rollouts)",
        minimum=0.0,
        maximum=1.0,
        what="bot ismcts parameter",
    ),
    OptionSpec(
        "depth",
        int,
        0,
        "most moves in a rollout, then the game is scored as it stands "
        "(0: two turns of each seat where the game's heuristic can evaluate a position, "
        "else 120)",
        minimum=0,
        what="bot ismcts parameter",
    ),
)


class Guide(Protocol):
    """What the search asks a learned policy (:class:`kiti.rl.learned.LearnedPolicy` is one):
    its probabilities over a seat's legal moves and the seat's expected share of the victory
    (0..1), each from one seat's view and nothing more."""

    def probabilities(self, view: SeatView) -> Mapping[Move, float]: ...

    def value(self, view: SeatView) -> float: ...


def load_guide(game: type[State] | None, name: str) -> Guide:
    """The shipped learned policy ``name`` (``GAME`` or ``GAME.VARIANT``, e.g. ``miaui`` or
    ``mauw.teams``) for ``game``; :class:`~kiti.bots.registry.BotSpecError` naming what is
    wrong (the registry adds which bot and game).  Imports :mod:`kiti.rl.learned` (NumPy)
    only here."""
    from .registry import BotSpecError

    game_id, _, variant = name.strip().lower().partition(".")
    if game is None or game_id != game.info.id:
        own = f"{game.info.id} or {game.info.id}.VARIANT" if game is not None else "GAME or GAME.VARIANT"
        raise BotSpecError(f"its parameter policy must name a learned policy ({own}), not {quoted(name)}")
    try:
        from ..rl.learned import load_learned
    except ImportError as exc:
        raise BotSpecError(
            f"its parameter policy needs the [rl] extra (pip install 'kiti[rl]'): {exc}"
        ) from None
    try:
        return load_learned(game_id, variant or None)
    except KitiError as exc:
        raise BotSpecError(f"its parameter policy {quoted(name)}: {exc}") from None


class _Node:
    """A decision node of one seat: action -> edge [visits, total reward, availability,
    children (None until the seat comes back to it)]; ``priors``: action -> prior (a root the
    heuristic has an opinion on, or any node opened with a learned policy)."""

    __slots__ = ("edges", "first", "offer", "priors", "visits")

    def __init__(self) -> None:
        self.edges: dict[int, list[Any]] = {}
        # after a first visit (not a root's): the moves then offered, whose edges are not made
        # yet but the chosen one's, each with an availability of 1
        self.first: list[int] | None = None
        self.visits = 0
        self.priors: dict[int, float] | None = None
        # with priors: the moves last offered, each with its edge and prior (see _offer)
        self.offer: tuple[list[int], list[tuple[int, list[Any], float]]] | None = None


#: The most moves a learned policy opens at once at a node where moves are many.
WIDE_PRIORS = 16


class ISMCTSBot:
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
        policy: str | Guide | None = None,
        value: float | None = None,
        game: type[State] | None = None,
    ) -> None:
        if iters is None and seconds is None:
            iters = 1000
        if iters is not None and iters < 1:
            raise ValueError("iters must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("time must be positive")
        if rollout not in ("auto", "random", "heuristic"):
            raise ValueError(f"rollout must be auto, random or heuristic, not {quoted(rollout)}")
        if reward not in ("win", "margin"):
            raise ValueError(f"reward must be win or margin, not {quoted(reward)}")
        if value is not None and not 0.0 <= value <= 1.0:
            raise ValueError(f"value must be between 0 and 1, not {quoted(value)}")
        if value is not None and policy is None:
            raise ValueError("value weighs a policy's value at the leaves: give policy= with it")
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
        self.guide: Guide | None = load_guide(game, policy) if isinstance(policy, str) else policy
        # policy=GAME: the shipped policy that plays each table (its seats and options)
        self._per_table = isinstance(policy, str) and "." not in policy
        self._policy_game = policy.partition(".")[0] if isinstance(policy, str) else ""  # its game
        self._tables: dict[tuple[Any, ...], Guide] = {}
        self.value = 1.0 if value is None else float(value)  # 1: the policy's value alone
        self.last_iterations = 0
        self._evaluate: Any = None
        self._depth = depth or 120
        # the game's action codec, set per search: edges are keyed by action integers
        self._moves: tuple[Move, ...] = ()
        self._index: Mapping[Move, int] = {}
        self._identity: Mapping[int, int] = {}
        self._codec: Any = None
        self._root = _Node()  # the searching seat's root and its legal moves, set per search
        self._root_actions: list[int] | None = None
        self._wide = True  # whether the game may say a seat has many moves (set per search)
        self._own_actions = False  # whether the game lists its legal actions itself (set per search)

    # ------------------------------------------------------------------ search
    def choose(self, view: SeatView) -> Move:
        legal = view.legal_moves if not view.many_moves() else None
        if legal is not None and len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        edges = self._root_edges(view)
        moves = self._moves
        counts = [
            (moves[a], visits)
            for a, visits, _ in edges
            if visits > 0 and (legal is None or moves[a] in legal)
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
            edges = self._root_edges(view)
        finally:
            self.iters, self.seconds = saved
        moves = self._moves
        return {str(moves[a]): (n, total / n if n else 0.0) for a, n, total in edges}

    def _root_edges(self, view: SeatView) -> list[tuple[int, int, float]]:
        """Search from ``view``; each root move of its seat with its visits and total reward.
        The cyclic garbage collector is paused meanwhile (:func:`_collector_paused`), and the
        tree is let go before it runs again (else its first pass would walk the whole tree)."""
        with _collector_paused():
            roots = self._search(view, random.Random(self.rng.getrandbits(64)))
            edges = [(a, e[0], e[1]) for a, e in roots[view.seat].edges.items()]
            self._root = _Node()  # the tree goes with the last references to it
            del roots
        return edges

    def _search(self, view: SeatView, rng: random.Random) -> list[_Node]:
        strategy = None
        if has_part(view.game, "heuristic"):
            from .heuristic import strategy_class

            strategy = strategy_class(view.game)()
        policy = None
        if self.rollout == "heuristic" or (self.rollout == "auto" and strategy is not None):
            policy = strategy.rollout if strategy is not None else None
        self._evaluate = getattr(strategy, "evaluate", None)
        self._depth = self.depth or (2 * view.players if self._evaluate else 120)
        if self._per_table:
            self.guide = self._guide_for(view.players, view.options)
        codec = view.codec()  # moves go in through the unchecked integer path
        if codec is not self._codec:  # plain dicts: faster to read than the codec's read-only views
            self._codec = codec
            self._moves, self._index, self._identity = codec.moves, dict(codec.index), dict(codec.identity)
        roots = [_Node() for _ in range(view.players)]
        # A determinisation gives the seat exactly its own legal moves (the conformance suite
        # checks resample for it): the root's are listed once, not once an iteration.
        self._root = roots[view.seat]
        self._wide = view.game.many_moves is not State.many_moves  # else never wide
        self._own_actions = view.game.legal_actions is not State.legal_actions
        self._root_actions = None if view.many_moves() else self._actions(view.legal_moves)
        for seat, priors in self._priors(view, rng, strategy).items():
            self._open(roots[seat], priors)
        self.last_iterations = self._run(view, roots, rng, policy)
        return roots

    def _run(self, view: SeatView, roots: list[_Node], rng: random.Random, policy: Any) -> int:
        """The search's iterations, within its budget; how many ran."""
        if self.seconds is None:
            for _ in range(self.iters or 1):
                self._iterate(view, roots, rng, policy)
            return self.iters or 1
        done = 0
        deadline = time.perf_counter() + self.seconds
        cap = self.iters if self.iters is not None else 10**12
        while done < cap:
            for _ in range(8):
                self._iterate(view, roots, rng, policy)
            done += 8
            if time.perf_counter() >= deadline:
                break
        return done

    def check_table(self, players: int, options: dict[str, Any]) -> None:
        """Refuse (a KitiError) a table that the learned policy guiding the search does not
        play, before its game starts; a search without one plays any table."""
        if self._per_table:
            self._guide_for(players, options)
            return
        fits = getattr(self.guide, "fits", None)
        game_id = getattr(getattr(self.guide, "game", None), "id", None)
        if fits is None or game_id is None:
            return  # no guide, or one given as an object that does not say its game
        from ..core.load import load

        game = load(game_id, players, **options)
        if not fits(game):
            raise KitiError(f"its policy plays {getattr(self.guide, 'game', '?')!r}, not {game!r}")

    def _guide_for(self, players: int, options: Mapping[str, Any]) -> Guide:
        """The game's shipped policy for a table of ``players`` seats with ``options``
        (:func:`kiti.rl.learned.learned_for`: an error naming the tables its policies play
        where none fits), kept per table."""
        key = (players, tuple(sorted(options.items())))
        guide = self._tables.get(key)
        if guide is None:
            from ..core.load import load
            from ..rl.learned import learned_for

            guide = self._tables[key] = learned_for(load(self._policy_game, players, **options))
        return guide

    def _priors(self, view: SeatView, rng: random.Random, strategy: Any) -> dict[int, dict[Move, float]]:
        """The seats' root priors: the game heuristic's expectations where it has any; the
        searching seat's from the learned policy instead where one guides the search."""
        if self.prior <= 0:
            return {}
        found = strategy.priors(view, rng) if hasattr(strategy, "priors") else {}
        out = {seat: _floored(priors) for seat, priors in found.items() if priors}
        if self.guide is not None:
            out[view.seat] = self._learned(view, view.many_moves())
        return out

    def _learned(self, view: SeatView, wide: bool) -> dict[Move, float]:
        """The learned policy's priors for ``view``'s seat (its likeliest moves only where
        moves are many), floored as the heuristic's."""
        assert self.guide is not None
        probs = self.guide.probabilities(view)
        if wide and len(probs) > WIDE_PRIORS:
            probs = dict(sorted(probs.items(), key=lambda mp: -mp[1])[:WIDE_PRIORS])
        return _floored(probs)

    def _open(self, node: _Node, priors: Mapping[Move, float]) -> None:
        """Give ``node`` these priors and open their moves at once (widening alone would
        seldom draw them on wide positions)."""
        index = self._index
        node.priors = {index[m]: p for m, p in priors.items()}
        node.offer = None
        for action in node.priors:
            node.edges[action] = [0, 0.0, 0, None]

    def _iterate(self, view: SeatView, roots: list[_Node], rng: random.Random, policy: Any) -> None:
        state: State = view.determinize(rng)
        players = view.players
        start = len(state.log)
        node: list[_Node | None] = list(roots)
        taken: list[list[Any] | None] = [None] * players  # the edge a seat took last
        since = [start] * players  # where each seat's next observation begins
        paths: list[list[tuple[_Node, list[Any]]]] = [[] for _ in range(players)]
        random_action = state.random_action
        step = state.step
        index = self._index
        seen = self.keys == "seen"
        guide = self.guide
        cut: list[float] | None = None  # the learned value of each seat where the tree ended
        left = self._depth
        inside = players  # seats still in their trees
        seats = turns(state)
        for seat in seats:
            edge = taken[seat]
            if edge is not None:  # the seat is back: what did it see since its last move?
                children = edge[3]
                if children is None:
                    children = edge[3] = {}
                key = key_since(state.log, seat, since[seat]) if seen else ()
                child = children.get(key)
                if child is None:
                    child = children[key] = _Node()
                    if guide is not None and self.prior > 0:
                        self._open(child, self._learned(seat_view(state, seat), state.many_moves(seat)))
                    taken[seat] = None
                    action, chosen = self._select(state, seat, child, rng)
                    paths[seat].append((child, chosen))
                    node[seat] = None  # a new node: this seat leaves its tree
                    inside -= 1
                    step(seat, action)
                    continue
                node[seat] = child
            current = node[seat]
            if current is None:  # out of the tree: roll out
                if not inside and guide is None:  # every seat is out: the rest is a rollout
                    self._roll_out(state, seat, seats, left, rng, policy)
                    break
                if guide is not None and cut is None and self.value > 0 and all(n is None for n in node):
                    cut = [guide.value(seat_view(state, s)) for s in range(players)]
                    if self.value >= 1.0:
                        break
                left -= 1
                if left < 0:
                    break
                step(seat, random_action(seat, rng) if policy is None else index[policy(state, seat, rng)])
                continue
            if guide is not None and not current.edges and self.prior > 0:  # another seat's root
                self._open(current, self._learned(seat_view(state, seat), state.many_moves(seat)))
            action, chosen = self._select(state, seat, current, rng)
            paths[seat].append((current, chosen))
            if chosen[0] == 0:
                node[seat] = None  # first visit of this move: roll out from here
                taken[seat] = None
                inside -= 1
            else:
                taken[seat] = chosen
            step(seat, action)
            since[seat] = len(state.log)
        self._back_up(paths, self._leaf_rewards(state, cut))

    def _roll_out(
        self, state: State, seat: int, seats: Iterator[int], left: int, rng: random.Random, policy: Any
    ) -> None:
        """At most ``left`` rollout moves (random actions, or ``policy``'s), ``seat``'s first,
        in the order of :func:`turns` (``seats``: the iteration's, which yielded ``seat``): a
        seat acting alone is stepped without the generator, as :func:`play_random_actions`."""
        if left <= 0:
            return
        if policy is None and seat == min(state.acting):  # nobody before it in this choice
            state._random_finish(rng, left)  # the game may play it quietly: only scored now
            return
        draw: Callable[[int, random.Random], int] = state.random_action
        if policy is not None:
            index = self._index

            def draw(s: int, r: random.Random) -> int:
                return index[policy(state, s, r)]

        step = state.step
        alone = len(state.acting) == 1  # then ``seats`` would start afresh after this move
        step(seat, draw(seat, rng))
        left -= 1
        if alone:
            while left > 0:
                acting = state.acting
                if len(acting) != 1:
                    seats = turns(state)  # a simultaneous choice, or the end: turns' own loop
                    break
                for s in acting:
                    step(s, draw(s, rng))
                left -= 1
        for s in islice(seats, left):
            step(s, draw(s, rng))

    def _leaf_rewards(self, state: State, cut: list[float] | None) -> list[float]:
        """Each seat's reward: the game's (ended or stopped early), the learned value where
        it cut the iteration, or ``value * learned + (1 - value) * rollout``."""
        if cut is None:
            return self._rewards(state)
        w = self.value
        if w >= 1.0:
            return cut
        return [w * v + (1.0 - w) * r for v, r in zip(cut, self._rewards(state))]

    @staticmethod
    def _back_up(paths: list[list[tuple[_Node, list[Any]]]], rewards: list[float]) -> None:
        for seat, path in enumerate(paths):
            r = rewards[seat]
            for owner, e in path:
                owner.visits += 1
                e[0] += 1
                e[1] += r

    def _legal(self, state: State, seat: int) -> list[int]:
        """``seat``'s legal moves as actions, in the game's order (its own ``legal_actions``
        where it has one: a game lists them in the order of its legal moves, see
        tests/test_ismcts_rollout_20.py)."""
        if self._own_actions:
            return state.legal_actions(seat)
        return self._actions(state.legal_moves(seat))

    def _actions(self, moves: list[Move]) -> list[int]:
        identity = self._identity
        try:  # the codec's own objects (games hand them out): one look-up each
            return [identity[id(m)] for m in moves]
        except KeyError:
            index = self._index
            return [index[m] for m in moves]

    def _widen(self, state: State, seat: int, node: _Node, rng: random.Random, check: bool) -> list[int]:
        """Progressive widening: open one more random move while the node has fewer than
        ``width * sqrt(visits)`` edges; the node's edges legal here (all of them where not
        ``check``: the searching seat's root, whose moves are legal in every determinisation)."""
        edges = node.edges
        if len(edges) < math.ceil(self.width * math.sqrt(node.visits + 1)):
            edges.setdefault(state.random_action(seat, rng), [0, 0.0, 0, None])
        if not check:
            return list(edges)
        # The seat is to act and the moves are the codec's own: of illegal_reason's checks only
        # the game's rule is left to ask, as a yes or no (``State._legal_among``).
        legal = state._legal_among(seat, edges)
        return legal or [state.random_action(seat, rng)]

    def _select(self, state: State, seat: int, node: _Node, rng: random.Random) -> tuple[int, list[Any]]:
        """UCB1 with availability among the moves legal here (progressive widening if wide);
        each offered move's edge is made when first seen and its availability counted."""
        if node.first is not None:  # back at a node seen once: its first moves' edges, in order
            edges, first = node.edges, node.first
            node.edges = {a: edges.get(a) or [0, 0.0, 1, None] for a in first}
            node.first = None
        if self._wide and state.many_moves(seat):
            actions = self._widen(state, seat, node, rng, node is not self._root)
        elif node is self._root:  # the searching seat's root: the same moves in every determinisation
            actions = self._root_actions or self._legal(state, seat)
        else:
            actions = self._legal(state, seat)
        if node.priors is not None:
            return self._select_with_priors(node, actions)
        edges = node.edges
        if not edges:  # a node's first visit: every move offered once, none visited yet
            a = actions[0] if len(actions) == 1 else rng.choice(actions)
            if node is self._root:
                node.edges = edges = {a: [0, 0.0, 1, None] for a in actions}
                return a, edges[a]
            node.first = actions  # the other edges are made if the seat comes back
            chosen = node.edges[a] = [0, 0.0, 1, None]
            return a, chosen
        c = self.c
        log = math.log
        sqrt = math.sqrt
        unvisited: list[tuple[int, list[Any]]] = []
        best: tuple[int, list[Any]] | None = None
        best_v = -1.0
        for a in actions:
            e = edges.get(a)
            if e is None:
                unvisited.append((a, edges.setdefault(a, [0, 0.0, 1, None])))
                continue
            e[2] += 1
            n = e[0]
            if n == 0:
                unvisited.append((a, e))
            elif not unvisited:
                v = e[1] / n + c * sqrt(log(e[2]) / n)
                if v > best_v:
                    best_v, best = v, (a, e)
        if unvisited:
            return unvisited[0] if len(unvisited) == 1 else rng.choice(unvisited)
        assert best is not None
        return best

    def _select_with_priors(self, node: _Node, actions: list[int]) -> tuple[int, list[Any]]:
        """PUCT: mean reward plus ``prior * P(move) * sqrt(visits) / (1 + n)``."""
        offer = node.offer
        if offer is None or (offer[0] is not actions and offer[0] != actions):
            offer = node.offer = (actions, self._offer(node, actions))
        total = node.visits  # the sum of its edges' visits
        mean = -1.0  # the node's mean reward, an unvisited move's estimate: asked only for one
        scale = self.prior * math.sqrt(total + 1)
        best: tuple[int, list[Any], float] | None = None
        best_v = -1e18
        for entry in offer[1]:
            e = entry[1]
            e[2] += 1
            n = e[0]
            if n:
                v = e[1] / n + scale * entry[2] / (1 + n)
            else:
                if mean < 0:
                    mean = sum(x[1] for x in node.edges.values()) / total if total else 0.5
                v = mean + scale * entry[2]
            if v > best_v:
                best_v, best = v, entry
        assert best is not None
        return best[0], best[1]

    @staticmethod
    def _offer(node: _Node, actions: list[int]) -> list[tuple[int, list[Any], float]]:
        """Each of ``actions`` with its edge at ``node`` (made if new, in that order) and its
        prior: what PUCT reads, kept while the node is offered the same moves."""
        edges = node.edges
        priors = node.priors or {}
        out = []
        for a in actions:
            e = edges.get(a)
            if e is None:
                e = edges[a] = [0, 0.0, 0, None]
            out.append((a, e, priors.get(a, 0.0)))
        return out

    def _rewards(self, state: State) -> list[float]:
        if not state.over and self._evaluate is not None:  # stopped early: the heuristic's estimate
            result = make_result(state.parties(), self._evaluate(state))  # result()'s parties
        else:
            result = state.result()
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


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a search iterates (where it runs), and
    start it again after. A search makes no reference cycles (tests/test_ismcts_cycles_20.py
    checks every game): reference counting frees all it makes, and the collector would only
    walk the objects it keeps a while (a tenth of MOTU's search time). Bots run one search a
    process (a server's pool: processes); with threads, the first search to pause it starts it."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _floored(priors: Mapping[Move, float]) -> dict[Move, float]:
    """``0.9 * p + 0.1 / len``: every move with a prior keeps a chance."""
    if not priors:
        return {}
    floor = 0.1 / len(priors)
    return {m: 0.9 * p + floor for m, p in priors.items()}
