"""Miaui's heuristic strategy (the ``heuristic`` part of the game), from a seat's view only.

Miaui is a game of simultaneous secret choices, so a good strategy is *mixed*: a fixed
rule is exploitable and ties with its own copies (two copies of a deterministic bot dive
the same number and, with No Fighting, both catch nothing).  The strategy:

1. **Read the table** from the seat's typed view (:class:`.view.MiauiView`) and recall what
   it saw (:func:`remember`, from its events): each seat's divers left
   (:func:`rules.remembered_dives`: a seat may remember every reveal it saw), every fish
   pile (:func:`rules.remembered_piles`: likewise every catch), the lagoon (its own face-down cards it has
   peeked are shown to it), and the pool of cards it has not seen (deck, burned card,
   others' face-down cards).
2. **Value each space for each seat** by simulating the catch on that seat's pile with
   the rules' own :func:`rules.add_to_pile` (a Seagull is worth minus the pile's top card,
   a Jellyfish completing a triple removes the two before it); a face-down card the seat
   has not seen is worth the average unseen card; a Lantern earns a small bonus (the peek).
3. **Model the others** (level-k reasoning): every other seat is expected to play, with
   probability ``1 - naive``, a *quantal response* (a softmax over its expected gains,
   temperature ``temp``) to opponents who dive uniformly among their remaining divers, and
   with probability ``naive`` any of its divers at random.  That is close to how this very
   strategy plays, so copies of itself are modelled as what they are, and a dive another
   seat is likely to make too (a tie, which in No Fighting catches nothing) is avoided.
4. **Choose** by a quantal response of its own to those models: the expected gain of each
   diver against ``samples`` sampled dive profiles (common random numbers, the rules' own
   :func:`rules.resolve_depths` with Kiti's tie order or No Fighting knock-outs), minus the
   cost of spending a diver that wins (``beta`` x an average unseen card, so strong divers
   are kept for rich lagoons); then a random draw among the divers within ``margin`` points
   of the best, weighted by ``exp(gain / temp)``, from the bot's own generator.

A No Fighting taker who orders her catch tries every order and keeps the best.
:meth:`MiauiHeuristic.rollout` is a much cheaper rule of thumb on a determinised state.

**Evaluation.**  Step 4 needs the depths' winners for every diver of a seat against every
sampled profile of the others (hundreds of profiles a decision).  :func:`rules.resolve_depths`
only compares dives, so its answer for a profile depends on the order of the dives alone:
:func:`winners_by_diver` asks it once per place a diver can take among the others' dives
(below, equal to, or between them) for each such order, remembers the answer as an outcome
number, and spreads it over the divers 1-12 by the profile's set of dives (:class:`_ByPlace`,
:class:`_Places`).  What each outcome is worth to the seat is summed once per outcome
(:func:`_worth`), then each diver's gains over the profiles in order.  The seats are
renumbered from the deciding one (Kiti's position with them, :func:`_turned`), so one table
of outcomes serves every seat.  Up to five seats a profile's outcome numbers are remembered
(profiles recur); at six, where one in ten does, they are made afresh in C loops.  The
others' dives are drawn as ``Random.choices`` draws them, from sums made once per model
(:func:`_samples`; a uniform model's sums turned into thresholds on ``random()`` itself,
:func:`_unscaled`).  What a decision learns that does not depend on its draws is kept for
the next ones: the unseen pool by the cards seen, its mean gain per pile, each pile's
one-card gains (a quiet card's is its value), the uniform models by hand.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate, repeat, starmap
from operator import add, call, itemgetter, mul, truediv
from typing import Any

from ...core.game import State
from ...core.moves import Move
from ...core.options import OptionSpec
from ...core.seatview import SeatView
from .cards import COUNT, VALUE
from .rules import (
    DIVERS,
    QUIET,
    Dive,
    Take,
    add_to_pile,
    pile_score,
    remembered_dives,
    remembered_piles,
    resolve_depths,
)
from .view import MiauiView

_PARAM = "bot heuristic parameter"


def pile_gain(
    pile: Sequence[str], cards: Sequence[str], jelly_unseen: int = 0, last_round: bool = False
) -> float:
    """Points ``pile`` gains by catching ``cards`` in order, with small strategic adjustments."""
    new = list(pile)
    return _gain_on(new, sum(map(_VALUE_OF, new)), cards, jelly_unseen, last_round)


def _gain_on(new: list[str], before: int, cards: Sequence[str], jelly_unseen: int, last_round: bool) -> float:
    """:func:`pile_gain`, the pile copied to ``new`` (which catches ``cards``), its points ``before``."""
    bonus = 0.0
    for card in cards:
        if card[0] == "L" and not last_round:
            bonus += 1.0  # the peek at the next card of that space
        add_to_pile(new, card)
    gain = sum(map(_VALUE_OF, new)) - before
    near_triple = jelly_unseen and not last_round and any(c[0] == "J" for c in cards)
    if near_triple and sum(1 for c in new if c[0] == "J") == 2:
        bonus += 3.0  # a triple is near: the second Jellyfish is less bad than it looks
    return gain + bonus


_VALUE_OF = VALUE.__getitem__


@dataclass(frozen=True)
class Memory:
    """What a seat remembers beyond its typed view (ruling 8: what was revealed may be
    remembered): every fish pile and every seat's divers left, rebuilt from the events it
    saw, and the cards it has not seen (``unseen`` and ``pool`` are shared by the memories
    of the seats that saw the same cards: read them, never modify them)."""

    piles: list[list[str]]
    hands: list[list[int]]
    unseen: list[str]
    jelly_unseen: int
    #: :func:`mean_unknown` per seat, once asked (the memory does not change).
    means: dict[int, float] = field(default_factory=dict, compare=False, repr=False)
    #: The unseen pool's distinct cards and their counts (made with the memory, or once asked).
    pool: list[tuple[str, int]] = field(default_factory=list, compare=False, repr=False)
    #: :func:`mean_unknown` by pile for this unseen pool, shared by every memory of the same
    #: pool (the seats of one round ask for the same piles).
    by_pile: dict[tuple[str, ...], float] = field(default_factory=dict, compare=False, repr=False)
    #: :func:`gains_table` by piles, spaces and flags, shared by every memory made from the same
    #: cards seen (the seats of one round read the same table).
    tables: dict[Any, tuple[list[list[float]], list[list[float]]]] = field(
        default_factory=dict, compare=False, repr=False
    )


_CODE_COUNTS = tuple(sorted(COUNT.items()))  # each distinct card and its count, sorted
#: Each distinct card, its count, and its pairs ``(card, left)`` by ``left`` (made once: a pool
#: kept in ``_POOLS`` holds these, not pairs of its own).
_CODE_PAIRS = tuple(
    (code, count, tuple((code, left) for left in range(count + 1))) for code, count in _CODE_COUNTS
)
_DIVER_BYTES = bytes(sorted(DIVERS))
#: :func:`mean_unknown`'s answers by unseen pool, then by pile (see :attr:`Memory.by_pile`).
_MEANS: dict[tuple[str, ...], dict[tuple[str, ...], float]] = {}
_MEANS_KEPT = 4096  # pools kept (all forgotten at once past this many)


def remember(view: MiauiView, events: Sequence[dict[str, Any]]) -> Memory:
    """The seat's :class:`Memory`, from its typed view and the events it saw."""
    seat = view.viewer
    assert isinstance(seat, int), "a heuristic plays a seat"
    n = view.players
    piles = remembered_piles(events, n, bool(view.options.get("taker_chooses_order")))
    own = view.piles[seat]
    if "?" not in own:
        piles[seat] = list(own)
    # Each seat's divers left: DIVERS (as bytes, in order) less those it played, in one C call.
    hands = [list(_DIVER_BYTES.translate(None, bytes(p))) for p in remembered_dives(events, n)]
    hands[seat] = sorted([d for d in view.hands[seat] if d != "?"])
    seen = (
        *[c for e in events if e["type"] == "catch" for c in e["cards"]],
        *[c for cards in view.lagoon for c in cards if c != "?"],
    )
    found = _POOLS.get(seen)
    if found is None:
        found = _pool(seen)
    pool, unseen, jellies, by_pile, tables = found
    return Memory(piles, hands, unseen, jellies, pool=pool, by_pile=by_pile, tables=tables)


