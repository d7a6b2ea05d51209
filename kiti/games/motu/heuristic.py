"""MOTU's heuristic strategy (the ``heuristic`` part of the game), from a seat's view only.

It reads a determinisation of its seat's view (:meth:`SeatView.determinize`): islands, row,
banks, Destinies and scores are public, so they are exact in every guess; it never looks at a
hidden card. Every number comes from the rules (:mod:`.sources`, :mod:`.island`, :mod:`.rules`).

**Worth of an island** (:meth:`Judge.island_worth`): the points its Sources not yet scored would
give now, plus ``potential`` times the points spare partners (fish, birds, palms beyond the
leaders) could still make, plus ``beach`` per card of its longest beach (the Beach bonus), plus
``coconut`` per banked coconut (each is a point while Coconuts is unscored, and buys cards).

- **Where to place**: every legal placement is valued from the symbols it covers and shows (fast,
  without laying the card); the best ``shortlist`` are laid for real and valued whole (beach
  included); the best wins.
- **Which card to take**: the best placement of each card it may take, plus the coconuts it
  gains, less those it pays; ``scrap`` only when nothing else is offered. Solo, the card it leaves
  is valued too: what the Opponent would score with it (its own scoring rules), and the Beach Hut
  coconuts it pays or takes (each is a point for the Opponent).
- **Destinies**: buy when the chance of having the most (from the margin over the best other
  seat now, surer later in the game) makes the Destiny worth more than its price in coconuts plus
  ``destiny_margin``.
- **Traveler**: play it when its points from the row plus what its symbols and coconuts add reach
  ``travel_at``, and always on the last turn if it is worth anything.
- **Interim totals**: score the Sources that stand to grow least: for each, its value now less
  what it is expected to gain by the end (``GROWTH`` per card still to place); the largest win.
- **Solo, the other card**: discard it (3 coconuts) when the Opponent would score more with it
  than the 3 coconuts are worth to both sides.

Ties between equal values are broken at random (the bot's own generator).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Container, Mapping
from functools import cached_property

from ...core.game import State
from ...core.moves import Move
from ...core.options import OptionSpec
from ...core.seatview import SeatView
from .cards import DESTINIES, PAIRS, TRAVELERS, Pos, card
from .island import Island, kept, lay_card, legal_placements, random_legal_placement, shape, star_position
from .rules import (
    DISCARD,
    DONE,
    GIVE,
    ROUNDS,
    SCRAP,
    SOLO_DISCARD,
    TRAVEL,
    Buy,
    MotuState,
    Place,
    Score,
    SoloTake,
    Take,
    placements_per_seat,
    solo_take_price,
    take_cost,
)
from .sources import (
    SOURCES,
    coconut_points,
    component_count,
    longest_beach,
    opponent_points,
    pair_points,
    ruler_points,
    symbol_counts,
    totem_points,
    traveler_points,
    visible_counts,
)

_PARAM = "bot heuristic parameter"
#: Points a Source is expected to gain per card still to place (interim choices).
GROWTH = {"fisherman": 1.0, "hunter": 1.2, "canoe": 1.2, "coconut": 0.1, "totem": 0.9, "volcano": 0.8}


class MotuHeuristic:
    """The strategy (see the module docstring); its parameters are ``params``."""

    params = (
        OptionSpec(
            "coconut", float, 1.0, "points a banked coconut is worth", minimum=0.0, maximum=10.0, what=_PARAM
        ),
        OptionSpec(
            "beach",
            float,
            0.7,
            "points per card of the longest beach",
            minimum=0.0,
            maximum=10.0,
            what=_PARAM,
        ),
        OptionSpec(
            "potential",
            float,
            0.4,
            "share of the points spare partners could still make",
            minimum=0.0,
            maximum=1.0,
            what=_PARAM,
        ),
        OptionSpec(
            "shortlist",
            int,
            6,
            "placements laid for real and valued whole",
            minimum=1,
            maximum=100,
            what=_PARAM,
        ),
        OptionSpec(
            "destiny_margin",
            float,
            1.0,
            "extra points a Destiny must promise over its price",
            minimum=-20.0,
            maximum=20.0,
            what=_PARAM,
        ),
        OptionSpec(
            "travel_at",
            float,
            8.0,
            "play the Traveler when it is worth this many points",
            minimum=0.0,
            maximum=100.0,
            what=_PARAM,
        ),
    )

    def __init__(
        self,
        coconut: float = 1.0,
        beach: float = 0.7,
        potential: float = 0.4,
        shortlist: int = 6,
        destiny_margin: float = 1.0,
        travel_at: float = 8.0,
    ) -> None:
        self.coconut = coconut
        self.beach = beach
        self.potential = potential
        self.shortlist = shortlist
        self.destiny_margin = destiny_margin
        self.travel_at = travel_at

    # ------------------------------------------------------------------ choice
    def choose(self, view: SeatView, rng: random.Random) -> Move:
        state = view.determinize(rng)
        assert isinstance(state, MotuState)
        return self.decide(state, view.seat, rng)

    def decide(self, state: MotuState, seat: int, rng: random.Random) -> Move:
        """The move for ``seat`` (to act) on a state whose public parts are exact."""
        judge = Judge(self, state, seat)
        phase = state.phase
        if phase == "place":
            return judge.best_placement(state.holding or "", rng)[1]
        legal = state.legal_moves(seat)
        if len(legal) == 1:
            return legal[0]
        if phase == "take":
            return max(legal, key=lambda m: (judge.take_value(m, rng), rng.random()))
        if phase == "extras":
            return self._extras(judge, legal, rng)
        if phase == "other":
            return DISCARD if judge.opponent_gain(state.other or "") > judge.discard_cost() else GIVE
        return max(legal, key=lambda m: (judge.interim_value(m), rng.random()))

    def priors(self, view: SeatView, rng: random.Random) -> dict[int, dict[Move, float]]:
        """How much this strategy favours each move the viewing seat could make now, for
        ISMCTS to start from: half on the move :meth:`decide` makes, half a softmax over its
        quick values (``exp(value / 2)``; placements: its shortlist); in the optional steps,
        most of the weight on its choice."""
        state = view.determinize(rng)
        assert isinstance(state, MotuState)
        judge = Judge(self, state, view.seat)
        phase = state.phase
        if phase == "place":
            name = state.holding or ""
            spots = legal_placements(judge.island, name)
            values: dict[Move, float] = {Place(*p): judge.quick(name, *p) for p in spots}
            values = dict(sorted(values.items(), key=lambda kv: -kv[1])[: 4 * self.shortlist])
        elif phase == "take":
            values = {m: judge.take_value(m, rng) for m in state.legal_moves(view.seat)}
        elif phase == "interim":
            values = {m: judge.interim_value(m) for m in state.legal_moves(view.seat)}
        else:
            values = dict.fromkeys(state.legal_moves(view.seat), 0.0)
        if len(values) < 2:
            return {}
        pick = self.decide(state, view.seat, rng)
        top = max(values.values())
        weights = {m: math.exp((v - top) / 2.0) for m, v in values.items()}
        total = sum(weights.values())
        out = {m: 0.5 * w / total for m, w in weights.items()}
        out[pick] = out.get(pick, 0.0) + 0.5
        return {view.seat: out}

    def _extras(self, judge: Judge, legal: list[Move], rng: random.Random) -> Move:
        buys = [(judge.destiny_value(m.destiny), rng.random(), m) for m in legal if isinstance(m, Buy)]
        if buys:
            best = max(buys, key=lambda b: (b[0], b[1]))
            if best[0] > self.destiny_margin:
                return best[2]
        if TRAVEL in legal and judge.travel_value() >= (0.01 if judge.last_turn() else self.travel_at):
            return TRAVEL
        return DONE

    def evaluate(self, state: State) -> list[float]:
        """Each party's expected final score, for a search that stops early: the points
        scored so far, plus what each island is worth now (:meth:`Judge.island_worth`:
        Sources not yet scored, spare partners, coconuts, beach); the solo Opponent's score
        as it stands."""
        assert isinstance(state, MotuState)
        if state.over:
            return list(state.party_scores())
        rule = state.totem_rule
        values = [state.interim_total(s) + self._now(state, s, rule) for s in range(state.players)]
        if state.solo:
            values.append(float(state.opponent_score()))
        return values

    def _now(self, state: MotuState, seat: int, rule: str) -> float:
        """What ``Judge(self, state, seat).island_worth(its island, its bank)`` gives, without
        the Judge (``rule``: the totem rule)."""
        island = state.islands[seat]
        left = _left(state.scored(seat))
        counts = visible_counts(island, state.extra(seat))
        volcano = kept(island, "volcano_points", _volcano_points)
        return _worth(
            self,
            left,
            _cards_left(state, island),
            rule,
            state.printed_coconuts(seat),
            counts,
            volcano,
            state.banks[seat],
            longest_beach(island),
        )

    def rollout(self, state: State, seat: int, rng: random.Random) -> Move:
        """A cheap rule of thumb for search rollouts: the better of a few random placements, the
        free card, no Destiny, the Traveler on the last turn, greedy interim choices."""
        assert isinstance(state, MotuState)
        phase = state.phase
        if phase == "place":
            judge = Judge(self, state, seat)
            island = state.islands[seat]
            spots = {random_legal_placement(island, state.holding or "", rng) for _ in range(4)}
            best = max((s for s in spots if s), key=lambda s: judge.quick(state.holding or "", *s))
            return Place(*best)
        legal = state.legal_moves(seat)
        if phase == "take":
            return legal[0]
        if phase == "extras":
            return TRAVEL if TRAVEL in legal and state.round == ROUNDS else DONE
        if phase == "other":
            return GIVE
        scores = [m for m in legal if isinstance(m, Score)]
        return max(scores, key=lambda m: sum(state.source_value(seat, x) for x in m.sources))


class Judge:
    """Values for one seat's decision on one (determinised) state."""

    def __init__(self, strategy: MotuHeuristic, state: MotuState, seat: int) -> None:
        self.s = strategy
        self.state = state
        self.seat = seat
        self.island = state.islands[seat]
        self.extra = state.extra(seat)
        self.bank = state.banks[seat]  # counters: what the seat can spend
        self.printed = state.printed_coconuts(seat)  # on its played Traveler: they count, unspent
        self.left = _left(state.scored(seat))
        self._vol: int | None = None
        self.totem_rule = state.totem_rule
        self._left_cards = _cards_left(state, self.island)

    @cached_property
    def counts(self) -> Counter[str]:
        """The seat's symbols by kind (worked out when first asked: a search's evaluation
        values islands without them)."""
        return symbol_counts(self.island, self.extra)

    @cached_property
    def star(self) -> Pos:
        return star_position(self.island)

    # ------------------------------------------------------------------ islands
    def worth(self, counts: Mapping[str, int], volcano: int, bank: int, beach: int | None = None) -> float:
        """Points from the Sources not scored yet, spare partners, coconuts and (if given) beach."""
        return _worth(
            self.s, self.left, self._left_cards, self.totem_rule, self.printed, counts, volcano, bank, beach
        )

    def cards_left(self) -> int:
        """The cards the seat has still to add to its island (worked out once per decision)."""
        return self._left_cards

    def volcano_now(self, island: Island) -> int:
        """The island's volcanoes' points now (kept with the island: its star is the seat's)."""
        return kept(island, "volcano_points", _volcano_points)

    def quick(self, name: str, rotation: int, x: int, y: int, bank_change: int = 0) -> float:
        """A placement's worth from what it covers and shows, without laying it (no beach)."""
        counts = dict(self.counts)
        volcano = self._volcano
        symbols = self.island.symbols
        for (cx, cy), spec in shape(card(name), rotation).cells:
            p = (x + cx, y + cy)
            old = symbols.get(p)
            if old is not None:
                counts[old] -= 1
            if spec.symbol is not None:
                counts[spec.symbol] = counts.get(spec.symbol, 0) + 1
                if spec.symbol == "volcano":
                    volcano += ruler_points(math.hypot(p[0] - self.star[0], p[1] - self.star[1]))
        return self.worth(counts, volcano, self.bank + bank_change)

    @property
    def _volcano(self) -> int:
        if self._vol is None:
            self._vol = self.volcano_now(self.island)
        return self._vol

    def island_worth(self, island: Island, bank: int) -> float:
        return self.worth(
            visible_counts(island, self.extra), self.volcano_now(island), bank, longest_beach(island)
        )

    def best_placement(self, name: str, rng: random.Random, bank_change: int = 0) -> tuple[float, Place]:
        """The best legal placement of ``name``: quick values, then the shortlist laid and valued."""
        spots = legal_placements(self.island, name)
        quick = sorted(((self.quick(name, *p, bank_change), rng.random(), p) for p in spots), reverse=True)
        best: tuple[float, float, tuple[int, int, int]] | None = None
        for _, tie, p in quick[: self.s.shortlist]:
            value = self.island_worth(lay_card(self.island, name, *p), self.bank + bank_change)
            if best is None or (value, tie) > best[:2]:
                best = (value, tie, p)
        assert best is not None, f"{name} has no legal placement"
        return best[0], Place(*best[2])

    # ------------------------------------------------------------------ taking
    def take_value(self, move: Move, rng: random.Random) -> float:
        state = self.state
        if move == SCRAP:
            gained = 0 if state.solo else state.row_coconuts[0]
            return self.island_worth(self.island, self.bank + gained) - 0.5
        if isinstance(move, Take):
            change = state.row_coconuts[move.position] - take_cost(move.position)
            return self.best_placement(state.row[move.position], rng, change)[0]
        assert isinstance(move, SoloTake)
        change = solo_take_price(move.side, state.hut)
        i = 0 if move.side == "left" else 1
        value = self.best_placement(state.shown[i], rng, change)[0]
        # The Opponent scores the Hut's coconuts (what we pay it, less what we take), and the
        # other card unless we pay to discard it.
        other = self.opponent_gain(state.shown[1 - i], -change)
        if self.bank + change >= SOLO_DISCARD:
            other = min(other, self.discard_cost(change))
        return value + change - other

    def discard_cost(self, change: int = 0) -> float:
        """What a solo discard costs: our coconuts' worth, and 3 points for the Opponent's Hut."""
        bank = self.bank + change
        return (
            self.worth(self.counts, self._volcano, bank)
            - self.worth(self.counts, self._volcano, bank - SOLO_DISCARD)
            + SOLO_DISCARD
        )

    def opponent_gain(self, other: str, hut_change: int = 0) -> float:
        """What the Opponent would score more with ``other`` in its pile."""
        state = self.state
        volcanoes = self.counts.get("volcano", 0)
        hut = state.hut + hut_change
        before = sum(opponent_points(state.opponent, hut, volcanoes).values())
        after = sum(opponent_points([*state.opponent, other], hut, volcanoes).values())
        return after - before + (0.5 if card(other).has_beach else 0.0)

    # ------------------------------------------------------------------ extras
    def last_turn(self) -> bool:
        return self.cards_left() == 0

    def destiny_value(self, destiny: str) -> float:
        """Expected points of a Destiny less its price in coconuts."""
        d = DESTINIES[destiny]
        state = self.state
        chances = []
        for part in d.components:
            mine = component_count(
                part,
                self.island,
                self.extra,
                state.coconut_count(self.seat) - (d.price if part == "coconut" else 0),
            )
            others = [
                component_count(part, state.islands[s], state.extra(s), state.coconut_count(s))
                for s in range(state.players)
                if s != self.seat
            ]
            margin = mine - max(others, default=0)
            sure = 0.12 + 0.08 * (ROUNDS - self.cards_left())
            chances.append(min(0.95, max(0.05, 0.5 + sure * margin)) if mine else 0.05)
        both = math.prod(chances)
        one = sum(chances) - 2 * both if len(chances) == 2 else 0.0
        expected = both * d.most + one * (d.most_of_one or 0) + (1 - both - one) * d.otherwise
        return expected - d.price * self.s.coconut

    def travel_value(self) -> float:
        state = self.state
        name = state.travelers[self.seat]
        if name is None:
            return 0.0
        t = TRAVELERS[name]
        counts = Counter(self.counts)
        counts.update(t.adds)
        gained = min(t.coconuts, state.supply)
        before = self.worth(self.counts, self._volcano, self.bank)
        after = self.worth(counts, self._volcano, self.bank + gained)
        return traveler_points(t, state.row) + after - before

    # ------------------------------------------------------------------ interim totals
    def interim_value(self, move: Move) -> float:
        assert isinstance(move, Score)
        left = self.cards_left()
        return sum(self.state.source_value(self.seat, x) - GROWTH[x] * left for x in move.sources)


