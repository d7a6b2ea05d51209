"""MOTU's tensors (the ``tensors`` part; see :mod:`kiti.rl.tensors` and ``docs/rl.md``).

Only what a seat's view holds goes in (:meth:`.rules.MotuState._view` decides what that is;
this module reads the same state fields under the same conditions, and the conformance suite
checks every resample for the seat gives the identical tensors): the row (cards, coconuts on
them, take costs), the card being placed and every legal spot for it, every island, Source
values, beaches, banks, the supply, the piles' sizes (never their cards), discards, interim
totals (another seat's choice under way only as "has chosen"), scores; Travelers: the seat's
own always, another's once played; Destinies; solo: the Beach Hut, the two cards shown, the
other card, the Opponent's pile size (its cards and points only once the game is over).

**Islands** are grids of cells in a fixed frame per island: the frame's top-left cell lies
``GROWTH`` (3) cells left of and above the island's leftmost and topmost visible cell.  A card
is at most 4 cells long and must cover a visible symbol, so each card widens the island by at
most 3 cells: after ``m`` cards (the seat's rounds; solo 18 or 9) an island spans at most
3 + 3m columns and 4 + 3m rows (the village is 3 × 4), and the frame, ``GROWTH`` + that, holds
the island and every top-left cell a legal placement can use (``spots``, in the frame of the
island of the seat to act).  ``village_at`` says where the village's top-left cell (0, 0) lies
in each frame: a spot at frame column c, row r is the placement ``x = c - village_at.x``,
``y = r - village_at.y``.

Seats are ego-centric: row 0 is the viewer, row k the seat k places after it.  Island cards
are indexed in :data:`.cards.ISLAND_IDS` order, symbols in :data:`.cards.SYMBOL_NAME` order,
Sources in :data:`.sources.SOURCES` order.

The information state adds one record per turn (seats × rounds turns): whose turn, what was
taken (row position or side, or a scrap), which card, coconuts paid and gained, the
placement; Destiny bought and Traveler played; solo, the two cards shown and the other card's
fate.  It reads only public events: the private ones (a seat's Traveler, a secret Source
choice) are read from the state, since :meth:`.rules.MotuState.resample` rewrites them in
place in a log whose later entries a tracker may already have read.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ...core.events import Entry
from ...core.load import Game
from ...core.moves import ActionCodec
from ...core.tensors import Encoder, Layout, Spec
from .cards import (
    BEACH_BONUS,
    COCONUT_BONUS,
    DESTINIES,
    DIRECTIONS,
    HEIGHT,
    ISLAND_IDS,
    PAIRS,
    RULER_BANDS,
    SOLO_START_SCORES,
    SOLO_VOLCANO_POINTS,
    SYMBOL_NAME,
    TOTEM_POINTS,
    TRAVELERS,
    VILLAGE_IDS,
    WIDTH,
    IslandCard,
    card,
)
from .island import ROTATIONS, Island, Placement, bounds, kept, legal_boards, shape
from .rules import (
    COCONUTS,
    DIFFICULTIES,
    GROWTH,
    INFO,
    PHASE_WORDS,
    PILES,
    ROW,
    SOLO_DISCARD,
    MotuState,
    Place,
    pile_sizes,
    placement_bound,
    placements_per_seat,
    solo_take_price,
    take_cost,
)
from .sources import SOURCES, coconut_points, longest_beach, row_count, source_values

K = len(ISLAND_IDS)
CARD = {c: i for i, c in enumerate(ISLAND_IDS)}
SYMBOLS = tuple(SYMBOL_NAME)
SYMBOL = {s: i for i, s in enumerate(SYMBOLS)}
TERRAINS = "LBS"
WAY = {d: i for i, d in enumerate(DIRECTIONS)}
#: Planes of an island grid: terrain (L, B, S), symbol kinds, beach runs up/right/down/left.
PLANES = len(TERRAINS) + len(SYMBOLS) + len(DIRECTIONS)
_SYM0 = len(TERRAINS)
_WAY0 = _SYM0 + len(SYMBOLS)
PHASES = tuple(PHASE_WORDS)
SOURCE = {s: i for i, s in enumerate(SOURCES)}
TRAVELER_IDS = tuple(sorted(TRAVELERS))
DESTINY_IDS = tuple(DESTINIES)
TRAVELER = {t: i for i, t in enumerate(TRAVELER_IDS)}
DESTINY = {d: i for i, d in enumerate(DESTINY_IDS)}
#: A card's features where it is offered: its symbols counted by kind, then "shows Beach".
FEATURES = len(SYMBOLS) + 1
FEATURE = {
    c: [float(card(c).symbol_counts().get(s, 0)) for s in SYMBOLS] + [float(card(c).has_beach)]
    for c in ISLAND_IDS
}
_FEATURE_ARRAYS = {c: np.array(f, np.float32) for c, f in FEATURE.items()}
_MOST_FEATURE = [max(FEATURE[c][i] for c in ISLAND_IDS) for i in range(FEATURES)]
FINAL_PARTS = ("interims", "traveler", "destinies", "beach", "coconut")
OPPONENT_PARTS = ("start", *SOURCES, "beach", "total")
_F = {kind: {name: i for i, name in enumerate(names)} for kind, names in INFO.events.items()}


# ------------------------------------------------------------------ bounds from the card data
def _all_symbols(kind: str) -> int:
    """Every ``kind`` symbol printed on the island cards and the richest village."""
    villages = max(card(v).symbol_counts().get(kind, 0) for v in VILLAGE_IDS)
    return villages + sum(card(c).symbol_counts().get(kind, 0) for c in ISLAND_IDS)


def source_highs() -> list[float]:
    """The most each Source can ever be worth (every symbol of the game on one island)."""
    extra = max((sum(t.adds.values()) for t in TRAVELERS.values()), default=0)
    coconuts = COCONUTS + max((t.coconuts for t in TRAVELERS.values()), default=0)
    high = {
        leader: float(each * (_all_symbols(leader) + extra)) for leader, (_partner, each) in PAIRS.items()
    }
    high["coconut"] = float(coconut_points(coconuts))
    high["totem"] = float(max(TOTEM_POINTS.values()))
    high["volcano"] = float(max(p for _, p in RULER_BANDS) * _all_symbols("volcano"))
    return [high[s] for s in SOURCES]


def traveler_high() -> float:
    """The most a Traveler can score from a full row."""
    return float(
        max(t.points * ROW * max(row_count(t.per, [c]) for c in ISLAND_IDS) for t in TRAVELERS.values())
    )


_SOURCE_HIGH = source_highs()
_INTERIM_HIGH = sum(_SOURCE_HIGH)
_DESTINY_LOW = float(sum(min(0, d.otherwise) for d in DESTINIES.values()))
_DESTINY_HIGH = float(sum(max(0, d.most) for d in DESTINIES.values()))
_SCORE_LOW = _DESTINY_LOW
_SCORE_HIGH = _INTERIM_HIGH + traveler_high() + _DESTINY_HIGH + BEACH_BONUS + COCONUT_BONUS
_FINAL_LOW = [0.0, 0.0, _DESTINY_LOW, 0.0, 0.0]
_FINAL_HIGH = [_INTERIM_HIGH, traveler_high(), _DESTINY_HIGH, float(BEACH_BONUS), float(COCONUT_BONUS)]
_OPPONENT_HIGH = [float(max(SOLO_START_SCORES.values()))] + [
    float(each * _all_symbols(leader)) for leader, (_partner, each) in PAIRS.items()
]
_OPPONENT_HIGH += [
    float(coconut_points(COCONUTS)),
    float(max(TOTEM_POINTS.values())),
    float(SOLO_VOLCANO_POINTS),
    float(BEACH_BONUS),
]
_OPPONENT_HIGH.append(sum(_OPPONENT_HIGH))


def frame(cards: int) -> tuple[int, int]:
    """(columns, rows) of an island's frame for at most ``cards`` island cards (module doc)."""
    return GROWTH + WIDTH + GROWTH * cards, GROWTH + HEIGHT + GROWTH * cards


