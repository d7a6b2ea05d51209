"""Mauw (Vincent Joassin): columns of nines, Warriors, Spirits, attacks and defences.

Every rule of the rulebook and of RULINGS.md (Mauw 1-10), as small pure functions
(:func:`column_score`, :func:`takes_nine`, :func:`combo_kind`, :func:`play_effect`,
:func:`gain_destinations`, :func:`team_seating`, ...) called by one state class.
Everything a viewer may see comes from :meth:`MauwState._view`.

Seats are numbered clockwise; each has four slots A-D (0-3).  A column is 0-3 face-down
cards ("nines", whatever card they were) with at most one Warrior or Spirit on top.

Turn structure (the core's one turn rule): the seat whose turn it is plays a card or
passes; an attack then asks one seat at a time: the defender (``defend CARD``, ``TU`` or
``decline``), in team play her teammate if she declined (``defend CARD`` or ``decline``),
then the attacker after each defence (``renew CARD`` or ``stop``); a gain with several
possible places asks its beneficiary ``place SLOT``.

Order inside a move: a card's effect is resolved first, then its owner draws back to four
cards (so Tuatura's returned card counts toward her four), then the next decision is asked.
Both end conditions are checked after every change: the game can end in the middle of a
turn or of an attack.
"""

from __future__ import annotations

import random
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import accumulate
from typing import Any

from ...core.chance import shuffle
from ...core.contract import emitters
from ...core.errors import NotationError, OptionError, SetupError, quoted
from ...core.events import EVERYONE, REFEREE, seats
from ...core.game import GameInfo, State, check_notation
from ...core.moves import Move, Step
from ...core.options import OptionSpec
from .cards import (
    ALL_CODES,
    COLOUR,
    EXPERT_MAX,
    JOKER,
    KIWI,
    NINE_MULTIPLIER,
    NINE_VALUE,
    NINOX,
    SPIRIT,
    TUATURA,
    VALUE,
    WARRIOR_OF_VALUE,
    WARRIORS,
    card_name,
    deck_counts,
    is_warrior,
)
from .view import EVENT_TYPES, AttackView, Column, GainView, MauwRules, MauwView, RefereeColumn

SLOTS = "ABCD"
HAND = 4
MAX_NINES = 3
FULL_COLUMNS_TO_END = 3

# ------------------------------------------------------------------ moves


def _where(seat: int, slot: int) -> str:
    return f"{seat}{SLOTS[slot]}"


def _card(card: str, decl: str | None) -> str:
    return f"{card}={decl}" if decl else card


def _declared(decl: str | None) -> tuple[str, ...]:
    """A Joker's declaration as a move step (``as Y2``); nothing for another card."""
    return (f"as {decl}",) if decl else ()


@dataclass(frozen=True, slots=True)
class Play(Move):
    """On your turn: ``card`` (a Joker declared as ``decl``) on column ``slot`` of ``seat``.

    Notation ``R8 0A``; a Joker ``JK=Y2 1C`` (declared as Y2, on seat 1's column C).
    What it does (place, block, combo, attack, unblock) follows from the column.
    """

    card: str
    seat: int
    slot: int
    decl: str | None = None

    def __str__(self) -> str:
        return f"{_card(self.card, self.decl)} {_where(self.seat, self.slot)}"

    def steps(self) -> tuple[str, ...]:
        """The card, what a Joker stands for (``as Y2``), the column: ``R8``, ``0A``."""
        return (self.card, *_declared(self.decl), _where(self.seat, self.slot))


@dataclass(frozen=True, slots=True)
class KiwiPlay(Move):
    """Kiwi: take the Warrior of (``src_seat``, ``src_slot``) and play it on (``seat``,
    ``slot``). Notation ``KI 1C>2B``."""

    src_seat: int
    src_slot: int
    seat: int
    slot: int

    def __str__(self) -> str:
        return f"KI {_where(self.src_seat, self.src_slot)}>{_where(self.seat, self.slot)}"

    def steps(self) -> tuple[str, ...]:
        """The Kiwi, the column its Warrior is taken from, the column it is played on."""
        return (KIWI, _where(self.src_seat, self.src_slot), _where(self.seat, self.slot))


@dataclass(frozen=True, slots=True)
class NinoxPlay(Move):
    """Ninox: the Spirit on (``seat``, ``slot``) becomes a nine of yours. Notation ``NI 2C``."""

    seat: int
    slot: int

    def __str__(self) -> str:
        return f"NI {_where(self.seat, self.slot)}"

    def steps(self) -> tuple[str, ...]:
        return (NINOX, _where(self.seat, self.slot))


@dataclass(frozen=True, slots=True)
class Word(Move):
    """A one-word move: ``pass``, ``decline``, ``stop`` or ``TU`` (Tuatura)."""

    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(frozen=True, slots=True)
