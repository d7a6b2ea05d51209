"""The ``heuristic`` bot: a rules-aware strategy per game, from the seat's view only.

Each game registers its own strategy in :data:`STRATEGIES` (game id -> function of a
:class:`~kiti.bots.base.SeatView`); a game without one is refused with a clear error.
Mauw and MOTU add theirs when they land.

Miaui strategy (``_miaui_choose``), using only ``view.info`` (the observation ``now``
and the ``events`` history of the seat):

1. **Reconstruct the table.** Every reveal is public, so each seat's hand is ``1..12``
   minus the divers it revealed; every catch is public, so every fish pile is rebuilt
   exactly by replaying catches (Seagulls eat the top card, three Jellyfish leave).
   Lantern peeks (``peek`` events, private to the seat) are remembered: a face-down
   card the seat peeked is valued as what it is; any other face-down card is valued as
   the mean of the cards the seat has not seen (deck + burned card + others' hidden cards).
2. **Value each space for each seat** by simulating the catch on that seat's pile: fish
   score their value, a Seagull is worth minus the pile's top card (so a Seagull is
   good on a pile topped by a Jellyfish), a Jellyfish is negative unless it completes
   a triple (then it is worth the two Jellyfish it removes); a second Jellyfish is
   discounted a little while Jellyfish remain unseen (a triple is near); a Lantern
   earns a small bonus for the peek it gives.
3. **Estimate the contest per depth**: sample ``samples`` profiles of the opponents'
   divers (uniform over each opponent's remaining hand), resolve every candidate
   diver of ours against the same profiles (common random numbers) with the exact
   rules, Kiti's tie order (observation ``tie_order``) or No Fighting knock-outs.
4. **Choose** the diver maximising the mean of (my gain - mean gain of the others)
   minus the cost of spending a diver that wins: ``beta`` x the value of an average
   unseen card x the chance this diver wins something (strong divers are kept for rich
   lagoons; in the last free round the cost vanishes).  A No Fighting taker who orders
   her catch tries the orders and keeps the best for her pile.

:func:`miaui_rollout_move` is a much cheaper rule of thumb on a (determinised) state,
used by ISMCTS rollouts with ``rollout=heuristic``.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from ..core.errors import KitiError
from ..core.game import Move, State
from ..games.miaui.cards import COUNT, VALUE
from ..games.miaui.rules import ROUNDS, add_to_pile, resolve_depths
from .base import SeatView


class NoHeuristicError(KitiError, ValueError):
    """The game has no heuristic strategy (yet)."""


# --------------------------------------------------------------------------- Miaui
def pile_add(pile: list[str], card: str) -> None:
    """Add ``card`` to ``pile`` exactly as the rules do (:func:`add_to_pile`)."""
    add_to_pile(pile, card)


def pile_gain(pile: list[str], cards: list[str], value: dict[str, int], jelly_unseen: int = 0,
              last_round: bool = False) -> float:
    """Points ``pile`` gains by catching ``cards`` in order, with small strategic adjustments."""
    before = sum(value[c] for c in pile)
    new = list(pile)
    bonus = 0.0
    for card in cards:
        if card[0] == "L" and not last_round:
            bonus += 1.0  # the peek at the next card of that space
        pile_add(new, card)
    gain = sum(value[c] for c in new) - before
    jellies = sum(1 for c in new if c[0] == "J")
    if jellies == 2 and jelly_unseen and not last_round and any(c[0] == "J" for c in cards):
        bonus += 3.0  # a triple is near: the second Jellyfish is less bad than it looks
    return gain + bonus


def resolve_dives(dives: list[int], players: int, kiti: int | None) -> list[tuple[int, int]]:
    """(space, winner) for each depth won, as the rules decide (kiti None: No Fighting)."""
    return [(space, winner) for space, winner, _ in resolve_depths(dives, players, kiti)[0]]


class MiauiTable:
    """What a seat can deduce about a Miaui table from its information state."""

    def __init__(self, info: dict[str, Any]) -> None:
        value, count = VALUE, COUNT
        now = info["now"]
        events = info["events"]
        self.seat: int = info["seat"]
        n = self.players = now["players"]
        self.round: int = now["round"]
        self.kiti: int | None = now["kiti"]
        opts = now["options"]
        taker_chooses = bool(opts.get("taker_chooses_order"))
        played: list[set[int]] = [set() for _ in range(n)]
        piles: list[list[str]] = [[] for _ in range(n)]
        seen: Counter[str] = Counter()
        peeks: dict[tuple[int, int], str] = {}
        track: list[list[str]] = [[], [], []]  # the lagoon as we saw it ('?' face down)
        for e in events:
            t = e["type"]
            if t == "reveal":
                for s, d in enumerate(e["dives"]):
                    played[s].add(d)
            elif t == "stock":
                card = e["card"]
                track[e["space"]].append(card)
                if card != "?":
                    seen[card] += 1
            elif t == "peek":
                seen[e["card"]] += 1
                peeks[(e["round"], e["space"])] = e["card"]
                row = track[e["space"]]
                if row and row[-1] == "?":
                    row[-1] = e["card"]
            elif t == "catch":
                cards = e["cards"]
                for was, c in zip(track[e["space"]], cards):
                    if was == "?":
                        seen[c] += 1  # a face-down card we never saw, revealed by the catch
                track[e["space"]] = []
                if taker_chooses and len(set(cards)) > 1:
                    continue  # the 'take' events add them in the chosen order
                for c in cards:
                    pile_add(piles[e["seat"]], c)
            elif t == "take":
                pile_add(piles[e["seat"]], e["card"])
        own = now["piles"][self.seat]
        if "?" not in own:
            piles[self.seat] = list(own)
        self.piles = piles
        self.hands: list[list[int]] = [
            sorted(set(range(1, ROUNDS + 1)) - p) for p in played
        ]
        self.hands[self.seat] = sorted(now["hands"][self.seat])
        self.value = value
        unseen = count - seen
        self.unseen: list[str] = sorted(unseen.elements())
        self.jelly_unseen = sum(1 for c in self.unseen if c[0] == "J")
        lagoon: list[list[str | None]] = []
        for space, cards in enumerate(now["lagoon"]):
            row: list[str | None] = []
            for c in cards:
                if c == "?":
                    row.append(peeks.get((self.round, space)))
                else:
                    row.append(c)
            lagoon.append(row)
        self.lagoon = lagoon
        self.pending = now.get("pending_take")

    def mean_unknown(self, seat: int) -> float:
        """Gain for ``seat`` of one card drawn from the unseen pool, on average."""
        if not self.unseen:
            return 0.0
        pile = self.piles[seat]
        return sum(pile_gain(pile, [c], self.value) for c in self.unseen) / len(self.unseen)

    def space_gain(self, seat: int, space: int) -> float:
        cards = self.lagoon[space]
        if not cards:
            return 0.0
        last = self.round >= ROUNDS
        if all(c is not None for c in cards):
            return pile_gain(self.piles[seat], [c for c in cards if c is not None], self.value,
                             self.jelly_unseen, last)
        known = [c for c in cards if c is not None]
        unknown = len(cards) - len(known)
        return (pile_gain(self.piles[seat], known, self.value, self.jelly_unseen, last)
                + unknown * self.mean_unknown(seat))


def _miaui_choose(view: SeatView, rng: random.Random, samples: int = 48, beta: float = 0.6) -> Move:
    legal = view.legal_moves
    if len(legal) == 1:
        return legal[0]
    table = MiauiTable(view.info)
    if table.pending:
        return _miaui_order(view, table)
    me = table.seat
    n = table.players
    gains = [[table.space_gain(s, sp) for sp in range(3)] for s in range(n)]
    mine = sorted({m.n for m in legal})  # type: ignore[attr-defined]
    others = [s for s in range(n) if s != me]
    profiles = []
    for _ in range(samples):
        dives = [0] * n
        for s in others:
            dives[s] = rng.choice(table.hands[s]) if table.hands[s] else 1
        profiles.append(dives)
    rounds_left = ROUNDS - table.round  # free choices after this one
    avg = max(0.0, table.mean_unknown(me))
    cost_scale = beta * avg * min(1.0, rounds_left / 3.0)
    best_d, best_u = mine[0], -1e18
    for d in mine:
        total = 0.0
        wins = 0
        for dives in profiles:
            dives[me] = d
            u = 0.0
            for space, w in resolve_dives(dives, n, table.kiti):
                g = gains[w][space]
                if w == me:
                    u += g
                    wins += 1
                else:
                    u -= g / (n - 1)
            total += u
        util = total / samples - cost_scale * wins / samples
        if util > best_u + 1e-9:
            best_d, best_u = d, util
    for m in legal:
        if m.n == best_d:  # type: ignore[attr-defined]
            return m
    return legal[0]  # pragma: no cover


def _miaui_order(view: SeatView, table: MiauiTable) -> Move:
    """No Fighting, taker chooses: the first card of the best order for our pile."""
    cards = list(table.pending["cards"])  # type: ignore[index]
    pile = table.piles[table.seat]
    best_first, best = None, -1e18
    orders = set(itertools.permutations(cards)) if len(cards) <= 6 else {tuple(cards)}
    for order in sorted(orders):
        g = pile_gain(pile, list(order), table.value)
        if g > best:
            best_first, best = order[0], g
    for m in view.legal_moves:
        if getattr(m, "card", None) == best_first:
            return m
    return view.legal_moves[0]


def miaui_rollout_move(state: State, seat: int, rng: random.Random) -> Move:
    """A cheap rule of thumb on a (determinised) Miaui state, for ISMCTS rollouts.

    Value the three spaces for this seat (Seagull: minus our top card; Jellyfish
    negative); go for the best one with the highest diver (Deepest), the second
    highest (Deep) or the lowest (Shallow); when nothing is worth having, play a middle
    diver.  One move in five is uniform random to keep rollouts varied.
    """
    moves = state.legal_moves(seat)
    if len(moves) == 1 or rng.random() < 0.2 or getattr(state, "pending", None):
        return rng.choice(moves)
    value = VALUE
    pile = state.piles[seat]  # type: ignore[attr-defined]
    top = value[pile[-1]] if pile else 0
    best_space, best = -1, 0.0
    for space, cards in enumerate(state.lagoon):  # type: ignore[attr-defined]
        v = 0.0
        for c in cards:
            v += -top if c == "S" else value[c]
        if v > best:
            best_space, best = space, v
    k = len(moves)  # moves are in increasing diver order
    if best_space == 0:
        return moves[-1]
    if best_space == 1:
        return moves[-2] if k > 1 else moves[-1]
    if best_space == 2:
        return moves[0]
    return moves[k // 2]


# ---------------------------------------------------------------- dispatch
#: game id -> strategy(view, rng) -> move
STRATEGIES: dict[str, Callable[..., Move]] = {"miaui": _miaui_choose}
#: game id -> cheap rollout policy(state, seat, rng) -> move (used by ISMCTS)
ROLLOUT_POLICIES: dict[str, Callable[[State, int, random.Random], Move]] = {
    "miaui": miaui_rollout_move,
}


def _for_game(table: dict[str, Any], game_id: str, what: str) -> Any:
    try:
        return table[game_id]
    except KeyError:
        known = ", ".join(sorted(table))
        raise NoHeuristicError(f"the heuristic bot has no {what} for game {game_id!r} yet "
                               f"(it knows: {known})") from None


def strategy_for(game_id: str) -> Callable[..., Move]:
    return _for_game(STRATEGIES, game_id, "strategy")


def rollout_policy_for(game_id: str) -> Callable[[State, int, random.Random], Move]:
    return _for_game(ROLLOUT_POLICIES, game_id, "rollout policy")


class HeuristicBot:
    """Plays the game's rules-aware strategy; random tie-breaks and samples from its own seed."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, samples: int = 48, beta: float = 0.6) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.beta = beta

    def choose(self, view: SeatView) -> Move:
        strategy = strategy_for(view.game.info.id)
        return strategy(view, self.rng, samples=self.samples, beta=self.beta)