# ------------------------------------------------------------------ the layouts
def observation_specs(n: int, m: int, solo: bool, biggest: int) -> list[Spec]:
    """The observation's segments for ``n`` seats, ``m`` cards per island, solo or not, the
    biggest pile holding ``biggest`` cards."""
    w, h = frame(m)
    specs: list[Spec] = [
        (
            "options",
            6 + len(DIFFICULTIES),
            "travelers, destinies, zero_is_most, solo_piles short, solo_totems kinds, "
            "solo_coconut_bonus (1: on), difficulty (one-hot)",
            0,
            1,
        ),
        ("phase", len(PHASES), f"the phase ({', '.join(PHASES)}; one-hot)", 0, 1),
        ("round", m, "the round (solo: the turn), one-hot from 1", 0, 1),
        ("turn", n, "the seat whose turn it is (one-hot)", 0, 1),
        ("first", n, "the first seat (one-hot)", 0, 1),
        ("to_act", n, "each seat is to act now", 0, 1),
        ("pile", len(PILES), "the pile being played (A, B, C; one-hot)", 0, 1),
        ("pile_sizes", len(PILES), "cards left in piles A, B, C", 0, biggest),
    ]
    if not solo:
        specs += [
            ("row", (ROW, K), "the row's cards, left to right (one-hot by island card)", 0, 1),
            (
                "row_features",
                (ROW, FEATURES),
                "their symbols by kind, and shows Beach",
                0,
                _MOST_FEATURE * ROW,
            ),
            ("row_coconuts", ROW, "coconuts lying on each row card", 0, COCONUTS),
            ("row_cost", ROW, "what taking each row card costs (0 where no card)", 0, take_cost(ROW - 1)),
        ]
    else:
        specs += [
            ("hut", 1, "coconuts on the Beach Hut", 0, COCONUTS),
            ("shown", (2, K), "the two cards shown, left then right (one-hot)", 0, 1),
            ("shown_features", (2, FEATURES), "their symbols by kind, and shows Beach", 0, _MOST_FEATURE * 2),
            ("shown_change", 2, "coconuts taking each changes in my bank", -1, 1),
            ("other", K, "the card not taken, whose fate is to be said (one-hot)", 0, 1),
            ("other_features", FEATURES, "its symbols by kind, and shows Beach", 0, _MOST_FEATURE),
            ("discard_price", 1, "coconuts paid to discard the other card", 0, SOLO_DISCARD),
            ("opponent_size", 1, "cards in the Opponent's pile", 0, K),
            ("opponent_pile", K, "the Opponent's cards, once the game is over", 0, 1),
            (
                "opponent_final",
                len(OPPONENT_PARTS),
                "its score by part, once over: " + ", ".join(OPPONENT_PARTS),
                0,
                _OPPONENT_HIGH,
            ),
        ]
    specs += [
        ("holding", K, "the card taken and being placed (one-hot)", 0, 1),
        ("holding_features", FEATURES, "its symbols by kind, and shows Beach", 0, _MOST_FEATURE),
        (
            "spots",
            (len(ROTATIONS), h, w),
            "per rotation (0, 90, 180, 270), each frame cell where the card's top-left may go "
            "(the frame of the island of the seat to act)",
            0,
            1,
        ),
        ("discards", K, "the cards discarded (scrapped, solo discarded)", 0, 1),
        (
            "islands",
            (n, PLANES, h, w),
            "per seat, per frame cell: terrain (L, B, S), symbol (one per kind), its beach runs "
            "up, right, down, left",
            0,
            1,
        ),
        (
            "layers",
            (n, h, w),
            "per seat, per frame cell: the card showing there (0 village, k: k-th laid)",
            0,
            m,
        ),
        (
            "village_at",
            (n, 2),
            "per seat, the frame column and row of the village's top-left cell",
            GROWTH,
            GROWTH * (m + 1),
        ),
        ("sources", (n, len(SOURCES)), "per seat, each Source's value now", 0, _SOURCE_HIGH * n),
        ("beach", n, "per seat, its longest beach in cards", 0, m + 1),
        ("banks", n, "per seat, its banked coconuts", 0, COCONUTS),
        ("supply", 1, "coconuts left in the box", 0, COCONUTS),
        ("scores", n, "per seat, its score now (final once over)", _SCORE_LOW, _SCORE_HIGH),
        (
            "interim_sources",
            (n, len(PILES), len(SOURCES)),
            "per seat and interim (A, B, C), the Sources scored",
            0,
            1,
        ),
        (
            "interim_points",
            (n, len(PILES), len(SOURCES)),
            "per seat and interim, their points",
            0,
            _SOURCE_HIGH * n * len(PILES),
        ),
        ("chosen", n, "per seat, it has chosen its Sources for the interim under way", 0, 1),
        ("my_choice", len(SOURCES), "the Sources I chose for the interim under way", 0, 1),
        (
            "final",
            (n, len(FINAL_PARTS)),
            "once over, per seat its score by part: " + ", ".join(FINAL_PARTS),
            _FINAL_LOW * n,
            _FINAL_HIGH * n,
        ),
        ("winners", n, "once over, the winning seats", 0, 1),
    ]
    if not solo:
        specs += [
            ("traveler_played", n, "per seat, its Traveler has been played", 0, 1),
            (
                "traveler",
                (n, len(TRAVELER_IDS)),
                "per seat, its Traveler where I may see it (mine; played)",
                0,
                1,
            ),
            (
                "traveler_points",
                n,
                "per seat, its Traveler's points from the row, once played",
                0,
                traveler_high(),
            ),
            (
                "traveler_coconuts",
                n,
                "per seat, coconuts printed on its Traveler where I may see it",
                0,
                max(t.coconuts for t in TRAVELERS.values()),
            ),
            ("destinies", len(DESTINY_IDS), "the Destinies on the table to buy", 0, 1),
            ("owned", (n, len(DESTINY_IDS)), "per seat, the Destinies it owns", 0, 1),
            ("bought", 1, "a Destiny has been bought this turn", 0, 1),
        ]
    return specs


