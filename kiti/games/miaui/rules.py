"""Miaui: the whole rulebook, every ruling of RULINGS.md and every variant, in one state class.

Spaces are numbered 0 (bottom, Deepest), 1 (middle, Deep), 2 (top, Shallow).
Seats are numbered clockwise.  Kiti at position ``k`` stands between seat
``k`` and seat ``k+1``; Deepest/Deep ties go to the first tied seat in the
order k, k-1, k-2, ...; Shallow ties to the first in k+1, k+2, ...

The rules live in small pure functions named as the rulebook names them
(:func:`kiti_rank`, :func:`resolve_depths`, :func:`add_to_pile`,
:func:`catch_needs_order`, :func:`remembered_piles`); the state class calls them, and
so do the bots, the renderer and :mod:`.explain` (what ``why`` says of a legal move).
Everything a viewer may see is produced by :meth:`MiauiState._view`, the one place views
are made.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from ...core.chance import shuffle
from ...core.contract import emitters
from ...core.errors import NotationError, OptionError, SetupError, quoted
from ...core.events import EVERYONE, REFEREE, Entry, seats
from ...core.game import GameInfo, State, check_notation
from ...core.moves import Move
from ...core.options import OptionSpec
from . import view as V
from .cards import COUNT, DECK, DECK_SIZE, VALUE, card_name

ROUNDS = 12
DIVERS = tuple(range(1, ROUNDS + 1))
SPACE_NAMES = ("Deepest", "Deep", "Shallow")
#: Who wins each depth, in words (the view carries them: ``depths[space].rule``).
DEPTH_RULE = ("highest diver wins", "next highest wins", "lowest diver wins")
#: Which end of the divers still in wins each depth (:func:`resolve_depths` acts on it).
DEPTH_TAKES: tuple[Literal["highest", "lowest"], ...] = ("highest", "highest", "lowest")
#: What follows the last dive of a round, in words (``why`` quotes it).
REVEAL_RULE = "the depths are settled deepest first, one catch a seat at most"
#: A tie with No Fighting, in words (the view's ``tie_rule``; ``why`` shows it too).
NO_FIGHTING_TIE = "a tie catches nothing; tied divers are out, the fish stay"
#: A tie with Kiti, in words (the view's ``tie_rule``).
KITI_TIE = "Kiti breaks a tie: the first tied seat in its order wins"


@dataclass(frozen=True, slots=True)
class Dive(Move):
    """Play diver ``n`` (1-12) face down this round. Notation ``dive N``."""

    n: int

    def __str__(self) -> str:
        return f"dive {self.n}"

    def steps(self) -> tuple[str, ...]:
        """One step, the diver's number: what a front end offers for it."""
        return (str(self.n),)


@dataclass(frozen=True, slots=True)
class Take(Move):
    """No Fighting with ``taker_chooses_order``: add ``card`` to your pile next. Notation ``take CODE``."""

    card: str

    def __str__(self) -> str:
        return f"take {self.card}"

    def steps(self) -> tuple[str, ...]:
        """One step, the card's code: what a front end offers for it."""
        return (self.card,)


CODES = tuple(sorted(COUNT))  # every distinct card code
_DIVE_AT: list[Dive] = [Dive(0), *(Dive(n) for n in DIVERS)]  # _DIVE_AT[n] is ``dive n``
_TAKE = {code: Take(code) for code in CODES}
_ACTION_OF = tuple(n - 1 for n in range(ROUNDS + 1))  # _ACTION_OF[n]: the action of ``dive n``

OPTIONS = (
    OptionSpec(
        "open_baskets",
        bool,
        False,
        "Open Baskets: diver discards face up and every fish pile visible in order.",
    ),
    OptionSpec(
        "no_fighting",
        bool,
        False,
        "No Fighting: no Kiti; a tie catches nothing, the tied divers are out for the "
        "round and the fish stay, piling up in their space.",
    ),
    OptionSpec(
        "taker_chooses_order",
        bool,
        False,
        "With No Fighting: whoever wins a space holding several cards chooses the order "
        "in which they join her pile (default: oldest first).",
    ),
    OptionSpec(
        "kiti_start",
        int,
        0,
        "Seat on Kiti's right at the start: Kiti stands between this seat and the next "
        "clockwise (the youngest player's seat in the rulebook).",
        minimum=0,
        maximum=5,
    ),
)

INFO = GameInfo(
    id="miaui",
    name="Miaui",
    min_seats=3,
    max_seats=6,
    version="1",
    options=OPTIONS,
    notation="dive N (N = 1..12); with taker_chooses_order also take CODE",
    view_type=V.VIEW_TYPE,
    event_types=V.EVENT_TYPES,
    move_types=(Dive, Take),
    # 11 free rounds of dives, plus at most one take per card a taker orders.
    max_moves=11 * 6 + DECK_SIZE,
    margin_scale=40.0,
    # Every variant of the rulings at once (7, 9, 10: a Lantern's hidden card under Open
    # Baskets, piles carried over by No Fighting, the taker ordering them).
    notable_options=({"open_baskets": True, "no_fighting": True, "taker_chooses_order": True},),
)
T = TypeVar("T")  # what _draw_dives hands out: history entries or action pairs
EMIT = emitters(V.EVENT_TYPES)  # events logged by keyword, checked against view.py's kinds
#: ``_SEAT_DIVE[seat][n]`` is the history entry ``(seat, dive n)``, made once (a random
#: round's moves are these shared tuples, not new ones).
_SEAT_DIVE = [[(seat, dive) for dive in _DIVE_AT] for seat in range(INFO.max_seats)]
#: ``_SEAT_ACTION[seat][n]``: ``(seat, action of dive n)``, made once (the integer playouts' draw).
_SEAT_ACTION = [[(seat, a) for a in _ACTION_OF] for seat in range(INFO.max_seats)]