_Pool = tuple[list[tuple[str, int]], list[str], int, dict[tuple[str, ...], float], dict[Any, Any]]
#: The cards a seat has seen (caught, then in the lagoon, in order) -> what :func:`_pool`
#: makes of them (the seats of one round have seen the same cards).
_POOLS: dict[tuple[str, ...], _Pool] = {}


def _pool(seen: tuple[str, ...]) -> _Pool:
    """The cards not in ``seen``: each distinct card and its count, the cards one by one
    (sorted), how many are Jellyfish, :attr:`Memory.by_pile` and :attr:`Memory.tables`; kept in
    ``_POOLS`` (shared by the memories made from them: never modified)."""
    get = Counter(seen).get
    pool = [pairs[left] for code, count, pairs in _CODE_PAIRS if (left := count - get(code, 0)) > 0]
    unseen = list(itertools.chain.from_iterable(itertools.starmap(repeat, pool)))  # sorted, as the codes
    key = tuple(unseen)
    by_pile = _MEANS.get(key)
    if by_pile is None:
        if len(_MEANS) >= _MEANS_KEPT:
            _MEANS.clear()
        by_pile = _MEANS[key] = {}
    jellies = sum(count for code, count in pool if code[0] == "J")
    if len(_POOLS) >= _MEANS_KEPT:
        _POOLS.clear()
    found = _POOLS[seen] = (pool, unseen, jellies, by_pile, {})
    return found


