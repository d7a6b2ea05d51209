"""Miaui's tensors (the ``tensors`` part; see :mod:`kiti.rl.tensors` and ``docs/rl.md``).

Only what a seat's view holds goes in (:meth:`.rules.MiauiState._view` decides what that is;
this module reads the same state fields under the same conditions, and the conformance
suite checks every resample for the seat gives the identical tensors):

- its own divers left and the diver it chose this round; of the others, only whether they
  have chosen;
- the lagoon, oldest card first per depth, a face-down card as "hidden" unless this seat
  peeked at it (then its code and "peeked");
- every pile's size and top card; a pile's cards and points where the view shows them (the
  seat's own, Open Baskets, the end, piles of one card);
- the diver discards only with Open Baskets or at the end (otherwise they are remembered
  from the reveals, in the information state);
- round, Kiti's seat, the seats to act, a catch being ordered, deck and box sizes, options.

Seats are ego-centric: row 0 is the viewer, row k the seat k places after it clockwise.
Cards are indexed in :data:`.rules.CODES` order (the action codec's order for ``take``).

The information state adds, per round, every seat's revealed diver (the seat's own past
dives included), who caught each depth and which cards, the depths left unwon (a No
Fighting tie, no diver left), the ties Kiti broke, and the cards sent to the box.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ...core.events import Entry
from ...core.load import Game
from ...core.tensors import FLOAT, Encoder, Layout, Spec
from .cards import COUNT, DECK_SIZE, VALUE
from .rules import CODES, INFO, ROUNDS, MiauiState, pile_score

C = len(CODES)  # distinct card codes
CODE = {code: i for i, code in enumerate(CODES)}
#: Per lagoon slot: the card's code (C values), face down and unseen, face down and peeked.
SLOT = C + 2
_MOST = [float(COUNT[c]) for c in CODES]  # how many of each code the deck holds
#: The lowest and highest points a pile can hold (at most two Jellyfish stay in a pile).
_LOW = float(sum(sorted(v for c, v in VALUE.items() for _ in range(COUNT[c]) if v < 0)[:2]))
_HIGH = float(sum(v * COUNT[c] for c, v in VALUE.items() if v > 0))
_F = {kind: {name: i for i, name in enumerate(names)} for kind, names in INFO.events.items()}
# Where each field lies in a logged event's arguments (the kinds declared in view.py).
_ROUND = 0
assert all(names[0] == "round" for kind, names in INFO.events.items() if kind != "end")
_DIVES = _F["reveal"]["dives"]
_SPACE, _SEAT, _CARDS, _TIED = (_F["catch"][f] for f in ("space", "seat", "cards", "tied"))
_TIE_SPACE = _F["tie"]["space"]
_NO_DIVER_SPACE = _F["no_diver"]["space"]
_ATE = _F["seagull"]["ate"]
_JELLIES = _F["jellyfish"]["cards"]


def observation_specs(n: int, slots: int) -> list[Spec]:
    """The observation's segments for ``n`` seats and ``slots`` lagoon cards per depth."""
    return [
        ("options", 3, "open_baskets, no_fighting, taker_chooses_order (1: on)", 0, 1),
        ("round", ROUNDS, "the round being played (one-hot, round 1 first)", 0, 1),
        ("over", 1, "the game is over (the end shows every card in play)", 0, 1),
        ("kiti", n, "the seat on Kiti's right (one-hot; zeros without Kiti)", 0, 1),
        ("hand", ROUNDS, "my divers left (diver 1 first)", 0, 1),
        ("my_dive", ROUNDS, "the diver I chose this round (one-hot; zeros: not yet)", 0, 1),
        ("committed", n, "each seat has chosen its diver this round", 0, 1),
        ("to_act", n, "each seat is to act now", 0, 1),
        (
            "lagoon",
            (3, slots, SLOT),
            f"per depth (Deepest, Deep, Shallow), per card oldest first: its code ({C}), "
            "face down unseen, face down peeked by me",
            0,
            1,
        ),
        ("pile_cards", (n, C), "each pile's cards I can see, counted by code", 0, _MOST * n),
        ("pile_top", (n, C), "each pile's top card (one-hot)", 0, 1),
        ("pile_size", n, "cards in each pile", 0, DECK_SIZE),
        ("score", n, "each pile's points, where I can know them (else 0)", _LOW, _HIGH),
        ("score_known", n, "I can know the pile's points", 0, 1),
        ("discards", (n, ROUNDS), "each seat's past divers (Open Baskets or the end only)", 0, 1),
        ("pending_seat", n, "the seat ordering a No Fighting catch (one-hot)", 0, 1),
        ("pending_space", 3, "the depth of that catch (one-hot)", 0, 1),
        ("pending_cards", C, "its cards still to join the pile, counted by code", 0, _MOST),
        ("deck", 1, "cards left in the deck", 0, DECK_SIZE),
        ("box", 1, "cards out of the game", 0, DECK_SIZE),
    ]


