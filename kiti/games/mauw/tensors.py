"""Mauw's tensors (the ``tensors`` part; see :mod:`kiti.rl.tensors` and ``docs/rl.md``).

Only what a seat's view holds goes in (:meth:`.rules.MauwState._view` decides what that is;
this module reads the same state fields under the same conditions, and the conformance
suite checks every resample for the seat gives the identical tensors):

- its own hand; of every hand, its size and the cards everyone knows it holds (Tuatura's);
- every seat's four columns: nines under it, the Warrior or Spirit on top, its points;
- every seat's points and its team's, who is whose teammate, who is an opponent of mine;
- the draw pile's size, the discard pile (counted by code), turn, phase, the seats to act;
- an attack in progress (attacker, defender, column, target, attacking card, what a Joker
  stands for, the value to match) and a gain being placed (its owner, its nine's card
  unless drawn face down, the Warrior on top, the slots that can take it); the winners.

Seats are ego-centric: row 0 is the viewer, row k the seat k places after it clockwise.
Cards are indexed in :data:`.cards.ALL_CODES` order (R1 ... R8, JK, SP, KI, NI, TU); a top
in :data:`TOPS` order (the Warriors, then the Spirit).

The information state adds the public history, read from the events the seat saw: each
seat's cards played and passed (by code), the reshuffles, and one row per turn of the game
(:data:`TURN_FIELDS`), as many rows as the game's move limit allows turns.  Every field it
reads is public and logged once: Mauw rewrites log entries only in :meth:`resample` (other
seats' private draws, the referee's fields), never the public fields read here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from itertools import pairwise
from threading import get_ident
from typing import Any, cast

import numpy as np

from ...core.events import Entry
from ...core.load import Game
from ...core.moves import ActionCodec, Move
from ...core.tensors import FLOAT, Encoder, Layout, Spec
from .cards import ALL_CODES, KIWI, NINOX, SPIRIT, TUATURA, WARRIORS, deck_counts
from .rules import (
    _COLUMN_MASKS,
    HAND,
    INFO,
    MAX_NINES,
    PASS,
    SLOTS,
    MauwState,
    _hand_bits,
    _turn_play_actions,
    column_score,
    gain_destinations,
)

CODES = ALL_CODES
C = len(CODES)
CODE = {code: i for i, code in enumerate(CODES)}
#: What may top a column: the Warriors, then the Spirit.
TOPS = (*WARRIORS, SPIRIT)
TOP = {code: i for i, code in enumerate(TOPS)}
W = len(WARRIORS)
S = len(SLOTS)
PHASES = ("turn", "defend", "assist", "renew", "place")
PHASE = {p: i for i, p in enumerate(PHASES)}
EFFECTS = ("place", "strengthen", "block", "combo", "attack", "unblock")
EFFECT = {e: i for i, e in enumerate(EFFECTS)}
#: Each turn's row of the history: one number per field, 0 when it does not apply (yet).
TURN_FIELDS = (
    ("seat", "1 + the row of the seat whose turn it is"),
    ("act", "1 played a card, 2 Kiwi, 3 Ninox, 4 passed"),
    ("card", "1 + the code of the card played (Kiwi: of the Warrior it fetched)"),
    ("declared", "1 + the top index a Joker stood for"),
    ("target", "1 + the row of the seat whose column it went on"),
    ("slot", "1 + that column's slot"),
    ("effect", "1 + the effect: place, strengthen, block, combo, attack, unblock"),
    ("from_seat", "Kiwi: 1 + the row of the seat its Warrior came from"),
    ("from_slot", "Kiwi: 1 + the slot it came from"),
    ("combo", "the turn's combo: 1 pair, 2 twins"),
    ("gain", "1 + the slot the turn's gain went on; 5: lost for want of room"),
    ("defences", "defences by the attacked seat"),
    ("assists", "defences by her teammate"),
    ("renewals", "renewals by the attacker"),
    ("outcome", "the attack: 1 succeeded, 2 stopped, 3 cancelled by Tuatura"),
)
F = len(TURN_FIELDS)
_FIELD = {name: i for i, (name, _) in enumerate(TURN_FIELDS)}
#: The highest points of a column, of a seat (four columns), of a team (two seats).
_COLUMN_HIGH = max(column_score(k, top) for k in range(MAX_NINES + 1) for top in (None, *TOPS))
#: A column's points for (nines, top): the rules' column_score, worked out once.
_SCORE = {(k, top): column_score(k, top) for k in range(MAX_NINES + 1) for top in (None, *TOPS)}
#: A column's (top index in TOPS, -1 for none; points) by (nines, top).
_COLUMN = {(k, top): (-1 if top is None else TOP[top], points) for (k, top), points in _SCORE.items()}
#: The fields of the events read here, in their logged order (view.py declares them).
_FIELDS = {
    "turn": ("seat",),
    "play": ("seat", "card", "declared", "target", "slot", "effect"),
    "kiwi": ("seat", "from_seat", "from_slot", "warrior", "target", "slot", "effect"),
    "ninox": ("seat", "target", "slot"),
    "combo": ("seat", "combo", "cards"),
    "nine": ("seat", "slot", "card"),
    "defend": ("seat", "card", "declared"),
    "renew": ("seat", "card", "declared"),
    "tuatura": ("seat", "card"),
    "pass": ("seat", "cards"),
}
assert all(INFO.events[kind] == names for kind, names in _FIELDS.items()), "Mauw's events changed"


def observation_specs(n: int, most: list[float], deck: int) -> list[Spec]:
    """The observation's segments for ``n`` seats; ``most``: each code's copies in the
    deck, ``deck``: the deck's size (both follow from the expert-animal options)."""
    in_hand = [min(HAND, m) for m in most]
    return [
        (
            "options",
            6,
            "Kiwis, Ninoxes, Tuaturas in the deck; teams, open_slot_block, ties=nines (1: on)",
            0,
            [4, 4, 4, 1, 1, 1],
        ),
        ("over", 1, "the game is over", 0, 1),
        ("phase", len(PHASES), "turn, defend, assist, renew, place (one-hot; zeros once over)", 0, 1),
        ("turn", n, "the seat whose turn it is (one-hot)", 0, 1),
        ("to_act", n, "the seats asked now", 0, 1),
        ("partner", (n, n), "each seat's teammate (one-hot by row; zeros without teams or alone)", 0, 1),
        ("opponent", n, "my opponents (every other seat but my teammate)", 0, 1),
        ("hand", C, "my hand, counted by code", 0, in_hand),
        ("hand_size", n, "cards in each hand", 0, HAND),
        ("known", (n, C), "cards everyone knows each hand holds (Tuatura's catch), by code", 0, in_hand * n),
        ("nines", (n, S), "nines under each column (slots A-D)", 0, MAX_NINES),
        ("top", (n, S, len(TOPS)), "each column's top: a Warrior R1..R8 or the Spirit (one-hot)", 0, 1),
        ("column_score", (n, S), "each column's points", 0, _COLUMN_HIGH),
        ("score", n, "each seat's points", 0, S * _COLUMN_HIGH),
        ("team_score", n, "the points of each seat's team (its own without teams)", 0, 2 * S * _COLUMN_HIGH),
        ("winners", n, "the seats sharing the victory (at the end)", 0, 1),
        ("draw", 1, "cards in the draw pile", 0, deck),
        ("discard", C, "the discard pile, counted by code", 0, most),
        ("attack", 1, "an attack is in progress", 0, 1),
        ("attacker", n, "the attacking seat (one-hot)", 0, 1),
        ("defender", n, "the attacked seat (one-hot)", 0, 1),
        ("attack_slot", S, "the attacked column (one-hot)", 0, 1),
        ("attack_target", W, "the Warrior attacked (one-hot)", 0, 1),
        ("attack_card", C, "the attacking card now (one-hot; zeros once defended, until renewed)", 0, 1),
        ("attack_declared", W, "what a Joker attacking card stands for (one-hot)", 0, 1),
        ("attack_value", W, "the value a defence or a renewal must match (one-hot, 1 first)", 0, 1),
        ("gain_seat", n, "the seat placing a gain (one-hot)", 0, 1),
        ("gain_nine", C + 1, "the gain's nine: its code, or (last) drawn face down", 0, 1),
        ("gain_top", W, "the Warrior on top of the gain (twins; one-hot)", 0, 1),
        ("gain_slots", S, "the owner's slots that can take the gain", 0, 1),
    ]