def mean_unknown(mem: Memory, seat: int) -> float:
    """Gain for ``seat`` of one card drawn from the unseen pool, on average."""
    mean = mem.means.get(seat)
    if mean is None:
        pile = tuple(mem.piles[seat])
        mean = mem.by_pile.get(pile)
        if mean is None:
            unseen = mem.unseen
            pool = mem.pool
            if unseen and not pool:
                pool.extend(Counter(unseen).items())
            # Each distinct card once, times its count (gains are whole numbers: the sum is exact).
            gains = _ONE_CARD.get(pile)
            if gains is None:
                if len(_ONE_CARD) >= _ONE_CARD_KEPT:
                    _ONE_CARD.clear()
                gains = _ONE_CARD[pile] = _one_card_gains(pile)
            total = 0.0
            if pool:
                cards, counts = zip(*pool)
                total = sum(map(mul, counts, map(gains.__getitem__, cards)))
            mean = mem.by_pile[pile] = total / len(unseen) if unseen else 0.0
        mem.means[seat] = mean
    return mean


def _one_card_gains(pile: tuple[str, ...]) -> dict[str, float]:
    """:func:`pile_gain` of each card alone on ``pile`` (the pile's points counted once): a
    quiet card's is its value, the others' are played onto a copy of the pile."""
    gains = _QUIET_GAINS.copy()
    base, before = list(pile), sum(map(_VALUE_OF, pile))
    for card in _LOUD:
        gains[card] = _gain_on(base.copy(), before, (card,), 0, False)
    return gains


#: pile -> card -> :func:`pile_gain` of that one card (piles recur from decision to decision).
_ONE_CARD: dict[tuple[str, ...], dict[str, float]] = {}
#: What a quiet card (:data:`rules.QUIET`: it simply joins the pile) gains on any pile: the
#: points it adds to the pile's (:func:`rules.pile_score`, a sum over the pile's cards).
_QUIET_GAINS = {card: float(pile_score((card,))) for card in sorted(QUIET)}
_LOUD = tuple(sorted(card for card in COUNT if card not in QUIET))  # the cards a pile rule may touch
_ONE_CARD_KEPT = 1 << 12  # piles kept (all forgotten at once past this many)


@functools.lru_cache(maxsize=1 << 14)
def _gain(pile: tuple[str, ...], cards: tuple[str, ...], jelly_unseen: bool, last_round: bool) -> float:
    """:func:`pile_gain`, remembered (piles and lagoons recur from decision to decision)."""
    return pile_gain(pile, cards, jelly_unseen, last_round)


def gains_table(view: MiauiView, mem: Memory) -> list[list[float]]:
    """:func:`space_gain` of every seat (rows) and space (columns); kept in
    :attr:`Memory.tables` (shared: never modify it)."""
    return _gains_and_shares(view, mem)[0]


def _gains_and_shares(view: MiauiView, mem: Memory) -> tuple[list[list[float]], list[list[float]]]:
    """:func:`gains_table` and its :func:`_shares`, kept together in :attr:`Memory.tables`."""
    last = view.round >= view.rounds
    jelly = mem.jelly_unseen > 0
    spaces = [_face_up(cards) for cards in view.lagoon]
    piles = tuple(map(tuple, mem.piles))
    key = (piles, tuple(spaces), jelly, last)
    found = mem.tables.get(key)
    if found is None:
        gains = [_row_gains(mem, seat, pile, spaces, jelly, last) for seat, pile in enumerate(piles)]
        found = mem.tables[key] = (gains, _shares(gains))
    return found


def space_gain(view: MiauiView, mem: Memory, seat: int, space: int) -> float:
    """What catching ``space`` is worth to ``seat``: its known cards, and the average unseen
    card for each face-down one."""
    spaces = [_face_up(view.lagoon[space])]
    [gain] = _row_gains(
        mem, seat, tuple(mem.piles[seat]), spaces, mem.jelly_unseen > 0, view.round >= view.rounds
    )
    return gain


def _face_up(cards: Sequence[str]) -> tuple[tuple[str, ...], int] | None:
    """A space's cards the seat knows, and how many it does not (None: an empty space)."""
    if not cards:
        return None
    known = tuple(c for c in cards if c != "?")
    return known, len(cards) - len(known)