def history_specs(n: int) -> list[Spec]:
    """What the information state adds after the observation, for ``n`` seats."""
    return [
        ("dives", (ROUNDS, n, ROUNDS), "per round, each seat's revealed diver (one-hot)", 0, 1),
        ("catcher", (ROUNDS, 3, n), "per round and depth, the seat that caught it (one-hot)", 0, 1),
        ("caught", (ROUNDS, 3, C), "per round and depth, the cards caught, by code", 0, _MOST * ROUNDS * 3),
        ("kiti_tie", (ROUNDS, 3), "per round and depth, Kiti broke a tie for it", 0, 1),
        ("unwon", (ROUNDS, 3, 2), "per round and depth: a No Fighting tie; no diver left", 0, 1),
        ("boxed", C, "the cards sent to the box so far, by code", 0, _MOST),
    ]


class MiauiEncoder(Encoder):
    """Miaui's observation and information-state tensors for one game (seats, options).

    The observation is gathered (one numpy call) from a table made once per state
    (:meth:`shared`) of float32 blocks laid end to end: the public values (the observation's
    layout, rows in seat order), then every seat's divers left, then every seat's dive, then
    per pile its block (:data:`PILE_SIZE` values), then a constant 1.  Hand and pile blocks
    are made once per content and kept; an env keeps its table and brings it up to date
    (:class:`Mirror`).  A seat's gather list turns the rows ego-centric and reads, of the
    secret values, only that seat's."""

    writes_all = True  # the gather writes every value

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.players
        self.open_baskets = bool(self.options["open_baskets"])
        self.slots = ROUNDS if self.options["no_fighting"] else 1  # a depth holds one card otherwise
        self.observation_layout = Layout.of(observation_specs(n, self.slots))
        self.history_layout = Layout.of(history_specs(n))
        at = {s.name: s.offset for s in self.observation_layout}
        self._at = at
        self._hat = {s.name: s.offset for s in self.history_layout}
        flags = ("open_baskets", "no_fighting", "taker_chooses_order")
        self._fixed = [at["options"] + i for i, f in enumerate(flags) if self.options[f]]
        blank = np.zeros(self.observation_layout.size, FLOAT)
        blank[self._fixed] = 1.0
        self._blank = blank.tobytes()
        #: _rel[seat][s]: the row of seat s as seat ``seat`` sees the table
        self._rel = [tuple((s - seat) % n for s in range(n)) for seat in range(n)]
        self._hands_at = self.observation_layout.size  # the seats' hands (ROUNDS each)
        self._dives_at = self._hands_at + n * ROUNDS  # the seats' dives (ROUNDS each)
        self._piles_at = self._dives_at + n * ROUNDS  # the piles' blocks (PILE_SIZE each)
        self._one = self._piles_at + n * PILE_SIZE
        self._gather = [self._gather_list(seat) for seat in range(n)]
        #: Hand blocks by divers left, pile blocks by cards, one table per
        #: ``shown`` (False, True): made once per content and kept (while they fit in a few MB).
        self._seats_made: dict[tuple[int, ...], bytes] = {}
        self._piles_made: tuple[dict[tuple[str, ...], bytes], ...] = ({}, {})
        # where _public writes (the round's one-hot: round 1 at _round_at + 1)
        self._round_at = at["round"] - 1
        self._over_at, self._kiti_at = at["over"], at["kiti"]
        self._committed_at, self._to_act_at = at["committed"], at["to_act"]
        self._deck_at, self._box_at = at["deck"], at["box"]
        self._lagoon_at = [at["lagoon"] + space * self.slots * SLOT for space in range(3)]

    def legal_key(self, state: MiauiState, seat: int) -> tuple[int, ...] | None:
        """What decides a diving seat's legal actions, the rules' own key
        (:meth:`.rules.MiauiState.moves_key`: its divers left; None otherwise), so the env
        looks its mask up (:class:`kiti.rl.spaces.Actions`; the rules list the actions the
        first time)."""
        return state.moves_key(seat)

    def _gather_list(self, seat: int) -> np.ndarray:
        """Where each value of ``seat``'s observation is read in the shared table."""
        n, at = self.players, self._at
        gather = list(range(self.observation_layout.size))
        for name, width in (
            ("kiti", 1),
            ("committed", 1),
            ("to_act", 1),
            ("discards", ROUNDS),
            ("pending_seat", 1),
        ):
            for r in range(n):
                row = at[name] + (r + seat) % n * width
                gather[at[name] + r * width : at[name] + (r + 1) * width] = range(row, row + width)
        mine = self._hands_at + seat * ROUNDS
        gather[at["hand"] : at["hand"] + ROUNDS] = range(mine, mine + ROUNDS)
        mine = self._dives_at + seat * ROUNDS
        gather[at["my_dive"] : at["my_dive"] + ROUNDS] = range(mine, mine + ROUNDS)
        for r in range(n):
            pile = self._piles_at + (r + seat) % n * PILE_SIZE
            cards = pile + (_FULL if r == 0 else _SHOWN)
            gather[at["pile_cards"] + r * C : at["pile_cards"] + (r + 1) * C] = range(cards, cards + C)
            gather[at["pile_top"] + r * C : at["pile_top"] + (r + 1) * C] = range(
                pile + _TOP, pile + _TOP + C
            )
            gather[at["pile_size"] + r] = pile + _SIZE
            gather[at["score"] + r] = pile + (_FULL_SCORE if r == 0 else _SHOWN_SCORE)
            gather[at["score_known"] + r] = self._one if r == 0 else pile + _KNOWN  # its own: always
        return np.array(gather, np.intp)

    def _observe(self, state: MiauiState, seat: int, out: np.ndarray) -> None:
        self._observe_shared(state, seat, self.shared(state), out)

    def _observe_shared(self, state: MiauiState, seat: int, shared: np.ndarray, out: np.ndarray) -> None:
        shared.take(self._gather[seat], out=out, mode="clip")
        if any(state.veil):
            self._peeks(state, seat, out)

    def _new(self, state: MiauiState, seat: int, shared: Any = None) -> np.ndarray:
        """The gather straight into a new array (no buffer to make first)."""
        if shared is None:
            shared = self.shared(state)
        out: np.ndarray = shared.take(self._gather[seat], mode="wrap")  # in range: the cheaper mode
        veil = state.veil
        if veil[0] or veil[1] or veil[2]:  # the three depths
            self._peeks(state, seat, out)
        return out

    def shared(self, state: MiauiState) -> np.ndarray:
        """The table of :class:`MiauiEncoder`'s doc for ``state`` (every seat's secrets)."""
        blocks: list[bytes | bytearray] = [self._public(state)]
        blocks += map(self._hand_block, state.hands)
        blocks += map(_DIVE.__getitem__, state.committed)
        shown = state.over or self.open_baskets
        pile_block = self._pile_block
        for pile in state.piles:
            blocks.append(pile_block(pile, shown))
        blocks.append(_ONE)
        return np.frombuffer(b"".join(blocks), FLOAT)

    def _hand_block(self, divers: list[int]) -> bytes:
        """:func:`_hand_block`, made once per hand and kept."""
        seats = self._seats_made
        key = tuple(divers)
        made = seats.get(key)
        if made is None:
            if len(seats) > 1 << 15:  # about 3 MB
                seats.clear()
            made = seats[key] = _hand_block(divers)
        return made

    def _pile_block(self, pile: list[str], shown: bool) -> bytes:
        """:func:`_pile_block`, made once per content and kept."""
        piles = self._piles_made[shown]
        key = tuple(pile)
        block = piles.get(key)
        if block is None:
            if len(piles) > 1 << 12:  # about 1.5 MB (a kept table grows most piles in place)
                piles.clear()
            block = piles[key] = _pile_block(pile, shown)
        return block

    def mirror(self) -> Mirror:
        """A shared table that one env keeps and brings up to date (see :class:`Mirror`)."""
        return Mirror(self)

    def _public(self, state: MiauiState) -> bytearray:
        """The public values, in the observation's layout with rows in seat order (float32
        bytes, written through a memoryview: cheaper than numpy for a few dozen values)."""
        table = bytearray(self._blank)  # zeros but the options that are on
        self._write_public(state, memoryview(table).cast("f"))
        return table

    def _write_public(self, state: MiauiState, out: memoryview[float]) -> None:
        """:meth:`_public` into ``out`` (its float32 values, holding :attr:`_blank`'s)."""
        at = self._at
        over = state.over
        out[self._round_at + state.round] = 1.0
        if over:
            out[self._over_at] = 1.0
        if state.kiti is not None:
            out[self._kiti_at + state.kiti] = 1.0
        committed = state.committed
        if any(committed):
            base = self._committed_at
            for s, c in enumerate(committed):
                if c:
                    out[base + s] = 1.0
        base = self._to_act_at
        for s in state.acting:
            out[base + s] = 1.0
        self._lagoon(state, out)
        out[self._deck_at], out[self._box_at] = len(state.deck), len(state.box)
        if over or self.open_baskets:
            for s in range(self.players):
                row = at["discards"] + s * ROUNDS - 1
                for dives in state.reveals:
                    out[row + dives[s]] = 1.0
        if state.pending:
            taker, space, cards = state.pending
            out[at["pending_seat"] + taker] = out[at["pending_space"] + space] = 1.0
            base = at["pending_cards"]
            for c in cards:
                out[base + CODE[c]] += 1.0

    def _lagoon(self, state: MiauiState, out: memoryview[float]) -> None:
        """Each depth's cards, oldest first, as a seat that did not peek sees them: the code
        where it is face up (or at the end), else "face down unseen" (see :meth:`_peeks`)."""
        over = state.over
        for at, cards, veil in zip(self._lagoon_at, state.lagoon, state.veil):
            if veil and not over:
                for i, c in enumerate(cards):
                    out[at + i * SLOT + (C if i in veil else CODE[c])] = 1.0
            elif len(cards) == 1:  # the usual depth
                out[at + CODE[cards[0]]] = 1.0
            else:
                for i, c in enumerate(cards):
                    out[at + i * SLOT + CODE[c]] = 1.0

    def _peeks(self, state: MiauiState, seat: int, out: np.ndarray) -> None:
        """The face-down cards ``seat`` peeked at: its code and "peeked" (kept at the end,
        as the view's ``peeked``)."""
        base = self._at["lagoon"]
        for space, (cards, veil) in enumerate(zip(state.lagoon, state.veil)):
            for i, (seer, _) in veil.items():
                if seer == seat:
                    slot = base + (space * self.slots + i) * SLOT
                    out[slot + C] = 0.0
                    out[slot + CODE[cards[i]]] = 1.0
                    out[slot + C + 1] = 1.0

    def _read_events(
        self, seat: int, entries: list[Entry], history: np.ndarray, memory: dict[str, Any]
    ) -> None:
        """Reveals, catches, unwon depths and boxed cards, as the seat saw them."""
        at = self._hat
        rel = self._rel[seat]
        n = self.players
        for _, kind, args, _ in entries:
            if kind == "reveal":
                row = at["dives"] + (args[_ROUND] - 1) * n * ROUNDS - 1
                for s, dive in enumerate(args[_DIVES]):
                    history[row + rel[s] * ROUNDS + dive] = 1.0
            elif kind == "catch":
                depth = (args[_ROUND] - 1) * 3 + args[_SPACE]
                history[at["catcher"] + depth * n + rel[args[_SEAT]]] = 1.0
                for card in args[_CARDS]:
                    history[at["caught"] + depth * C + CODE[card]] += 1.0
                if args[_TIED]:
                    history[at["kiti_tie"] + depth] = 1.0
            elif kind == "tie":
                history[at["unwon"] + ((args[_ROUND] - 1) * 3 + args[_TIE_SPACE]) * 2] = 1.0
            elif kind == "no_diver":
                history[at["unwon"] + ((args[_ROUND] - 1) * 3 + args[_NO_DIVER_SPACE]) * 2 + 1] = 1.0
            elif kind == "seagull":
                history[at["boxed"] + CODE["S"]] += 1.0
                if args[_ATE] is not None:
                    history[at["boxed"] + CODE[args[_ATE]]] += 1.0
            elif kind == "jellyfish":
                for card in args[_JELLIES]:
                    history[at["boxed"] + CODE[card]] += 1.0