# --------------------------------------------------------------------- rules
def kiti_rank(kiti: int, players: int, space: int, seat: int) -> int:
    """Place of ``seat`` in Kiti's order for a tie at ``space`` (0: favoured first).

    The one place the tie rule lives.  Deepest and Deep: counterclockwise, starting
    with seat ``kiti`` (on Kiti's right); Shallow: clockwise, starting with ``kiti+1``.
    """
    if space < 2:
        return (kiti - seat) % players
    return (seat - kiti - 1) % players


def kiti_order(kiti: int, players: int, space: int) -> list[int]:
    """Seats in the order Kiti favours them for ties at ``space``."""
    return list(_kiti_order(kiti, players, space))


@functools.cache
def _kiti_rank_of(kiti: int, players: int, space: int) -> tuple[int, ...]:
    """:func:`kiti_rank` of every seat (index: seat)."""
    return tuple(kiti_rank(kiti, players, space, seat) for seat in range(players))


@functools.cache
def _kiti_order(kiti: int, players: int, space: int) -> tuple[int, ...]:
    return tuple(sorted(range(players), key=lambda seat: kiti_rank(kiti, players, space, seat)))


def tie_direction(space: int) -> Literal["counterclockwise", "clockwise"]:
    """Which way Kiti looks for a tie at ``space``, as :func:`kiti_rank` orders the seats."""
    step = (kiti_rank(0, 4, space, 2) - kiti_rank(0, 4, space, 1)) % 4  # seat 2 follows seat 1 clockwise
    return "clockwise" if step == 1 else "counterclockwise"


def tie_side(space: int) -> Literal["right", "left"]:
    """The side of Kiti where its tie order at ``space`` starts, as :func:`kiti_rank` has it
    (seat ``kiti`` is on its right)."""
    return "right" if kiti_rank(0, 3, space, 0) == 0 else "left"


#: Which way Kiti moves after every round (see :func:`kiti_after`).
KITI_MOVES: Literal["clockwise"] = "clockwise"


def kiti_after(kiti: int, players: int) -> int:
    """The seat on Kiti's right after a round: Kiti moves one gap clockwise."""
    return (kiti + 1) % players


def kiti_left(kiti: int, players: int) -> int:
    """The seat on Kiti's left: Kiti stands between seat ``kiti`` and the next clockwise."""
    return (kiti + 1) % players


@functools.cache
def depth_facts(kiti: int | None, players: int) -> tuple[V.Depth, ...]:
    """What each depth takes and how its ties are broken, for the view (rule facts; the
    same immutable objects for every view of this Kiti position and seat count)."""
    return tuple(
        V.Depth(
            space=space,
            name=SPACE_NAMES[space],
            takes=DEPTH_TAKES[space],
            rule=DEPTH_RULE[space],
            tie_direction=None if kiti is None else tie_direction(space),
            tie_from=None if kiti is None else tie_side(space),
            tie_order=None if kiti is None else _kiti_order(kiti, players, space),
        )
        for space in (0, 1, 2)
    )


Catch = tuple[int, int, tuple[int, ...]]  # (space, winning seat, seats Kiti chose among, if tied)
Depths = tuple[tuple[Catch, ...], tuple[tuple[int, tuple[int, ...]], ...]]  # (catches, No Fighting ties)


#: Whether each depth goes to the highest diver still in (else the lowest): DEPTH_TAKES.
_TAKES_HIGHEST = tuple(takes == "highest" for takes in DEPTH_TAKES)
#: ``_WON[space][seat]``: the catch of ``space`` by ``seat`` without a tie (made once).
_WON: tuple[tuple[Catch, ...], ...] = tuple(
    tuple((space, seat, ()) for seat in range(INFO.max_seats)) for space in (0, 1, 2)
)


def resolve_depths(dives: Sequence[int], players: int, kiti: int | None) -> Depths:
    """Decide the three depths from revealed dives: the one place this rule lives.

    Deepest: the highest diver; Deep: the highest remaining; Shallow: the lowest remaining.
    A seat wins at most one depth.  Ties: Kiti's order (:func:`kiti_rank`), or with No
    Fighting (``kiti`` None) nobody wins and the tied divers are out for the round.

    Returns ``(catches, ties)``: ``catches`` lists (space, winning seat, tied seats),
    deepest first, where tied seats is empty unless Kiti broke a tie; ``ties`` lists
    (space, tied seats) for depths nobody won by a No Fighting tie.  A depth missing from
    both had no remaining diver.

    The answer depends on the order of the dives alone (they are only compared): with a tie,
    it is worked out once per such order and Kiti's position (:func:`_resolve_ties`).
    """
    values = set(dives)
    if len(values) == players:  # no two dives alike: no tie anywhere
        ordered = sorted(dives)
        seat = dives.index
        return (_WON[0][seat(ordered[-1])], _WON[1][seat(ordered[-2])], _WON[2][seat(ordered[0])]), ()
    ranks = tuple(map(sorted(values).index, dives))  # each dive's rank among the distinct ones
    found = _TIED.get((kiti, ranks))
    if found is None:
        found = _TIED[kiti, ranks] = _resolve_ties(ranks, players, kiti)
    return found


#: :func:`resolve_depths`' answers with a tie, by (Kiti, each dive's rank among the distinct
#: dives): at most a few thousand orders of three to six dives, for each Kiti position.
_TIED: dict[tuple[int | None, tuple[int, ...]], Depths] = {}