def _worth(
    s: MotuHeuristic,
    left: Container[str],
    cards_left: int,
    totem_rule: str,
    printed: int,
    counts: Mapping[str, int],
    volcano: int,
    bank: int,
    beach: int | None,
) -> float:
    """:meth:`Judge.worth` for a seat whose Sources not yet scored are ``left``, with
    ``cards_left`` cards still to add and ``printed`` coconuts on its played Traveler."""
    total = 0.0
    get = counts.get
    potential = s.potential
    for leader, (partner, each) in PAIRS.items():
        if leader in left:
            total += pair_points(counts, leader)
            spare = get(partner, 0) - get(leader, 0)
            if spare > cards_left:
                spare = cards_left
            total += potential * each * (spare if spare > 0 else 0)  # max(0, min(spare, cards_left))
    if "totem" in left:
        total += totem_points(counts, totem_rule)
    if "volcano" in left:
        total += volcano
    if "coconut" in left:
        total += coconut_points(bank + printed)
    total += s.coconut * bank
    if beach is not None:
        total += s.beach * beach
    return total


def _cards_left(state: MotuState, island: Island) -> int:
    """The cards a seat with ``island`` has still to add, counting the one it is placing."""
    return placements_per_seat(state.players, state.options["solo_piles"]) - len(island.placements) + 1


def _left(scored: list[str]) -> frozenset[str]:
    """The Sources not in ``scored`` (kept by what was scored: a handful of cases)."""
    key = tuple(scored)
    found = _LEFT.get(key)
    if found is None:
        found = _LEFT[key] = frozenset(x for x in SOURCES if x not in scored)
    return found


_LEFT: dict[tuple[str, ...], frozenset[str]] = {}


def _volcano_points(island: Island) -> int:
    star = star_position(island)
    return sum(
        ruler_points(math.hypot(p[0] - star[0], p[1] - star[1]))
        for p, kind in island.symbols.items()
        if kind == "volcano"
    )