class Mirror:
    """The shared table of :meth:`MiauiEncoder.shared`, kept by one env and brought up to
    date in place for each new state (:meth:`update`): the public values and the hands are
    written again, a pile's block only where the pile differs from the one it holds (a round
    changes a few): where cards were added on top, its values are brought up to date in place
    (:meth:`_grow_pile`; at the end, :meth:`_show_piles` shows them all); otherwise the block is
    the encoder's own, made once per content and kept.
    It equals :meth:`MiauiEncoder.shared` of the state given last (a test holds it so over
    random games); observations are gathered from it into new arrays, so nothing handed out
    shares its memory."""

    __slots__ = ("_bytes", "_dives", "_enc", "_piles", "_shown", "_values", "array")

    def __init__(self, encoder: MiauiEncoder) -> None:
        self._enc = encoder
        table = bytearray(4 * (encoder._one + 1))
        self._bytes = memoryview(table)
        self._values = self._bytes.cast("f")
        self._values[encoder._one] = 1.0
        #: the table (a numpy view of its bytes, never handed out)
        self.array: np.ndarray = np.frombuffer(table, FLOAT)
        #: what the dives' and the piles' blocks hold now (None: nothing yet)
        self._dives: list[int] | None = None
        self._piles: list[list[str] | None] = [None] * encoder.players
        self._shown: bool | None = None

    def update(self, state: MiauiState) -> np.ndarray:
        """The table of ``state`` (:attr:`array`, updated in place)."""
        enc = self._enc
        table = self._bytes
        blank = enc._blank
        end = len(blank)
        table[:end] = blank
        enc._write_public(state, self._values)
        made = enc._seats_made
        try:
            hands = b"".join([made[tuple(divers)] for divers in state.hands])
        except KeyError:
            hands = b"".join(map(enc._hand_block, state.hands))
        table[end : end + len(hands)] = hands
        committed = state.committed
        if committed != self._dives:
            self._dives = committed.copy()
            at = 4 * enc._dives_at
            table[at : at + len(committed) * _HAND_BYTES] = b"".join(map(_DIVE.__getitem__, committed))
        self._update_piles(state)
        return self.array

    def _update_piles(self, state: MiauiState) -> None:
        enc = self._enc
        shown = state.over or enc.open_baskets
        piles = self._piles
        if shown != self._shown:  # the blocks of piles of two cards or more change
            if shown and self._shown is not None:  # (the end): they show all their cards now
                self._show_piles()
            else:
                piles[:] = [None if old is None or len(old) > 1 else old for old in piles]
            self._shown = shown
        for s, pile in enumerate(state.piles):
            old = piles[s]
            if pile == old:
                continue
            at = enc._piles_at + s * PILE_SIZE
            if old is not None and len(pile) > len(old) and pile[: len(old)] == old:
                self._grow_pile(at, old, pile, shown)
            else:
                self._bytes[4 * at : 4 * (at + PILE_SIZE)] = enc._pile_block(pile, shown)
            piles[s] = pile.copy()

    def _show_piles(self) -> None:
        """Every kept pile's block as every seat sees it once all piles are shown: its shown
        cards and points are all of them (the blocks of piles of one card or none are so already)."""
        table, values = self._bytes, self._values
        for s, old in enumerate(self._piles):
            if old is None or len(old) <= 1:
                continue
            at = self._enc._piles_at + s * PILE_SIZE
            table[4 * (at + _SHOWN) : 4 * (at + _SHOWN + C)] = table[4 * (at + _FULL) : 4 * (at + _FULL + C)]
            values[at + _SHOWN_SCORE], values[at + _KNOWN] = values[at + _FULL_SCORE], 1.0

    def _grow_pile(self, at: int, old: list[str], pile: list[str], shown: bool) -> None:
        """The block at ``at`` of pile ``old`` turned into that of ``pile`` (``old`` with cards
        added on top, as a catch adds them) in place: :func:`_pile_block` gives the same values."""
        values = self._values
        added = pile[len(old) :]
        for card in added:
            values[at + _FULL + CODE[card]] += 1.0
        size = len(pile)
        score = values[at + _FULL_SCORE] = float(pile_score(pile))
        values[at + _SIZE] = float(size)
        top = CODE[added[-1]]
        if old:
            values[at + _TOP + CODE[old[-1]]] = 0.0
        values[at + _TOP + top] = 1.0
        if shown or size == 1:  # every seat sees the whole pile: its shown cards are all of them
            for card in added:
                values[at + _SHOWN + CODE[card]] += 1.0
            values[at + _SHOWN_SCORE], values[at + _KNOWN] = score, 1.0
            return
        if len(old) <= 1:  # it showed its one card and its points; now only its top
            values[at + _SHOWN_SCORE] = values[at + _KNOWN] = 0.0
        if old:
            values[at + _SHOWN + CODE[old[-1]]] = 0.0
        values[at + _SHOWN + top] = 1.0