def _resolve_ties(dives: Sequence[int], players: int, kiti: int | None) -> Depths:
    """:func:`resolve_depths` where two dives or more are alike."""
    left = sorted(range(players), key=dives.__getitem__)  # divers still in: lowest, then seat
    catches: list[Catch] = []
    ties: list[tuple[int, tuple[int, ...]]] = []
    for space in (0, 1, 2):
        if not left:
            break  # nobody remains
        if _TAKES_HIGHEST[space]:  # the tied seats: the end of ``left`` holding the best dive
            first = len(left) - 1
            best = dives[left[first]]
            while first and dives[left[first - 1]] == best:
                first -= 1
            tied, rest = left[first:], left[:first]
        else:  # the start of ``left`` holding the lowest dive
            end, best = 1, dives[left[0]]
            while end < len(left) and dives[left[end]] == best:
                end += 1
            tied, rest = left[:end], left[end:]
        if len(tied) == 1:
            winner = tied[0]
            catches.append(_WON[space][winner])
            left = rest
            continue
        if kiti is None:  # No Fighting: nobody catches, the tied divers are out
            ties.append((space, tuple(tied)))
            left = rest
            continue
        rank = _kiti_rank_of(kiti, players, space)
        winner = min(tied, key=rank.__getitem__)
        catches.append((space, winner, tuple(tied)))
        left.remove(winner)
    return tuple(catches), tuple(ties)


_NO_HIDE = [-1, -1, -1]


_NOTHING: tuple[None, list[str]] = (None, [])  # nothing left the pile (never modified)
_JELLIES = tuple(code for code in CODES if code[0] == "J")  # the Jellyfish codes


def add_to_pile(pile: list[str], card: str) -> tuple[str | None, list[str]]:
    """One card joins ``pile`` (in place): the one place Seagull and Jellyfish rules live.

    A Seagull never stays: it eats the top card (even a Jellyfish), if any.
    After the change, a pile holding three Jellyfish loses them all.
    Returns ``(eaten, jellies)``: the card the Seagull ate and the Jellyfish that
    left; everything returned, and a Seagull, goes to the box.
    """
    if card == "S":
        return (pile.pop() if pile else None), []
    pile.append(card)
    if card[0] == "J" and sum(map(pile.count, _JELLIES)) >= 3:
        jellies = [c for c in pile if c[0] == "J"]
        pile[:] = [c for c in pile if c[0] != "J"]
        return None, jellies
    return _NOTHING


#: Cards that simply join a pile when caught: no Seagull or Jellyfish rule (see
#: :func:`add_to_pile`) and no Lantern (see :func:`lantern_hides_next`) applies to them.
QUIET = frozenset(c for c in COUNT if c != "S" and c[0] not in "JL")


def catch_needs_order(cards: Sequence[str], taker_chooses: bool) -> bool:
    """Whether a catch waits for its taker's ``take`` moves (No Fighting, taker orders):
    only when she may choose, and the cards are not all the same."""
    return taker_chooses and len(set(cards)) > 1


def lantern_hides_next(cards: Sequence[str], rnd: int) -> bool:
    """A Lantern caught before the last round hides the next card stocked in its space."""
    if len(cards) == 1:
        return cards[0][0] == "L" and rnd < ROUNDS
    return rnd < ROUNDS and any(c[0] == "L" for c in cards)


def remembered_piles(
    events: Iterable[Mapping[str, Any]], players: int, taker_chooses: bool
) -> list[list[str]]:
    """Every fish pile as a seat can rebuild it from the catches it saw (ruling 8: a
    player may remember what was revealed), applying the pile rules in order."""
    piles: list[list[str]] = [[] for _ in range(players)]
    for e in events:
        t = e["type"]
        if t == "catch":
            cards = e["cards"]
            if not taker_chooses or not catch_needs_order(cards, taker_chooses):
                pile = piles[e["seat"]]
                for card in cards:
                    if card in QUIET:  # the usual catch: it joins the pile
                        pile.append(card)
                    else:
                        add_to_pile(pile, card)
        elif t == "take":
            add_to_pile(piles[e["seat"]], e["card"])
    return piles


def remembered_dives(events: Iterable[Mapping[str, Any]], players: int) -> list[list[int]]:
    """The divers each seat has played, round by round, as a seat remembers them from the
    reveals it saw (all public).  Ruling 8: nobody sees the diver discard piles; what was
    revealed may be remembered, so this lives in the information state (the events), never
    in the observation."""
    reveals = [e["dives"] for e in events if e["type"] == "reveal"]
    if not reveals:
        return [[] for _ in range(players)]
    return [list(column) for column in zip(*reveals)]  # each seat's column, round by round


def pile_score(pile: Iterable[str]) -> int:
    return sum(map(VALUE.__getitem__, pile))


# --------------------------------------------------------------------- state
_ALL = [frozenset(range(n)) for n in range(8)]