def history_specs(n: int, m: int, solo: bool) -> list[Spec]:
    """What the information state adds: one record per turn (``n`` × ``m`` turns)."""
    turns = n * m
    xs, ys = placement_bound(m)
    low = [float(xs.start), float(ys.start)] * turns
    high = [float(xs.stop - 1), float(ys.stop - 1)] * turns
    takes = "left, right, scrap" if solo else "row position 1-4, scrap"
    specs: list[Spec] = [
        ("h_seat", (turns, n), "per turn, the seat playing it (one-hot)", 0, 1),
        ("h_take", (turns, 3 if solo else ROW + 1), f"per turn, what it took: {takes} (one-hot)", 0, 1),
        ("h_card", (turns, K), "per turn, the card taken or scrapped (one-hot)", 0, 1),
        ("h_coconuts", (turns, 2), "per turn, coconuts paid and gained taking it", 0, COCONUTS),
        ("h_rotation", (turns, len(ROTATIONS)), "per turn, the placement's rotation (one-hot)", 0, 1),
        ("h_spot", (turns, 2), "per turn, the placement's x and y (from the village's top-left)", low, high),
    ]
    if solo:
        specs += [
            ("h_shown", (turns, 2, K), "per turn, the two cards shown (one-hot each)", 0, 1),
            ("h_fate", (turns, 2), "per turn, the other card: given to the Opponent, discarded", 0, 1),
        ]
    else:
        specs += [
            ("h_buy", (turns, len(DESTINY_IDS)), "per turn, the Destiny bought (one-hot)", 0, 1),
            ("h_travel", turns, "per turn, the Traveler was played", 0, 1),
        ]
    return specs


# ------------------------------------------------------------------ the encoder
# An island's part of the observation is a list of entries, one per value it sets: per visible
# cell its terrain, symbol and beach runs (1.0 in the islands planes) and its layer (in the
# layers; the village's 0 is left out).  An entry is a column of an int array (rows _EX, _EY:
# the cell on the island; _EOFF: from the islands segment to its plane's frame, or to the
# layers' frame; _ESTRIDE: from one seat's block of that segment to the next; _EVALUE;
# _ECELL: the cell as y * _CW + x; _EIC: the frame index y * frame width + x + _EOFF, as if
# the village's top-left cell were the frame's).  The planes' entries come first, then the
# layers' (_Grid.planes).
_EX, _EY, _EOFF, _ESTRIDE, _EVALUE, _ECELL, _EIC = range(7)
#: A row of cells in _ECELL: wider than any island and its margins (so that cells differ in
#: _ECELL by their row and column apart).
_CW = 256