def _row_gains(
    mem: Memory,
    seat: int,
    pile: tuple[str, ...],
    spaces: list[tuple[tuple[str, ...], int] | None],
    jelly: bool,
    last: bool,
) -> list[float]:
    """:func:`space_gain` of ``seat`` (its pile ``pile``) for each of ``spaces`` (:func:`_face_up`)."""
    gains = []
    for space in spaces:
        if space is None:
            gains.append(0.0)
            continue
        known, unknown = space
        gain = _gain(pile, known, jelly, last)
        gains.append(gain + unknown * mean_unknown(mem, seat) if unknown else gain)
    return gains


Row = Callable[[Sequence[Any]], tuple[Any, ...]]  # an itemgetter of several items

Game = tuple[int, bool]  # (seats, with Kiti): outcomes are numbered apart for each


#: Per :data:`Game`, who won each depth (a seat, or -1: nobody), each such triple numbered
#: once (its index); and the same as indices into a seat's worth table (see :func:`_worth`).
_OUTCOMES: dict[Game, list[tuple[int, int, int]]] = {}
_AT: dict[Game, list[tuple[int, int, int]]] = {}
_OUTCOME_ID: dict[tuple[Game, tuple[int, int, int]], int] = {}


def _outcome(dives: Sequence[int], players: int, kiti: int | None) -> int:
    """The number of the depths' winners for these dives, by :func:`rules.resolve_depths`."""
    won = [-1, -1, -1]
    for space, winner, _ in resolve_depths(dives, players, kiti)[0]:
        won[space] = winner
    key = (won[0], won[1], won[2])
    game = (players, kiti is not None)
    number = _OUTCOME_ID.get((game, key))
    if number is None:
        outcomes = _OUTCOMES.setdefault(game, [])
        number = _OUTCOME_ID[game, key] = len(outcomes)
        outcomes.append(key)
        nobody = 3 * players
        at = [nobody if w < 0 else space * players + w for space, w in enumerate(key)]
        _AT.setdefault(game, []).append((at[0], at[1], at[2]))
    return number


def _worth(table: list[float], game: Game) -> list[float]:
    """What each outcome of ``game`` met so far is worth to a seat: ``table[space * players +
    winner]`` summed over the depths won, deepest first (the last entry of ``table``, 0.0,
    stands for a depth nobody won).  The two deeper depths' sum is made once per pair of
    their entries (far fewer than the outcomes at six seats)."""
    at = _AT[game]
    if len(at) < 2:  # a getter of one item would not return a tuple
        return [table[a] + table[b] + table[c] for a, b, c in at]
    deepest, deep, pair, shallow = _pickers(game, len(at))
    pairs = list(map(add, deepest(table), deep(table)))
    return list(map(add, pair(pairs) if pair else pairs, shallow(table)))


@functools.lru_cache(maxsize=64)
def _pickers(game: Game, known: int) -> tuple[Row, Row, Row | None, Row]:
    """Getters for :func:`_worth`, over the first ``known`` outcomes of ``game`` (in the key:
    outcomes are numbered as they are met): the two deeper depths' entries in a worth table
    for each distinct pair of them, each outcome's pair (None: each outcome has a pair of its
    own, in the same order, as at three seats), and its shallow entry."""
    at = _AT[game][:known]
    pairs = list(dict.fromkeys((a, b) for a, b, _ in at))
    number = {pair: i for i, pair in enumerate(pairs)}
    own = len(pairs) == len(at)
    if len(pairs) < 2:  # a getter of one item would not return a tuple
        pairs.append(pairs[0])
    return (
        itemgetter(*(a for a, _ in pairs)),
        itemgetter(*(b for _, b in pairs)),
        None if own else itemgetter(*(number[a, b] for a, b, _ in at)),
        itemgetter(*(c for _, _, c in at)),
    )


class _ByPlace(dict[bytes, tuple[int, ...]]):
    """For one seat count and Kiti's position (seen from seat 0), the others' dive orders ->
    the outcome numbers of each place seat 0's diver can take among them; made when first
    asked (a dict: the orders met before are found in C)."""

    def __init__(self, players: int, kiti: int | None) -> None:
        super().__init__()
        self.players, self.kiti = players, kiti

    def __missing__(self, ranks: bytes) -> tuple[int, ...]:
        """The order ``ranks`` (each other seat's rank among their distinct dives, lowest 0,
        seats in order): place ``2j + 1`` ties the ``j``-th distinct dive, place ``2j`` lies
        just below it, the last place above them all.  The rule compares dives only, so any
        dives in this order give these outcomes: the others dive 2, 4, ..., and seat 0 the
        place + 1."""
        dives = [0, *(2 * rank + 2 for rank in ranks)]
        places = []
        for place in range(2 * max(ranks) + 3):  # at least three places
            dives[0] = place + 1
            places.append(_outcome(dives, self.players, self.kiti))
        found = self[ranks] = tuple(places)
        return found