class MiauiState(State):
    """A game of Miaui.

    The table: ``deck`` (next card last), ``burned``, ``lagoon`` (three lists, oldest
    card first), ``veil`` (per space, its face-down cards: index in the space -> (the seat
    that may see it, log index of its peek)), ``piles``, ``box``, ``hands`` (divers left, sorted),
    ``reveals`` (every round's revealed dives), ``committed`` (0: not yet), ``kiti``.
    """

    info = INFO

    # The state's attributes (clone and undo copy exactly these; see kiti.core.game).
    open_baskets: bool
    no_fighting: bool
    taker_chooses: bool
    burned: str
    deck: list[str]
    lagoon: list[list[str]]
    veil: list[dict[int, tuple[int, int]]]
    hide_next: list[int]
    piles: list[list[str]]
    box: list[str]
    hands: list[list[int]]
    reveals: list[tuple[int, ...]]
    committed: list[int]
    kiti: int | None
    round: int
    pending: list[Any]
    takes: tuple[Catch, ...]
    round_start: int

    # ------------------------------------------------------------------ setup
    def _setup(self, options: dict[str, Any], setup: dict[str, Any] | None) -> None:
        n = self.players
        self.open_baskets = options["open_baskets"]
        self.no_fighting = options["no_fighting"]
        self.taker_chooses = options["taker_chooses_order"]
        if self.taker_chooses and not self.no_fighting:
            raise OptionError("option taker_chooses_order only applies with no_fighting=true")
        kiti: int | None = options["kiti_start"]
        if kiti is not None and kiti >= n:
            raise OptionError(f"option kiti_start must be a seat 0-{n - 1}, not {kiti}")
        if self.no_fighting:
            if kiti:
                raise OptionError("option kiti_start has no meaning with no_fighting=true (no Kiti)")
            kiti = None
        if setup:
            unknown = set(setup) - {"deck", "kiti"}
            if unknown:
                raise SetupError(f"unknown Miaui setup key(s): {', '.join(sorted(unknown))}")
            if "kiti" in setup:
                kiti = _setup_kiti(setup["kiti"], n, self.no_fighting)
        if setup and "deck" in setup:
            order = _setup_deck(setup["deck"])
        else:
            order = list(DECK)
            shuffle(self.rng, order)
        self.burned = order[0]
        self.deck = order[:0:-1]  # next card to draw is at the end
        self.lagoon = [[], [], []]
        self.veil = [{}, {}, {}]
        self.hide_next = [-1, -1, -1]  # seat whose Lantern hides the next card of this space
        self.piles = [[] for _ in range(n)]
        self.box = []
        self.hands = [list(DIVERS) for _ in range(n)]
        self.reveals = []
        self.committed = [0] * n
        self.kiti = kiti
        self.round = 1
        self.pending = []  # [seat, space, cards still to add] while a taker orders
        self.takes = ()  # catches still to hand out
        self.round_start = 0  # index in history of the first move of this round
        self._stock(self.log)
        self.acting = _ALL[n]

    # ---------------------------------------------------------------- moves
    @classmethod
    def parse_move(cls, text: str) -> Move:
        t = check_notation(text)
        word, _, arg = t.partition(" ")
        if word == "dive":
            if not (arg.isascii() and arg.isdigit()) or len(arg) > 3:
                raise NotationError(f"{_as_typed(text)}: a dive is written 'dive N' with N a number 1-12")
            return Dive(int(arg))
        if word == "take":
            code = arg.upper()
            if not code or " " in code:
                raise NotationError(f"{_as_typed(text)}: a take is written 'take CODE', e.g. 'take T7'")
            return _TAKE.get(code) or Take(code)
        raise NotationError(f"{_as_typed(text)} is not a Miaui move (write 'dive N', e.g. 'dive 9')")

    @classmethod
    def all_moves(cls, players: int, options: Mapping[str, Any]) -> list[Move]:
        moves: list[Move] = list(_DIVE_AT[1:])
        if options.get("taker_chooses_order"):
            moves.extend(_TAKE[c] for c in CODES)
        return moves

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.acting:
            return []
        if self.pending:
            return [_TAKE[c] for c in sorted(set(self.pending[2]))]
        return [_DIVE_AT[n] for n in self.hands[seat]]

    def legal_actions(self, seat: int) -> list[int]:
        if seat not in self.acting:
            return []
        if self.pending:
            return [ROUNDS + CODES.index(c) for c in sorted(set(self.pending[2]))]
        return list(map(_ACTION_OF.__getitem__, self.hands[seat]))

    def random_move(self, seat: int, rng: random.Random) -> Move:
        if self.pending:
            return rng.choice(self.legal_moves(seat))
        hand = self.hands[seat]
        return _DIVE_AT[hand[int(rng.random() * len(hand))]]

    def _random_choice(self, seats: frozenset[int], rng: random.Random) -> list[tuple[int, Move]]:
        """The round's dives of ``seats``, lowest seat first, each drawn as :meth:`random_move`
        draws it (one ``random()`` a seat), in one call."""
        if self.pending:
            return super()._random_choice(seats, rng)
        return self._draw_dives(seats, rng, _SEAT_DIVE)

    def _random_action_choice(self, seats: frozenset[int], rng: random.Random) -> list[tuple[int, int]]:
        """:meth:`_random_choice` as actions, the same draws, in one call."""
        if self.pending:
            return super()._random_action_choice(seats, rng)
        return self._draw_dives(seats, rng, _SEAT_ACTION)

    def _draw_dives(
        self, seats: frozenset[int], rng: random.Random, entries: Sequence[Sequence[T]]
    ) -> list[T]:
        """One random diver of each of ``seats``' hands, lowest seat first, as
        ``entries[seat][diver]`` (one ``random()`` a seat, as :meth:`random_move` draws)."""
        hands = self.hands
        draw = rng.random
        out: list[T] = []
        for seat in sorted(seats):
            hand = hands[seat]
            out.append(entries[seat][hand[int(draw() * len(hand))]])
        return out

    def random_action(self, seat: int, rng: random.Random) -> int:
        if self.pending:
            return rng.choice(self.legal_actions(seat))
        hand = self.hands[seat]
        return _ACTION_OF[hand[int(rng.random() * len(hand))]]  # a subscript: cheaper than "- 1"

    def moves_key(self, seat: int) -> tuple[int, ...] | None:
        """What decides the legal moves of ``seat`` (equal keys, equal :meth:`legal_moves`):
        a diving seat's divers left (it may dive any of them); None otherwise."""
        if seat in self.acting and not self.pending:
            return tuple(self.hands[seat])
        return None

    def secret_choice(self, seat: int) -> bool:
        """Every dive is a secret choice, the round's last one included (the others' dives
        lie face down); ordering a catch is not."""
        return seat in self.acting and not self.pending

    def _not_to_act_reason(self, seat: int) -> str:
        if self.pending:
            taker, space, _ = self.pending
            return (
                f"seat {seat} cannot act now: seat {taker} is choosing the order of "
                f"the {SPACE_NAMES[space]} catch"
            )
        if self.committed[seat]:
            return f"seat {seat} has already chosen a diver this round (one diver per seat per round)"
        return super()._not_to_act_reason(seat)

    def _illegal_reason(self, seat: int, move: Move) -> str | None:
        if self.pending:
            _taker, space, cards = self.pending
            if not isinstance(move, Take):
                return (
                    f"seat {seat} must first choose which card of the {SPACE_NAMES[space]} "
                    f"catch joins the pile next (take {' / take '.join(sorted(set(cards)))})"
                )
            if move.card not in cards:
                return (
                    f"{_as_typed(move.card)} is not among the cards seat {seat} is taking "
                    f"({', '.join(cards)})"
                )
            return None
        if isinstance(move, Take):
            return "there is no catch to order now (take is only used by a No Fighting taker)"
        n = move.n  # type: ignore[attr-defined]
        if type(n) is int and n in self.hands[seat]:  # a diver still in hand
            return None
        if type(n) is not int:
            return f"a diver is a whole number 1-{ROUNDS}, not {quoted(n)}"
        if not 1 <= n <= ROUNDS:  # checked before n is written out: it may be huge
            shown = quoted(n)
            shown = shown if shown.lstrip("-").isdigit() else f"({shown})"
            return f"diver {shown} does not exist: divers are numbered 1 to {ROUNDS}"
        return f"seat {seat} has already played diver {n} (each diver dives once per game)"

    def _apply(self, seat: int, move: Move) -> None:
        if self.pending:
            self._take_one(move.card, self.log)  # type: ignore[attr-defined]
            return
        n = move.n  # type: ignore[attr-defined]
        self.hands[seat].remove(n)
        self.committed[seat] = n
        acting = self.acting = _WITHOUT[self.acting][seat]
        if not acting:
            self._resolve(self.log)

    def _apply_all(self, pairs: list[tuple[int, Move]]) -> None:
        """Every seat's dive at once (the round's simultaneous choice), then the reveal."""
        if self.pending:
            super()._apply_all(pairs)
            return
        self._dive_all(pairs, self.log)

    def _dive_all(self, pairs: Sequence[tuple[int, Move]], log: list[Entry] | None) -> None:
        """Dives of seats to act (``pairs``, seat order); the reveal once every seat has dived
        (``log``: where its events go, None for a quiet finish)."""
        hands = self.hands
        committed = self.committed
        for seat, move in pairs:
            n = move.n  # type: ignore[attr-defined]
            hands[seat].remove(n)
            committed[seat] = n
        acting = self.acting
        if len(pairs) == len(acting):  # every seat to act has dived (legal moves: each once)
            self.acting = _ALL[0]
            self._resolve(log)
            return
        for seat, _ in pairs:
            acting = _WITHOUT[acting][seat]
        self.acting = acting

    # ----------------------------------------------------------- the round
    # The round's steps take the log their events go to.  None: a quiet finish (see
    # _random_finish), the same rules without what only viewers read: no events, and no veil
    # for a card a Lantern hides (nobody looks at the table again).
    def _stock(self, log: list[Entry] | None) -> None:
        """Restock: one card per space, bottom first; round-1 Seagulls go back and are reshuffled."""
        deck = self.deck
        rnd = self.round
        lagoon = self.lagoon
        if rnd == 1:
            cards = []
            for space in (0, 1, 2):
                card = deck.pop()
                while card == "S":
                    if log is not None:
                        EMIT.seagull_returned(log, EVERYONE, round=1, space=space)
                    deck.append(card)
                    shuffle(self.rng, deck)
                    card = deck.pop()
                cards.append(card)
            c0, c1, c2 = cards
        else:
            c0 = deck.pop()
            c1 = deck.pop()
            c2 = deck.pop()
        lagoon[0].append(c0)
        lagoon[1].append(c1)
        lagoon[2].append(c2)
        if log is None:
            return
        if self.hide_next == _NO_HIDE:
            EMIT.stock(log, EVERYONE, round=rnd, cards=(c0, c1, c2))
            return
        self._stock_veiled((c0, c1, c2))

    def _stock_veiled(self, cards: tuple[str, str, str]) -> None:
        """Log a stocking in which a Lantern's catcher sees a card face down (ruling 7)."""
        rnd = self.round
        log = self.log
        hide = self.hide_next
        self.hide_next = _NO_HIDE.copy()
        c0, c1, c2 = cards
        shown = ("?" if hide[0] >= 0 else c0, "?" if hide[1] >= 0 else c1, "?" if hide[2] >= 0 else c2)
        EMIT.stock(log, EVERYONE, referee=(("cards", cards),), round=rnd, cards=shown)
        for space in (0, 1, 2):
            seer = hide[space]
            if seer >= 0:
                self.veil[space][len(self.lagoon[space]) - 1] = (seer, len(log))
                EMIT.peek(self.log, seats(seer), round=rnd, space=space, card=cards[space])

    def _resolve(self, log: list[Entry] | None) -> None:
        """Reveal the dives together, decide each depth, then hand out the catches."""
        revealed = tuple(self.committed)
        self.committed = [0] * self.players
        self.reveals.append(revealed)
        catches, ties = resolve_depths(revealed, self.players, self.kiti)
        if log is not None:
            EMIT.reveal(log, EVERYONE, round=self.round, dives=revealed, kiti=self.kiti)
            if len(catches) < 3:
                self._log_unwon(catches, ties)
        self.takes = catches
        self._hand_out(log)

    def _log_unwon(self, catches: Sequence[Catch], ties: Sequence[tuple[int, tuple[int, ...]]]) -> None:
        """Depths nobody won: a No Fighting tie, or no diver left."""
        tied = dict(ties)
        won = {c[0] for c in catches}
        for space in (0, 1, 2):
            if space in tied:
                EMIT.tie(self.log, EVERYONE, round=self.round, space=space, seats=tied[space])
            elif space not in won:
                EMIT.no_diver(self.log, EVERYONE, round=self.round, space=space)

    def _hand_out(self, log: list[Entry] | None) -> None:
        """Give each won space to its winner, deepest first, pausing if a taker must order
        cards; then end the round."""
        rnd = self.round
        lagoon = self.lagoon
        veil = self.veil
        takes = self.takes
        piles = self.piles
        catch = EMIT.catch
        for take in takes:
            space, seat, tied = take
            cards = lagoon[space]
            lagoon[space] = []
            if veil[space]:
                veil[space] = {}
            if len(cards) == 1:
                card = cards[0]
                if log is not None:
                    catch(log, EVERYONE, round=rnd, space=space, seat=seat, cards=(card,), tied=tied)
                if card in QUIET:  # the usual catch: one card joins the pile
                    piles[seat].append(card)
                    continue
            elif log is not None:
                catch(log, EVERYONE, round=rnd, space=space, seat=seat, cards=tuple(cards), tied=tied)
            if log is not None and lantern_hides_next(cards, rnd):  # what a seat sees: quiet, none
                self.hide_next[space] = seat
            if len(cards) > 1 and catch_needs_order(cards, self.taker_chooses):
                self.takes = takes[takes.index(take) + 1 :]  # each space is caught once
                self.pending = [seat, space, cards]
                self.acting = frozenset((seat,))
                return
            pile = self.piles[seat]
            for card in cards:
                eaten, jellies = add_to_pile(pile, card)
                if card == "S" or jellies:
                    self._to_box(seat, card, eaten, jellies, log)
        self.takes = ()
        self._end_round(log)

    def _take_one(self, card: str, log: list[Entry] | None) -> None:
        seat, _, cards = self.pending
        cards.remove(card)
        if log is not None:
            EMIT.take(log, EVERYONE, round=self.round, seat=seat, card=card)
        self._add(seat, card, log)
        if not catch_needs_order(cards, True):
            for rest in cards:
                if log is not None:
                    EMIT.take(log, EVERYONE, round=self.round, seat=seat, card=rest)
                self._add(seat, rest, log)
            self.pending = []
            self._hand_out(log)

    def _add(self, seat: int, card: str, log: list[Entry] | None) -> None:
        """One card joins a pile (see :func:`add_to_pile`); what leaves goes to the box."""
        eaten, jellies = add_to_pile(self.piles[seat], card)
        if card == "S" or jellies:
            self._to_box(seat, card, eaten, jellies, log)

    def _to_box(
        self, seat: int, card: str, eaten: str | None, jellies: list[str], log: list[Entry] | None
    ) -> None:
        """A Seagull (and what it ate), or three Jellyfish, leave the game."""
        if card == "S":
            self.box.append(card)
            if eaten is not None:
                self.box.append(eaten)
            if log is not None:
                EMIT.seagull(log, EVERYONE, round=self.round, seat=seat, ate=eaten)
        else:
            self.box.extend(jellies)
            if log is not None:
                EMIT.jellyfish(log, EVERYONE, round=self.round, seat=seat, cards=tuple(jellies))

    def _end_round(self, log: list[Entry] | None) -> None:
        n = self.players
        if self.kiti is not None:  # Kiti moves on after every round
            self.kiti = kiti_after(self.kiti, n)
        if self.round == ROUNDS:
            self.over = True
            self.acting = frozenset()
            if log is not None:
                result = self.result()
                EMIT.end(
                    log,
                    EVERYONE,
                    scores=tuple(map(int, result.scores)),
                    winners=tuple(result.winning_seats()),
                )
            return
        self.round += 1
        self.round_start = len(self.history)
        self._stock(log)
        if self.round == ROUNDS:  # the last diver of every hand plays itself
            self.committed = [hand.pop() for hand in self.hands]
            self.acting = frozenset()
            self._resolve(log)
        else:
            self.acting = _ALL[n]

    def _random_finish(self, rng: random.Random, left: int) -> None:
        """At most ``left`` uniform random moves with the core's draws (see
        :meth:`State._random_finish`: each dive as :meth:`random_action` draws it, a take as
        :meth:`random_move`), played quietly: the round's own steps given no log.  The state
        then serves ``over`` and ``result()`` only: its events, history and veils stop here
        (ISMCTS scores it and draws a fresh determinisation; a rollout cut short is scored by
        ``result()`` too, Miaui's heuristic having no ``evaluate`` to read the table).

        Miaui never reaches its move limit (``max_moves`` counts every dive and a take for
        each card), so the quiet moves are not counted."""
        while left > 0:
            acting = self.acting
            if not acting:
                return
            if self.pending:  # a taker orders her catch: one take
                (seat,) = acting
                self._take_one(self.random_move(seat, rng).card, None)  # type: ignore[attr-defined]
                left -= 1
            elif len(acting) <= left:  # the rest of the round's choice, lowest seat first
                left -= len(acting)
                self._dive_all(self._draw_dives(acting, rng, _SEAT_DIVE), None)
            else:  # the budget ends inside the choice: the core's moves, seat by seat
                super()._random_finish(rng, left)
                return

    # -------------------------------------------------------------- ending
    def scores(self) -> list[float]:
        return [pile_score(pile) for pile in self.piles]

    def check_invariants(self) -> None:
        held = (
            len(self.deck)
            + sum(map(len, self.lagoon))
            + sum(map(len, self.piles))
            + len(self.box)
            + 1
            + (len(self.pending[2]) if self.pending else 0)
        )
        assert held == DECK_SIZE, f"{held} cards accounted for, not {DECK_SIZE}"
        cards = Counter(
            self.deck
            + [self.burned]
            + self.box
            + [c for x in self.lagoon for c in x]
            + [c for p in self.piles for c in p]
            + (self.pending[2] if self.pending else [])
        )
        assert cards == COUNT, "the cards in play are not the deck"
        for s, pile in enumerate(self.piles):
            assert sum(1 for c in pile if c[0] == "J") < 3, f"seat {s} holds three Jellyfish"
            assert "S" not in pile, f"a Seagull stayed in seat {s}'s pile"
        for s in range(self.players):
            used = [r[s] for r in self.reveals] + ([self.committed[s]] if self.committed[s] else [])
            assert sorted(used + self.hands[s]) == list(DIVERS), f"seat {s}'s divers are not 1-12"

    # --------------------------------------------------------------- views
    def _view(self, viewer: Any) -> V.MiauiView:
        """The one place a view of the table is made: a seat, None (spectator) or REFEREE.
        Its rule facts come from this module's rule functions (:meth:`_rule_facts`)."""
        n = self.players
        ref = viewer == REFEREE
        shown_all = ref or self.over  # the end shows every card in play; the box, never
        open_b = self.open_baskets
        lagoon: list[list[str]] = [
            [c if (shown_all or i not in veil or veil[i][0] == viewer) else "?" for i, c in enumerate(cards)]
            if veil
            else list(cards)
            for cards, veil in zip(self.lagoon, self.veil)
        ]
        piles = []
        scores: list[float | None] = []
        for s, pile in enumerate(self.piles):
            if shown_all or open_b or s == viewer:
                piles.append(list(pile))
            else:
                piles.append(["?"] * (len(pile) - 1) + pile[-1:])
            # Totals are compared openly at the end; before that only your own is known.
            # A pile of 0 or 1 card is wholly visible, so its total is too.
            shown = ref or open_b or s == viewer or self.over or len(pile) <= 1
            scores.append(pile_score(pile) if shown else None)
        hands: list[list[Any]] = [
            list(h) if (shown_all or s == viewer) else ["?"] * len(h) for s, h in enumerate(self.hands)
        ]
        # The diver discard piles: each seat's column of the reveals (one diver a round).
        discards: list[list[Any]]
        if shown_all or open_b:
            discards = (
                [list(column) for column in zip(*self.reveals)] if self.reveals else [[] for _ in range(n)]
            )
        else:
            discards = [["?"] * len(self.reveals) for _ in range(n)]
        committed: list[Any] = [
            (c if (ref or s == viewer) else "?") if c else None for s, c in enumerate(self.committed)
        ]
        pending = (
            None
            if not self.pending
            else V.PendingTake(seat=self.pending[0], space=self.pending[1], cards=list(self.pending[2]))
        )
        kiti = self.kiti
        # The referee's view shows the burned card too.
        burned: dict[str, Any] = {"burned": self.burned} if ref else {}
        return (V.RefereeView if ref else V.MiauiView)(
            game="miaui",
            players=n,
            options=dict(self.options),
            viewer=viewer,
            over=self.over,
            round=self.round,
            kiti=kiti,
            tie_order=None
            if kiti is None
            else {"deep": kiti_order(kiti, n, 0), "shallow": kiti_order(kiti, n, 2)},
            lagoon=lagoon,
            piles=piles,
            scores=scores,
            winners=self.winners(),
            hands=hands,
            committed=committed,
            discards=discards,
            to_act=sorted(self.acting),
            pending_take=pending,
            deck=list(reversed(self.deck)) if ref else len(self.deck),
            box=list(self.box) if ref else len(self.box),
            **self._rule_facts(viewer),
            **burned,
        )

    def _rule_facts(self, viewer: Any) -> dict[str, Any]:
        """The rule facts a front end needs (so that none restates a rule): rounds, what each
        depth takes and its ties, where Kiti stands and goes, what a tie does, and which
        face-down lagoon cards this viewer has peeked at."""
        n, kiti = self.players, self.kiti
        return {
            "rounds": ROUNDS,
            "depths": depth_facts(kiti, n),
            "kiti_left": None if kiti is None else kiti_left(kiti, n),
            "kiti_next": None
            if kiti is None or self.round >= ROUNDS
            else (kiti_after(kiti, n), kiti_left(kiti_after(kiti, n), n)),
            "kiti_moves": None if kiti is None else KITI_MOVES,
            "ties_carry_over": self.no_fighting,
            "tie_rule": NO_FIGHTING_TIE if kiti is None else KITI_TIE,
            "peeked": [
                [i in veil and (viewer == REFEREE or veil[i][0] == viewer) for i in range(len(cards))]
                if veil
                else [False] * len(cards)
                for cards, veil in zip(self.lagoon, self.veil)
            ],
        }

    def _end_view(self, viewer: Any) -> V.MiauiView:
        """The end shows every card in play to everyone; the burned card, the boxed cards and
        the rest of the deck were never in play and stay hidden (see :meth:`_view`)."""
        return self._view(viewer)

    # -------------------------------------------------------------- copies
    def _copy_parts(self, new: State) -> None:
        assert isinstance(new, MiauiState)
        new.deck = self.deck.copy()
        new.lagoon = [x.copy() for x in self.lagoon]
        new.veil = [v.copy() for v in self.veil]  # values are immutable tuples
        new.hide_next = self.hide_next.copy()
        new.piles = [p.copy() for p in self.piles]
        new.box = self.box.copy()
        new.hands = [h.copy() for h in self.hands]
        new.reveals = self.reveals.copy()  # of tuples
        new.committed = self.committed.copy()
        new.pending = [self.pending[0], self.pending[1], self.pending[2].copy()] if self.pending else []
        new.takes = self.takes  # a tuple

    def resample(self, seat: int, rng: random.Random) -> MiauiState:
        seat = self._viewer(seat)
        new = self._resampled_copy(rng)
        assert isinstance(new, MiauiState)
        # Cards this seat has not seen: the deck, the burned card, face-down lagoon cards of
        # others (none once the game is over: the end shows every card in play).
        slots = (
            sorted(
                (space, i)
                for space, veil in enumerate(new.veil)
                for i, (seer, _) in veil.items()
                if seer != seat
            )
            if any(new.veil) and not new.over
            else []
        )
        pool = [*new.deck, new.burned]
        if slots:
            pool += [new.lagoon[sp][i] for sp, i in slots]
        pool.sort()  # first, so that the draw depends only on what the seat knows (and on rng)
        shuffle(rng, pool)
        k = len(new.deck)
        new.deck = pool[:k]
        new.burned = pool[k]
        log = new.log
        for (space, i), card in zip(slots, pool[k + 1 :]):
            new.lagoon[space][i] = card
            at = new.veil[space][i][1]
            audience, kind, args, _ = log[at]
            log[at] = (audience, kind, (args[0], args[1], card), None)
            for back in range(at - 1, -1, -1):  # the stocking's referee part names the card
                stock = log[back]
                if stock[1] == "stock":
                    cards = list(dict(stock[3] or ())["cards"])
                    cards[space] = card
                    log[back] = (stock[0], stock[1], stock[2], (("cards", tuple(cards)),))
                    break
        # Other seats' face-down divers this round: any diver still in their hands.
        for s in range(new.players) if any(new.committed) else ():
            c = new.committed[s]
            if s != seat and c:
                hand = new.hands[s]
                hand.append(c)
                hand.sort()
                pick = rng.choice(hand)
                hand.remove(pick)
                new.committed[s] = pick
                if pick != c:
                    for i in range(new.round_start, len(new.history)):
                        if new.history[i][0] == s:
                            new.history[i] = (s, _DIVE_AT[pick])
        return new

    # ------------------------------------------------------------ for people
    def describe_move(self, seat: int, move: Move) -> str:
        if isinstance(move, Dive):
            return f"dive with diver {move.n}"
        if isinstance(move, Take):
            return f"add {card_name(move.card)} to your pile next"
        return str(move)

    def explain_move(self, seat: int, move: Move) -> str:
        """What a legal move would do, worded from the seat's own view and the events it saw
        (so nothing hidden from it is told): see :mod:`.explain`."""
        from .explain import explain_dive, explain_take  # it reads this module's rules

        if isinstance(move, Take):
            return explain_take(self.observation(seat), seat, move.card)
        if isinstance(move, Dive):
            return explain_dive(self.observation(seat), self.events(seat), seat, move.n)
        return super().explain_move(seat, move)