class _Grid:
    """What an island puts in the tensors, worked out once per island (islands never change)
    and kept with it (:func:`.island.kept`): its entries (above), where its frame puts them
    (``at``, index into the observation of the seat in row 0), its village's place in the
    frame (``origin``), its longest beach, and the spots of each card that may be laid on it;
    by played Traveler, the values that follow the island's entries (:meth:`MotuEncoder._tail`).
    It holds no reference to its island, so that both go when the island goes (no cycle
    left for the garbage collector)."""

    __slots__ = (
        "at",
        "beach",
        "entries",
        "layers_at",
        "layers_values",
        "low",
        "origin",
        "planes",
        "planes_at",
        "spots",
        "tails",
    )

    def __init__(
        self, island: Island, entries: np.ndarray, planes: int, low: tuple[int, int], encoder: MotuEncoder
    ) -> None:
        self.entries = entries
        self.planes = planes  # how many entries are the planes' (the first ones)
        self.low = low  # the island's smallest x and y
        ox, oy = GROWTH - low[0], GROWTH - low[1]
        self.origin = (float(ox), float(oy))
        self.at: np.ndarray = entries[_EIC] + (encoder._at["islands"] + oy * encoder.w + ox)
        # the entries of the planes (all 1.0) and of the layers, apart: a seat row r writes
        # them r seat strides further on (MotuEncoder._islands)
        self.planes_at: np.ndarray = self.at[:planes]
        self.layers_at: np.ndarray = self.at[planes:]
        self.layers_values: np.ndarray = entries[_EVALUE, planes:].astype(np.float32)
        self.beach = float(longest_beach(island)) if island.cells else 0.0
        #: by played Traveler: the values after the island's entries (MotuEncoder._tail)
        self.tails: dict[str | None, list[float]] = {}
        #: by card in hand: its spots' frame cells (per rotation) and their actions (sorted)
        self.spots: dict[str, tuple[np.ndarray, tuple[int, ...]]] = {}

    def row(self, r: int) -> np.ndarray:
        """Where the entries go in the observation for the seat in row ``r``."""
        return self.at + self.entries[_ESTRIDE] * r if r else self.at