def history_specs(n: int, turns: int, limit: int) -> list[Spec]:
    """What the information state adds for ``n`` seats: ``turns`` rows, counts bounded by
    ``limit`` (the move limit)."""
    high = np.tile([n, 4, C, len(TOPS), n, S, len(EFFECTS), n, S, 2, S + 1, limit, limit, limit, 3], turns)
    return [
        (
            "played",
            (n, C),
            "cards each seat played from its hand (on a column, Kiwi, Ninox, against "
            "an attack, Tuatura), by code",
            0,
            limit,
        ),
        ("passed", (n, C), "cards each seat threw away by passing, by code", 0, HAND * limit),
        ("reshuffles", 1, "times the discards became the draw pile", 0, (HAND + 1) * limit + 1),
        (
            "turns",
            (turns, F),
            f"per turn, oldest first: its {F} TURN_FIELDS ({', '.join(n for n, _ in TURN_FIELDS[:3])}, ...)",
            0,
            tuple(high.tolist()),
        ),
    ]


class MauwEncoder(Encoder):
    """Mauw's observation and information-state tensors for one game (seats, options)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.players
        opts = self.options
        counts = deck_counts(opts["kiwi"], opts["ninox"], opts["tuatura"])
        most = [float(counts[c]) for c in CODES]
        #: Turns a game can hold: every turn after the first starts with a move.
        self.turns = self.rules.move_limit(n, opts)
        self.observation_layout = Layout.of(observation_specs(n, most, sum(counts.values())))
        self.history_layout = Layout.of(history_specs(n, self.turns, self.turns))
        self._at = at = {s.name: s.offset for s in self.observation_layout}
        self._hat = {s.name: s.offset for s in self.history_layout}
        flags = (opts["teams"], opts["open_slot_block"], opts["ties"] == "nines")
        values = [float(opts["kiwi"]), float(opts["ninox"]), float(opts["tuatura"])]
        values += [float(f) for f in flags]
        #: The options' values and where they go
        self._fixed = [(at["options"] + i, v) for i, v in enumerate(values)]
        #: _rel[seat][s]: the row of seat s as seat ``seat`` sees the table
        self._rel = [tuple((s - seat) % n for s in range(n)) for seat in range(n)]
        #: Per seat, where each seat's hand size goes (in seat order), and every other seat's
        #: "opponent" flag (without teams)
        self._hand_size_at = [[at["hand_size"] + r for r in rel] for rel in self._rel]
        self._others_at = [[at["opponent"] + r for r in rel if r] for rel in self._rel]
        #: The play actions of one column by (area, slot, bits): a few thousand at most.
        self._column_plays: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self._pass = _action_of(game.codec, PASS)
        #: Each column's run of play actions, (first, end), where every column's plays are a
        #: run of actions of their own (None otherwise: write_legal then writes action by action)
        self._runs = _column_runs(n)
        #: A column's plays as a slice of a mask, (first, end, bytes), by bits << 8 | column.
        self._column_masks: dict[int, tuple[int, int, bytes]] = {}
        self._teams_made: dict[tuple[int, ...], tuple[list[int | None], list[list[int]]]] = {}
        #: The mask's size (the codec's actions, then NOOP), and per hand's play bits
        #: (rules._hand_bits) a mask of every play those bits allow on any column, and the pass
        self._mask_size = game.codec.size + 1
        self._held_masks: dict[int, np.ndarray] = {}
        #: By thread, the Mirror it last brought up to date: write_legal reads a turn's plays
        #: from it where it holds the board of the state asked about (compared in full first;
        #: by thread, so that envs stepped in other threads cannot change it in between)
        self._mirrored: dict[int, Mirror] = {}
        # where _table writes
        self._turn_at, self._phase_at, self._to_act_at = at["turn"], at["phase"], at["to_act"]
        self._hand_at, self._known_at, self._draw_at = at["hand"], at["known"], at["draw"]
        self._discard_at = at["discard"]
        self._nines_at, self._top_at, self._col_at = at["nines"], at["top"], at["column_score"]
        self._score_at, self._team_score_at = at["score"], at["team_score"]
        self._over_at, self._winners_at = at["over"], at["winners"]
        #: the attack's segments and the gain's, each a run of values (Mirror writes them anew)
        lay = self.observation_layout
        self._attack_span = (at["attack"], lay["attack_value"].stop)
        self._gain_span = (at["gain_seat"], lay["gain_slots"].stop)
        #: The board (segments nines, top, column_score, laid end to end) is gathered per
        #: viewer from a table of every area's block (:data:`AREA` values: its nines, tops and
        #: points, seat order), each block made once per content and kept (:meth:`_area`).
        assert self._top_at == self._nines_at + n * S and self._col_at == self._top_at + n * S * len(TOPS)
        self._board_end = self._col_at + n * S
        self._board_gather = [self._board_list(seat) for seat in range(n)]
        self._areas_made: dict[tuple[str | int | None, ...], tuple[bytes, int]] = {}
        #: A new observation is gathered (_new_gather) from the bytes of this template (zeros
        #: but the options) followed by the board's table: the template's values, the board's.
        template = np.zeros(self.observation_layout.size, FLOAT)
        for i, v in self._fixed:
            template[i] = v
        self._template = template.tobytes()
        size = self.observation_layout.size
        self._new_gather = [
            np.concatenate(
                (np.arange(self._nines_at), size + gather, np.arange(self._board_end, size))
            ).astype(np.intp)
            for gather in self._board_gather
        ]

    # ------------------------------------------------------------ the mask
    def legal_actions(self, state: MauwState, seat: int) -> tuple[int, ...]:
        """The actions of :meth:`MauwState.legal_actions` (in another order: a mask needs only
        the set), cheaper on a turn: the plays that the rules' own column bits allow
        (``_turn_masks``, as ``random_action`` reads them), listed by the rules once per
        (area, slot, bits) and kept, then the pass and the Kiwi and Ninox moves (the rules'
        list).  A test holds it equal to the rules' over random games."""
        if state.phase != "turn" or seat not in state.acting:
            return tuple(state.legal_actions(seat))
        areas, masks = state._turn_masks(seat)
        made = self._column_plays
        plays: list[int] = []
        for i, bits in enumerate(masks):
            if bits:
                key = (areas[i // S], i % S, bits)
                found = made.get(key)
                if found is None:
                    found = self._column(state.players, key)
                plays += found
        plays.append(self._pass)
        hand = state.hands[seat]
        if KIWI in hand or NINOX in hand:
            codec = state._codec or state.codec()
            plays += [_action_of(codec, m) for m in state._animal_moves(seat)]
        return tuple(plays)

    def legal_key(self, state: MauwState, seat: int) -> tuple[Any, ...] | None:
        """What decides the legal actions of ``seat`` (to act) outside a turn, for
        :class:`~kiti.rl.spaces.Actions` to look its mask up by: the rules' own key
        (:meth:`.rules.MauwState.moves_key`: against an attack, the phase, the value to match
        and which answers the hand holds; placing a gain, the slots that can take it).  None
        on a turn (write_legal writes it) and for a seat not to act."""
        return state.moves_key(seat)

    def write_legal(self, state: MauwState, seat: int, out: memoryview) -> None:
        """Write 1 at each of :meth:`legal_actions` into ``out`` (a zeroed mask's bytes; ``seat``
        is to act).  On a turn, where the last :class:`Mirror` this thread brought up to date
        holds this state's board and teams, its plays that the columns allow for ``seat``
        and'ed with those the hand allows (:meth:`_held_mask`), in one numpy call; otherwise
        the plays of each column as one slice (its run of actions).  Then the Kiwi and Ninox
        moves."""
        runs = self._runs
        if state.phase != "turn" or runs is None:
            for a in self.legal_actions(state, seat):
                out[a] = 1
            return
        hand = state.hands[seat]
        mirror = self._mirrored.get(get_ident())
        if (
            mirror is not None
            and state.tops == mirror._tops
            and state.nines == mirror._nines
            and state.team_of == mirror._team_of
        ):
            held = _hand_bits(tuple(hand))
            allowed = self._held_masks.get(held)
            if allowed is None:
                allowed = self._held_mask(held)
            np.bitwise_and(mirror.plays[seat], allowed, out=np.frombuffer(out, np.int8))
        else:
            self._write_plays(state, seat, out)
        if KIWI in hand or NINOX in hand:
            codec = state._codec or state.codec()
            for move in state._animal_moves(seat):
                out[_action_of(codec, move)] = 1

    def _held_mask(self, held: int) -> np.ndarray:
        """A mask of every play that the hand bits ``held`` allow on any column, and the
        pass (kept: a few hundred hands' bits at most)."""
        n = self.players
        mask = np.zeros(self._mask_size, np.int8)
        mask[_turn_play_actions(n, list(range(n)), [held] * (n * S))] = 1
        mask[self._pass] = 1
        if len(self._held_masks) > 1 << 12:  # never seen: 2**9 Warrior and Spirit sets, Joker or not
            self._held_masks.clear()
        self._held_masks[held] = mask
        return mask

    def _write_plays(self, state: MauwState, seat: int, out: memoryview) -> None:
        """A turn's plays and the pass, written column by column from the rules' play bits."""
        areas, masks = state._turn_masks(seat)
        made = self._column_masks
        every = len(areas) == state.players  # every area: mask i is column i
        for i, bits in enumerate(masks):
            if bits:
                key = bits << 8 | (i if every else areas[i // S] * S + i % S)  # columns < 256
                found = made.get(key)
                if found is None:
                    found = self._column_mask(state.players, key)
                out[found[0] : found[1]] = found[2]
        out[self._pass] = 1

    def _column_mask(self, players: int, key: int) -> tuple[int, int, bytes]:
        """The slice of a mask that the plays of ``key`` (bits << 8 | column) make: within the
        column's run, 1 where the play is allowed (:meth:`_column`), kept."""
        column, bits = key & 255, key >> 8
        assert self._runs is not None
        first, end = self._runs[column]
        mask = bytearray(end - first)
        for a in self._column(players, (column // S, column % S, bits)):
            mask[a - first] = 1
        if len(self._column_masks) > 1 << 15:  # never seen: a few thousand at most
            self._column_masks.clear()
        found = self._column_masks[key] = (first, end, bytes(mask))
        return found

    def _column(self, players: int, key: tuple[int, int, int]) -> tuple[int, ...]:
        """The play actions that ``bits`` allow on column ``slot`` of seat ``area``'s (the
        rules' ``_turn_play_actions`` for that one column), kept."""
        area, slot, bits = key
        masks = [0] * S
        masks[slot] = bits
        if len(self._column_plays) > 1 << 15:  # never seen: a few thousand at most
            self._column_plays.clear()
        found = self._column_plays[key] = tuple(_turn_play_actions(players, [area], masks))
        return found

    # ------------------------------------------------------------ the observation
    def _observe(self, state: MauwState, seat: int, out: np.ndarray) -> None:
        """Every value written one by one through a memoryview of ``out`` (zeroed): cheaper
        than numpy for the few dozen values a seat's table holds."""
        o = cast("memoryview[float]", out.data)  # its float32 values (any strides)
        for i, v in self._fixed:
            o[i] = v
        board, scores = self._board(state, b"")
        o[self._nines_at : self._board_end] = board.take(self._board_gather[seat]).data
        self._table(state, seat, o, scores)

    def _new(self, state: MauwState, seat: int, shared: Mirror | None = None) -> np.ndarray:
        """``shared``: an env's :meth:`Mirror.update` of this state, which holds every value:
        the whole observation in one gather.  Without: the template and the board in one
        gather, then :meth:`_observe`'s other values."""
        if shared is not None:
            return shared.array.take(shared.gather[seat], mode="wrap")  # in range: the cheaper mode
        table, scores = self._board(state, self._template)
        out: np.ndarray = table.take(self._new_gather[seat], mode="wrap")
        self._table(state, seat, cast("memoryview[float]", out.data), scores)
        return out

    def _table(self, state: MauwState, seat: int, o: memoryview[float], scores: list[int]) -> None:
        """Every value but the options and the board (written already; ``scores``: each
        seat's points, :meth:`_board`'s)."""
        at = self._at
        rel = self._rel[seat]
        o[self._turn_at + rel[state.turn]] = 1.0
        if state.over:
            o[at["over"]] = 1.0
            for s in state.winners():
                o[at["winners"] + rel[s]] = 1.0
        else:
            o[self._phase_at + PHASE[state.phase]] = 1.0
        base = self._to_act_at
        for s in state.acting:
            o[base + rel[s]] = 1.0
        mates = self._teams(state, seat, o)
        hands = state.hands
        _count(self._hand_at, hands[seat], o)
        for i, hand in zip(self._hand_size_at[seat], hands):
            o[i] = len(hand)
        if any(state.known):
            for s, known in enumerate(state.known):
                if known:
                    _count(self._known_at + rel[s] * C, known, o)
        self._scores(scores, rel, mates, o)
        self._piles(state, o)
        if state.attack is not None:
            self._attack(state, rel, o)
        if state.gain is not None:
            self._gain(state, rel, o)

    def _piles(self, state: MauwState, o: memoryview[float]) -> None:
        """The draw pile's size and the discard pile's cards by code (into zeros)."""
        o[self._draw_at] = len(state.draw)
        discard = state.discard
        if len(discard) < _LONG:
            _count(self._discard_at, discard, o)
            return
        base = self._discard_at  # a long pile: counted in C (Counter), then one write a code
        for c, k in Counter(discard).items():
            o[base + CODE[c]] = k

    def _teams(self, state: MauwState, seat: int, o: memoryview[float]) -> list[int | None] | None:
        """Who is whose teammate, and my opponents; each seat's teammate (None without teams)."""
        if state.team_of is None:  # every other seat is an opponent
            for i in self._others_at[seat]:
                o[i] = 1.0
            return None
        key = tuple(state.team_of)
        facts = self._teams_made.get(key)
        if facts is None:
            facts = self._teams_made[key] = self._team_facts(state)
        mates, ones = facts
        for i in ones[seat]:
            o[i] = 1.0
        return mates

    def _team_facts(self, state: MauwState) -> tuple[list[int | None], list[list[int]]]:
        """For the seating of ``state``'s teams (the rules' teammate and is_opponent): each
        seat's teammate, and per viewer the values of segments partner and opponent that are 1."""
        at = self._at
        n = self.players
        mates = [state.teammate(s) for s in range(n)]
        ones = []
        for seat in range(n):
            rel = self._rel[seat]
            mine = [at["partner"] + rel[s] * n + rel[m] for s, m in enumerate(mates) if m is not None]
            mine += [at["opponent"] + rel[s] for s in range(n) if state.is_opponent(seat, s)]
            ones.append(mine)
        return mates, ones

    def _board_list(self, seat: int) -> np.ndarray:
        """Where each board value of ``seat``'s observation lies in :meth:`_board`'s table."""
        n, tops_n = self.players, len(TOPS)
        gather = []
        for r in range(n):  # nines
            area = (r + seat) % n * AREA
            gather += [area + slot for slot in range(S)]
        for r in range(n):  # tops
            area = (r + seat) % n * AREA + S
            gather += [area + i for i in range(S * tops_n)]
        for r in range(n):  # column points
            area = (r + seat) % n * AREA + S + S * tops_n
            gather += [area + slot for slot in range(S)]
        return np.array(gather, np.intp)

    def mirror(self) -> Mirror:
        """The template and board table that one env keeps and brings up to date (see
        :class:`Mirror`)."""
        return Mirror(self)

    def _board(self, state: MauwState, first: bytes) -> tuple[np.ndarray, list[int]]:
        """``first``, then every area's block (seat order), as one float32 table; each seat's
        points."""
        area = self._area
        blocks = [first]
        scores = []
        for nines, tops in zip(state.nines, state.tops):
            found = area(tops, nines)
            blocks.append(found[0])
            scores.append(found[1])
        return np.frombuffer(b"".join(blocks), FLOAT), scores

    def _area(self, tops: list[str | None], nines: list[list[str]]) -> tuple[bytes, int]:
        """An area's block and points (:func:`_area_block`), kept by its tops and the sizes
        of its nines' columns (all a block depends on)."""
        a, b, c, d = tops  # the four slots written out (S == 4): the cheapest key to build
        e, f, g, h = nines
        key = (a, b, c, d, len(e), len(f), len(g), len(h))
        made = self._areas_made
        found = made.get(key)
        if found is None:
            if len(made) > 1 << 15:  # about 12 MB
                made.clear()
            found = made[key] = _area_block(tops, [len(column) for column in nines])
        return found

    def _scores(
        self, scores: list[int], rel: tuple[int, ...], mates: list[int | None] | None, o: memoryview[float]
    ) -> None:
        """Every seat's points and its team's (``mates``: each seat's teammate, None without teams)."""
        score_at, team_at = self._score_at, self._team_score_at
        for s, total in enumerate(scores):
            if total:
                o[score_at + rel[s]] = total
            mate = None if mates is None else mates[s]
            team = total if mate is None else total + scores[mate]
            if team:
                o[team_at + rel[s]] = team

    def _attack(self, state: MauwState, rel: tuple[int, ...], o: memoryview[float]) -> None:
        at = self._at
        a = state.attack
        assert a is not None
        for i in (
            at["attack"],
            at["attacker"] + rel[a.attacker],
            at["defender"] + rel[a.defender],
            at["attack_slot"] + a.slot,
            at["attack_target"] + TOP[a.target],
            at["attack_value"] + a.value - 1,
        ):
            o[i] = 1.0
        if a.card is not None:
            o[at["attack_card"] + CODE[a.card]] = 1.0
        if a.decl is not None:
            o[at["attack_declared"] + TOP[a.decl]] = 1.0

    def _gain(self, state: MauwState, rel: tuple[int, ...], o: memoryview[float]) -> None:
        """A gain waiting for its place: its nine's card only where the view shows it."""
        at = self._at
        assert state.gain is not None
        owner, nine_cards, top = state.gain
        o[at["gain_seat"] + rel[owner]] = 1.0
        if state._gain_hidden:
            o[at["gain_nine"] + C] = float(len(nine_cards))
        else:
            _count(at["gain_nine"], nine_cards, o)
        if top is not None:
            o[at["gain_top"] + TOP[top]] = 1.0
        nines = [len(col) for col in state.nines[owner]]
        for slot in gain_destinations(nines, state.tops[owner]):
            o[at["gain_slots"] + slot] = 1.0

    # ------------------------------------------------------------ the history
    def _read_events(
        self, seat: int, entries: list[Entry], history: np.ndarray, memory: dict[str, Any]
    ) -> None:
        """Each turn's act and what came of it, the cards played and passed, the reshuffles."""
        at = self._hat
        rel = self._rel[seat]
        played, passed = at["played"], at["passed"]
        row = memory.get("row", -1)  # where the current turn's row starts (-1: none)
        for _, kind, args, _ in entries:
            if kind == "turn":
                turn = memory["turn"] = memory.get("turn", -1) + 1
                row = at["turns"] + turn * F if turn < self.turns else -1
                memory["defender"] = None
                if row >= 0:
                    history[row] = rel[args[0]] + 1
                continue
            reader = _READERS.get(kind)
            if reader is not None and row >= 0:
                reader(rel, args, history, row, memory)
            if kind == "pass":
                for card in args[1]:
                    history[passed + rel[args[0]] * C + CODE[card]] += 1.0
            elif kind == "reshuffle":
                history[at["reshuffles"]] += 1.0
            elif kind in _PLAYED:
                history[played + rel[args[0]] * C + CODE[_PLAYED[kind](args)]] += 1.0
        memory["row"] = row


Reader = Callable[[tuple[int, ...], tuple[Any, ...], np.ndarray, int, dict[str, Any]], None]


def _play(
    rel: tuple[int, ...], args: tuple[Any, ...], h: np.ndarray, row: int, memory: dict[str, Any]
) -> None:
    _, card, declared, target, slot, effect = args
    if effect == "attack":
        memory["defender"] = target
    _put(h, row, act=1, card=CODE[card] + 1, target=rel[target] + 1, slot=slot + 1, effect=EFFECT[effect] + 1)
    if declared is not None:
        h[row + _FIELD["declared"]] = TOP[declared] + 1


def _kiwi(
    rel: tuple[int, ...], args: tuple[Any, ...], h: np.ndarray, row: int, memory: dict[str, Any]
) -> None:
    _, from_seat, from_slot, warrior, target, slot, effect = args
    if effect == "attack":
        memory["defender"] = target
    _put(
        h,
        row,
        act=2,
        card=CODE[warrior] + 1,
        target=rel[target] + 1,
        slot=slot + 1,
        effect=EFFECT[effect] + 1,
    )
    _put(h, row, from_seat=rel[from_seat] + 1, from_slot=from_slot + 1)


def _ninox(
    rel: tuple[int, ...], args: tuple[Any, ...], h: np.ndarray, row: int, memory: dict[str, Any]
) -> None:
    _put(h, row, act=3, target=rel[args[1]] + 1, slot=args[2] + 1)


def _defend(
    rel: tuple[int, ...], args: tuple[Any, ...], h: np.ndarray, row: int, memory: dict[str, Any]
) -> None:
    h[row + _FIELD["defences" if args[0] == memory.get("defender") else "assists"]] += 1


def _field(name: str, value: Any) -> Reader:
    """A reader setting field ``name`` of the turn's row to ``value`` (a function of the args),
    or adding one to it (``value`` None)."""
    at = _FIELD[name]

    def read(
        rel: tuple[int, ...], args: tuple[Any, ...], h: np.ndarray, row: int, memory: dict[str, Any]
    ) -> None:
        if value is None:
            h[row + at] += 1
        else:
            h[row + at] = value(args)

    return read


#: Per event kind, what it writes into the current turn's row.
_READERS: dict[str, Reader] = {
    "play": _play,
    "kiwi": _kiwi,
    "ninox": _ninox,
    "pass": _field("act", lambda a: 4),
    "combo": _field("combo", lambda a: 1 if a[1] == "pair" else 2),
    "nine": _field("gain", lambda a: a[1] + 1),
    "lost": _field("gain", lambda a: S + 1),
    "defend": _defend,
    "renew": _field("renewals", None),
    "success": _field("outcome", lambda a: 1),
    "stop": _field("outcome", lambda a: 2),
    "tuatura": _field("outcome", lambda a: 3),
}
#: The kinds that take a card from a hand: the card (the seat is their first field).
_PLAYED: dict[str, Callable[[tuple[Any, ...]], str]] = {
    "play": lambda a: a[1],
    "kiwi": lambda a: KIWI,
    "ninox": lambda a: NINOX,
    "defend": lambda a: a[1],
    "renew": lambda a: a[1],
    "tuatura": lambda a: TUATURA,
}


def _action_of(codec: ActionCodec, move: Move) -> int:
    """``move``'s action: by identity (the rules offer the codec's own values), else by value."""
    try:
        return codec.identity[id(move)]
    except KeyError:
        return codec.index[move]


def _column_runs(players: int) -> list[tuple[int, int]] | None:
    """Per column (seat * S + slot), the run of actions (first, end) that its plays take,
    from the rules' own numbering (:func:`_turn_play_actions`, every play allowed); None
    unless each column's plays are a run of consecutive actions that no other column's cross."""
    runs = []
    for column in range(players * S):
        masks = [0] * S
        masks[column % S] = -1  # every play
        actions = _turn_play_actions(players, [column // S], masks)
        first, end = min(actions), max(actions) + 1
        if end - first != len(actions):
            return None
        runs.append((first, end))
    ordered = sorted(runs)
    if any(a[1] > b[0] for a, b in pairwise(ordered)):
        return None
    return runs


class Mirror:
    """The table :meth:`MauwEncoder._new` gathers a whole observation from, kept by one env
    and brought up to date in place (:meth:`update`): per seat a template (the options and
    that seat's teams segments, written again only when the teams change), of which the
    first also holds every other value in seat order (turn, phase, the seats to act, hand
    sizes, known cards, points, piles, the attack, the gain, the winners), then every seat's
    hand counted by code, then every area's block (nines, tops, points per column).  Each
    seat's gather (:attr:`gather`) reads its own template and hand, and the rows of every
    seat turned ego-centric.  :meth:`update` compares each part with what it wrote last
    (lists compared in C) and writes again only what changed: a move changes a hand or
    two, a column or two, the turn or the phase.  Observations gathered from it equal the
    encoder's own (tests hold it so over random games and jumps between states); they are
    gathered into new arrays, so nothing handed out shares its memory.

    It also keeps, per seat, the plays that the columns allow it on a turn (:attr:`plays`,
    a column written again only when its top or its emptiness changed), which
    :meth:`MauwEncoder.write_legal` reads where the mirror holds the board and the teams of
    the state asked about."""

    __slots__ = (
        "_acting",
        "_attack",
        "_bytes",
        "_discard",
        "_enc",
        "_gain",
        "_hands",
        "_known",
        "_mates",
        "_nines",
        "_open",
        "_phase_i",
        "_plays",
        "_size",
        "_slices",
        "_team_of",
        "_tops",
        "_turn_i",
        "_values",
        "_winners",
        "array",
        "columns_at",
        "gather",
        "hands_at",
        "plays",
        "scores",
    )

    def __init__(self, encoder: MauwEncoder) -> None:
        self._enc = encoder
        n = encoder.players
        self._size = size = encoder.observation_layout.size
        #: where the hands (n * C values) and the columns (n * S blocks of :data:`COLUMN`
        #: values, seat by seat) start; one last value (never gathered) takes the writes
        #: that clear a one-hot not written yet
        self.hands_at = n * size
        self.columns_at = self.hands_at + n * C
        table = bytearray(4 * (self.columns_at + n * S * COLUMN + 1))
        self._bytes = memoryview(table)
        self._values = self._bytes.cast("f")
        #: the table (a numpy view of its bytes, never handed out) and each seat's points
        self.array: np.ndarray = np.frombuffer(table, FLOAT)
        self.scores = [0] * n
        self.gather = [self._gather(seat) for seat in range(n)]
        #: per seat, a mask of the plays that every column's top and nines allow it on its
        #: turn (a teammate's columns none), whatever its hand, and the pass (write_legal
        #: and's it with the hand's); its bytes; the areas open to each seat
        size = encoder._mask_size
        plays = bytearray(n * size)
        self._plays = memoryview(plays)
        self.plays: np.ndarray = np.frombuffer(plays, np.int8).reshape(n, size)
        self._open: list[list[bool]] = [[True] * n for _ in range(n)]
        #: :meth:`_column_slices` by (column, top, empty), for the teams of :attr:`_open`
        self._slices: dict[tuple[int, str | None, bool], list[tuple[int, int, bytes]]] = {}
        self._team_of: list[int] | bool | None = False  # the teams written (False: none yet)
        self._mates: list[int | None] | None = None  # each seat's teammate (None: no teams)
        self._forget()

    def _gather(self, seat: int) -> np.ndarray:
        """Where each value of ``seat``'s observation lies in the table."""
        enc = self._enc
        n, size = enc.players, self._size
        layout = enc.observation_layout
        gather = np.arange(size)
        for name in ("options", "partner", "opponent"):  # the seat's own template
            seg = layout[name]
            gather[seg.offset : seg.stop] += seat * size
        for name in _SEAT_ROWS:  # rows in seat order, turned ego-centric
            seg = layout[name]
            width = seg.size // n
            for r in range(n):
                src = seg.offset + (r + seat) % n * width
                gather[seg.offset + r * width : seg.offset + (r + 1) * width] = range(src, src + width)
        hand = enc._hand_at
        gather[hand : hand + C] = range(self.hands_at + seat * C, self.hands_at + (seat + 1) * C)
        tops_n = len(TOPS)
        for r in range(n):
            for slot in range(S):
                column = self.columns_at + ((r + seat) % n * S + slot) * COLUMN
                gather[enc._nines_at + r * S + slot] = column
                at = enc._top_at + (r * S + slot) * tops_n
                gather[at : at + tops_n] = range(column + 1, column + 1 + tops_n)
                gather[enc._col_at + r * S + slot] = column + 1 + tops_n
        return gather.astype(np.intp)

    def _forget(self) -> None:
        """Zeros everywhere but the templates' options, and nothing held: the next
        :meth:`update` writes every value that is not zero."""
        enc = self._enc
        n, size = enc.players, self._size
        self._bytes[:] = bytes(len(self._bytes))
        for seat in range(n):
            self._bytes[4 * seat * size : 4 * (seat + 1) * size] = enc._template
        self._turn_i = self._phase_i = len(self._values) - 1  # the last value: never gathered
        self._acting: frozenset[int] = frozenset()
        self._winners: list[int] = []
        self._hands: list[list[str]] = [[] for _ in range(n)]
        self._known: list[list[str]] = [[] for _ in range(n)]
        #: the tops and nines the areas' blocks were written from (empty columns: zeros)
        self._tops: list[list[str | None]] = [[None] * S for _ in range(n)]
        self._nines: list[list[list[str]]] = [[[] for _ in range(S)] for _ in range(n)]
        self.scores = [0] * n
        self._discard: list[str] | None = None  # the discard pile counted in the table
        self._attack: tuple[Any, ...] | None = None
        self._gain: tuple[Any, ...] | None = None

    def update(self, state: MauwState) -> Mirror:
        """This mirror, brought up to date for ``state`` (its table, scores and plays)."""
        enc = self._enc
        enc._mirrored[get_ident()] = self
        if state.team_of != self._team_of:
            self._teams(state)
        v = self._values
        i = enc._turn_at + state.turn
        if i != self._turn_i:
            v[self._turn_i] = 0.0
            v[i] = 1.0
            self._turn_i = i
        i = enc._over_at if state.over else enc._phase_at + PHASE[state.phase]
        if i != self._phase_i:
            v[self._phase_i] = 0.0
            v[i] = 1.0
            self._phase_i = i
        if state.acting != self._acting:
            self._to_act(state.acting)
        if state.hands != self._hands:
            self._hands_of(state.hands)
        if state.known != self._known:
            self._known_of(state.known)
        if state.nines != self._nines or state.tops != self._tops:
            self._board(state)
        if state.discard != self._discard:
            self._discard = state.discard.copy()
            at = 4 * enc._discard_at
            self._bytes[at : at + 4 * C] = bytes(4 * C)
            enc._piles(state, v)
        else:
            v[enc._draw_at] = len(state.draw)
        if state.attack is not None or self._attack is not None:
            self._attack_of(state)
        if state.gain is not None or self._gain is not None:
            self._gain_of(state)
        if state.over or self._winners:
            self._winners_of(state)
        return self

    def _teams(self, state: MauwState) -> None:
        """Each seat's template with its teams segments, for the teams of ``state``; every
        other value written again (by update)."""
        enc = self._enc
        self._forget()
        self._team_of = None if state.team_of is None else state.team_of.copy()
        size = self._size
        n = enc.players
        for seat in range(n):
            self._mates = enc._teams(state, seat, self._values[seat * size : (seat + 1) * size])
        self._open = [[s in state.open_areas(seat) for s in range(n)] for seat in range(n)]
        self._slices = {}
        self._plays[:] = bytes(len(self._plays))
        for s in range(n):
            for slot in range(S):
                self._column_plays(s, slot, None, True)
        for seat in range(n):
            self._plays[seat * enc._mask_size + enc._pass] = 1

    def _column_plays(self, s: int, slot: int, top: str | None, empty: bool) -> None:
        """The plays that column ``slot`` of seat ``s`` allows each seat (by its top and
        whether it is empty of nines), in :attr:`plays`: its slices, kept by column and
        content (:meth:`_column_slices`) while the teams do not change."""
        key = (s * S + slot, top, empty)
        slices = self._slices.get(key)
        if slices is None:
            slices = self._column_slices(*key)
        plays = self._plays
        for first, end, block in slices:
            plays[first:end] = block

    def _column_slices(self, column: int, top: str | None, empty: bool) -> list[tuple[int, int, bytes]]:
        """Where in :attr:`plays`' bytes each seat's plays on ``column`` go, and their bytes:
        the rules' column bits (as _turn_masks reads them: by whether the column is the
        seat's own, its top, whether it is empty of nines; none on a teammate's column)."""
        enc = self._enc
        by_mine = _COLUMN_MASKS[enc.options["open_slot_block"]]
        s = column // S
        made = enc._column_masks
        size = enc._mask_size
        slices = []
        for seat, open_to in enumerate(self._open):
            key = (by_mine[seat == s][top][empty] if open_to[s] else 0) << 8 | column
            found = made.get(key)
            if found is None:
                found = enc._column_mask(enc.players, key)
            first, end, block = found
            slices.append((seat * size + first, seat * size + end, block))
        self._slices[column, top, empty] = slices
        return slices

    def _to_act(self, acting: frozenset[int]) -> None:
        v, at = self._values, self._enc._to_act_at
        for s in self._acting:
            v[at + s] = 0.0
        for s in acting:
            v[at + s] = 1.0
        self._acting = acting

    def _hands_of(self, hands: list[list[str]]) -> None:
        """Every hand that changed counted again, and its size."""
        v, held = self._values, self._hands
        sizes = self._enc._hand_size_at[0]  # seat order
        for s, hand in enumerate(hands):
            if hand != held[s]:
                held[s] = hand.copy()
                key = tuple(hand)
                block = _HAND_BLOCKS.get(key)
                if block is None:
                    block = _hand_block(key)
                at = 4 * (self.hands_at + s * C)
                self._bytes[at : at + 4 * C] = block
                v[sizes[s]] = len(hand)

    def _known_of(self, known: list[list[str]]) -> None:
        """The cards known in each hand, counted again."""
        at = self._enc._known_at
        n = len(known)
        self._bytes[4 * at : 4 * (at + n * C)] = bytes(4 * n * C)
        for s, cards in enumerate(known):
            _count(at + s * C, cards, self._values)
        self._known = [cards.copy() for cards in known]

    def _board(self, state: MauwState) -> None:
        """The columns that changed written again (:data:`_COLUMN_BLOCK`), and the points of
        their seat and of its team."""
        held_tops, held_nines, scores = self._tops, self._nines, self.scores
        changed = False
        for s, (tops, nines) in enumerate(zip(state.tops, state.nines)):
            was_tops, was_nines = held_tops[s], held_nines[s]
            if tops == was_tops and nines == was_nines:
                continue
            at = 4 * (self.columns_at + s * S * COLUMN)
            total = scores[s]
            for slot in range(S):
                top, k, was_k = tops[slot], len(nines[slot]), len(was_nines[slot])
                if top != was_tops[slot] or k != was_k:
                    if top != was_tops[slot] or (k == 0) != (was_k == 0):
                        self._column_plays(s, slot, top, not k)
                    block, points = _COLUMN_BLOCK[k, top]
                    self._bytes[at + slot * 4 * COLUMN : at + (slot + 1) * 4 * COLUMN] = block
                    total += points - _SCORE[was_k, was_tops[slot]]
            held_tops[s] = tops.copy()
            held_nines[s] = [column.copy() for column in nines]
            if total != scores[s]:
                scores[s] = total
                changed = True
        if changed:
            self._points()

    def _points(self) -> None:
        """Every seat's points and its team's, in seat order (the encoder's :meth:`_scores`)."""
        enc = self._enc
        n = enc.players
        for at in (enc._score_at, enc._team_score_at):
            self._bytes[4 * at : 4 * (at + n)] = bytes(4 * n)
        enc._scores(self.scores, tuple(range(n)), self._mates, self._values)

    def _attack_of(self, state: MauwState) -> None:
        """The attack's segments written again where it changed (zeros without one)."""
        a = state.attack
        key = None if a is None else (a.attacker, a.defender, a.slot, a.target, a.card, a.decl, a.value)
        if key != self._attack:
            self._attack = key
            self._rewrite(state, self._enc._attack_span, None if a is None else self._enc._attack)

    def _gain_of(self, state: MauwState) -> None:
        """The gain's segments written again where it changed (zeros without one)."""
        g = state.gain
        key = None
        if g is not None:
            owner, cards, top = g
            key = (
                owner,
                tuple(cards),
                top,
                state._gain_hidden,
                tuple(state.tops[owner]),
                tuple(len(column) for column in state.nines[owner]),
            )
        if key != self._gain:
            self._gain = key
            self._rewrite(state, self._enc._gain_span, None if g is None else self._enc._gain)

    def _rewrite(self, state: MauwState, span: tuple[int, int], write: Callable[..., None] | None) -> None:
        """The segments from ``span[0]`` to ``span[1]`` zeroed, then written by ``write`` (the
        encoder's writer, rows in seat order; None: left zero)."""
        first, end = span
        self._bytes[4 * first : 4 * end] = bytes(4 * (end - first))
        if write is not None:
            write(state, tuple(range(self._enc.players)), self._values)

    def _winners_of(self, state: MauwState) -> None:
        """The winners' flags (none before the end)."""
        v, at = self._values, self._enc._winners_at
        winners = state.winners() if state.over else []
        if winners != self._winners:
            for s in self._winners:
                v[at + s] = 0.0
            for s in winners:
                v[at + s] = 1.0
            self._winners = winners


#: A column's values in a :class:`Mirror`'s table: its nines, its top (one-hot), its points.
COLUMN = 1 + len(TOPS) + 1
#: A column's block of :data:`COLUMN` float32 values (bytes) and its points, by (nines, top).
_COLUMN_BLOCK = {
    (k, top): (
        np.array([k, *(float(top == t) for t in TOPS), points], FLOAT).tobytes(),
        points,
    )
    for (k, top), points in _SCORE.items()
}

#: A hand counted by code (C float32 values, bytes), by its cards in their order.
_HAND_BLOCKS: dict[tuple[str, ...], bytes] = {}


def _hand_block(hand: tuple[str, ...]) -> bytes:
    """The entry of :data:`_HAND_BLOCKS` for ``hand``, made and kept (hands of four cards
    of 13 codes: about 28k orders at most)."""
    counts = np.zeros(C, FLOAT)
    for card in hand:
        counts[CODE[card]] += 1
    if len(_HAND_BLOCKS) > 1 << 16:  # never seen
        _HAND_BLOCKS.clear()
    block = _HAND_BLOCKS[hand] = counts.tobytes()
    return block


#: The observation's segments with a row per seat: the table holds them in seat order.
_SEAT_ROWS = (
    "turn",
    "to_act",
    "hand_size",
    "known",
    "score",
    "team_score",
    "winners",
    "attacker",
    "defender",
    "gain_seat",
)


#: An area's block in the board's table: its nines per slot, its tops (one-hot per slot),
#: its points per slot.
AREA = S + S * len(TOPS) + S


def _area_block(tops: list[str | None], nines: list[int]) -> tuple[bytes, int]:
    """An area's block (float32 bytes) for its columns' tops and nines counts, and its points."""
    block = bytearray(4 * AREA)
    out = memoryview(block).cast("f")
    total = 0
    for slot, (top, k) in enumerate(zip(tops, nines)):
        top_index, points = _COLUMN[k, top]
        out[slot] = k
        if top_index >= 0:
            out[S + slot * len(TOPS) + top_index] = 1.0
        out[S + S * len(TOPS) + slot] = points
        total += points
    return bytes(block), total


def _put(h: np.ndarray, row: int, **fields: int) -> None:
    for name, value in fields.items():
        h[row + _FIELD[name]] = value


#: From this many cards on, a pile is counted by Counter (in C) rather than card by card.
_LONG = 40


def _count(base: int, cards: list[str], o: memoryview[float]) -> None:
    """Count ``cards`` by code into the segment row starting at ``base`` (zeroed)."""
    for c in cards:
        o[base + CODE[c]] += 1.0