class _Places(dict[frozenset[int], tuple[bytes, Row]]):
    """A set of distinct dives -> (each dive's rank among them, lowest 0, as a table for
    ``bytes.translate``; a getter of each diver 1-12's place among them, as :class:`_ByPlace`
    numbers places), made when first asked."""

    def __missing__(self, values: frozenset[int]) -> tuple[bytes, Row]:
        distinct = sorted(values)
        rank = bytearray(256)
        for i, dive in enumerate(distinct):
            rank[dive] = i
        places = itemgetter(*(2 * bisect_left(distinct, d) + (d in values) for d in DIVERS))
        found = self[values] = (bytes(rank), places)
        return found


_BY_PLACE: dict[tuple[int, int | None], _ByPlace] = {}
_PLACES = _Places()

Ids = tuple[int, ...]  # the outcome number of each diver 1-12 against one profile
#: (players, Kiti seen from the diver) -> the others' dives from the diver's left -> their
#: :data:`Ids` (see :func:`_turned`); up to five seats (profiles recur).
_IDS: dict[tuple[int, int | None], dict[tuple[int, ...], Ids]] = {}
_IDS_KEPT = 1 << 16  # all forgotten at once past this many profiles (about 10 MB)
_IDS_MADE = [0]  # profiles kept since


def _forget() -> None:
    """Forget every outcome table (tests count how often the rule is asked)."""
    for table in (_OUTCOMES, _AT, _OUTCOME_ID, _BY_PLACE, _PLACES, _IDS):
        table.clear()
    _pickers.cache_clear()
    _IDS_MADE[0] = 0


def _ids(players: int, kiti: int | None, profiles: list[tuple[int, ...]]) -> Sequence[Ids]:
    """How seat 0's divers 1-12 fare against each profile of the other seats' dives (seats 1,
    2, ...): the outcome number of each.  Up to five seats they are remembered; at six, where
    one profile in ten recurs, remembering costs more than it saves."""
    if len(DIVERS) ** (players - 1) > _IDS_KEPT:
        return _made_ids(players, kiti, profiles)
    known = _IDS.get((players, kiti))
    if known is None:
        known = _IDS[players, kiti] = {}
    if len(profiles) > 1:  # (a getter of one item would not return a tuple)
        try:
            rows: Sequence[Ids] = itemgetter(*profiles)(known)  # all met before (usually), in one C call
            return rows
        except KeyError:
            pass
    found = list(map(known.get, profiles))
    new = list({profile: None for profile, ids in zip(profiles, found) if ids is None})
    known.update(zip(new, _made_ids(players, kiti, new)))
    _IDS_MADE[0] += len(new)
    rows = list(map(known.__getitem__, profiles))
    if _IDS_MADE[0] > _IDS_KEPT:
        for table in _IDS.values():
            table.clear()
        _IDS_MADE[0] = 0
    return rows


def _made_ids(players: int, kiti: int | None, profiles: list[tuple[int, ...]]) -> list[Ids]:
    """The :data:`Ids` of each profile, made in C loops: its set of dives, each dive's rank
    among them (as bytes: ``bytes.translate`` ranks them in one C loop), and the tables
    (:class:`_ByPlace`, :class:`_Places`) for those."""
    by_place = _BY_PLACE.get((players, kiti))
    if by_place is None:
        by_place = _BY_PLACE[players, kiti] = _ByPlace(players, kiti)
    dives = list(map(bytes, profiles))
    found = list(map(_PLACES.__getitem__, map(frozenset, dives)))
    ranks = map(bytes.translate, dives, map(itemgetter(0), found))
    return list(map(call, map(itemgetter(1), found), map(by_place.__getitem__, ranks)))


def _turned(kiti: int | None, players: int, me: int) -> int | None:
    """Kiti's position with the seats renumbered from ``me`` (``me`` becomes seat 0, the
    next clockwise seat 1, ...).  The rule treats every seat alike but for Kiti's tie order,
    which :func:`rules.kiti_rank` reckons from Kiti's position, so the depths of the
    renumbered dives go to the renumbered winners: one table serves every seat
    (``test_the_outcome_tables_are_the_rules_answer`` holds the heuristic to it)."""
    return None if kiti is None else (kiti - me) % players


def winners_by_diver(dives: Sequence[int], players: int, kiti: int | None, me: int) -> list[tuple[int, ...]]:
    """For each diver 1-12 that seat ``me`` could play against the other seats' ``dives``
    (seat order, ``me`` left out), who wins each depth (-1: nobody), as the heuristic reads it."""
    turned = _turned(kiti, players, me)
    others = (*dives[me:], *dives[:me])  # from me's left, as the renumbered seats 1, 2, ...
    [ids] = _ids(players, turned, [others])
    outcomes = _OUTCOMES[players, kiti is not None]
    return [tuple(-1 if w < 0 else (w + me) % players for w in outcomes[number]) for number in ids]


