"""Miaui: the whole rulebook, every ruling of RULINGS.md and every variant, in one state class.

Spaces are numbered 0 (bottom, Deepest), 1 (middle, Deep), 2 (top, Shallow).
Seats are numbered clockwise.  Kiti at position ``k`` stands between seat
``k`` and seat ``k+1``; Deepest/Deep ties go to the first tied seat in the
order k, k-1, k-2, ...; Shallow ties to the first in k+1, k+2, ...

Everything a seat may see is produced by :meth:`MiauiState._view`, the one
place views are made; :meth:`observation`, :meth:`information_state` and
:meth:`table` all go through it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ...core.errors import NotationError, OptionError, SetupError
from ...core.game import GameInfo, Move, State, check_notation
from ...core.options import OptionSpec
from ...core.registry import register
from .cards import COUNT, DECK, DECK_SIZE, VALUE, card_name

ROUNDS = 12
DIVERS = tuple(range(1, ROUNDS + 1))
SPACE_NAMES = ("Deepest", "Deep", "Shallow")
EVERYONE = -1  # audience of a public event
SPECTATOR = -1  # viewer: somebody without a seat
REFEREE = -2  # viewer: sees everything


@dataclass(frozen=True, slots=True)
class Dive(Move):
    """Play diver ``n`` (1-12) face down this round. Notation ``dive N``."""

    n: int

    def __str__(self) -> str:
        return f"dive {self.n}"


@dataclass(frozen=True, slots=True)
class Take(Move):
    """No Fighting with ``taker_chooses_order``: add ``card`` to your pile next. Notation ``take CODE``."""

    card: str

    def __str__(self) -> str:
        return f"take {self.card}"


_DIVE = {n: Dive(n) for n in DIVERS}
_DIVE_AT = [None, *(_DIVE[n] for n in DIVERS)]  # _DIVE_AT[n] is the move ``dive n``
_TAKE = {code: Take(code) for code in COUNT}

OPTIONS = (
    OptionSpec("open_baskets", bool, False,
               "Open Baskets: diver discards face up and every fish pile visible in order."),
    OptionSpec("no_fighting", bool, False,
               "No Fighting: no Kiti; a tie catches nothing, the tied divers are out for the "
               "round and the fish stay, piling up in their space."),
    OptionSpec("taker_chooses_order", bool, False,
               "With No Fighting: whoever wins a space holding several cards chooses the order "
               "in which they join her pile (default: oldest first)."),
    OptionSpec("kiti_start", int, 0,
               "Seat on Kiti's right at the start: Kiti stands between this seat and the next "
               "clockwise (the youngest player's seat in the rulebook).", minimum=0, maximum=5),
)

INFO = GameInfo(
    id="miaui",
    name="Miaui",
    min_seats=3,
    max_seats=6,
    version="1",
    options=OPTIONS,
    notation="dive N (N = 1..12); with taker_chooses_order also take CODE",
)


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
    return sorted(range(players), key=lambda seat: kiti_rank(kiti, players, space, seat))


Catch = tuple[int, int, list[int]]  # (space, winning seat, seats Kiti chose among, if tied)


def resolve_depths(
    dives: list[int], players: int, kiti: int | None
) -> tuple[list[Catch], list[tuple[int, list[int]]]]:
    """Decide the three depths from revealed dives: the one place this rule lives.

    Returns ``(takes, ties)``: ``takes`` lists (space, winning seat, tied seats),
    deepest first, where tied seats is empty unless Kiti broke a tie; ``ties`` lists
    (space, tied seats) for depths nobody won by a No Fighting tie (``kiti`` None).
    A depth missing from both had no remaining diver.
    """
    remaining = list(range(players))
    takes: list[Catch] = []
    ties: list[tuple[int, list[int]]] = []
    for space in (0, 1, 2):
        if not remaining:
            break
        values = [dives[s] for s in remaining]
        best = max(values) if space < 2 else min(values)
        tied: list[int] = []
        if values.count(best) == 1:
            winner = remaining[values.index(best)]
        elif kiti is None:  # No Fighting: the tied divers are out, nobody catches
            ties.append((space, [s for s in remaining if dives[s] == best]))
            remaining = [s for s in remaining if dives[s] != best]
            continue
        else:  # Kiti: the tied seat it favours first
            tied = [s for s in remaining if dives[s] == best]
            winner = min(tied, key=lambda s: kiti_rank(kiti, players, space, s))
        remaining.remove(winner)
        takes.append((space, winner, tied))
    return takes, ties


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
    if card[0] == "J" and sum(1 for c in pile if c[0] == "J") >= 3:
        jellies = [c for c in pile if c[0] == "J"]
        pile[:] = [c for c in pile if c[0] != "J"]
        return None, jellies
    return None, []


@register
class MiauiState(State):
    """A game of Miaui."""

    info = INFO

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
        setup = setup or {}
        unknown = set(setup) - {"deck", "kiti"}
        if unknown:
            raise SetupError(f"unknown Miaui setup key(s): {', '.join(sorted(unknown))}")
        if "kiti" in setup:
            k = setup["kiti"]
            if self.no_fighting:
                if k is not None:
                    raise SetupError("setup kiti must be null with no_fighting=true (no Kiti)")
            elif isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < n:
                raise SetupError(f"setup kiti must be a seat 0-{n - 1}, not {k!r}")
            else:
                kiti = k
        if "deck" in setup:
            deck = setup["deck"]
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
                    parts.append("unexpected " + " ".join(extra))
                raise SetupError(
                    f"setup deck must hold the {DECK_SIZE} Miaui cards exactly once each "
                    f"({'; '.join(parts)})"
                )
            order = list(deck)
        else:
            order = list(DECK)
            self.rng.shuffle(order)
        self.burned: str = order[0]
        self.deck: list[str] = order[:0:-1]  # next card to draw is at the end
        self.lagoon: list[list[str]] = [[], [], []]
        self.hidden: list[list[int]] = [[], [], []]  # per lagoon card: seat that may see it, or -1
        self.peek_at: list[list[int]] = [[], [], []]  # per lagoon card: index of its peek event
        self.hide_next = [-1, -1, -1]  # seat whose Lantern hides the next card of this space
        self.piles: list[list[str]] = [[] for _ in range(n)]
        self.box: list[str] = []
        self.hands: list[list[int]] = [list(DIVERS) for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.committed = [0] * n
        self.kiti = kiti
        self.round = 1
        self.over = False
        self.pending: list[Any] = []  # [seat, space, cards still to add] while a taker orders
        self.takes: list[Catch] = []  # catches still to hand out
        self.round_start = 0  # index in history of the first move of this round
        self.events: list[tuple[int, dict[str, Any]]] = []
        self.resampled = False
        self._stock()
        self._to_act = frozenset(range(n))

    # ---------------------------------------------------------------- moves
    @classmethod
    def parse_move(cls, text: str) -> Move:
        t = check_notation(text)
        word, _, arg = t.partition(" ")
        if word == "dive":
            if not (arg.isascii() and arg.isdigit()):
                raise NotationError(f"{text!r}: a dive is written 'dive N' with N a number 1-12")
            n = int(arg)
            return _DIVE.get(n) or Dive(n)
        if word == "take":
            code = arg.upper()
            if not code or " " in code:
                raise NotationError(f"{text!r}: a take is written 'take CODE', e.g. 'take T7'")
            return _TAKE.get(code) or Take(code)
        raise NotationError(f"{text!r} is not a Miaui move (write 'dive N', e.g. 'dive 9')")

    def to_act(self) -> frozenset[int]:
        return self._to_act

    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self._to_act:
            return []
        if self.pending:
            return [_TAKE[c] for c in sorted(set(self.pending[2]))]
        return list(map(_DIVE_AT.__getitem__, self.hands[seat]))

    def illegal_reason(self, seat: int, move: Move) -> str | None:
        if self.over:
            return ("the game is over (round 12 plays itself: every seat's last diver "
                    "is played automatically)")
        if self.pending:
            taker, space, cards = self.pending
            if seat != taker:
                return (f"seat {seat} cannot act now: seat {taker} is choosing the order of "
                        f"the {SPACE_NAMES[space]} catch")
            if not isinstance(move, Take):
                return (f"seat {seat} must first choose which card of the {SPACE_NAMES[space]} "
                        f"catch joins the pile next (take {' / take '.join(sorted(set(cards)))})")
            if move.card not in cards:
                return (f"{move.card} is not among the cards seat {seat} is taking "
                        f"({', '.join(cards)})")
            return None
        if isinstance(move, Take):
            return "there is no catch to order now (take is only used by a No Fighting taker)"
        if not isinstance(move, Dive):
            return f"{move!r} is not a Miaui move"
        n = move.n
        if not 1 <= n <= ROUNDS:
            return f"diver {n} does not exist: divers are numbered 1 to {ROUNDS}"
        if self.committed[seat]:
            return (f"seat {seat} has already chosen a diver this round "
                    f"(one diver per seat per round)")
        if n not in self.hands[seat]:
            return f"seat {seat} has already played diver {n} (each diver dives once per game)"
        return None

    def _apply(self, seat: int, move: Move) -> None:
        if self.pending:
            self._take_one(move.card)  # type: ignore[attr-defined]
            return
        n = move.n  # type: ignore[attr-defined]
        self.hands[seat].remove(n)
        self.committed[seat] = n
        waiting = self._to_act - {seat}
        self._to_act = waiting
        if not waiting:
            self._resolve()

    # ----------------------------------------------------------- the round
    def _log(self, event: dict[str, Any], audience: int = EVERYONE) -> int:
        self.events.append((audience, event))
        return len(self.events) - 1

    def _stock(self) -> None:
        """Restock: one card per space, bottom first; round-1 Seagulls go back and are reshuffled."""
        deck = self.deck
        for space in (0, 1, 2):
            card = deck.pop()
            while self.round == 1 and card == "S":
                self._log({"type": "seagull_returned", "round": 1, "space": space})
                deck.append(card)
                self.rng.shuffle(deck)
                card = deck.pop()
            seer = self.hide_next[space]
            self.hide_next[space] = -1
            self.lagoon[space].append(card)
            self.hidden[space].append(seer)
            if seer < 0:
                self._log({"type": "stock", "round": self.round, "space": space, "card": card})
                self.peek_at[space].append(-1)
            else:
                self._log({"type": "stock", "round": self.round, "space": space, "card": "?"})
                self.peek_at[space].append(
                    self._log({"type": "peek", "round": self.round, "space": space, "card": card},
                              seer))

    def _resolve(self) -> None:
        """Reveal the dives together, decide each depth, then hand out the catches."""
        dives = self.committed
        n = self.players
        rnd = self.round
        events = self.events
        events.append((EVERYONE, {"type": "reveal", "round": rnd, "dives": dives,
                                  "kiti": self.kiti}))
        takes, ties = resolve_depths(dives, n, self.kiti)
        won = {take[0] for take in takes}
        tied = dict(ties)
        for space in (0, 1, 2):
            if space in tied:
                events.append((EVERYONE, {"type": "tie", "round": rnd, "space": space,
                                          "seats": tied[space]}))
            elif space not in won:
                events.append((EVERYONE, {"type": "no_diver", "round": rnd, "space": space}))
        discards = self.discards
        for s in range(n):
            discards[s].append(dives[s])
        self.committed = [0] * n
        self.takes = takes
        self._hand_out()

    def _hand_out(self) -> None:
        """Give each won space to its winner, deepest first, pausing if a taker must order cards."""
        takes = self.takes
        rnd = self.round
        while takes:
            space, seat, tied = takes.pop(0)
            cards = self.lagoon[space]
            self.lagoon[space] = []
            self.hidden[space] = []
            self.peek_at[space] = []
            catch = {"type": "catch", "round": rnd, "space": space, "seat": seat, "cards": cards}
            if tied:
                catch["tied"] = tied  # Kiti chose ``seat`` among these
            self.events.append((EVERYONE, catch))
            if len(cards) == 1:
                card = cards[0]
                if card[0] == "L" and rnd < ROUNDS:
                    self.hide_next[space] = seat
                self._add(seat, card)
                continue
            if rnd < ROUNDS and any(c[0] == "L" for c in cards):
                self.hide_next[space] = seat
            if self.taker_chooses and len(set(cards)) > 1:
                self.pending = [seat, space, list(cards)]
                self._to_act = frozenset((seat,))
                return
            for card in cards:
                self._add(seat, card)
        self._end_round()

    def _take_one(self, card: str) -> None:
        seat, _, cards = self.pending
        cards.remove(card)
        self._log({"type": "take", "round": self.round, "seat": seat, "card": card})
        self._add(seat, card)
        if len(set(cards)) <= 1:
            for rest in cards:
                self._log({"type": "take", "round": self.round, "seat": seat, "card": rest})
                self._add(seat, rest)
            self.pending = []
            self._hand_out()

    def _add(self, seat: int, card: str) -> None:
        """One card joins a pile (see :func:`add_to_pile`); what leaves goes to the box."""
        eaten, jellies = add_to_pile(self.piles[seat], card)
        if card == "S":
            self.box.append(card)
            if eaten is not None:
                self.box.append(eaten)
            self._log({"type": "seagull", "round": self.round, "seat": seat, "ate": eaten})
        elif jellies:
            self.box.extend(jellies)
            self._log({"type": "jellyfish", "round": self.round, "seat": seat, "cards": jellies})

    def _end_round(self) -> None:
        n = self.players
        if self.kiti is not None:
            self.kiti = (self.kiti + 1) % n
            self._log({"type": "kiti", "round": self.round, "position": self.kiti})
        if self.round == ROUNDS:
            self.over = True
            self._to_act = frozenset()
            self._log({"type": "end", "scores": self.scores(), "winners": self.winners()})
            return
        self.round += 1
        self.round_start = len(self.history)
        self._stock()
        if self.round == ROUNDS:  # the last diver of every hand plays itself
            for s in range(n):
                self.committed[s] = self.hands[s].pop()
            self._to_act = frozenset()
            self._resolve()
        else:
            self._to_act = frozenset(range(n))

    # -------------------------------------------------------------- ending
    def is_over(self) -> bool:
        return self.over

    def scores(self) -> list[float]:
        return [sum(VALUE[c] for c in pile) for pile in self.piles]

    # --------------------------------------------------------------- views
    def _view(self, viewer: int) -> dict[str, Any]:
        """The one place a view of the table is made. ``viewer``: a seat, SPECTATOR or REFEREE."""
        n = self.players
        ref = viewer == REFEREE
        open_b = self.open_baskets
        lagoon = [
            [c if (ref or h < 0 or h == viewer) else "?" for c, h in zip(cards, hid)]
            for cards, hid in zip(self.lagoon, self.hidden)
        ]
        piles = []
        scores: list[float | None] = []
        for s, pile in enumerate(self.piles):
            if ref or open_b or s == viewer:
                piles.append(list(pile))
            else:
                piles.append(["?"] * (len(pile) - 1) + pile[-1:])
            # Totals are compared openly at the end; before that only your own is known.
            # A pile of 0 or 1 card is wholly visible, so its total is too.
            shown = ref or open_b or s == viewer or self.over or len(pile) <= 1
            scores.append(sum(VALUE[c] for c in pile) if shown else None)
        hands = [list(h) if (ref or s == viewer) else ["?"] * len(h) for s, h in enumerate(self.hands)]
        discards = [list(d) if (ref or open_b) else ["?"] * len(d) for d in self.discards]
        committed = [
            (c if (ref or s == viewer) else "?") if c else None for s, c in enumerate(self.committed)
        ]
        view: dict[str, Any] = {
            "game": "miaui",
            "players": n,
            "options": dict(self.options),
            "viewer": "referee" if ref else (None if viewer == SPECTATOR else viewer),
            "over": self.over,
            "round": self.round,
            "kiti": self.kiti,
            "tie_order": None if self.kiti is None else {
                "deep": kiti_order(self.kiti, n, 0), "shallow": kiti_order(self.kiti, n, 2)},
            "lagoon": lagoon,
            "piles": piles,
            "scores": scores,
            "winners": self.winners(),
            "hands": hands,
            "committed": committed,
            "discards": discards,
            "to_act": sorted(self._to_act),
            "pending_take": None if not self.pending else {
                "seat": self.pending[0], "space": self.pending[1], "cards": list(self.pending[2])},
            "deck": list(reversed(self.deck)) if ref else len(self.deck),
            "box": list(self.box) if ref else len(self.box),
        }
        if ref:
            view["burned"] = self.burned
        return view

    def _events_for(self, viewer: int) -> list[dict[str, Any]]:
        out = []
        for audience, event in self.events:
            if viewer == REFEREE or audience == EVERYONE or audience == viewer:
                copy = {k: (list(v) if type(v) is list else v) for k, v in event.items()}
                if viewer == REFEREE and audience >= 0:
                    copy["to"] = audience
                out.append(copy)
        return out

    def observation(self, seat: int | None) -> dict[str, Any]:
        return self._view(SPECTATOR if seat is None else self._seat(seat))

    def information_state(self, seat: int) -> dict[str, Any]:
        seat = self._seat(seat)
        return {"seat": seat, "events": self._events_for(seat), "now": self._view(seat)}

    def table(self) -> dict[str, Any]:
        return self._view(REFEREE)

    def events_seen(self, seat: int | None) -> list[dict[str, Any]]:
        """The events ``seat`` saw (None: a spectator), oldest first."""
        return self._events_for(SPECTATOR if seat is None else self._seat(seat))

    def _seat(self, seat: int) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise SetupError(f"no seat {seat!r} in a {self.players}-player game")
        return seat

    # -------------------------------------------------------------- copies
    def clone(self) -> MiauiState:
        new = MiauiState.__new__(MiauiState)
        d = self.__dict__.copy()
        new.__dict__ = d
        new.options = dict(self.options)
        new.history = list(self.history)
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        new.rng = rng
        new.deck = list(self.deck)
        new.lagoon = [list(x) for x in self.lagoon]
        new.hidden = [list(x) for x in self.hidden]
        new.peek_at = [list(x) for x in self.peek_at]
        new.hide_next = list(self.hide_next)
        new.piles = [list(p) for p in self.piles]
        new.box = list(self.box)
        new.hands = [list(h) for h in self.hands]
        new.discards = [list(x) for x in self.discards]
        new.committed = list(self.committed)
        new.pending = [self.pending[0], self.pending[1], list(self.pending[2])] if self.pending else []
        new.takes = list(self.takes)
        new.events = list(self.events)
        return new

    def resample(self, seat: int, rng: random.Random) -> MiauiState:
        seat = self._seat(seat)
        new = self.clone()
        new.rng = random.Random(rng.getrandbits(64))
        new.resampled = True
        new.seed = 0  # the true seed would tell the deck order
        new.setup = None
        # Cards this seat has not seen: the deck, the burned card, face-down lagoon cards of others.
        slots: list[tuple[int, int]] = [(space, i)
                                         for space in (0, 1, 2)
                                         for i, h in enumerate(new.hidden[space])
                                         if h >= 0 and h != seat]
        # Sorted first, so that the draw depends only on what the seat knows (and on rng).
        pool = sorted(new.deck + [new.burned] + [new.lagoon[sp][i] for sp, i in slots])
        rng.shuffle(pool)
        k = len(new.deck)
        new.deck = pool[:k]
        new.burned = pool[k]
        for (space, i), card in zip(slots, pool[k + 1:]):
            new.lagoon[space][i] = card
            at = new.peek_at[space][i]
            audience, event = new.events[at]
            new.events[at] = (audience, dict(event, card=card))
        # Other seats' face-down divers this round: any diver still in their hands.
        for s in range(new.players):
            c = new.committed[s]
            if s != seat and c:
                hand = new.hands[s]
                hand.append(c)
                hand.sort()
                pick = rng.choice(hand)
                hand.remove(pick)
                hand.sort()
                new.committed[s] = pick
                if pick != c:
                    for i in range(new.round_start, len(new.history)):
                        if new.history[i][0] == s:
                            new.history[i] = (s, _DIVE[pick])
        return new

    def record(self) -> dict[str, Any]:
        if self.resampled:
            raise SetupError("a resampled state is a guess at hidden cards and has no record")
        return super().record()

    # ------------------------------------------------------------ for people
    def describe_move(self, seat: int, move: Move) -> str:
        if isinstance(move, Dive):
            return f"dive with diver {move.n}"
        if isinstance(move, Take):
            return f"add {card_name(move.card)} to your pile next"
        return str(move)