class Answer(Move):
    """A card against an attack: ``defend Y2`` / ``defend JK=Y2`` (defender or teammate),
    ``renew Y2`` / ``renew JK=Y2`` (attacker)."""

    verb: str
    card: str
    decl: str | None = None

    def __str__(self) -> str:
        return f"{self.verb} {_card(self.card, self.decl)}"

    def steps(self) -> tuple[str, ...]:
        """The card, then what a Joker stands for (the verb is the phase's)."""
        return (self.card, *_declared(self.decl))


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Put a gain (a nine, or a nine with a Warrior on top) on your slot. ``place B``."""

    slot: int

    def __str__(self) -> str:
        return f"place {SLOTS[self.slot]}"


PASS, DECLINE, STOP, TU = Word("pass"), Word("decline"), Word("stop"), Word(TUATURA)

# ------------------------------------------------------------------ declarations

OPTIONS = (
    OptionSpec(
        "kiwi",
        int,
        0,
        "Kiwi cards in the deck (expert animal: on your turn, take a "
        "Warrior from any area and play it at once).",
        minimum=0,
        maximum=EXPERT_MAX,
    ),
    OptionSpec(
        "ninox",
        int,
        0,
        "Ninox cards in the deck (expert animal: on your turn, an "
        "opponent's Spirit becomes a nine of yours).",
        minimum=0,
        maximum=EXPERT_MAX,
    ),
    OptionSpec(
        "tuatura",
        int,
        0,
        "Tuatura cards in the deck (expert animal: instead of a "
        "defence, cancel the attack and take the attacking card).",
        minimum=0,
        maximum=EXPERT_MAX,
    ),
    OptionSpec(
        "teams",
        bool,
        False,
        "Team play (4+ players): pairs never seated side by side, "
        "an odd player out alone; teammates may defend for each other; team scores add up.",
    ),
    OptionSpec(
        "open_slot_block",
        bool,
        False,
        "A Warrior may also be played on an opponent's "
        "empty slot (ruling 10; off in the rulebook's reading).",
    ),
    OptionSpec(
        "ties",
        str,
        "shared",
        "Equal top scores: shared (everyone tied wins) or nines "
        "(the most nines in columns wins, then shared).",
        choices=("shared", "nines"),
    ),
)

INFO = GameInfo(
    id="mauw",
    name="Mauw",
    min_seats=2,
    max_seats=7,
    version="2",  # 2: the Kiwi is discarded after the effect it fetched (records of 1 replay differently)
    old_versions={"1": "without Kiwis (kiwi=0)"},
    options=OPTIONS,
    notation=(
        "CARD SEATSLOT (R8 0A, JK=Y2 1C), KI 1C>2B, NI 2C, pass; against an attack: "
        "defend CARD, TU, decline; renew CARD, stop; place SLOT"
    ),
    view_type=MauwView,
    event_types=EVENT_TYPES,
    move_types=(Play, KiwiPlay, NinoxPlay, Word, Answer, Place),
    max_moves=6000,
    margin_scale=100.0,
    # Every expert animal (ruling 7); and teams with animals, open slots and the nines tie
    # policy together (rulings 6, 7, 9, 10: a teammate defends, a Tuatura cancels).
    notable_options=(
        {"kiwi": 4, "ninox": 4, "tuatura": 4},
        {"teams": True, "kiwi": 4, "tuatura": 4, "open_slot_block": True, "ties": "nines"},
    ),
)
EMIT = emitters(EVENT_TYPES)  # events logged by keyword, checked against view.py's kinds

# ------------------------------------------------------------------ pure rules


def column_score(nines: int, top: str | None) -> int:
    """A column's points: its top's value (9 for bare nines, 0 for a Spirit) x 2 per nine."""
    factor: int = NINE_MULTIPLIER**nines
    if top is None:
        return NINE_VALUE * factor if nines else 0
    return VALUE.get(top, 0) * factor


def takes_nine(nines: int, top: str | None) -> bool:
    """Nines go only on an empty slot or on bare nines, three at most."""
    return top is None and nines < MAX_NINES


def is_bare_nines(nines: int, top: str | None) -> bool:
    return top is None and nines > 0


def same_colour(a: str, b: str) -> bool:
    return COLOUR.get(a) is not None and COLOUR.get(a) == COLOUR.get(b)


def combo_kind(played: str, target: str) -> str:
    """``pair`` (different values, summing to 9: both discarded, a nine drawn) or
    ``twins`` (same value: one flipped to a nine, the other on top)."""
    return "twins" if VALUE[played] == VALUE[target] else "pair"


def twins_gain(card: str, target: str) -> tuple[str, str]:
    """A same-value combo's gain: (the card turned face down as its nine, the Warrior on top).
    The card played is the one turned (a Joker always is); a Warrior of that value stays on top."""
    return card, (target if card == JOKER else card)


def play_effect(
    card: str, mine: bool, nines: int, top: str | None, open_slot_block: bool = False
) -> str | None:
    """What playing ``card`` (a declared code) on a column does, or None if not allowed.

    ``mine``: the column is in the player's own area (else an opponent's).  Effects:
    ``place`` (a Warrior on your empty slot), ``strengthen`` (a Warrior on your own bare
    nines), ``block`` (a Warrior or a Spirit on an opponent's bare nines), ``combo`` /
    ``attack`` (a Warrior on a same-colour Warrior, yours / an opponent's), ``unblock`` (a
    Spirit on your Spirit).  The first three leave the card on top of the column.
    """
    if is_warrior(card):
        if top is None:
            if nines:
                return "strengthen" if mine else "block"
            return "place" if mine or open_slot_block else None
        if is_warrior(top) and same_colour(card, top):
            return "combo" if mine else "attack"
        return None
    if card == SPIRIT:
        if mine:
            return "unblock" if top == SPIRIT else None
        return "block" if is_bare_nines(nines, top) else None
    return None


def joker_declarations(top: str | None, mine: bool) -> list[str]:
    """What a Joker may stand for on a column topped by ``top``: a same-colour Warrior in a
    combo or attack, a Spirit to unblock your own Spirit; never a blocker."""
    if top is None:
        return []
    if is_warrior(top):
        return [w for w in WARRIORS if COLOUR[w] == COLOUR[top]]
    if top == SPIRIT and mine:
        return [SPIRIT]
    return []


def column_accepts(
    mine: bool, nines: int, top: str | None, open_slot_block: bool, deck: Mapping[str, int]
) -> tuple[str, ...]:
    """What a player may play on a column on her turn, whatever her hand holds: on her own
    column (``mine``) or an opponent's, the Warriors and Spirit :func:`play_effect` allows, a
    Joker where :func:`joker_declarations` lets it stand for something, and Ninox (when
    ``deck`` holds one) on an opponent's Spirit."""
    return _accepts(mine, bool(nines), top, open_slot_block, bool(deck.get(NINOX)))


@cache
def _accepts(mine: bool, nines: bool, top: str | None, open_slot_block: bool, ninox: bool) -> tuple[str, ...]:
    """:func:`column_accepts` for a column with (``nines``) or without nines; a few dozen
    cases, each worked out once (every view tells every column's)."""
    cards = list(_fits(mine, top, nines, open_slot_block))
    if joker_declarations(top, mine):
        cards.append(JOKER)
    if not mine and top == SPIRIT and ninox:
        cards.append(NINOX)
    return tuple(cards)


def answer_codes(value: int, phase: str, deck: Mapping[str, int]) -> tuple[str, ...]:
    """The cards that answer an attack of ``value`` asked in ``phase`` (:func:`answer_cards`
    from any hand; Tuatura where :func:`tuatura_allowed` and the deck holds one)."""
    codes = tuple(dict.fromkeys(c for c, _ in answer_cards(ALL_CODES, value)))
    return codes + ((TUATURA,) if deck.get(TUATURA) and tuatura_allowed(phase, (TUATURA,)) else ())


def answer_cards(hand: Iterable[str], value: int) -> list[tuple[str, str | None]]:
    """The answers (card, what a Joker stands for) a hand holds against an attack of
    ``value``, in defence or renewal: the Warrior of that value, or a Joker standing for it."""
    code = WARRIOR_OF_VALUE[value]
    held = set(hand)
    return [(c, d) for c, d in ((code, None), (JOKER, code)) if c in held]


def tuatura_allowed(phase: str, hand: Iterable[str]) -> bool:
    """Tuatura answers an attack only from the attacked player (phase ``defend``, not her
    teammate's ``assist``), instead of a defence, when she holds one."""
    return phase == "defend" and TUATURA in hand


def gain_destinations(nines: Sequence[int], tops: Sequence[str | None]) -> list[int]:
    """The slots of an area that can take a gained nine (with or without a Warrior on top)."""
    return [slot for slot in range(len(tops)) if _TAKES_NINE[tops[slot]][nines[slot]]]


def full_columns(nines: Iterable[int]) -> int:
    """Columns holding three nines (whatever is on top): three of them end the game."""
    return sum(1 for k in nines if k >= MAX_NINES)


def team_seating(players: int) -> list[int]:
    """The default teams: seat ``s`` with the seat half the table away (never neighbours);
    with an odd number of seats the last one plays alone."""
    n = players - players % 2
    teams = [0] * players
    for s in range(n):
        teams[s] = s % (n // 2)
    if players % 2:
        teams[players - 1] = n // 2
    return teams


def teams_problem(teams: Sequence[int], players: int) -> str | None:
    """Why a seating of teams is not allowed (pairs, never side by side, at most one alone)."""
    groups: dict[int, list[int]] = {}
    for seat, team in enumerate(teams):
        groups.setdefault(team, []).append(seat)
    if any(len(g) > 2 for g in groups.values()):
        return "a team has more than two players"
    alone = [g for g in groups.values() if len(g) == 1]
    if len(alone) != players % 2:
        return "teams are pairs; only an odd player out may play alone"
    for a, b in (g for g in groups.values() if len(g) == 2):
        if (a - b) % players in (1, players - 1):
            return f"teammates {a} and {b} sit side by side"
    return None


_SLOT = {c: i for i, c in enumerate(SLOTS)}
_WHERE = re.compile(r"([0-9])([a-d])")
_CARD = re.compile(r"([a-z0-9]{2})(?:=([a-z0-9]{2}))?")


# ------------------------------------------------------------------ the state
@dataclass
class Attack:
    """An attack in progress."""

    attacker: int
    defender: int
    slot: int  # the defender's column
    target: str  # the Warrior attacked
    card: str | None  # the current attacking card (None after a defence)
    decl: str | None  # what a Joker attacking card stands for
    value: int  # the value defences and renewals must match

    def copy(self) -> Attack:
        return Attack(**vars(self))


class MauwState(State):
    """A game of Mauw.

    ``hands`` (codes), ``draw`` (the draw pile, top card last), ``discard`` (oldest
    first), ``nines[seat][slot]`` (the true cards of a column's nines, bottom first),
    ``tops[seat][slot]`` (its Warrior or Spirit, or None), ``phase`` (turn, defend,
    assist, renew, place), ``attack``, ``gain`` (a gain waiting for ``place``),
    ``known`` (cards everyone knows to be in a hand: Tuatura's returned card).
    """

    info = INFO

    # The state's attributes (clone and undo copy exactly these; see kiti.core.game).
    counts: Counter[str]
    team_of: list[int] | None
    first: int
    hands: list[list[str]]
    draw: list[str]
    discard: list[str]
    nines: list[list[list[str]]]
    unseen: list[list[list[bool]]]
    tops: list[list[str | None]]
    known: list[list[str]]
    turn: int
    phase: str
    attack: Attack | None
    gain: tuple[int, list[str], str | None] | None
    _gain_hidden: bool
    refill_after: int | None
    end_reason: str | None

    # ------------------------------------------------------------- setup
    def _setup(self, options: dict[str, Any], setup: dict[str, Any] | None) -> None:
        n = self.players
        self.counts = deck_counts(options["kiwi"], options["ninox"], options["tuatura"])
        if options["teams"] and n < 4:
            raise OptionError(f"option teams needs 4 or more players, not {n}")
        setup = dict(setup or {})
        unknown = set(setup) - {"deck", "hands", "first", "teams"}
        if unknown:
            raise SetupError(f"unknown Mauw setup key(s): {', '.join(sorted(unknown))}")
        self.team_of = self._setup_teams(setup.get("teams"), options["teams"])
        self.first = self._setup_first(setup.get("first", 0))
        self.hands, pile = self._setup_cards(setup)
        self.draw = pile[::-1]  # the top card is drawn first: it is last here
        self.discard = []
        self.nines = [[[] for _ in SLOTS] for _ in range(n)]
        self.unseen = [[[] for _ in SLOTS] for _ in range(n)]  # per nine
        self.tops = [[None] * len(SLOTS) for _ in range(n)]
        self.known = [[] for _ in range(n)]
        self.turn = self.first
        self.phase = "turn"
        self.attack = None
        self.gain = None  # (seat, nine cards, top)
        self._gain_hidden = False  # the gain's nine was drawn face down
        self.refill_after = None  # seat that draws once the gain is placed
        self.end_reason = None
        EMIT.deal(self.log, EVERYONE, first=self.first)
        for seat in range(n):
            self._log_draw(seat, self.hands[seat])
        self._start_turn(self.first)

    def _setup_teams(self, given: Any, on: bool) -> list[int] | None:
        n = self.players
        if given is None:
            return team_seating(n) if on else None
        if not on:
            raise SetupError("setup teams needs the option teams=true")
        if (
            not isinstance(given, list)
            or len(given) != n
            or not all(type(t) is int and 0 <= t < n for t in given)
        ):
            raise SetupError(f"setup teams must list a team number 0-{n - 1} for each of the {n} seats")
        problem = teams_problem(given, n)
        if problem:
            raise SetupError(f"setup teams: {problem}")
        return list(given)

    def _setup_first(self, first: Any) -> int:
        if type(first) is not int or not 0 <= first < self.players:
            raise SetupError(f"setup first must be a seat 0-{self.players - 1}, not {quoted(first)}")
        return first

    def _setup_cards(self, setup: dict[str, Any]) -> tuple[list[list[str]], list[str]]:
        n = self.players
        deck = setup.get("deck")
        if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
            raise SetupError("setup deck must be a list of card codes, top first")
        if "hands" in setup:
            hands = setup["hands"]
            if (
                not isinstance(hands, list)
                or len(hands) != n
                or not all(
                    isinstance(h, list) and len(h) == HAND and all(isinstance(c, str) for c in h)
                    for h in hands
                )
            ):
                raise SetupError(f"setup hands must hold {n} lists of {HAND} card codes")
            if deck is None:
                raise SetupError("setup hands needs setup deck: the draw pile, top first")
            self._check_cards([c for h in hands for c in h] + deck)
            return [list(h) for h in hands], list(deck)
        if deck is None:
            deck = list(self.counts.elements())
            shuffle(self.rng, deck)
        else:
            self._check_cards(deck)
        return [list(deck[HAND * s : HAND * (s + 1)]) for s in range(n)], list(deck[HAND * n :])

    def _check_cards(self, cards: list[str]) -> None:
        have = Counter(cards)
        if have != self.counts:
            missing = sorted((self.counts - have).elements())
            extra = sorted((have - self.counts).elements())
            parts = ([f"missing {' '.join(missing[:12])}"] if missing else []) + (
                [f"unexpected {quoted(' '.join(dict.fromkeys(extra)))}"] if extra else []
            )
            raise SetupError(f"setup cards must be every card of this game exactly once ({'; '.join(parts)})")

    # ------------------------------------------------------------- notation
    @classmethod
    def replays_version(cls, version: str, options: Mapping[str, Any]) -> bool:
        """Version 1 differs only in when a Kiwi is discarded: its games without Kiwis
        replay the same today."""
        return version == cls.info.version or (version == "1" and options["kiwi"] == 0)

    @classmethod
    def parse_move(cls, text: str) -> Move:
        t = check_notation(text)
        if t in ("pass", "decline", "stop"):
            return Word(t)
        if t in ("tu", "tuatura"):
            return TU
        word, _, rest = t.partition(" ")
        if rest.startswith("as "):  # a move's steps joined: 'JK as Y2 1C'
            stands, _, rest = rest[3:].partition(" ")
            word = f"{word}={stands}"
        if word in ("defend", "renew"):
            card, decl = _parse_card(rest, text)
            return Answer(word, card, decl)
        if word == "place":
            if rest.upper() not in _SLOT:
                raise NotationError(f"{quoted(text)}: write 'place A' (a slot A-D)")
            return Place(_SLOT[rest.upper()])
        if word == "ki":
            m = re.fullmatch(r"([0-9])([a-d])(?:\s*>\s*|\s+)([0-9])([a-d])", rest)
            if not m:
                raise NotationError(
                    f"{quoted(text)}: a Kiwi is written 'KI 1C>2B' (from seat 1's C to seat 2's B)"
                )
            return KiwiPlay(int(m[1]), _SLOT[m[2].upper()], int(m[3]), _SLOT[m[4].upper()])
        if word == "ni":
            m = _WHERE.fullmatch(rest)
            if not m:
                raise NotationError(f"{quoted(text)}: a Ninox is written 'NI 2C' (the Spirit on seat 2's C)")
            return NinoxPlay(int(m[1]), _SLOT[m[2].upper()])
        m = _WHERE.fullmatch(rest)
        if m:
            card, decl = _parse_card(word, text)
            return Play(card, int(m[1]), _SLOT[m[2].upper()], decl)
        raise NotationError(
            f"{quoted(text)} is not a Mauw move (e.g. 'R8 0A', 'JK=Y2 1C', 'pass', "
            f"'defend Y2', 'decline', 'renew Y2', 'stop', 'place B')"
        )

    @classmethod
    def all_moves(cls, players: int, options: Mapping[str, Any]) -> list[Move]:
        """Every move of ``players`` seats, numbered alike whatever the options (the play
        table of :meth:`random_action` relies on it)."""
        moves: list[Move] = [PASS, DECLINE, STOP, TU]
        cards = [*WARRIORS, SPIRIT]
        where = [(s, slot) for s in range(players) for slot in range(len(SLOTS))]
        for s, slot in where:
            moves.extend(_play(c, s, slot) for c in cards)
            moves.extend(_play(JOKER, s, slot, d) for d in (*WARRIORS, SPIRIT))
            moves.append(_ninox_play(s, slot))
            moves.extend(_kiwi_play(fs, fslot, s, slot) for fs, fslot in where)
        for verb in ("defend", "renew"):
            moves.extend(_answer(verb, w, None) for w in WARRIORS)
            moves.extend(_answer(verb, JOKER, w) for w in WARRIORS)
        moves.extend(_PLACE)
        return moves

    # ------------------------------------------------------------- who is who
    def teams(self) -> tuple[tuple[int, ...], ...]:
        if self.team_of is None:
            return super().teams()
        groups: dict[int, list[int]] = {}
        for seat, team in enumerate(self.team_of):
            groups.setdefault(team, []).append(seat)
        return tuple(tuple(g) for _, g in sorted(groups.items(), key=lambda kv: kv[1][0]))

    def teammate(self, seat: int) -> int | None:
        if self.team_of is None:
            return None
        mates = [s for s, t in enumerate(self.team_of) if t == self.team_of[seat] and s != seat]
        return mates[0] if mates else None

    def is_opponent(self, seat: int, other: int) -> bool:
        return other != seat and other != self.teammate(seat)

    # ------------------------------------------------------------- legal moves
    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.acting:
            return []
        phase = self.phase
        if phase == "turn":
            return self._turn_moves(seat)
        if phase == "place":
            assert self.gain is not None
            return [_PLACE[slot] for slot in self._gain_places(seat)]
        return list(self._attack_moves(seat))

    def _attack_moves(self, seat: int) -> tuple[Move, ...]:
        """What ``seat`` (to act) may do against the attack: its answers, Tuatura where
        allowed, and the word that gives up (``decline`` or ``stop``)."""
        attack = self.attack
        assert attack is not None
        key = self._attack_key(seat, attack.value)
        moves = _ATTACK_MOVES.get(key)
        return _attack_moves(*key) if moves is None else moves

    def _attack_key(self, seat: int, value: int) -> tuple[str, int, bool, bool, bool]:
        """What decides ``seat``'s moves against an attack of ``value``: the phase, the value,
        and whether the hand holds that value's Warrior, a Joker, a Tuatura."""
        hand = self.hands[seat]
        return (self.phase, value, WARRIOR_OF_VALUE[value] in hand, JOKER in hand, TUATURA in hand)

    def moves_key(self, seat: int) -> tuple[Any, ...] | None:
        """What decides the legal moves of ``seat`` (to act) outside a turn (equal keys, equal
        :meth:`legal_moves`): against an attack, :meth:`_attack_key`; placing a gain, the slots
        that can take it.  None on a turn and for a seat not to act."""
        phase = self.phase
        if phase == "turn" or seat not in self.acting:
            return None
        if phase == "place":
            return tuple(self._gain_places(seat))
        return self._attack_key(seat, self.attack.value)  # type: ignore[union-attr]

    def move_steps(self, seat: int, prefix: tuple[str, ...] = ()) -> list[Step]:
        """Each move's steps (:meth:`Play.steps`...); a gain's place is one step, the column's
        name (``0B``), like any other column pick."""
        if self.phase != "place" or seat not in self.acting:
            return super().move_steps(seat, prefix)
        moves = self.legal_moves(seat)
        return [] if prefix else [Step(_where(seat, m.slot), m) for m in moves if isinstance(m, Place)]

    def _turn_moves(self, seat: int) -> list[Move]:
        areas, masks = self._turn_masks(seat)
        out: list[Move] = []
        for i, mask in enumerate(masks):
            s, slot = areas[i // len(SLOTS)], i % len(SLOTS)
            out.extend(_play(card, s, slot, decl) for card, decl in _options(mask))
        return out + self._animal_moves(seat) + [PASS]

    def _turn_masks(self, seat: int) -> tuple[Sequence[int], list[int]]:
        """The areas open to ``seat`` on its turn (its own and its opponents': a teammate's is
        off limits) and the plays its hand allows on each of their columns (slots A-D of each
        area in turn), as play bits (:data:`_COLUMN_MASKS`, :func:`_hand_bits`)."""
        held = _hand_bits(tuple(self.hands[seat]))
        areas = self.open_areas(seat)
        theirs, mine = _COLUMN_MASKS[self.options["open_slot_block"]]
        tops, nines = self.tops, self.nines
        masks: list[int] = []
        for s in areas:
            by_top, t, k = mine if s == seat else theirs, tops[s], nines[s]
            # the four slots written out: this is the inner loop of every random playout
            # (a column's bits by its top, then by whether it is empty of nines)
            masks += (
                by_top[t[0]][not k[0]] & held,
                by_top[t[1]][not k[1]] & held,
                by_top[t[2]][not k[2]] & held,
                by_top[t[3]][not k[3]] & held,
            )
        return areas, masks

    def open_areas(self, seat: int) -> Sequence[int]:
        """The areas ``seat`` may play on on its turn: every one, or in team play its own and
        its opponents' (a teammate's is off limits)."""
        if self.team_of is None:
            return _EVERY_AREA[self.players]
        return [s for s in range(self.players) if s == seat or self.is_opponent(seat, s)]

    def _animal_moves(self, seat: int) -> list[Move]:
        """The Kiwi and Ninox moves of ``seat`` on its turn (none without those cards)."""
        hand = self.hands[seat]
        out = self._kiwi_moves(seat) if KIWI in hand else []
        if NINOX in hand:
            out.extend(
                _ninox_play(s, slot)
                for s in range(self.players)
                if self.is_opponent(seat, s)
                for slot in range(len(SLOTS))
                if self.tops[s][slot] == SPIRIT
            )
        return out

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """Uniform among :meth:`legal_moves`, and the very draw ``rng.choice(legal_moves)``
        makes (one ``randrange`` over their number, the same index), but on a turn only the
        move drawn is built: a random playout no longer lists every play."""
        phase = self.phase
        if phase != "turn" or seat not in self.acting:
            if phase == "place" or seat not in self.acting:
                return rng.choice(self.legal_moves(seat))
            moves = self._attack_moves(seat)  # never empty: rng.choice's own draw
            return moves[rng._randbelow(len(moves))]  # type: ignore[attr-defined]
        drawn = self._draw_turn(seat, rng)
        return _PLAYS_AT[drawn] if isinstance(drawn, int) else drawn

    def random_action(self, seat: int, rng: random.Random) -> int:
        """:meth:`random_move`'s very draw as its action, read from tables by the seat count
        (the numbering of :meth:`all_moves` depends on nothing else): a play's action by its
        place in :data:`_PLAYS_AT`, any other move's by its identity (every Mauw move is one
        shared value, the codec's own)."""
        if self.phase != "turn" or seat not in self.acting:
            move = rng.choice(self.legal_moves(seat))
        else:
            drawn = self._draw_turn(seat, rng)
            if isinstance(drawn, int):
                try:
                    return _SEAT_PLAY_ACTIONS[self.players][drawn]
                except KeyError:
                    return _seat_tables(self.players)[0][drawn]
            move = drawn
        try:
            return _ACTION_BY_ID[self.players][id(move)]
        except KeyError:  # a first use, or a move the rules built afresh (none today)
            action = _seat_tables(self.players)[1].get(id(move))
            return (self._codec or self.codec()).index[move] if action is None else action

    def _draw_turn(self, seat: int, rng: random.Random) -> int | Move:
        """A uniform draw among ``seat``'s turn moves: a play, as its place in
        :data:`_PLAYS_AT`, or another move (a Kiwi or Ninox play, the pass) itself.  The
        draw is ``randrange``'s own (``_randbelow``, as ``rng.choice`` draws)."""
        areas, masks = self._turn_masks(seat)
        ends = list(accumulate(map(int.bit_count, masks)))  # where each column's plays end
        hand = self.hands[seat]
        rest = [*self._animal_moves(seat), PASS] if KIWI in hand or NINOX in hand else _JUST_PASS
        last = ends[-1]
        index: int = rng._randbelow(last + len(rest))  # type: ignore[attr-defined]
        if index >= last:
            return rest[index - last]
        i = bisect_right(ends, index)
        option = _positions(masks[i])[index - (ends[i - 1] if i else 0)]
        return (areas[i >> 2] * 4 + (i & 3)) * _OPTION_COUNT + option

    def _kiwi_moves(self, seat: int) -> list[Move]:
        out: list[Move] = []
        for fs in range(self.players):
            for fslot in range(len(SLOTS)):
                warrior = self.tops[fs][fslot]
                if warrior is None or not is_warrior(warrior):
                    continue
                self.tops[fs][fslot] = None  # as it stands once the Warrior is taken
                for ts in range(self.players):
                    if ts != seat and not self.is_opponent(seat, ts):
                        continue
                    out.extend(
                        _kiwi_play(fs, fslot, ts, slot)
                        for slot in range(len(SLOTS))
                        if play_effect(
                            warrior,
                            ts == seat,
                            len(self.nines[ts][slot]),
                            self.tops[ts][slot],
                            self.options["open_slot_block"],
                        )
                    )
                self.tops[fs][fslot] = warrior
        return out

    # ------------------------------------------------------------- why not
    def _not_to_act_reason(self, seat: int) -> str:
        who = min(self.acting)
        asked = {
            "turn": "to play",
            "defend": "to answer the attack",
            "assist": "to help defend",
            "renew": "to renew the attack or stop",
            "place": "to place a gain",
        }[self.phase]
        return f"it is not seat {seat}'s turn: seat {who} is asked {asked}"

    def _illegal_reason(self, seat: int, move: Move) -> str | None:
        problem = self._field_problem(move)
        if problem is not None:
            return problem
        return None if self._allowed(seat, move) else self._why(seat, move)

    def _field_problem(self, move: Move) -> str | None:
        """A move built by hand whose fields name no seat, slot, card or word of this game
        (any size of integer, any text): why, the bad value quoted short."""
        for name, what in _NUMBERED.get(type(move), ()):
            value = getattr(move, name)
            top = self.players if what == "seat" else len(SLOTS)
            if type(value) is not int or not 0 <= value < top:
                return (
                    f"there is no {what} {quoted(value)} ({what}s are 0-{top - 1}"
                    f"{', A-D' if what == 'slot' else ''})"
                )
        if isinstance(move, (Play, Answer)):
            if move.card not in ALL_CODES:
                return f"{quoted(move.card)} is not a Mauw card ({' '.join(ALL_CODES)})"
            if move.decl is not None and move.decl not in (*WARRIORS, SPIRIT):
                return f"a Joker stands for a Warrior or a Spirit, not {quoted(move.decl)}"
        if isinstance(move, Answer) and move.verb not in ("defend", "renew"):
            return f"an answer to an attack is 'defend' or 'renew', not {quoted(move.verb)}"
        if isinstance(move, Word) and move not in (PASS, DECLINE, STOP, TU):
            return f"{quoted(move.word)} is not a Mauw move word (pass, decline, stop, TU)"
        return None

    def _allowed(self, seat: int, move: Move) -> bool:
        """Whether ``move`` is one of :meth:`legal_moves` (without listing them all)."""
        phase = self.phase
        if phase == "turn":
            if isinstance(move, Play):
                return self._play_allowed(seat, move)
            if isinstance(move, KiwiPlay):
                return self._kiwi_allowed(seat, move)
            if isinstance(move, NinoxPlay):
                return (
                    NINOX in self.hands[seat]
                    and 0 <= move.seat < self.players
                    and self.is_opponent(seat, move.seat)
                    and 0 <= move.slot < len(SLOTS)
                    and self.tops[move.seat][move.slot] == SPIRIT
                )
            return move == PASS
        return move in self.legal_moves(seat)  # a handful of answers

    def _kiwi_allowed(self, seat: int, move: KiwiPlay) -> bool:
        n, width = self.players, len(SLOTS)
        if (
            KIWI not in self.hands[seat]
            or not (0 <= move.src_seat < n and 0 <= move.seat < n)
            or not (0 <= move.src_slot < width and 0 <= move.slot < width)
            or (move.seat != seat and not self.is_opponent(seat, move.seat))
        ):
            return False
        warrior = self.tops[move.src_seat][move.src_slot]
        if warrior is None or not is_warrior(warrior):
            return False
        top = (
            None
            if (move.src_seat, move.src_slot) == (move.seat, move.slot)
            else self.tops[move.seat][move.slot]
        )
        return (
            play_effect(
                warrior,
                move.seat == seat,
                len(self.nines[move.seat][move.slot]),
                top,
                self.options["open_slot_block"],
            )
            is not None
        )

    def _play_allowed(self, seat: int, move: Play) -> bool:
        if (
            move.card not in self.hands[seat]
            or not 0 <= move.seat < self.players
            or not 0 <= move.slot < len(SLOTS)
            or (move.seat != seat and not self.is_opponent(seat, move.seat))
        ):
            return False
        mine = move.seat == seat
        top = self.tops[move.seat][move.slot]
        if move.card == JOKER:
            return move.decl in joker_declarations(top, mine)
        return (
            move.decl is None
            and move.card in _PLAYABLE
            and play_effect(
                move.card, mine, len(self.nines[move.seat][move.slot]), top, self.options["open_slot_block"]
            )
            is not None
        )

    def _why(self, seat: int, move: Move) -> str:
        phase = self.phase
        if phase in ("defend", "assist", "renew"):
            assert self.attack is not None
            code = WARRIOR_OF_VALUE[self.attack.value]
            allowed_words = (DECLINE, TU) if phase != "renew" else (STOP,)
            if not isinstance(move, Answer) and move not in allowed_words:
                return (
                    f"an attack is on: answer it ({'defend' if phase != 'renew' else 'renew'} "
                    f"with {code} or a Joker, or {'decline' if phase != 'renew' else 'stop'})"
                )
            if isinstance(move, Answer):
                return self._answer_problem(seat, move, code)
            return f"{move} is not an answer {'you can give now' if move != TU else 'of yours now'}"
        if phase == "place":
            if not isinstance(move, Place):
                return "first place your gain: 'place SLOT' on an empty slot or on bare nines"
            return (
                f"your slot {SLOTS[move.slot]} cannot take it (a gain goes on an empty slot "
                f"or on fewer than three bare nines)"
            )
        if isinstance(move, (Answer, Place)) or move in (DECLINE, STOP, TU):
            return "there is no attack to answer and nothing to place: play a card or pass"
        return self._turn_problem(seat, move)

    def _answer_problem(self, seat: int, move: Answer, code: str) -> str:
        verb = "defend" if self.phase != "renew" else "renew"
        if move.verb != verb:
            return f"you {verb} here, you cannot {move.verb}"
        if move.card not in self.hands[seat]:
            return f"you have no {move.card} in your hand"
        if move.card == JOKER:
            return f"the Joker must stand for {code} here (JK={code}): the attack is on value {VALUE[code]}"
        return f"you must answer with a card of value {VALUE[code]} ({code}) or a Joker"

    def _turn_problem(self, seat: int, move: Move) -> str:
        hand = self.hands[seat]
        if isinstance(move, KiwiPlay):
            if KIWI not in hand:
                return "you have no Kiwi (KI) in your hand"
            return self._kiwi_problem(seat, move)
        if isinstance(move, NinoxPlay):
            if NINOX not in hand:
                return "you have no Ninox (NI) in your hand"
            return "Ninox takes the Spirit topping an opponent's column (not yours, not a teammate's)"
        if not isinstance(move, Play):
            return f"{move} is not a move you can make now"
        return self._play_problem(seat, move)

    def _play_problem(self, seat: int, move: Play) -> str:
        if move.card not in self.hands[seat]:
            return f"you have no {move.card} in your hand"
        if move.card in (KIWI, NINOX, TUATURA):
            return {
                KIWI: "a Kiwi is played as 'KI FROM>TO', e.g. KI 1C>2B",
                NINOX: "a Ninox is played as 'NI SEATSLOT' on an opponent's Spirit",
                TUATURA: "Tuatura is only played against an attack on you, instead of a defence",
            }[move.card]
        if move.seat != seat and not self.is_opponent(seat, move.seat):
            return "that is your teammate's column: teammates only help to defend"
        top = self.tops[move.seat][move.slot]
        mine = move.seat == seat
        if move.card == JOKER:
            return self._joker_problem(move, top, mine)
        if move.decl:
            return "only a Joker is declared as another card"
        return _target_problem(
            move.card, mine, len(self.nines[move.seat][move.slot]), top, self.options["open_slot_block"]
        )

    def _joker_problem(self, move: Play, top: str | None, mine: bool) -> str:
        allowed = joker_declarations(top, mine)
        if not allowed:
            return (
                "a Joker is only played as a Warrior on a Warrior of its colour (combo or "
                "attack) or as a Spirit on your own Spirit: never as a blocker"
            )
        if not move.decl:
            return f"say what the Joker stands for: {' or '.join(f'JK={d}' for d in allowed)}"
        return f"here the Joker can only stand for {' or '.join(allowed)}"

    def _kiwi_problem(self, seat: int, move: KiwiPlay) -> str:
        warrior = self.tops[move.src_seat][move.src_slot]
        if warrior is None or not is_warrior(warrior):
            return f"Kiwi takes a Warrior, and column {_where(move.src_seat, move.src_slot)} has none on top"
        return f"the {warrior} taken by Kiwi cannot be played on {_where(move.seat, move.slot)}"

    # ------------------------------------------------------------- applying
    def _apply(self, seat: int, move: Move) -> None:
        kind = move.__class__
        if kind is Play:
            self._play(seat, move)  # type: ignore[arg-type]
        elif kind is Word:
            apply = _APPLY_WORD.get(move.word)  # type: ignore[attr-defined]
            if apply is not None:
                apply(self, seat)
        elif isinstance(move, Play):
            self._play(seat, move)
        elif isinstance(move, Answer):
            self._answer(seat, move)
        elif isinstance(move, Place):
            self._place(seat, move.slot)
        elif isinstance(move, KiwiPlay):
            self._kiwi(seat, move)
        elif isinstance(move, NinoxPlay):
            self._ninox(seat, move)

    def _take_from_hand(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if card in self.known[seat]:
            self.known[seat].remove(card)

    def _play(self, seat: int, move: Play) -> None:
        card, ts, slot = move.card, move.seat, move.slot
        self._take_from_hand(seat, card)
        declared = move.decl or card
        effect = _EFFECT[declared][self.tops[ts][slot]][ts == seat][not self.nines[ts][slot]]
        EMIT.play(
            self.log, EVERYONE, seat=seat, card=card, declared=move.decl, target=ts, slot=slot, effect=effect
        )
        self._put(seat, card, declared, ts, slot, effect)
        if not self.over:  # the card's owner draws back to four (see _refill_after_effect)
            if self.phase == "place":
                self.refill_after = seat
            else:
                self._refill(seat)
        self._next()

    def _refill_after_effect(self, seat: int) -> None:
        """The card's owner draws back to four once its effect is over: at once, or after
        she has placed a gain whose place she must choose (the end is checked in between)."""
        if self.over:
            return
        if self.phase == "place":
            self.refill_after = seat
        else:
            self._refill(seat)

    def _put(self, seat: int, card: str, declared: str, ts: int, slot: int, effect: str | None) -> None:
        """A card (from a hand, or fetched by Kiwi) lands on a column: its effect (a legal
        move's, never None)."""
        if effect in ("place", "strengthen", "block"):
            self.tops[ts][slot] = card
        elif effect == "unblock":
            spirit = self.tops[ts][slot]
            assert spirit is not None
            self.discard += [spirit, card]
            self.tops[ts][slot] = None
            EMIT.unblock(self.log, EVERYONE, seat=seat, slot=slot)
        elif effect == "combo":
            target = self.tops[ts][slot]
            assert target is not None
            self.tops[ts][slot] = None
            self._combo(seat, card, declared, target)
        else:  # attack
            target = self.tops[ts][slot]
            assert target is not None
            self.attack = Attack(
                seat, ts, slot, target, card, None if card == declared else declared, VALUE[declared]
            )
            self.phase = "defend"

    def _combo(self, seat: int, card: str, declared: str, target: str) -> None:
        """A combo for ``seat``: ``card`` (standing for ``declared``) with ``target``."""
        kind = combo_kind(declared, target)
        EMIT.combo(self.log, EVERYONE, seat=seat, combo=kind, cards=(card, target))
        if kind == "pair":
            self.discard += [card, target]
            nine = self._draw_one()
            if nine is not None:
                self._gain(seat, [nine], None, hidden=True)
        else:
            nine, top = twins_gain(card, target)
            self._gain(seat, [nine], top, hidden=False)

    def _gain(self, seat: int, nine_cards: list[str], top: str | None, hidden: bool) -> None:
        """A gain for ``seat``: placed at once if it has one place, asked if several, lost if none."""
        places = self._gain_places(seat)
        self.gain = (seat, nine_cards, top if not hidden else None)
        self._gain_hidden = hidden
        if not places:
            lost = nine_cards + ([top] if top else [])
            self.discard += lost  # face up, like every discard: a lost nine is seen then
            EMIT.lost(self.log, EVERYONE, seat=seat, cards=tuple(lost))
            self.gain = None
        elif len(places) == 1:
            self._settle(seat, places[0])
        else:
            self.phase = "place"

    def _settle(self, seat: int, slot: int) -> None:
        assert self.gain is not None
        _, nine_cards, top = self.gain
        self.gain = None
        for card in nine_cards:
            self.nines[seat][slot].append(card)
            self.unseen[seat][slot].append(self._gain_hidden)
            shown = "?" if self._gain_hidden else card
            EMIT.nine(self.log, EVERYONE, referee=(("card", card),), seat=seat, slot=slot, card=shown)
        if top is not None:
            self.tops[seat][slot] = top
            EMIT.top(self.log, EVERYONE, seat=seat, slot=slot, card=top)
        if full_columns(map(len, self.nines[seat])) >= FULL_COLUMNS_TO_END:
            self._end("three full columns")

    def _place(self, seat: int, slot: int) -> None:
        self._settle(seat, slot)
        self.phase = "turn"
        owner, self.refill_after = self.refill_after, None
        if owner is not None and not self.over:
            self._refill(owner)
        self._next()

    def _kiwi(self, seat: int, move: KiwiPlay) -> None:
        """The fetched Warrior is played and its effect resolved (a combo's nine drawn, an
        attack laid) before the Kiwi is discarded: a reshuffle during the effect leaves it
        out. Then its owner draws back to four."""
        self._take_from_hand(seat, KIWI)
        warrior = self.tops[move.src_seat][move.src_slot]
        assert warrior is not None
        self.tops[move.src_seat][move.src_slot] = None
        effect = play_effect(
            warrior,
            move.seat == seat,
            len(self.nines[move.seat][move.slot]),
            self.tops[move.seat][move.slot],
            True,
        )
        EMIT.kiwi(
            self.log,
            EVERYONE,
            seat=seat,
            from_seat=move.src_seat,
            from_slot=move.src_slot,
            warrior=warrior,
            target=move.seat,
            slot=move.slot,
            effect=effect,
        )
        self._put(seat, warrior, warrior, move.seat, move.slot, effect)
        self.discard.append(KIWI)
        self._refill_after_effect(seat)
        self._next()

    def _ninox(self, seat: int, move: NinoxPlay) -> None:
        self._take_from_hand(seat, NINOX)
        self.discard.append(NINOX)
        self.tops[move.seat][move.slot] = None
        EMIT.ninox(self.log, EVERYONE, seat=seat, target=move.seat, slot=move.slot)
        self._gain(seat, [SPIRIT], None, hidden=False)
        self._refill_after_effect(seat)
        self._next()

    def _pass(self, seat: int) -> None:
        cards = tuple(self.hands[seat])
        self.discard += self.hands[seat]
        self.hands[seat] = []
        self.known[seat] = []
        EMIT.pass_(self.log, EVERYONE, seat=seat, cards=cards)
        self._refill(seat)
        self._next()

    # ------------------------------------------------------------- the attack
    def _answer(self, seat: int, move: Answer) -> None:
        attack = self.attack
        assert attack is not None
        self._take_from_hand(seat, move.card)
        if move.verb == "defend":
            EMIT.defend(self.log, EVERYONE, seat=seat, card=move.card, declared=move.decl)
            assert attack.card is not None
            self.discard += [attack.card, move.card]  # the attack / defence pair
            attack.card, attack.decl = None, None
            self._refill(seat)
            if not self.over:
                self.phase = "renew"
        else:
            EMIT.renew(self.log, EVERYONE, seat=seat, card=move.card, declared=move.decl)
            attack.card, attack.decl = move.card, move.decl
            self._refill(seat)
            if not self.over:
                self.phase = "defend"
        self._next()

    def _decline(self, seat: int) -> None:
        attack = self.attack
        assert attack is not None
        EMIT.decline(self.log, EVERYONE, seat=seat)
        if self.phase == "defend" and self.team_of is not None and self.teammate(attack.defender) is not None:
            self.phase = "assist"
        else:
            self._succeed()
        self._next()

    def _succeed(self) -> None:
        """Nobody defended: the attack succeeds with the last attacking card."""
        attack = self.attack
        assert attack is not None and attack.card is not None
        self.attack = None
        self.phase = "turn"
        EMIT.success(
            self.log,
            EVERYONE,
            attacker=attack.attacker,
            defender=attack.defender,
            slot=attack.slot,
            card=attack.card,
        )
        self.tops[attack.defender][attack.slot] = None
        self._combo(attack.attacker, attack.card, attack.decl or attack.card, attack.target)

    def _stop(self, seat: int) -> None:
        EMIT.stop(self.log, EVERYONE, seat=seat)
        self.attack = None
        self.phase = "turn"
        self._next()

    def _tuatura(self, seat: int) -> None:
        attack = self.attack
        assert attack is not None and attack.card is not None
        self._take_from_hand(seat, TUATURA)
        self.discard.append(TUATURA)
        self.hands[seat].append(attack.card)
        self.known[seat].append(attack.card)
        EMIT.tuatura(self.log, EVERYONE, seat=seat, card=attack.card)
        self.attack = None
        self.phase = "turn"
        self._refill(seat)
        self._next()

    # ------------------------------------------------------------- drawing
    def _draw_one(self) -> str | None:
        """The top card of the draw pile (refilled from the discards if empty); None, and the
        game ends, when both piles are empty."""
        if not self.draw:
            if not self.discard:
                self._end("a player had to draw and both piles were empty")
                return None
            self.draw = self.discard
            self.discard = []
            shuffle(self.rng, self.draw)
            EMIT.reshuffle(self.log, EVERYONE, count=len(self.draw))
        return self.draw.pop()

    def _refill(self, seat: int) -> None:
        """The owner of a card just played draws back to four, at once (one by one from the
        top; in one go when the draw pile holds enough)."""
        hand, pile = self.hands[seat], self.draw
        need = HAND - len(hand)
        if need <= 0:
            return
        if need <= len(pile) and not self.over:
            drawn = pile[: -need - 1 : -1]  # the top ``need`` cards, top first
            del pile[-need:]
            hand += drawn
            EMIT.draw(self.log, EVERYONE, seat=seat, count=need)  # as _log_draw
            EMIT.drew(self.log, _ALONE[seat], seat=seat, cards=tuple(drawn))
            return
        drawn = []
        while len(self.hands[seat]) < HAND and not self.over:
            one = self._draw_one()
            if one is not None:
                self.hands[seat].append(one)
                drawn.append(one)
        if drawn:
            self._log_draw(seat, drawn)

    def _log_draw(self, seat: int, cards: list[str]) -> None:
        EMIT.draw(self.log, EVERYONE, seat=seat, count=len(cards))
        EMIT.drew(self.log, _ALONE[seat], seat=seat, cards=tuple(cards))

    # ------------------------------------------------------------- turns
    def _next(self) -> None:
        """Who acts next, once a move is done."""
        if self.over:
            self.acting = frozenset()
            return
        phase = self.phase
        if phase == "turn":
            if self.attack is None and self.gain is None:
                self._start_turn((self.turn + 1) % self.players)
            return
        if phase == "defend":
            assert self.attack is not None
            self.acting = _ONLY[self.attack.defender]
        elif phase == "assist":
            assert self.attack is not None
            mate = self.teammate(self.attack.defender)
            assert mate is not None
            self.acting = _ONLY[mate]
        elif phase == "renew":
            assert self.attack is not None
            self.acting = _ONLY[self.attack.attacker]
        else:  # place
            assert self.gain is not None
            self.acting = _ONLY[self.gain[0]]

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = "turn"
        self.acting = _ONLY[seat]
        EMIT.turn(self.log, EVERYONE, seat=seat)

    def _end(self, reason: str) -> None:
        if self.over:
            return
        self.end_reason = reason
        self.over = True
        self.acting = frozenset()
        result = self.result()
        EMIT.end(
            self.log,
            EVERYONE,
            reason=reason,
            scores=tuple(self.scores()),
            winners=tuple(result.winning_seats()),
        )

    # ------------------------------------------------------------- results
    def _gain_places(self, seat: int) -> list[int]:
        """:func:`gain_destinations` of ``seat``'s area."""
        return gain_destinations(self._nine_counts(seat), self.tops[seat])

    def _nine_counts(self, seat: int) -> list[int]:
        return [len(col) for col in self.nines[seat]]

    def column_scores(self, seat: int) -> list[int]:
        return [
            column_score(len(self.nines[seat][slot]), self.tops[seat][slot]) for slot in range(len(SLOTS))
        ]

    def scores(self) -> list[float]:
        return [sum(self.column_scores(s)) for s in range(self.players)]  # whole points

    def tiebreaks(self) -> list[tuple[float, ...]] | None:
        if self.options["ties"] != "nines":
            return None
        return [(float(sum(sum(self._nine_counts(s)) for s in party.seats)),) for party in self.parties()]

    def check_invariants(self) -> None:
        held = (
            self.draw
            + self.discard
            + [c for h in self.hands for c in h]
            + [c for area in self.nines for col in area for c in col]
            + [t for area in self.tops for t in area if t is not None]
        )
        if self.attack is not None and self.attack.card is not None:
            held.append(self.attack.card)
        if self.gain is not None:
            held += self.gain[1] + ([self.gain[2]] if self.gain[2] else [])
        assert Counter(held) == self.counts, "a card was created or lost"
        if not self.over:
            assert all(len(h) == HAND or s == self.refill_after for s, h in enumerate(self.hands)), (
                "a hand is not four cards (only the owner of a combo placing its gain may wait to draw)"
            )
        for s in range(self.players):
            for slot in range(len(SLOTS)):
                assert len(self.nines[s][slot]) <= MAX_NINES, "a column holds more than three nines"
                assert self.tops[s][slot] in (None, SPIRIT, *WARRIORS), "a Joker or animal rests in a column"

    # ------------------------------------------------------------- views
    def _view(self, viewer: Any) -> MauwView:
        """The one place a view is made: a seat, None (a spectator) or REFEREE."""
        ref = viewer == REFEREE
        n = self.players
        hands = tuple(
            tuple(h) if (ref or s == viewer) else self._hand_seen_by_others(s)
            for s, h in enumerate(self.hands)
        )
        return MauwView(
            game="mauw",
            players=n,
            options=dict(self.options),
            viewer=viewer,
            over=self.over,
            end_reason=self.end_reason,
            turn=self.turn,
            phase=self.phase if not self.over else "over",  # type: ignore[arg-type]
            to_act=tuple(sorted(self.acting)),
            scores=tuple(self.scores()),
            team_scores=self._team_scores(),
            teams=None if self.team_of is None else self.teams(),
            opponents=(
                tuple(s for s in range(n) if self.is_opponent(viewer, s)) if isinstance(viewer, int) else None
            ),
            winners=tuple(self.winners()),
            columns=tuple(self._area_view(s, viewer) for s in range(n)),
            hands=hands,
            known=tuple(tuple(k) for k in self.known),
            draw_pile=tuple(reversed(self.draw)) if ref else len(self.draw),
            discard=tuple(self.discard),
            attack=self._attack_view(),
            gain=self._gain_view(ref),
            rules=self._rules_view(),
        )

    def _area_view(self, s: int, viewer: Any) -> tuple[Column, ...]:
        """Seat ``s``'s columns; what each accepts is told from the viewer's seat (nothing
        on a teammate's column, nor for a spectator or the referee)."""
        side = (
            None
            if not isinstance(viewer, int)
            else (True if s == viewer else False if self.is_opponent(viewer, s) else None)
        )
        opt = self.options["open_slot_block"]
        out: list[Column] = []
        for slot in range(len(SLOTS)):
            k, top = len(self.nines[s][slot]), self.tops[s][slot]
            accepts = () if side is None else column_accepts(side, k, top, opt, self.counts)
            fields = (SLOTS[slot], _where(s, slot), k, top, column_score(k, top), accepts)
            if viewer == REFEREE:  # the referee also sees the nines' cards
                out.append(RefereeColumn(*fields, nine_cards=tuple(self.nines[s][slot])))
            else:
                out.append(_column(*fields))
        return tuple(out)

    def _rules_view(self) -> MauwRules:
        return MauwRules(
            slots=tuple(SLOTS),
            hand=HAND,
            max_nines=MAX_NINES,
            full_columns_to_end=FULL_COLUMNS_TO_END,
            nine_value=NINE_VALUE,
            nine_multiplier=NINE_MULTIPLIER,
            deck=dict(sorted(self.counts.items())),
        )

    def _hand_seen_by_others(self, s: int) -> tuple[str, ...]:
        """Another seat's hand: the cards everyone knows it holds, then one "?" per card."""
        return (*sorted(self.known[s]), *["?"] * (len(self.hands[s]) - len(self.known[s])))

    def _team_scores(self) -> tuple[int, ...] | None:
        if self.team_of is None:
            return None
        return tuple(int(x) for x in self.party_scores())

    def _attack_view(self) -> AttackView | None:
        a = self.attack
        if a is None:
            return None
        return AttackView(
            attacker=a.attacker,
            defender=a.defender,
            slot=SLOTS[a.slot],
            target=a.target,
            card=a.card,
            declared=a.decl,
            value=a.value,
            awaiting=min(self.acting) if self.acting else None,
            answers=answer_codes(a.value, self.phase, self.counts),
        )

    def _gain_view(self, ref: bool) -> GainView | None:
        if self.gain is None:
            return None
        seat, nine_cards, top = self.gain
        shown = nine_cards if (ref or not self._gain_hidden) else ["?"] * len(nine_cards)
        slots = gain_destinations(self._nine_counts(seat), self.tops[seat])
        return GainView(seat=seat, nines=tuple(shown), top=top, slots=tuple(SLOTS[s] for s in slots))

    # ------------------------------------------------------------- copies
    def _copy_parts(self, new: State) -> None:
        assert isinstance(new, MauwState)
        new.counts = Counter(self.counts)
        new.team_of = None if self.team_of is None else list(self.team_of)
        new.hands = [h.copy() for h in self.hands]
        new.draw = self.draw.copy()
        new.discard = self.discard.copy()
        new.nines = [[col.copy() for col in area] for area in self.nines]
        new.unseen = [[col.copy() for col in area] for area in self.unseen]
        new.tops = [area.copy() for area in self.tops]
        new.known = [k.copy() for k in self.known]
        new.attack = None if self.attack is None else self.attack.copy()
        new.gain = None if self.gain is None else (self.gain[0], self.gain[1].copy(), self.gain[2])

    def resample(self, seat: int, rng: random.Random) -> MauwState:
        """Redraw what ``seat`` cannot see: the draw pile's order, the other hands (apart
        from cards everyone knows they hold) and every nine drawn face down."""
        seat = self._viewer(seat)
        new = self._resampled_copy(rng)
        assert isinstance(new, MauwState)
        slots = new._hidden_nines()
        others = [s for s in range(new.players) if s != seat]
        pool = new.draw + [c for s in others for c in _without(new.hands[s], new.known[s])]
        pool += [new.nines[s][slot][i] for s, slot, i in slots]
        if new.gain is not None and new._gain_hidden:
            pool += new.gain[1]
        pool.sort()
        shuffle(rng, pool)
        new.draw = [pool.pop() for _ in range(len(new.draw))]
        for s in others:
            free = len(new.hands[s]) - len(new.known[s])
            new.hands[s] = list(new.known[s]) + [pool.pop() for _ in range(free)]
        for s, slot, i in slots:
            new.nines[s][slot][i] = pool.pop()
        if new.gain is not None and new._gain_hidden:
            new.gain = (new.gain[0], [pool.pop() for _ in new.gain[1]], new.gain[2])
        new._rewrite_private(seat)
        return new

    def _hidden_nines(self) -> list[tuple[int, int, int]]:
        """(seat, slot, index) of every nine whose card nobody has seen."""
        return [
            (s, slot, i)
            for s in range(self.players)
            for slot in range(len(SLOTS))
            for i, hidden in enumerate(self.unseen[s][slot])
            if hidden
        ]

    def _rewrite_private(self, seat: int) -> None:
        """Keep nothing true the seat did not see: other seats' private draws lose their
        cards and the referee's fields go (a guess has no referee)."""
        mine = seats(seat)
        log = self.log
        for i, (audience, kind, args, extra) in enumerate(log):
            if kind == "drew" and audience != mine:
                log[i] = (audience, kind, (args[0], ("?",) * len(args[1])), None)
            elif extra is not None:
                log[i] = (audience, kind, args, None)

    # ------------------------------------------------------------- for people
    def describe_move(self, seat: int, move: Move) -> str:
        return describe(move)

    def explain_move(self, seat: int, move: Move) -> str:
        """What legal ``move`` would do now, worded from the seat's own view (so nothing
        hidden from it is told) and this module's rules: see :mod:`.explain`."""
        from .explain import explain  # it reads this module's rules

        return explain(self.observation(seat), seat, move)


_PLAYABLE = frozenset((*WARRIORS, SPIRIT))
#: By seat: the audience of that seat alone (its private draws), and the seats to act when it
#: alone acts (shared values: both are immutable).
_ALONE = tuple(seats(seat) for seat in range(INFO.max_seats))
#: Whether a column takes a gained nine (:func:`takes_nine`), by its top and its nines
#: (what :func:`gain_destinations` reads).
_TAKES_NINE = {
    top: tuple(takes_nine(k, top) for k in range(MAX_NINES + 1)) for top in (None, *WARRIORS, SPIRIT)
}
_ONLY = tuple(frozenset((seat,)) for seat in range(INFO.max_seats))
#: What a card (a declared code) does on a column: by the card, the column's top, whether the
#: column is the player's own, then with nines (at 0) or without (at 1, the index ``not
#: nines`` gives), as :func:`play_effect` says with open slots allowed (moves are legal here).
_EFFECT = {
    card: {
        top: tuple(
            (play_effect(card, mine, 1, top, True), play_effect(card, mine, 0, top, True))
            for mine in (False, True)
        )
        for top in (None, *WARRIORS, SPIRIT)
    }
    for card in ALL_CODES
}
#: The seat and slot fields of each kind of move, in the order their problems are told.
_NUMBERED: dict[type, tuple[tuple[str, str], ...]] = {
    Play: (("seat", "seat"), ("slot", "slot")),
    KiwiPlay: (("src_seat", "seat"), ("seat", "seat"), ("src_slot", "slot"), ("slot", "slot")),
    NinoxPlay: (("seat", "seat"), ("slot", "slot")),
    Place: (("slot", "slot"),),
}
#: Columns are frozen values: one object per distinct column, shared by every view showing it.
_column = lru_cache(maxsize=8192)(Column)
_PLAYS: dict[tuple[str, int, int, str | None], Play] = {}
_FITS: dict[tuple[bool, str | None, bool, bool], tuple[str, ...]] = {}


_ANSWERS: dict[tuple[str, str, str | None], Answer] = {}
_PLACE = tuple(Place(slot) for slot in range(len(SLOTS)))


#: The moves against an attack by (phase, value, whether the hand holds that value's Warrior,
#: a Joker, a Tuatura): :func:`_attack_moves`, worked out on first use.
_ATTACK_MOVES: dict[tuple[str, int, bool, bool, bool], tuple[Move, ...]] = {}


def _attack_moves(phase: str, value: int, warrior: bool, joker: bool, tuatura: bool) -> tuple[Move, ...]:
    """The entry of :data:`_ATTACK_MOVES`: :func:`answer_cards` and :func:`tuatura_allowed`
    read on a hand holding just the cards named, then ``decline`` (or ``stop`` to renew)."""
    hand = [WARRIOR_OF_VALUE[value]] * warrior + [JOKER] * joker + [TUATURA] * tuatura
    verb = "renew" if phase == "renew" else "defend"
    moves: list[Move] = [_answer(verb, card, decl) for card, decl in answer_cards(hand, value)]
    if phase == "renew":
        moves.append(STOP)
    else:
        moves += [TU] if tuatura_allowed(phase, hand) else []
        moves.append(DECLINE)
    found = _ATTACK_MOVES[phase, value, warrior, joker, tuatura] = tuple(moves)
    return found


def _answer(verb: str, card: str, decl: str | None) -> Answer:
    """The one Answer value for these fields (as :func:`_play`)."""
    key = (verb, card, decl)
    move = _ANSWERS.get(key)
    if move is None:
        move = _ANSWERS[key] = Answer(verb, card, decl)
    return move


#: The one KiwiPlay / NinoxPlay value for their fields, as :func:`_play` (a move the rules
#: offer is then the codec's own object: its action is found by identity).
_kiwi_play = cache(KiwiPlay)
_ninox_play = cache(NinoxPlay)


def _play(card: str, seat: int, slot: int, decl: str | None = None) -> Play:
    """The one Play value for these fields (moves are values: sharing them is free)."""
    key = (card, seat, slot, decl)
    move = _PLAYS.get(key)
    if move is None:
        move = _PLAYS[key] = Play(card, seat, slot, decl)
    return move


#: The plays a column may take on a turn, one bit each: the Warriors and Spirit in
#: :func:`_fits`'s (sorted) order, then a Joker standing for each, in the order of
#: :func:`joker_declarations`. A column's plays in rising bit order are legal_moves' order.
_OPTIONS: tuple[tuple[str, str | None], ...] = (
    *((c, None) for c in sorted(_PLAYABLE)),
    *((JOKER, d) for d in (*WARRIORS, SPIRIT)),
)
_BIT = {option: 1 << i for i, option in enumerate(_OPTIONS)}
_JOKER_BITS = sum(bit for (card, _), bit in _BIT.items() if card == JOKER)


@cache
def _hand_bits(hand: tuple[str, ...]) -> int:
    """The play bits a hand can use: each card's, and every Joker stand-in's with a Joker."""
    bits = 0
    for card in hand:
        bits |= _JOKER_BITS if card == JOKER else _BIT.get((card, None), 0)
    return bits


@cache
def _options(bits: int) -> tuple[tuple[str, str | None], ...]:
    """The (card, Joker's stand-in) plays of ``bits``, in rising bit order."""
    return tuple(option for option in _OPTIONS if _BIT[option] & bits)


_OPTION_COUNT = len(_OPTIONS)
_JUST_PASS: tuple[Move, ...] = (PASS,)  # a turn's moves after its plays, without Kiwi or Ninox
#: The areas of every seat, by seat count (every area is open outside team play).
_EVERY_AREA = tuple(tuple(range(n)) for n in range(INFO.max_seats + 1))


@cache
def _positions(bits: int) -> tuple[int, ...]:
    """The places in :data:`_OPTIONS` of the plays of ``bits``, in rising bit order."""
    return tuple(i for i in range(len(_OPTIONS)) if bits >> i & 1)


#: Every play, by (seat, slot, place in :data:`_OPTIONS`): seat * 4 + slot, times the options.
_PLAYS_AT = tuple(
    _play(card, s, slot, decl)
    for s in range(INFO.max_seats)
    for slot in range(len(SLOTS))
    for card, decl in _OPTIONS
)


#: By seat count, the action of each play of :data:`_PLAYS_AT` (-1: a seat the game has
#: not), and of every move of :meth:`MauwState.all_moves` by its identity (a plain dict: a
#: cheaper look-up than the codec's read-only one): :meth:`MauwState.random_action`.
_SEAT_PLAY_ACTIONS: dict[int, tuple[int, ...]] = {}
_ACTION_BY_ID: dict[int, dict[int, int]] = {}
_SEAT_MOVES: dict[int, tuple[Move, ...]] = {}  # keeps the moves (and so their ids) alive


def _seat_tables(players: int) -> tuple[tuple[int, ...], dict[int, int]]:
    """The entries of :data:`_SEAT_PLAY_ACTIONS` and :data:`_ACTION_BY_ID` for ``players``
    seats, made on their first use."""
    moves = _SEAT_MOVES[players] = tuple(MauwState.all_moves(players, {}))
    index = {move: action for action, move in enumerate(moves)}
    plays = _SEAT_PLAY_ACTIONS[players] = tuple(index.get(play, -1) for play in _PLAYS_AT)
    by_id = _ACTION_BY_ID[players] = {id(move): action for action, move in enumerate(moves)}
    return plays, by_id


def _turn_play_actions(players: int, areas: list[int], masks: list[int]) -> list[int]:
    """The actions of the plays that ``masks`` allow on the columns of ``areas``
    (:meth:`MauwState._turn_masks`), with ``players`` seats (every codec of that seat count
    numbers them alike: :meth:`MauwState.all_moves`)."""
    plays = _SEAT_PLAY_ACTIONS.get(players) or _seat_tables(players)[0]
    per, s = len(_OPTIONS), len(SLOTS)
    return [
        plays[(areas[i // s] * s + i % s) * per + option]
        for i, bits in enumerate(masks)
        for option in _positions(bits)
    ]


def _column_mask(mine: bool, top: str | None, nines: bool, open_slot_block: bool) -> int:
    """The bits of the plays a column allows: :func:`_fits` and :func:`joker_declarations`."""
    plays: list[tuple[str, str | None]] = [(c, None) for c in _fits(mine, top, nines, open_slot_block)]
    plays += [(JOKER, d) for d in joker_declarations(top, mine)]
    return sum(_BIT[p] for p in plays)


def _fits(mine: bool, top: str | None, nines: bool, open_slot_block: bool) -> tuple[str, ...]:
    """The cards (Warriors, Spirit) :func:`play_effect` allows on such a column, sorted."""
    key = (mine, top, nines, open_slot_block)
    cards = _FITS.get(key)
    if cards is None:
        cards = _FITS[key] = tuple(
            sorted(c for c in _PLAYABLE if play_effect(c, mine, int(nines), top, open_slot_block))
        )
    return cards


#: Every column's play bits, worked out once (random playouts read them for each column every
#: turn): by open_slot_block, by own column or not, by its top, then with nines (at 0) or
#: without (at 1: the index ``not nines`` gives).
assert len(SLOTS) == 4, "MauwState._turn_masks and _draw_turn write the four slots out"
_COLUMN_MASKS = {
    opt: tuple(
        {
            top: (_column_mask(mine, top, True, opt), _column_mask(mine, top, False, opt))
            for top in (None, *WARRIORS, SPIRIT)
        }
        for mine in (False, True)
    )
    for opt in (False, True)
}


def _target_problem(card: str, mine: bool, nines: int, top: str | None, open_slot_block: bool) -> str:
    if is_warrior(card):
        if top is None and not nines:
            return (
                "a Warrior goes on an empty slot of your own only"
                if not open_slot_block
                else "that slot cannot take it"
            )
        if top == SPIRIT:
            return "a Spirit tops that column: only a Spirit or a Joker on your own Spirit removes it"
        if top is not None and is_warrior(top):
            return f"{card} and {top} are not the same colour: a combo or attack needs the same colour"
        return "that column cannot take a Warrior"
    if card == SPIRIT:
        if mine:
            return "a Spirit goes on an opponent's bare nines, or on your own Spirit to unblock it"
        return (
            "a Spirit goes only on an opponent's column of bare nines (never on a Warrior or an empty slot)"
        )
    return f"{card} cannot be played on a column"


def _without(hand: Iterable[str], known: Iterable[str]) -> list[str]:
    rest = list(hand)
    for c in known:
        rest.remove(c)
    return rest


def _parse_card(text: str, whole: str) -> tuple[str, str | None]:
    m = _CARD.fullmatch(text.strip())
    if not m:
        raise NotationError(f"{quoted(whole)}: a card is written as its code (Y7, SP, JK=Y2)")
    card = m[1].upper()
    decl = m[2].upper() if m[2] else None
    if card not in ALL_CODES:
        raise NotationError(
            f"{quoted(whole)}: {card} is not a Mauw card (R1 Y2 G3 B4 B5 G6 Y7 R8 JK SP KI NI TU)"
        )
    if decl is not None and decl not in (*WARRIORS, SPIRIT):
        raise NotationError(f"{quoted(whole)}: a Joker stands for a Warrior or a Spirit, not {decl}")
    return card, decl


def describe(move: Move) -> str:
    """A move in words."""
    if isinstance(move, Play):
        what = card_name(move.card) + (f" as {card_name(move.decl)}" if move.decl else "")
        return f"play {what} on seat {move.seat}'s column {SLOTS[move.slot]}"
    if isinstance(move, KiwiPlay):
        return (
            f"Kiwi: take the Warrior of seat {move.src_seat}'s column {SLOTS[move.src_slot]} and "
            f"play it on seat {move.seat}'s column {SLOTS[move.slot]}"
        )
    if isinstance(move, NinoxPlay):
        return f"Ninox: the Spirit on seat {move.seat}'s column {SLOTS[move.slot]} becomes a nine of yours"
    if isinstance(move, Answer):
        what = card_name(move.card) + (f" as {move.decl}" if move.decl else "")
        return f"{move.verb} with {what}"
    if isinstance(move, Place):
        return f"put your gain on your column {SLOTS[move.slot]}"
    return {
        "pass": "discard your hand and draw four new cards",
        "decline": "do not defend",
        "stop": "stop attacking (your turn ends)",
        TUATURA: "Tuatura: cancel the attack and take the attacking card",
    }.get(str(move), str(move))


#: The one-word moves and what applying each does (:meth:`MauwState._apply`).
_APPLY_WORD = {
    PASS.word: MauwState._pass,
    DECLINE.word: MauwState._decline,
    STOP.word: MauwState._stop,
    TU.word: MauwState._tuatura,
}