Sampler = tuple[list[int], list[float], float]  # divers, cumulative weights but the last, total
Model = list[tuple[int, float]]  # a seat's mixed strategy: (diver, probability) pairs

#: A hand (its divers, sorted) -> the uniform model over it and that model split for :func:`_sample`.
_UNIFORM: dict[tuple[int, ...], tuple[Model, Sampler]] = {}
#: A hand's size -> each diver's pair ``(diver, 1 / size)`` in its uniform model (made once).
_SHARE = [{d: (d, 1.0 / size) for d in DIVERS} for size in range(1, len(DIVERS) + 1)]
_SHARE.insert(0, {})
#: A hand's size -> the thresholds of the uniform model's draws over it (see :func:`_unscaled`).
_LEAST: dict[int, list[float]] = {}


def _uniform(hand: list[int]) -> tuple[Model, Sampler]:
    """The uniform model over ``hand`` (never modified: shared) and its :data:`Sampler`, whose
    thresholds depend on the hand's size alone."""
    key = tuple(hand)
    found = _UNIFORM.get(key)
    if found is None:
        model = list(map(_SHARE[len(hand)].__getitem__, hand)) if hand else [(1, 1.0)]
        least = _LEAST.get(len(model))
        if least is None:
            least = _LEAST[len(model)] = _unscaled(_split([model])[0])[1]
        found = _UNIFORM[key] = (model, ([d for d, _ in model], least, 1.0))
    return found


def _unscaled(sampler: Sampler) -> Sampler:
    """``sampler`` drawing the same divers from the same ``random()`` without the product by
    the total: for each cumulative weight ``c``, the least ``u`` with ``u * total >= c``
    (``u * total`` never falls as ``u`` grows, so ``u`` lies above as many of these as
    ``u * total`` lies above weights; ``test_uniform_draws_are_rng_choices`` checks it)."""
    divers, cum, total = sampler
    least = []
    for c in cum:
        u = c / total
        while u * total >= c:
            u = math.nextafter(u, -math.inf)
        while u * total < c:
            u = math.nextafter(u, math.inf)
        least.append(u)
    return divers, least, 1.0


def _shares(gains: list[list[float]]) -> list[list[float]]:
    """Per space (rows), what each seat's catch there (columns) costs another seat: minus its
    share of the gain, ``-(gain / (players - 1))``."""
    others = len(gains) - 1
    return [[-(row[space] / others) for row in gains] for space in (0, 1, 2)]


def _split(models: list[list[tuple[int, float]]]) -> list[Sampler]:
    """Each seat's model as :func:`_sample` draws from it: its divers, their cumulative
    probabilities but the last (the last diver is the one above them all) and their total,
    as ``Random.choices`` sums them."""
    out = []
    for model in models:
        cum = list(accumulate([p for _, p in model]))
        out.append(([d for d, _ in model], cum[:-1], cum[-1] + 0.0))
    return out


def _sample(sampler: Sampler, rng: random.Random, k: int) -> list[int]:
    """``rng.choices(divers, probabilities, k=k)``: the very draws (one ``random()`` each,
    times the total, found by bisection in the same sums), without summing the weights again
    each call."""
    [drawn] = _samples([sampler], rng, k)
    return list(drawn)


def _samples(samplers: Sequence[Sampler], rng: random.Random, k: int) -> list[Sequence[int]]:
    """:func:`_sample` from each of ``samplers`` in turn."""
    out = []
    rand = rng.random
    for divers, cum, total in samplers:
        drawn: Iterator[float] = starmap(rand, repeat((), k))
        if total != 1.0:  # (x 1.0 changes no number)
            drawn = map(total.__mul__, drawn)
        at = map(bisect_right, repeat(cum), drawn)
        # the divers picked in one C call (a getter of one item would not return a tuple)
        out.append(itemgetter(*at)(divers) if k > 1 else list(map(divers.__getitem__, at)))
    return out