def _subsets(n: int) -> list[frozenset[int]]:
    return [frozenset(s for s in range(n) if mask >> s & 1) for mask in range(1 << n)]


#: acting set -> the set without each seat (a dive takes one seat out of a round's choice)
_WITHOUT: dict[frozenset[int], tuple[frozenset[int], ...]] = {
    sub: tuple(sub - {s} for s in range(6)) for sub in _subsets(6)
}


class _Typed(str):
    """Printable text whose repr is the text as typed, in quotes (no escaped backslash)."""

    def __repr__(self) -> str:
        return f"'{self}'"


def _as_typed(value: Any) -> str:
    """A bad value for a message, as :func:`quoted` cuts it (about 80 characters): text as
    typed, in quotes; anything else, or unprintable text, as its repr."""
    return quoted(_Typed(value) if isinstance(value, str) and value.isprintable() else value)


def _setup_kiti(k: Any, players: int, no_fighting: bool) -> int | None:
    if no_fighting:
        if k is not None:
            raise SetupError("setup kiti must be null with no_fighting=true (no Kiti)")
        return None
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < players:
        raise SetupError(f"setup kiti must be a seat 0-{players - 1}, not {quoted(k)}")
    return k


def _setup_deck(deck: Any) -> list[str]:
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise SetupError("setup deck must be a list of card codes")
    have = Counter(deck)
    if have != COUNT:
        missing = sorted((COUNT - have).elements())
        extra = sorted((have - COUNT).elements())
        parts = []
        if missing:
            parts.append("missing " + " ".join(missing))
        if extra:
            more = f" and {len(extra) - 3} more" if len(extra) > 3 else ""
            parts.append("unexpected " + " ".join(quoted(c) for c in extra[:3]) + more)
        raise SetupError(
            f"setup deck must hold the {DECK_SIZE} Miaui cards exactly once each ({'; '.join(parts)})"
        )
    return list(deck)