class MotuEncoder(Encoder):
    """MOTU's observation and information-state tensors for one game (seats, options)."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.players
        self.solo = n == 1
        self.m = m = placements_per_seat(n, self.options["solo_piles"])
        self.w, self.h = frame(m)
        biggest = max(pile_sizes(n, self.options["solo_piles"]))
        self.observation_layout = Layout.of(observation_specs(n, m, self.solo, biggest))
        self.history_layout = Layout.of(history_specs(n, m, self.solo))
        self._at = {s.name: s.offset for s in self.observation_layout}
        self._hat = {s.name: s.offset for s in self.history_layout}
        self._rel = [tuple((s - seat) % n for s in range(n)) for seat in range(n)]
        #: the name its grids are kept under with their islands: this encoder's own (a grid's
        #: places and actions are its layout's and its codec's)
        self._grid_key = f"tensor grid {next(_ENCODERS)}"
        #: the grids made last, by placements, so that a child island's grows from its parent's
        self._lineage: dict[tuple[Placement, ...], _Grid] = {}
        hw = self.w * self.h
        #: an island entry's offset and seat stride: per plane, and for the layers
        self._planes = [(plane * hw, PLANES * hw) for plane in range(PLANES)]
        self._layers = (self._at["layers"] - self._at["islands"], hw)
        #: by (card, rotation, layer): the card, its entries, how many are the planes', its
        #: width and height (:meth:`_piece`)
        self._pieces: dict[tuple[str, int, int], tuple[IslandCard, np.ndarray, int, int, int]] = {}
        #: by box width and height: :meth:`_outside`
        self._outsides: dict[tuple[int, int], tuple[np.ndarray, int]] = {}
        #: by seat row: where a seat block's values after the island's entries go
        self._block_at = [self._block_indices(r) for r in range(n)]
        self._place_actions: tuple[list[int], range, range] | None = None
        opts = self.options
        flags = (
            opts["travelers"],
            opts["destinies"],
            opts["zero_is_most"],
            opts["solo_piles"] == "short",
            opts["solo_totems"] == "kinds",
            opts["solo_coconut_bonus"],
        )
        at = self._at["options"]
        self._fixed = [at + i for i, on in enumerate(flags) if on]
        self._fixed.append(at + len(flags) + DIFFICULTIES.index(opts["difficulty"]))
        if self.solo:
            self._fixed_values = [(self._at["discard_price"], float(SOLO_DISCARD))]
        else:
            self._fixed_values = []  # the row's costs go with the row (_row)
        self._row_parts = [] if self.solo else self._make_row_parts()
        #: by seat row: where its bank, score and the Coconut's value go, and by pile and
        #: Source where an interim's Source and its points go (:meth:`_banks`)
        self._bank_at, self._interim_at = self._make_seat_tables()
        #: by bit board width: per bit, its frame cell and placement offsets (_read_spots)
        self._bit_steps: dict[int, tuple[list[int], list[int]]] = {}
        self._phase_at = {p: self._at["phase"] + i for i, p in enumerate(PHASES)}
        self._header_at = [self._at["pile_sizes"] + i for i in range(len(PILES))] + [self._at["supply"]]

    # ------------------------------------------------------------- the mask
    def legal_actions(self, state: MotuState, seat: int) -> tuple[int, ...]:
        """The actions of :meth:`MotuState.legal_actions` (sorted); placing a card, read from
        the rules' own bit boards and kept with its spots (:meth:`_spots`).  Tests hold it
        equal to the rules' over random games."""
        if state.phase != "place" or seat not in state.acting:
            return tuple(state.legal_actions(seat))
        return self._spots(state)[1]

    def write_legal(self, state: MotuState, seat: int, out: memoryview) -> None:
        """Write 1 at each of :meth:`legal_actions` into ``out`` (a zeroed mask's bytes; ``seat``
        is to act), without making a tuple of them where the rules list them."""
        if state.phase != "place" or seat not in state.acting:
            for a in state.legal_actions(seat):
                out[a] = 1
            return
        for a in self._spots(state)[1]:
            out[a] = 1

    def legal_key(self, state: MotuState, seat: int) -> tuple[Any, ...] | None:
        """A key that decides ``seat``'s legal actions (:class:`.spaces.Actions` keeps a mask
        by it): the rules' own (:meth:`.rules.MotuState.moves_key`: taking, choosing Sources,
        solo's other card).  None for a seat not to act and in the other phases.  Tests hold
        equal keys to equal legal actions over random games."""
        if seat not in state.acting:
            return None
        return state.moves_key(seat)

    # ------------------------------------------------------------- the observation
    def _observe(self, state: MotuState, seat: int, out: np.ndarray) -> None:
        at = self._at
        rel = self._rel[seat]
        ones = [*self._fixed, self._phase_at[state.phase], at["round"] + state.round - 1]
        ones += [at["turn"] + rel[state.turn], at["first"] + rel[state.first], at["pile"] + state.pile]
        ones += [at["to_act"] + rel[s] for s in state.acting]
        where = self._header_at.copy()
        values = [float(len(p)) for p in state.piles]
        values.append(float(state.supply))
        if self.solo:
            self._solo(state, ones, where, values, out)
        else:
            self._row(state, where, values)
            self._extras(state, seat, ones, where, values)
        if state.holding is not None:
            ones.append(at["holding"] + CARD[state.holding])
            _features(out, at["holding_features"], state.holding)
        ones += [at["discards"] + CARD[c] for c in state.discards]
        grids = [self._grid(island) for island in state.islands]
        self._seats(state, seat, ones, where, values)
        for i, value in self._fixed_values:
            where.append(i)
            values.append(value)
        self._islands(state, seat, grids, where, values, out)
        where += ones  # one numpy call writes them (no index is in both lists)
        values += [1.0] * len(ones)
        n = len(where)  # np.fromiter reads a list of numbers faster than indexing with it
        out[np.fromiter(where, np.intp, n)] = np.fromiter(values, np.float32, n)
        if state.phase == "place" and state.holding is not None:
            out[self._at["spots"] :][self._spots(state)[0]] = 1.0

    def _row(self, state: MotuState, where: list[int], values: list[float]) -> None:
        """The row's cards (one-hot, and their features), the coconuts on them and what taking
        each costs (none where no card is, while one is being placed)."""
        parts = self._row_parts
        coconuts_at = self._at["row_coconuts"]
        for i, (c, coconuts) in enumerate(zip(state.row, state.row_coconuts)):
            card_at, card_values = parts[i][c]
            where += card_at
            values += card_values
            where.append(coconuts_at + i)
            values.append(float(coconuts))
        cost_at, costs = parts[len(state.row)][None]
        where += cost_at
        values += costs

    def _make_seat_tables(self) -> tuple[list[list[int]], list[dict[tuple[str, str], tuple[int, int]]]]:
        """:meth:`_banks`' indices: by seat row, where its bank, score and the Coconut's value
        go; by seat row, pile and Source, where an interim's Source and its points go."""
        ns = len(SOURCES)
        at = self._at
        bank_at = [
            [at["banks"] + r, at["scores"] + r, at["sources"] + r * ns + _COCONUT]
            for r in range(self.players)
        ]
        interim_at = [
            {
                (pile, src): (
                    at["interim_sources"] + (r * len(PILES) + i) * ns + SOURCE[src],
                    at["interim_points"] + (r * len(PILES) + i) * ns + SOURCE[src],
                )
                for i, pile in enumerate(PILES)
                for src in SOURCES
            }
            for r in range(self.players)
        ]
        return bank_at, interim_at

    def _make_row_parts(self) -> list[dict[str | None, tuple[list[int], list[float]]]]:
        """For :meth:`_row`, by row position ``i``: by card, where its one-hot and features go
        and their values; by None, where the costs of taking the first ``i`` cards go and
        their values."""
        at = self._at
        parts: list[dict[str | None, tuple[list[int], list[float]]]] = []
        for i in range(ROW + 1):
            part: dict[str | None, tuple[list[int], list[float]]] = {
                None: ([at["row_cost"] + j for j in range(i)], [float(take_cost(j)) for j in range(i)])
            }
            features = list(range(at["row_features"] + i * FEATURES, at["row_features"] + (i + 1) * FEATURES))
            for c in ISLAND_IDS if i < ROW else ():
                part[c] = ([at["row"] + i * K + CARD[c], *features], [1.0, *FEATURE[c]])
            parts.append(part)
        return parts

    def _solo(
        self, state: MotuState, ones: list[int], where: list[int], values: list[float], out: np.ndarray
    ) -> None:
        at = self._at
        where += [at["hut"], at["opponent_size"]]
        values += [float(state.hut), float(len(state.opponent))]
        for i, (side, c) in enumerate(zip(("left", "right"), state.shown)):
            ones.append(at["shown"] + i * K + CARD[c])
            _features(out, at["shown_features"] + i * FEATURES, c)
            where.append(at["shown_change"] + i)
            values.append(float(solo_take_price(side, state.hut)))
        if state.other is not None:
            ones.append(at["other"] + CARD[state.other])
            _features(out, at["other_features"], state.other)
        if state.over:  # the Opponent's pile is shown at the end only
            ones += [at["opponent_pile"] + CARD[c] for c in state.opponent]
            final = state.opponent_final or {}
            where += [at["opponent_final"] + i for i in range(len(OPPONENT_PARTS))]
            values += [float(final.get(part, 0)) for part in OPPONENT_PARTS]

    def _extras(
        self, state: MotuState, seat: int, ones: list[int], where: list[int], values: list[float]
    ) -> None:
        """Travelers (mine, and the others' once played) and Destinies."""
        at = self._at
        rel = self._rel[seat]
        width = len(TRAVELER_IDS)
        for s, name in enumerate(state.travelers):
            r = rel[s]
            if name is None:
                continue
            played = state.played[s]
            if played:
                ones.append(at["traveler_played"] + r)
                where.append(at["traveler_points"] + r)
                values.append(float(state.traveler_points[s]))
            if played or s == seat:
                ones.append(at["traveler"] + r * width + TRAVELER[name])
                where.append(at["traveler_coconuts"] + r)
                values.append(float(TRAVELERS[name].coconuts))
        ones += [at["destinies"] + DESTINY[d] for d in state.table_destinies]
        width = len(DESTINY_IDS)
        for s, owned in enumerate(state.owned):
            ones += [at["owned"] + rel[s] * width + DESTINY[d] for d in owned]
        if state.bought:
            ones.append(at["bought"])

    def _seats(
        self,
        state: MotuState,
        seat: int,
        ones: list[int],
        where: list[int],
        values: list[float],
    ) -> None:
        """Per seat: bank, score, the Coconut's value (its other Sources, its beach and its
        village's place: :meth:`_tail`), interims (:meth:`_banks`), choices, the end."""
        at = self._at
        rel = self._rel[seat]
        self._banks(state, seat, ones, where, values)
        if state.phase == "interim":
            ones += [at["chosen"] + rel[s] for s, c in enumerate(state.choices) if c is not None]
            mine = state.choices[seat]
            if mine is not None:
                ones += [at["my_choice"] + SOURCE[source] for source in mine]
        if state.final is not None:
            width = len(FINAL_PARTS)
            for s, parts in enumerate(state.final):
                where += range(at["final"] + rel[s] * width, at["final"] + rel[s] * width + width)
                values += [float(parts.get(part, 0)) for part in FINAL_PARTS]
        if state.over:
            ones += [at["winners"] + rel[s] for s in state.winners()]

    def _banks(
        self, state: MotuState, seat: int, ones: list[int], where: list[int], values: list[float]
    ) -> None:
        """Per seat: bank, score, the Coconut's value and interims."""
        bank_at = self._bank_at
        scores = state.scores()
        banks = state.banks
        for s, r in enumerate(self._rel[seat]):
            where += bank_at[r]
            values += (float(banks[s]), float(scores[s]), float(coconut_points(state.coconut_count(s))))
            interims = state.interims[s]
            if interims:
                interim_at = self._interim_at[r]
                for pile, sources, points in interims:
                    for source, pts in zip(sources, points):
                        one, i = interim_at[pile, source]
                        ones.append(one)
                        where.append(i)
                        values.append(float(pts))

    def _tail(self, state: MotuState, s: int, grid: _Grid) -> list[float]:
        """What seat ``s`` shows of its island after the island's entries, worked out once per
        island and played Traveler: its village's place in its frame, its longest beach, and
        its Source values but the Coconut's (:func:`.sources.source_points`; the Traveler's
        symbols join them), in :meth:`_block_indices` order."""
        name = state.travelers[s] if state.played[s] else None
        known = grid.tails.get(name)
        if known is None:
            known = grid.tails[name] = [*grid.origin, grid.beach, *self._source_values(state, s)]
        return known

    @staticmethod
    def _source_values(state: MotuState, s: int) -> list[float]:
        """Seat ``s``'s Source values but the Coconut's, in :data:`_NOT_COCONUT` order
        (:func:`.sources.source_values`: :func:`.sources.source_points`' values, its symbols
        counted once for them all)."""
        values = source_values(_NOT_COCONUT, state.islands[s], state.extra(s), state.totem_rule)
        return [float(v) for v in values]

    # ------------------------------------------------------------- islands
    def _grid(self, island: Island) -> _Grid:
        """The island's :class:`_Grid`, kept with the island (and for a while by placements:
        an island is the value of its placements): grown from its parent's where this
        encoder made that one lately, else read from its visible cells (its own caches, the
        spots and tails, fill as they are asked for)."""
        return kept(island, self._grid_key, self._new_grid)

    def _new_grid(self, island: Island) -> _Grid:
        lineage = self._lineage
        grid = self._grown(island) or self._read(island)
        if len(lineage) >= _LINEAGE:  # the older half goes (the next islands' parents are newer)
            self._lineage = lineage = dict(list(lineage.items())[_LINEAGE // 2 :])
        # made last, so kept longest: an island of placements made before (a village, in game
        # after game) moves to the end, where a dict would leave it at its first place
        lineage.pop(island.placements, None)
        lineage[island.placements] = grid
        return grid

    def _read(self, island: Island) -> _Grid:
        """The island's grid from its visible cells."""
        found = [
            (x, y, off, stride, value)
            for (x, y), cell in island.cells.items()
            for off, stride, value in self._cell(cell.terrain, cell.symbol, cell.ways, cell.layer)
        ]
        array, planes = self._entries(found)
        low = bounds(island)[:2] if island.cells else (0, 0)
        return _Grid(island, array, planes, low, self)

    def _entries(self, found: list[tuple[int, int, int, int, int]]) -> tuple[np.ndarray, int]:
        """Entries (x, y, offset, stride, value) as the rows of an array, the planes' first
        (with their count), the rows _ECELL and _EIC worked out."""
        layers = self._layers[0]
        ordered = [e for e in found if e[2] != layers]
        planes = len(ordered)
        ordered += [e for e in found if e[2] == layers]
        w = self.w
        rows = [(*e, e[1] * _CW + e[0], e[1] * w + e[0] + e[2]) for e in ordered]
        return np.array(rows, np.intp).reshape(-1, 7).T.copy(), planes

    def _grown(self, island: Island) -> _Grid | None:
        """The island's grid from its parent's, the island of all its placements but the last
        (None where :func:`.island.lay_card` did not make it, or this encoder has no grid of
        its parent): the parent's entries outside the new card's box, and the card's."""
        laid = island._laid
        if laid is None:
            return None
        c, rotation, x, y = laid
        layer = len(island.placements) - 1
        piece, piece_planes, width, height = self._piece(c, rotation, layer)
        if layer:
            known = self._lineage.get(island.placements[:-1])
            if known is None:
                return None
            entries, planes, (x0, y0) = known.entries, known.planes, known.low
            # outside the box: a cell's _ECELL less the box's top-left one's is not in the box
            outside, zero = self._outside(width, height)
            keep = outside[entries[_ECELL] - (y * _CW + x - zero)]
            kept = entries.compress(keep, axis=1)
            planes = int(np.count_nonzero(keep[:planes]))
        else:
            kept, planes, (x0, y0) = np.zeros((7, 0), np.intp), 0, (x, y)
        piece = piece + np.array((x, y, 0, 0, 0, y * _CW + x, y * self.w + x), np.intp)[:, None]
        grown = np.concatenate(
            (kept[:, :planes], piece[:, :piece_planes], kept[:, planes:], piece[:, piece_planes:]), axis=1
        )
        return _Grid(island, grown, planes + piece_planes, (min(x0, x), min(y0, y)), self)

    def _outside(self, width: int, height: int) -> tuple[np.ndarray, int]:
        """For a box ``width`` x ``height``: by a cell's _ECELL less the box's top-left one's,
        plus ``zero``, whether the cell lies outside the box; and ``zero``."""
        known = self._outsides.get((width, height))
        if known is None:
            zero = 2 * (self.h + HEIGHT + GROWTH) * _CW
            outside = np.ones(2 * zero, bool)
            for r in range(height):
                outside[zero + r * _CW : zero + r * _CW + width] = False
            known = self._outsides[width, height] = (outside, zero)
        return known

    def _piece(self, c: IslandCard, rotation: int, layer: int) -> tuple[np.ndarray, int, int, int]:
        """The entries of a card turned ``rotation`` laid as layer ``layer`` at its box's
        top-left cell (0, 0), how many are the planes', and its box's width and height (kept
        by card id, rotation and layer, checked to be that very card)."""
        key = (c.id, rotation, layer)
        known = self._pieces.get(key)
        if known is None or known[0] is not c:
            if len(self._pieces) > 16384:
                self._pieces.clear()
            if layer > 1:  # the first layer's, its layers' values rewritten
                array, planes, width, height = self._piece(c, rotation, 1)
                array = array.copy()
                array[_EVALUE, planes:] = layer
                known = self._pieces[key] = (c, array, planes, width, height)
            else:
                s = shape(c, rotation)
                found = [
                    (x, y, off, stride, value)
                    for (x, y), spec in s.cells
                    for off, stride, value in self._cell(spec.terrain, spec.symbol, spec.ways, layer)
                ]
                known = self._pieces[key] = (c, *self._entries(found), s.width, s.height)
        return known[1], known[2], known[3], known[4]

    def _cell(
        self, terrain: str, symbol: str | None, ways: tuple[tuple[int, int], ...], layer: int
    ) -> list[tuple[int, int, int]]:
        """A visible cell's entries but its place: (offset, seat stride, value) each."""
        planes = self._planes
        out = [(*planes[TERRAINS.index(terrain)], 1)]
        if symbol:
            out.append((*planes[_SYM0 + SYMBOL[symbol]], 1))
        out += [(*planes[_WAY0 + WAY[d]], 1) for d in ways]
        if layer:
            out.append((*self._layers, layer))
        return out

    def _block_indices(self, r: int) -> list[int]:
        """Where :meth:`_tail` goes, for row ``r``, its village's place, its beach and
        its Sources but the Coconut (in that order)."""
        at = self._at
        ns = len(SOURCES)
        where = [at["village_at"] + 2 * r, at["village_at"] + 2 * r + 1, at["beach"] + r]
        where += [at["sources"] + r * ns + SOURCE[src] for src in _NOT_COCONUT]
        return where

    def _make_place_actions(self) -> tuple[list[int], range, range]:
        """The action of each placement within :func:`.rules.placement_bound`, by rotation
        index, then ``y``, then ``x`` (index ``(r * len(ys) + y - ys.start) * len(xs) + x -
        xs.start``), read from the game's codec (shared by the encoders of one codec), with
        ``xs`` and ``ys``."""
        codec = self.game.codec
        known = _PLACE_ACTIONS.get(codec)
        if known is None:
            xs, ys = placement_bound(self.m)
            table = [codec.index[Place(r, x, y)] for r in ROTATIONS for y in ys for x in xs]
            known = _PLACE_ACTIONS[codec] = (table, xs, ys)
        self._place_actions = known
        return known

    def _islands(
        self,
        state: MotuState,
        seat: int,
        grids: list[_Grid],
        where: list[int],
        values: list[float],
        out: np.ndarray,
    ) -> None:
        """Every seat's island (its planes and layers, written straight into ``out`` from its
        grid, a seat row further on per row) and the values after them (:meth:`_tail`)."""
        rel = self._rel[seat]
        stride, hw = self._planes[0][1], self._layers[1]
        block_at = self._block_at
        for s, grid in enumerate(grids):
            r = rel[s]
            if r:
                out[r * stride :][grid.planes_at] = 1.0
                out[r * hw :][grid.layers_at] = grid.layers_values
            else:
                out[grid.planes_at] = 1.0
                out[grid.layers_at] = grid.layers_values
            where += block_at[r]
            values += self._tail(state, s, grid)

    def _spots(self, state: MotuState) -> tuple[np.ndarray, tuple[int, ...]]:
        """The legal placements of the card in hand (the rules' own bit boards): their frame
        cells (per rotation, in the frame of the island of the seat to act) and their actions
        (sorted), kept with the island's grid."""
        assert state.holding is not None
        island = state.islands[state.turn]
        grid = self._grid(island)
        known = grid.spots.get(state.holding)
        if known is None:
            known = grid.spots[state.holding] = self._read_spots(island, state.holding, grid)
        return known

    def _read_spots(self, island: Island, holding: str, grid: _Grid) -> tuple[np.ndarray, tuple[int, ...]]:
        """:meth:`_spots` worked out: each set bit of the rules' boards (row ``y``, column
        ``x`` of a board ``width`` wide from (x0, y0)) is a frame cell and an action."""
        boards, x0, y0, width = legal_boards(island, holding)
        table, xs, ys = self._place_actions or self._make_place_actions()
        nx, ny = len(xs), len(ys)
        hw = self.w * self.h
        cell0 = (y0 + GROWTH - grid.low[1]) * self.w + x0 + GROWTH - grid.low[0]
        action0 = (y0 - ys.start) * nx + x0 - xs.start
        cell_step, action_step = self._bit_steps.get(width) or self._make_bit_steps(width)
        cells: list[int] = []
        actions: list[int] = []
        for r, board in enumerate(boards):
            if not board:
                continue
            bits = f"{board:b}"[::-1]
            if len(bits) > len(cell_step):
                cell_step, action_step = self._make_bit_steps(width, len(bits))
            at = bits.find("1")
            c, a = r * hw + cell0, r * ny * nx + action0
            while at >= 0:
                cells.append(c + cell_step[at])
                actions.append(table[a + action_step[at]])
                at = bits.find("1", at + 1)
        actions.sort()
        return np.array(cells, np.intp), tuple(actions)

    def _make_bit_steps(self, width: int, bits: int = 0) -> tuple[list[int], list[int]]:
        """For a bit board ``width`` wide, per bit (``bits`` at least, a frame's worth): its
        row ``y`` and column ``x`` as a frame cell offset and as a placement offset."""
        rows = max(self.h + 2 * GROWTH, -(-bits // width))
        nx = len(self._place_actions[1]) if self._place_actions else len(self._make_place_actions()[1])
        steps = (
            [y * self.w + x for y in range(rows) for x in range(width)],
            [y * nx + x for y in range(rows) for x in range(width)],
        )
        self._bit_steps[width] = steps
        return steps

    # ------------------------------------------------------------- the history
    def _read_events(
        self, seat: int, entries: list[Entry], history: np.ndarray, memory: dict[str, Any]
    ) -> None:
        """One record per turn, from public events only (module doc)."""
        at = self._hat
        rel = self._rel[seat]
        n = self.players
        t = memory.get("turn", -1)
        for _, kind, args, _ in entries:
            if kind == "turn":
                t += 1
                history[at["h_seat"] + t * n + rel[args[_TURN_SEAT]]] = 1.0
            elif kind in _TAKES:
                self._took(kind, args, t, history)
            elif kind == "place":
                history[at["h_rotation"] + t * len(ROTATIONS) + ROTATIONS.index(args[_ROTATION])] = 1.0
                history[at["h_spot"] + 2 * t : at["h_spot"] + 2 * t + 2] = (args[_X], args[_Y])
            elif kind == "shown":
                row = at["h_shown"] + t * 2 * K
                history[[row + CARD[args[_LEFT]], row + K + CARD[args[_RIGHT]]]] = 1.0
            elif kind == "give":
                history[at["h_fate"] + 2 * t] = 1.0
            elif kind == "discard":
                history[at["h_fate"] + 2 * t + 1] = 1.0
            elif kind == "buy":
                history[at["h_buy"] + t * len(DESTINY_IDS) + DESTINY[args[_DESTINY]]] = 1.0
            elif kind == "travel":
                history[at["h_travel"] + t] = 1.0
        memory["turn"] = t

    def _took(self, kind: str, args: tuple[Any, ...], t: int, history: np.ndarray) -> None:
        """A take (row position), a solo pick (side) or a scrap: what, which card, coconuts."""
        at = self._hat
        fields = _F[kind]
        width = 3 if self.solo else ROW + 1
        if kind == "take":
            which = args[fields["position"]]
        elif kind == "pick":
            which = ("left", "right").index(args[fields["side"]])
        else:
            which = width - 1
        history[at["h_take"] + t * width + which] = 1.0
        history[at["h_card"] + t * K + CARD[args[fields["card"]]]] = 1.0
        paid = args[fields["paid"]] if "paid" in fields else 0
        history[at["h_coconuts"] + 2 * t : at["h_coconuts"] + 2 * t + 2] = (paid, args[fields["gained"]])


_TAKES = ("take", "pick", "scrap")
_ENCODERS = itertools.count()
#: How many grids :meth:`MotuEncoder._new_grid` keeps by placements, at most (the parents of
#: the next islands: one per seat of each game being played, with room to spare).
_LINEAGE = 256
_COCONUT = SOURCE["coconut"]
_NOT_COCONUT = tuple(src for src in SOURCES if src != "coconut")
#: By codec: :meth:`MotuEncoder._make_place_actions`.
_PLACE_ACTIONS: dict[ActionCodec, tuple[list[int], range, range]] = {}
_TURN_SEAT = _F["turn"]["seat"]
_ROTATION, _X, _Y = (_F["place"][f] for f in ("rotation", "x", "y"))
_LEFT, _RIGHT = _F["shown"]["left"], _F["shown"]["right"]
_DESTINY = _F["buy"]["destiny"]


def _features(out: np.ndarray, base: int, name: str) -> None:
    """A card's features (:data:`FEATURE`) into ``out`` from ``base`` on."""
    out[base : base + FEATURES] = _FEATURE_ARRAYS[name]