class MiauiHeuristic:
    """The strategy (see the module docstring); its parameters are ``params``."""

    params = (
        OptionSpec(
            "samples", int, 32, "dive profiles sampled per decision", minimum=1, maximum=10_000, what=_PARAM
        ),
        OptionSpec(
            "beta",
            float,
            0.6,
            "cost of spending a winning diver (x an average card)",
            minimum=0.0,
            maximum=10.0,
            what=_PARAM,
        ),
        OptionSpec(
            "temp",
            float,
            3.0,
            "softness of the choice, in points (0: always the best)",
            minimum=0.0,
            maximum=100.0,
            what=_PARAM,
        ),
        OptionSpec(
            "margin",
            float,
            8.0,
            "only divers within this many points of the best",
            minimum=0.0,
            maximum=100.0,
            what=_PARAM,
        ),
        OptionSpec(
            "naive",
            float,
            0.2,
            "share of the others' dives modelled as uniformly random",
            minimum=0.0,
            maximum=1.0,
            what=_PARAM,
        ),
    )

    def __init__(
        self, samples: int = 32, beta: float = 0.6, temp: float = 3.0, margin: float = 8.0, naive: float = 0.2
    ) -> None:
        self.samples = samples
        self.beta = beta
        self.temp = temp
        self.margin = margin
        self.naive = naive

    # ------------------------------------------------------------- decision
    def choose(self, view: SeatView, rng: random.Random) -> Move:
        legal = view.legal_moves
        if len(legal) == 1:
            return legal[0]
        now: MiauiView = view.view
        mem = remember(now, view.events)
        if now.pending_take:
            return self._order(legal, now, mem)
        pick = self.draw(self._utilities(now, mem, rng), rng)
        return Dive(pick)

    def priors(self, view: SeatView, rng: random.Random) -> dict[int, dict[Move, float]]:
        """What this strategy expects each seat to dive now, as probabilities: its own
        quantal response for the viewing seat, its models of the others (a search starts
        from them: ISMCTS uses them as priors); {} when it has no opinion."""
        now: MiauiView = view.view
        if now.pending_take or len(view.legal_moves) == 1:
            return {}
        mem = remember(now, view.events)
        me = view.seat
        gains = gains_table(now, mem)
        models = self.models(now, mem, gains, rng)
        out: dict[int, dict[Move, float]] = {
            s: {Dive(d): p for d, p in models[s]} for s in range(now.players) if s != me
        }
        mine = self.utilities(now, mem, gains, me, mem.hands[me], models, rng)
        out[me] = {Dive(d): p for d, p in self.weights(mine)}
        return out

    def _utilities(self, now: MiauiView, mem: Memory, rng: random.Random) -> dict[int, float]:
        """:meth:`utilities` of the viewer's divers against :meth:`models` (each made once)."""
        me = now.viewer
        assert isinstance(me, int)
        gains, shares = _gains_and_shares(now, mem)
        _, samplers = self._models(now, mem, gains, rng, shares)
        return self._expected(now, mem, gains, me, mem.hands[me], samplers, rng, self.samples, shares)

    def models(
        self, now: MiauiView, mem: Memory, gains: list[list[float]], rng: random.Random
    ) -> list[Model]:
        """Per seat, the mixed strategy we expect it to play: (diver, probability) pairs."""
        return self._models(now, mem, gains, rng, _shares(gains))[0]

    def _models(
        self,
        now: MiauiView,
        mem: Memory,
        gains: list[list[float]],
        rng: random.Random,
        shares: list[list[float]],
    ) -> tuple[list[Model], list[Sampler]]:
        """:meth:`models`, and each split as :func:`_sample` draws from it (a uniform model:
        its thresholds, which draw alike; ``shares``: :func:`_shares` of ``gains``)."""
        uniform = list(map(_uniform, mem.hands))
        models = [model for model, _ in uniform]
        split = [sampler for _, sampler in uniform]
        samplers = split.copy()
        k = max(8, self.samples // 2)
        naive, rest = self.naive, 1 - self.naive
        for s, hand in enumerate(mem.hands):
            if s == now.viewer or len(hand) <= 1:
                continue
            get = self._response(self._expected(now, mem, gains, s, hand, split, rng, k, shares)).get
            divers = split[s][0]
            base = naive * models[s][0][1]  # (every diver's uniform share is the same)
            mixed = [base + rest * get(d, 0.0) for d in divers]
            models[s] = list(zip(divers, mixed))
            cum = list(accumulate(mixed))  # split as _split splits it
            samplers[s] = (divers, cum[:-1], cum[-1] + 0.0)
        return models, samplers

    def utilities(
        self,
        now: MiauiView,
        mem: Memory,
        gains: list[list[float]],
        me: int,
        mine: Sequence[int],
        models: list[Model],
        rng: random.Random,
        samples: int | None = None,
    ) -> dict[int, float]:
        """Expected gain of each diver of ``me`` against dive profiles drawn from ``models``."""
        others = _split([*models[:me], *models[me + 1 :]])  # (me's own model is not drawn from)
        split = [*others[:me], ([], [], 1.0), *others[me:]]
        return self._expected(now, mem, gains, me, mine, split, rng, samples or self.samples)

    def _expected(
        self,
        now: MiauiView,
        mem: Memory,
        gains: list[list[float]],
        me: int,
        mine: Sequence[int],
        models: list[Sampler],
        rng: random.Random,
        k: int,
        shares: list[list[float]] | None = None,
    ) -> dict[int, float]:
        """:meth:`utilities`, the models split as :func:`_sample` draws from them, ``k`` samples
        (``shares``: :func:`_shares` of ``gains``, if made already)."""
        n = now.players
        draws = _samples([*models[:me], *models[me + 1 :]], rng, k)  # the others, in seat order
        rounds_left = now.rounds - now.round  # free choices after this one
        avg = max(0.0, mean_unknown(mem, me))
        cost = self.beta * avg * min(1.0, rounds_left / 3.0)
        # The seats renumbered from me (see _turned): what each seat winning each depth is
        # worth to me: its gain, less the diver's cost, if I win; if another seat does, minus
        # my share of its gain (the last entry: nobody won it).
        deepest, deep, shallow = shares or _shares(gains)
        table = [*deepest[me:], *deepest[:me], *deep[me:], *deep[:me], *shallow[me:], *shallow[:me], 0.0]
        mine_won = gains[me]
        table[0], table[n], table[2 * n] = mine_won[0] - cost, mine_won[1] - cost, mine_won[2] - cost
        ids = _ids(n, _turned(now.kiti, n, me), list(zip(*draws[me:], *draws[:me])))
        worth = _worth(table, (n, now.kiti is not None))  # after: outcomes met now count
        by_diver = list(zip(*ids))  # per diver 1-12, its outcome against each profile
        columns = [by_diver[d - 1] for d in mine]
        if k > 1:  # each diver's gains picked in one C call (a getter of one item gives no tuple)
            sums: Iterable[float] = [sum(itemgetter(*column)(worth)) for column in columns]
        else:
            sums = map(sum, map(map, repeat(worth.__getitem__), columns))
        return dict(zip(mine, map(truediv, sums, repeat(k))))

    def weights(self, utils: dict[int, float]) -> list[tuple[int, float]]:
        """The quantal response: divers within ``margin`` of the best, weighted by exp(u/temp)."""
        if self.temp <= 0:
            return list(self._response(utils).items())
        return sorted(self._response(utils).items())

    def _response(self, utils: dict[int, float]) -> dict[int, float]:
        """:meth:`weights` as a dict, in the order of ``utils``."""
        best = max(utils.values())
        if self.temp <= 0:
            top = [d for d, u in utils.items() if u >= best - 1e-9]  # (all within the margin)
            return {d: 1.0 / len(top) for d in top}
        floor = best - self.margin - 1e-9
        temp, exp = self.temp, math.exp
        w = {d: exp((u - best) / temp) for d, u in utils.items() if u >= floor}
        total = sum(w.values())
        return {d: x / total for d, x in w.items()}

    def draw(self, utils: dict[int, float], rng: random.Random) -> int:
        """A diver drawn from :meth:`weights` (as ``rng.choices`` draws it)."""
        [(divers, cum, total)] = _split([self.weights(utils)])
        return divers[bisect_right(cum, rng.random() * total)]  # (_sample's one draw)

    def _order(self, legal: list[Move], now: MiauiView, mem: Memory) -> Move:
        """No Fighting, taker chooses: the first card of the best order for our pile."""
        assert now.pending_take is not None and isinstance(now.viewer, int)
        cards = list(now.pending_take.cards)
        pile = mem.piles[now.viewer]
        best_first, best = None, -1e18
        orders = set(itertools.permutations(cards)) if len(cards) <= 6 else {tuple(cards)}
        for order in sorted(orders):
            g = pile_gain(pile, order)
            if g > best:
                best_first, best = order[0], g
        for m in legal:
            if isinstance(m, Take) and m.card == best_first:
                return m
        return legal[0]

    # -------------------------------------------------------------- rollouts
    def rollout(self, state: State, seat: int, rng: random.Random) -> Move:
        """A cheap rule of thumb on a (determinised) Miaui state, for search rollouts.

        Value each space for this seat by the catch's effect on its pile (:func:`pile_gain`,
        the rules' own pile rules); aim at a space drawn with weights ``exp(gain / 3)`` (so
        seats do not all aim at the same space), with the highest diver (Deepest), the
        second highest (Deep) or the lowest (Shallow); a space worth nothing is not aimed at
        (a middle diver).  One move in ten is uniform random, to keep rollouts varied.
        """
        moves = state.legal_moves(seat)
        if len(moves) == 1 or state.pending or rng.random() < 0.1:  # type: ignore[attr-defined]
            return rng.choice(moves)
        pile = state.piles[seat]  # type: ignore[attr-defined]
        gains = [pile_gain(pile, cards) if cards else -100.0 for cards in state.lagoon]  # type: ignore[attr-defined]
        best = max(gains)
        if best <= 0:
            return moves[len(moves) // 2]
        weights = [math.exp((g - best) / 3.0) if g > 0 else 0.0 for g in gains]
        space = rng.choices((0, 1, 2), weights)[0]
        k = len(moves)  # moves are in increasing diver order
        return moves[-1] if space == 0 else moves[max(0, k - 2)] if space == 1 else moves[0]