#: A pile's block in the shared table: its cards as every seat sees them (all of them where
#: the view shows them, else the top card), its top card, all its cards (its own seat's
#: sight), then its size, its points as every seat sees them, whether every seat knows
#: them, and its points.
_SHOWN, _TOP, _FULL = 0, C, 2 * C
_SIZE, _SHOWN_SCORE, _KNOWN, _FULL_SCORE = 3 * C, 3 * C + 1, 3 * C + 2, 3 * C + 3
PILE_SIZE = 3 * C + 4


def _hand_block(divers: list[int]) -> bytes:
    """The first half of a seat's block: its divers left (diver 1 first); the second is its
    dive (:data:`_DIVE`)."""
    return _PACK_ROUNDS(*[1.0 if d in divers else 0.0 for d in range(1, ROUNDS + 1)])


def _pile_block(pile: list[str], shown: bool) -> bytes:
    """A pile's block (``shown``: the view shows every pile: Open Baskets or the end): its
    values in a list, packed as float32 bytes at once (a list is cheaper to write than a
    memoryview of floats: a new pile's block is made about 1.5 times a round)."""
    out = [0.0] * PILE_SIZE
    if not pile:
        out[_KNOWN] = 1.0  # no points to hide
        return _PACK_PILE(*out)
    for card in pile:
        out[_FULL + CODE[card]] += 1.0
    top = CODE[pile[-1]]
    out[_TOP + top] = 1.0
    score = float(pile_score(pile))
    out[_SIZE], out[_FULL_SCORE] = float(len(pile)), score
    if shown or len(pile) <= 1:
        out[_SHOWN : _SHOWN + C] = out[_FULL : _FULL + C]
        out[_SHOWN_SCORE], out[_KNOWN] = score, 1.0
    else:
        out[_SHOWN + top] = 1.0
    return _PACK_PILE(*out)


_PACK_PILE = struct.Struct(f"={PILE_SIZE}f").pack  # float32, native order (as numpy reads it)
_PACK_ROUNDS = struct.Struct(f"={ROUNDS}f").pack  # float32, native order (as numpy reads it)
_HAND_BYTES = 4 * ROUNDS  # a seat's block is its hand's, then its dive's
_PILE_BYTES = 4 * PILE_SIZE


def _ones(size: int, at: list[int]) -> bytes:
    """``size`` float32 zeros but ones at ``at``, as bytes."""
    block = np.zeros(size, FLOAT)
    block[at] = 1.0
    return block.tobytes()


_DIVE = [_ones(ROUNDS, [n - 1] if n else []) for n in range(ROUNDS + 1)]  # by the dive chosen (0: none)
_ONE = np.ones(1, FLOAT).tobytes()
