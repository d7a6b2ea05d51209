"""MOTU (Scott Almes): grow an island by overlapping cards; score six Sources of harmony at three
interim totals. Every rule of the rulebook and of RULINGS.md (MOTU 1-8), solo game included.

The island model (grid, rotations, placement and terrain rules) lives in :mod:`.island`, the
Sources and the end-of-game scoring in :mod:`.sources`; this module holds the turn, the row, the
coconuts, Destinies, Travelers, interim totals, the solo Opponent and the one state class
:class:`MotuState`. Everything a viewer may see comes from :meth:`MotuState._view`.

A turn asks its seat one step at a time (the core's one turn rule):

- ``take``: ``take 1``-``take 4`` (a row position; one coconut on each card to its left), or
  ``scrap`` when no affordable card can be placed; solo: ``take left`` / ``take right``;
- ``place``: ``place ROTATION X Y`` (many moves: offered step by step, rotation then position);
- ``extras`` (asked only when something can be done): ``buy Dxx`` (once), ``travel``, ``done``;
  a Destiny comes before the Traveler, so ``travel`` ends the turn;
- solo ``other``: ``give`` (the other card to the Opponent, face down) or ``discard`` (pay 3),
  asked only when the player can pay.

When a pile empties, the turn's optional steps end first; then every seat chooses its Sources for
the interim total at once and in secret (``score totem``; ``score fisherman hunter``); the last
interim scores the three Sources left, by itself, and ends the game.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.chance import shuffle
from ...core.contract import HIDDEN, emitters
from ...core.errors import NotationError, OptionError, SetupError, quoted
from ...core.events import EVERYONE, REFEREE, seats
from ...core.game import GameInfo, State, check_notation
from ...core.moves import ActionCodec, Move
from ...core.options import OptionSpec
from ...core.results import Party
from . import view as V
from .cards import (
    DESTINIES,
    ISLAND_IDS,
    RULER_BANDS,
    SOLO_START_SCORES,
    TRAVELERS,
    VILLAGE_IDS,
)
from .island import (
    ROTATIONS,
    Island,
    bounds,
    fits,
    kept_problem,
    lay_card,
    legal_boards,
    legal_placements,
    new_island,
    share,
    terrain_problem,
    uniform_on_boards,
)
from .sources import (
    SOURCE_NAME,
    SOURCES,
    beach_bonuses,
    coconut_bonuses,
    component_count,
    destiny_points,
    longest_beach,
    opponent_beach,
    opponent_points,
    source_points,
    symbol_counts,
    traveler_points,
)

# ------------------------------------------------------------------ the rulebook's numbers
PILES = "ABC"
ROW = 4  # cards face up in the row
ROUNDS = 9  # cards each player adds to the island
COCONUTS = 36  # counters in the box
START_COCONUTS = 5
SOLO_START_COCONUTS = 6
HUT_START = 3  # solo: coconuts on the Beach Hut at the start
SOLO_DISCARD = 3  # solo: what keeps the other card from the Opponent
SOLO_LEFT_COST = 1
PICKS = (1, 2, 3)  # Sources scored when pile A, B, C empties
PILE_SIZES = {2: (8, 6, 4), 3: (12, 9, 6), 4: (16, 12, 8), 5: (20, 15, 10), 6: (24, 18, 12)}
SOLO_PILE_SIZES = {"printed": (16, 12, 8), "short": (8, 6, 4)}
DIFFICULTIES = ("easy", "intermediate", "difficult", "legendary")
#: How far from the village a placement's top-left cell can ever be (see :func:`placement_bound`).
GROWTH = 3


# ------------------------------------------------------------------ moves
@dataclass(frozen=True, slots=True)
class Take(Move):
    """Take the card at row ``position`` (0 = leftmost). Notation ``take 1`` .. ``take 4``."""

    position: int

    def __str__(self) -> str:
        return f"take {self.position + 1}"


@dataclass(frozen=True, slots=True)
class SoloTake(Move):
    """Solo: take the ``left`` card (pay 1 to the Beach Hut) or the ``right`` one (gain 1)."""

    side: str

    def __str__(self) -> str:
        return f"take {self.side}"


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Lay the taken card turned ``rotation`` degrees clockwise, its top-left cell on (x, y).

    Notation ``place 90 2 -1``; offered in two steps, ``place 90`` then ``2 -1``.
    """

    rotation: int
    x: int
    y: int

    def __str__(self) -> str:
        return f"place {self.rotation} {self.x} {self.y}"

    def steps(self) -> tuple[str, ...]:
        return (f"place {self.rotation}", f"{self.x} {self.y}")


@dataclass(frozen=True, slots=True)
class Buy(Move):
    """Buy a Destiny from the table. Notation ``buy D03``."""

    destiny: str

    def __str__(self) -> str:
        return f"buy {self.destiny}"


@dataclass(frozen=True, slots=True)
class Score(Move):
    """Choose the Sources of an interim total (canonical order). ``score fisherman hunter``."""

    sources: tuple[str, ...]

    def __str__(self) -> str:
        return "score " + " ".join(self.sources)


@dataclass(frozen=True, slots=True)
class Word(Move):
    """A one-word move: ``scrap``, ``travel``, ``done``, ``give`` or ``discard``."""

    word: str

    def __str__(self) -> str:
        return self.word


SCRAP, TRAVEL, DONE, GIVE, DISCARD = (Word(w) for w in ("scrap", "travel", "done", "give", "discard"))
WORDS = {str(w): w for w in (SCRAP, TRAVEL, DONE, GIVE, DISCARD)}
TAKES = tuple(Take(i) for i in range(ROW))
_ROTATION_INDEX = {r: i for i, r in enumerate(ROTATIONS)}  # a rotation's legal board (legal_boards)
SOLO_TAKES = {side: SoloTake(side) for side in ("left", "right")}
BUYS = {d: Buy(d) for d in DESTINIES}
SCORES = {combo: Score(combo) for k in (1, 2, 3) for combo in itertools.combinations(SOURCES, k)}
#: Names a player may give each Source in ``score`` (any case): the Source's own word first (the
#: notation), then today's short words, the rulebook's name (:data:`.sources.SOURCE_NAME`,
#: ``Fisherman/Fish``, ``Canoe/Palm Tree``) and the Palm Tree's own name. A name of two words is
#: read as one Source: no second word of a name is a name by itself (see :func:`source_names`).
SOURCE_WORDS = {
    "fisherman": ("fisherman", "fishermen", "fish", "fisherman/fish"),
    "hunter": ("hunter", "hunters", "bird", "birds", "hunter/bird"),
    "canoe": ("canoe", "canoes", "palm", "palms", "palm tree", "palm trees", "canoe/palm tree"),
    "coconut": ("coconut", "coconuts"),
    "totem": ("totem", "totems"),
    "volcano": ("volcano", "volcanoes", "village", "volcano/village"),
}
assert all(SOURCE_NAME[s].lower() in words for s, words in SOURCE_WORDS.items()), "a rulebook name is missing"
_SOURCE_OF = {w: source for source, words in SOURCE_WORDS.items() for w in words}
#: Between Source names in ``score``: spaces, and these (a list as the interim summary writes it).
SOURCE_SEPARATORS = (",", "+", "and")
_SLASH = re.compile(r"\s*/\s*")

# ------------------------------------------------------------------ declarations
OPTIONS = (
    OptionSpec(
        "travelers",
        bool,
        True,
        "Deal each player a face-down Traveler, played once for points "
        "from the row (the rulebook suggests leaving them out of a first game). Not used solo.",
    ),
    OptionSpec(
        "destinies",
        bool,
        True,
        "Lay out one Destiny card more than there are players, to buy "
        "for coconuts (the rulebook suggests leaving them out of a first game). Not used solo.",
    ),
    OptionSpec(
        "difficulty",
        str,
        "easy",
        "Solo: the Opponent's starting score (easy 20, intermediate 28, difficult 35, legendary 42).",
        choices=DIFFICULTIES,
    ),
    OptionSpec(
        "solo_piles",
        str,
        "printed",
        "Solo: pile sizes, printed 16/12/8 (18 cards placed) or "
        "short 8/6/4 (9 cards placed, as in the game for several players).",
        choices=tuple(SOLO_PILE_SIZES),
    ),
    OptionSpec(
        "zero_is_most",
        bool,
        True,
        "When nobody has any of something (a Destiny's component, "
        "beach, banked coconuts), all tie for the most and score as such (ties count as the "
        "most); false: a count of 0 is never the most (the Destiny's penalty applies, no bonus).",
    ),
    OptionSpec(
        "solo_totems",
        str,
        "symbols",
        "Solo: how the player's totems count: symbols (every totem "
        "symbol, repeats included) or kinds (every kind present once, as the Opponent's).",
        choices=("symbols", "kinds"),
    ),
    OptionSpec(
        "solo_coconut_bonus",
        bool,
        True,
        "Solo: the player scores the Coconut bonus with at least "
        "one banked coconut (the book takes it from the Opponent only); false: nobody scores it.",
    ),
)
SOLO_OPTIONS = ("difficulty", "solo_piles", "solo_totems", "solo_coconut_bonus")

INFO = GameInfo(
    id="motu",
    name="MOTU",
    min_seats=1,
    max_seats=6,
    version="1",
    options=OPTIONS,
    notation=(
        "take 1-4 (a row position) or scrap; place ROTATION X Y (place 90 2 -1); buy D03, "
        "travel, done; score totem / score fisherman hunter; solo: take left/right, give, "
        "discard"
    ),
    view_type=V.MotuView,
    event_types=V.EVENT_TYPES,
    move_types=(Take, SoloTake, Place, Buy, Score, Word),
    max_moves=6 * 38 + 10,
    margin_scale=30.0,
    # The rulebook's first game (no Travelers, no Destinies); and every solo ruling switched
    # to its alternative at once (ruling 8).
    notable_options=(
        {"travelers": False, "destinies": False},
        {
            "difficulty": "legendary",
            "solo_piles": "short",
            "solo_totems": "kinds",
            "solo_coconut_bonus": False,
        },
    ),
)
EMIT = emitters(V.EVENT_TYPES)  # events logged by keyword, checked against view.py's kinds


# ------------------------------------------------------------------ pure rules
def take_cost(position: int) -> int:
    """Coconuts paid to take the card at ``position``: one on each card to its left."""
    return position


def pay_positions(price: int, row_length: int) -> list[int]:
    """Where a Destiny's price goes: one coconut per row card, right to left, wrapping round."""
    return [row_length - 1 - k % row_length for k in range(price)]


def pile_sizes(players: int, solo_piles: str = "printed") -> tuple[int, int, int]:
    """Cards in piles A, B and C (the rulebook's table; solo: printed or short)."""
    return variant_for(players).pile_sizes(players, solo_piles)


def placements_per_seat(players: int, solo_piles: str = "printed") -> int:
    """How many cards a seat adds to its island at most (solo: one per two cards shown)."""
    return variant_for(players).placements(solo_piles)


def placement_bound(cards: int) -> tuple[range, range]:
    """Every top-left cell a placement can ever use on an island of at most ``cards`` island cards.

    A new card must cover a visible symbol, so it overlaps the island, and a card is at most 4
    cells long: each card moves the island's edge out by at most 3 cells in any direction. The
    village covers x 0..2, y 0..3, so before its m-th card the island lies within x -3(m-1)..
    2+3(m-1), y -3(m-1)..3+3(m-1), and the m-th card's top-left cell within x -3m..3m-1,
    y -3m..3m (its top-left cell is never right of or below the symbol it covers).
    """
    reach = GROWTH * cards
    return range(-reach, reach), range(-reach, reach + 1)


def interim_choices(scored: Sequence[str], picks: int) -> list[tuple[str, ...]]:
    """The Source sets a seat may score at an interim: ``picks`` Sources it has not scored yet."""
    left = [s for s in SOURCES if s not in scored]
    return list(itertools.combinations(left, picks))


#: Per move class with one text field: the field, its allowed values, and what it must be.
_TEXT_FIELDS: dict[type, tuple[str, Mapping[Any, Move], str]] = {
    SoloTake: ("side", SOLO_TAKES, "a solo take's side is left or right"),
    Buy: ("destiny", BUYS, "a Destiny is one of D01-D10"),
    Word: ("word", WORDS, f"a one-word move is one of {', '.join(WORDS)}"),
    Score: ("sources", SCORES, "a score names 1-3 different Sources, in the order " + " ".join(SOURCES)),
}


def move_fields_problem(move: Move) -> str | None:
    """Why a Move object's fields make no MOTU move at all, or None: a field of the wrong type or
    out of range (what a hand-made Move may hold and notation never does). A placement's x and y
    are any whole numbers here; :func:`out_of_reach` bounds them."""
    kind = type(move)
    if kind is Take:
        p = move.position  # type: ignore[attr-defined]
        return (
            None
            if type(p) is int and 0 <= p < ROW
            else (f"a take's position is a row position 0-{ROW - 1} (take 1 is 0), not {quoted(p)}")
        )
    if kind is Place:
        return _place_fields_problem(move)  # type: ignore[arg-type]
    if kind not in _TEXT_FIELDS:  # a subclass of a MOTU move is none
        return f"{quoted(move)} is not a MOTU move"
    field, allowed, what = _TEXT_FIELDS[kind]
    value = getattr(move, field)
    if kind is Score:
        ok = type(value) is tuple and all(type(v) is str for v in value) and value in allowed
    else:
        ok = type(value) is str and value in allowed
    return None if ok else f"{what}, not {quoted(value)}"


def _place_fields_problem(move: Place) -> str | None:
    if type(move.rotation) is not int or move.rotation not in ROTATIONS:
        return f"a placement's rotation is 0, 90, 180 or 270, not {quoted(move.rotation)}"
    for name, value in (("x", move.x), ("y", move.y)):
        if type(value) is not int:
            return f"a placement's {name} is a whole number, not {quoted(value)}"
    return None


def out_of_reach(move: Place, bound: tuple[range, range]) -> str | None:
    """Why a placement lies beyond every card of the island (``bound``: :func:`placement_bound`),
    or None: there it can cover no symbol."""
    for name, value, span in (("x", move.x, bound[0]), ("y", move.y, bound[1])):
        if value not in span:
            return (
                f"it covers no symbol: no card of this game reaches that far from the village "
                f"({name} runs from {span.start} to {span.stop - 1}, not {quoted(value)})"
            )
    return None


def solo_take_price(side: str, hut: int) -> int:
    """Coconuts a solo take changes in the bank: -1 for the left card, +1 for the right one
    while the Beach Hut has any."""
    if side == "left":
        return -SOLO_LEFT_COST
    return 1 if hut else 0


def source_names(text: str) -> list[str]:
    """The Sources named in ``text`` (the words after ``score``), in the order named.

    Any case; spaces around "/" are optional (``Fisherman / Fish``); names are separated by
    spaces, commas, "+" or "and". Read left to right, two words that together make a name
    (``palm tree``, ``canoe/palm tree``) are one Source, else one word is; since no second word
    of a name names a Source by itself ("tree" does not), a list is read only one way.
    NotationError names the first word that is no Source.
    """
    spaced = _SLASH.sub("/", text.lower())
    for sep in SOURCE_SEPARATORS[:2]:
        spaced = spaced.replace(sep, " ")
    words = [w for w in spaced.split() if w not in SOURCE_SEPARATORS]
    found: list[str] = []
    i = 0
    while i < len(words):
        two = " ".join(words[i : i + 2])
        size = 2 if i + 1 < len(words) and two in _SOURCE_OF else 1
        name = " ".join(words[i : i + size])
        if name not in _SOURCE_OF:
            raise NotationError(
                f"{quoted(name)} is not a Source (the Sources: "
                f"{', '.join(SOURCE_NAME[s] for s in SOURCES)}; or one word each: "
                f"{', '.join(SOURCES)})"
            )
        found.append(_SOURCE_OF[name])
        i += size
    return found


def _parse_int(word: str, text: str, what: str) -> int:
    body = word[1:] if word[:1] in "+-" else word
    if not (body.isascii() and body.isdigit()) or len(body) > 4:
        raise NotationError(f"{quoted(text)}: {what} must be a whole number, not {quoted(word)}")
    return int(word)


# ------------------------------------------------------------------ the variants
class Table:
    """The game for several seats: the hooks :class:`MotuState` asks wherever the solo game
    differs. :class:`Solo` overrides them (python-chess's variants are the model: one class per
    variant, named hooks instead of branches). Stateless (no slots: states share it): every hook
    is handed the state."""

    __slots__ = ()
    solo = False
    row_size = ROW  #: cards face up in the row
    start_coconuts = START_COCONUTS
    hut_start = 0
    extras = True  #: Travelers and Destinies may be used

    def pile_sizes(self, players: int, solo_piles: str) -> tuple[int, int, int]:
        return PILE_SIZES[players]

    def placements(self, solo_piles: str) -> int:
        """The cards each seat adds to its island: one a round."""
        return ROUNDS

    def check_options(self, options: Mapping[str, Any]) -> None:
        for spec in OPTIONS:
            if spec.name in SOLO_OPTIONS and options[spec.name] != spec.default:
                raise OptionError(f"option {spec.name} is for the solo game (1 player) only")

    def option_applies(self, name: str) -> bool:
        return name not in SOLO_OPTIONS

    def move_limit(self, players: int, options: Mapping[str, Any]) -> int:
        return players * (4 * ROUNDS + 2) + 10  # take, place, buy, travel/done; two interims

    def turn_moves(self, options: Mapping[str, Any]) -> list[Move]:
        """The moves of a turn besides scrap, placements and scores (for :meth:`MotuState.all_moves`)."""
        moves: list[Move] = list(TAKES)
        if options["destinies"]:
            moves += list(BUYS.values())
        if options["travelers"]:
            moves.append(TRAVEL)
        return [*moves, DONE]

    def extras_refusal(self, key: str) -> str:
        return f"setup {key} needs the option {key}=true"

    def totem_rule(self, options: Mapping[str, Any]) -> str:
        return "once"

    def offered(self, state: MotuState) -> list[str]:
        """The cards a seat may take from: the row."""
        return state.row

    def affordable(self, state: MotuState, bank: int) -> list[Move]:
        return [TAKES[i] for i in range(len(state.row)) if take_cost(i) <= bank]

    def take_problem(self, state: MotuState, seat: int, move: Move) -> str:
        if type(move) is Take and move.position in range(len(state.row)):
            return state._row_problem(seat, move.position)
        return f"{move} is not a move now: take 1-4 (a card of the row)"

    def start_turn(self, state: MotuState) -> None:
        """What a turn shows before the seat takes (the row is already there)."""

    def scrap(self, state: MotuState, seat: int) -> tuple[str, int]:
        """Scrap the leftmost card: its name and the coconuts gained from it."""
        gained = state.row_coconuts.pop(0)
        state.banks[seat] += gained
        return state.row.pop(0), gained

    def after_card(self, state: MotuState, seat: int) -> None:
        state._refill()
        state._extras(seat)

    def finish(self, state: MotuState) -> None:
        state._finish_table()

    def parties(self, state: MotuState) -> tuple[Party, ...] | None:
        """The parties, or None: the seats (or teams) themselves."""
        return None

    def party_scores(self, state: MotuState) -> list[float]:
        return state.scores()

    def tiebreaks(self, state: MotuState) -> list[tuple[float, ...]]:
        return [(float(state.coconut_count(s)),) for s in range(state.players)]

    def table_view(self, state: MotuState, ref: bool) -> V.SoloTable | None:
        return None


class Solo(Table):
    """The solo game against the Opponent: two cards shown instead of a row, the Beach Hut, the
    other card given or discarded, no Travelers or Destinies, the Opponent as a party."""

    __slots__ = ()
    solo = True
    row_size = 0
    start_coconuts = SOLO_START_COCONUTS
    hut_start = HUT_START
    extras = False

    def pile_sizes(self, players: int, solo_piles: str) -> tuple[int, int, int]:
        return SOLO_PILE_SIZES[solo_piles]

    def placements(self, solo_piles: str) -> int:
        """One card placed for every two shown."""
        return sum(self.pile_sizes(1, solo_piles)) // 2

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Travelers and Destinies stay in the box whatever their options say."""

    def option_applies(self, name: str) -> bool:
        return name not in ("travelers", "destinies")

    def move_limit(self, players: int, options: Mapping[str, Any]) -> int:
        return (
            3 * placements_per_seat(1, options["solo_piles"]) + 2 + 10
        )  # take, place, give/discard; interims

    def turn_moves(self, options: Mapping[str, Any]) -> list[Move]:
        return [*SOLO_TAKES.values(), GIVE, DISCARD]

    def extras_refusal(self, key: str) -> str:
        return f"setup {key}: the solo game has no {key.capitalize()}"

    def totem_rule(self, options: Mapping[str, Any]) -> str:
        return str(options["solo_totems"])

    def offered(self, state: MotuState) -> list[str]:
        """The two cards shown."""
        return state.shown

    def affordable(self, state: MotuState, bank: int) -> list[Move]:
        return [
            SOLO_TAKES[side] for side in ("left", "right") if bank + solo_take_price(side, state.hut) >= 0
        ]

    def take_problem(self, state: MotuState, seat: int, move: Move) -> str:
        if type(move) is SoloTake and move.side in SOLO_TAKES:
            return state._solo_take_problem(seat, move.side)
        return f"{move} is not a move now: take left or take right"

    def start_turn(self, state: MotuState) -> None:
        state._show_two()

    def scrap(self, state: MotuState, seat: int) -> tuple[str, int]:
        """Scrap the left card; the right one becomes the other card."""
        name, state.other, state.shown = state.shown[0], state.shown[1], []
        return name, 0

    def after_card(self, state: MotuState, seat: int) -> None:
        """The other card's fate: asked only when the player can pay to discard it."""
        if state.banks[seat] >= SOLO_DISCARD:
            state.phase = "other"
        else:
            state._give(seat)

    def finish(self, state: MotuState) -> None:
        state._finish_solo()

    def parties(self, state: MotuState) -> tuple[Party, ...] | None:
        return _SOLO_PARTIES

    def party_scores(self, state: MotuState) -> list[float]:
        return [state.scores()[0], float(state.opponent_score())]

    def tiebreaks(self, state: MotuState) -> list[tuple[float, ...]]:
        """The Beach Hut is the Opponent's bank; a tie there goes to the player."""
        return [(float(state.banks[0]), 1.0), (float(state.hut), 0.0)]

    def table_view(self, state: MotuState, ref: bool) -> V.SoloTable | None:
        return state._solo_view(ref)


VARIANTS = (Solo(), Table())


def variant_for(players: int) -> Table:
    """The rules object of a game of ``players`` seats: :class:`Solo` alone, else :class:`Table`."""
    return VARIANTS[0] if players == 1 else VARIANTS[1]


# ------------------------------------------------------------------ the state
class MotuState(State):
    """A game of MOTU (1 seat: the solo game against the Opponent).

    ``islands`` (one immutable :class:`~.island.Island` per seat), ``banks`` (coconuts per
    seat), ``supply`` (counters left in the box), ``row`` and ``row_coconuts``, ``piles``
    (A, B, C; the next card last), ``pile`` (the pile being played), ``box`` (island cards out of
    the game, sorted), ``discards``, ``travelers`` / ``played`` / ``traveler_points``,
    ``table_destinies`` (to buy) and ``owned``, ``interims`` (per seat: (pile, sources, points per
    source)), ``choices`` (secret choices of the interim under way), ``phase``, ``turn``,
    ``holding`` (the card taken, to place); solo: ``hut``, ``shown``, ``other``, ``opponent``.
    """

    info = INFO

    # The state's attributes (clone and undo copy exactly these; see kiti.core.game).
    variant: Table
    solo: bool
    use_travelers: bool
    use_destinies: bool
    first: int
    villages: list[str]
    islands: list[Island]
    row: list[str]
    row_coconuts: list[int]
    piles: list[list[str]]
    box: list[str]
    travelers: list[str | None]
    traveler_box: list[str]
    played: list[bool]
    traveler_points: list[int]
    table_destinies: list[str]
    destiny_box: list[str]
    owned: list[list[str]]
    banks: list[int]
    hut: int
    supply: int
    discards: list[str]
    interims: list[list[tuple[str, tuple[str, ...], tuple[int, ...]]]]
    choices: list[tuple[str, ...] | None]
    pile: int
    phase: str
    turn: int
    holding: str | None
    bought: bool
    emptied: bool
    shown: list[str]
    other: str | None
    opponent: list[str]
    final: list[dict[str, int]] | None
    opponent_final: dict[str, int] | None
    round: int
    _fit_cache: tuple[int, tuple[bool, ...]] | None  # (history length, fits), see _fits
    _placement_cache: tuple[int, tuple[Place, ...]] | None  # (history length, placements)
    _shared_cache: tuple[int, tuple[Any, ...]] | None  # (history length, _shared_view's parts)
    _pool_cache: tuple[int, tuple[str, ...]] | None  # (history length, _unseen_cards)
    #: (island, card, legal boards by rotation, x0, y0, width): see _may_place
    _spot_cache: tuple[Island, str | None, tuple[int, ...], int, int, int] | None

    # ------------------------------------------------------------- setup
    def _setup(self, options: dict[str, Any], setup: dict[str, Any] | None) -> None:
        n = self.players
        self.variant = variant_for(n)
        self.solo = self.variant.solo
        self.variant.check_options(options)
        self.use_travelers = options["travelers"] and self.variant.extras
        self.use_destinies = options["destinies"] and self.variant.extras
        setup = dict(setup or {})
        unknown = set(setup) - {"deck", "piles", "villages", "travelers", "destinies", "first"}
        if unknown:
            raise SetupError(
                f"unknown MOTU setup key(s): {', '.join(sorted(unknown))} (known: deck, "
                "piles, villages, travelers, destinies, first)"
            )
        self.first = _setup_seat(setup.get("first", 0), n)
        villages = self._deal(setup.get("villages"), VILLAGE_IDS, n, "villages", "village")
        self.villages = villages
        self.islands = [new_island(v) for v in villages]
        self._lay_out_cards(setup)
        self._deal_extras(setup)
        start = self.variant.start_coconuts
        self.banks = [start] * n
        self.hut = self.variant.hut_start
        self.supply = COCONUTS - start * n - self.hut
        self._start_play()
        EMIT.setup(
            self.log,
            EVERYONE,
            first=self.first,
            villages=tuple(villages),
            row=tuple(self.row),
            destinies=tuple(self.table_destinies),
            piles=tuple(len(p) for p in self.piles),
        )
        for s, t in enumerate(self.travelers):
            if t is not None:
                EMIT.traveler(self.log, seats(s), seat=s, card=t)
        self.round = 1
        self._fit_cache = self._placement_cache = self._shared_cache = self._spot_cache = None  # on demand
        self._pool_cache = None
        self._start_turn(self.first)

    def _start_play(self) -> None:
        n = self.players
        self.discards = []
        self.interims = [[] for _ in range(n)]
        self.choices = [None] * n
        self.pile = 0
        self.phase = "take"
        self.turn = self.first
        self.holding = None
        self.bought = False
        self.emptied = False
        self.shown = []
        self.other = None
        self.opponent = []
        self.final = None
        self.opponent_final = None

    def _deal(self, given: Any, ids: Sequence[str], count: int, key: str, what: str) -> list[str]:
        """``count`` distinct ids from the setup (checked) or from a shuffle of ``ids``."""
        if given is None:
            pool = list(ids)
            shuffle(self.rng, pool)
            return pool[:count]
        if (
            not isinstance(given, list)
            or len(given) != count
            or len(set(map(str, given))) != count
            or not all(isinstance(c, str) and c in ids for c in given)
        ):
            raise SetupError(f"setup {key} must list {count} different {what} ids out of {', '.join(ids)}")
        return list(given)

    def _lay_out_cards(self, setup: dict[str, Any]) -> None:
        """The row (not solo) and piles A, B, C from the setup's deck or piles, or a shuffle."""
        sizes = pile_sizes(self.players, self.options["solo_piles"])
        row_size = self.variant.row_size
        if "deck" in setup and "piles" in setup:
            raise SetupError("setup gives deck or piles, not both")
        if "piles" in setup:
            order = _setup_piles(setup["piles"], row_size, sizes)
        elif "deck" in setup:
            order = _setup_deck(setup["deck"], row_size + sum(sizes))
        else:
            order = list(ISLAND_IDS)
            shuffle(self.rng, order)
        self.row = order[:row_size]
        self.row_coconuts = [0] * row_size
        self.piles = []
        at = row_size
        for size in sizes:
            self.piles.append(order[at : at + size][::-1])  # the top card is drawn first: it is last
            at += size
        self.box = sorted(order[at:])

    def _deal_extras(self, setup: dict[str, Any]) -> None:
        n = self.players
        for key, on in (("travelers", self.use_travelers), ("destinies", self.use_destinies)):
            if key in setup and not on:
                raise SetupError(self.variant.extras_refusal(key))
        self.travelers = [None] * n
        self.traveler_box = sorted(TRAVELERS)
        if self.use_travelers:
            dealt = self._deal(setup.get("travelers"), tuple(TRAVELERS), n, "travelers", "Traveler")
            self.travelers = list(dealt)
            self.traveler_box = sorted(set(TRAVELERS) - set(dealt))
        self.played = [False] * n
        self.traveler_points = [0] * n
        self.table_destinies = []
        if self.use_destinies:
            self.table_destinies = self._deal(
                setup.get("destinies"), tuple(DESTINIES), n + 1, "destinies", "Destiny"
            )
        self.destiny_box = sorted(set(DESTINIES) - set(self.table_destinies))
        self.owned = [[] for _ in range(n)]

    @classmethod
    def option_applies(cls, name: str, players: int) -> bool:
        """Solo options only alone; Travelers and Destinies never alone."""
        return variant_for(players).option_applies(name)

    @classmethod
    def move_limit(cls, players: int, options: Mapping[str, Any]) -> int:
        return variant_for(players).move_limit(players, options)

    # ------------------------------------------------------------- notation
    @classmethod
    def parse_move(cls, text: str) -> Move:
        t = check_notation(text)
        word, _, rest = t.partition(" ")
        args = rest.split()
        if word in WORDS and not args:
            return WORDS[word]
        if word == "take" and len(args) == 1:
            return _parse_take(args[0], text)
        if word == "place":
            if len(args) != 3:
                raise NotationError(
                    f"{quoted(text)}: a placement is written 'place ROTATION X Y', e.g. 'place 90 2 -1'"
                )
            rotation = _parse_int(args[0], text, "the rotation")
            if rotation not in ROTATIONS:
                raise NotationError(f"{quoted(text)}: the rotation is 0, 90, 180 or 270, not {rotation}")
            return Place(rotation, _parse_int(args[1], text, "x"), _parse_int(args[2], text, "y"))
        if word == "buy" and len(args) == 1:
            code = args[0].upper()
            if code not in BUYS:
                raise NotationError(f"{quoted(text)}: {quoted(code)} is not a Destiny (D01-D10)")
            return BUYS[code]
        if word == "score" and args:
            return _parse_score(rest, text)
        raise NotationError(
            f"{quoted(text)} is not a MOTU move (e.g. 'take 2', 'place 90 2 -1', 'buy D03', "
            "'travel', 'done', 'score totem', 'scrap'; solo 'take left', 'give')"
        )

    @classmethod
    def all_moves(cls, players: int, options: Mapping[str, Any]) -> list[Move]:
        """Every move that can ever be legal: placements within :func:`placement_bound`."""
        moves: list[Move] = [SCRAP, *variant_for(players).turn_moves(options)]
        moves += [m for combo, m in SCORES.items() if len(combo) < 3]
        xs, ys = placement_bound(placements_per_seat(players, options["solo_piles"]))
        moves += [_place(r, x, y) for r in ROTATIONS for y in ys for x in xs]
        return moves

    # ------------------------------------------------------------- legal moves
    def legal_moves(self, seat: int) -> list[Move]:
        if seat not in self.acting:
            return []
        phase = self.phase
        if phase == "place":
            return list(self._placements())
        if phase == "take":
            return self._take_moves(seat)
        if phase == "extras":
            return self._extras_moves(seat)
        if phase == "other":
            return [GIVE, DISCARD]
        return [SCORES[c] for c in interim_choices(self.scored(seat), PICKS[self.pile])]

    def moves_key(self, seat: int) -> tuple[Any, ...] | None:
        """What decides the legal moves of ``seat`` (to act) where it is cheaper than listing
        them (equal keys, equal :meth:`legal_moves`; None: no key in this phase): taking,
        whether each offered card fits and which offers the seat can afford; choosing Sources,
        the pile and the Sources scored before; solo, the other card's fate (always the same)."""
        phase = self.phase
        if phase == "take":
            return phase, self._fits(), tuple([_offer_index(m) for m in self._affordable(seat)])
        if phase == "interim":
            return phase, self.pile, tuple(self.scored(seat))
        if phase == "other":
            return (phase,)
        return None

    def secret_choice(self, seat: int) -> bool:
        """Source choices at an interim are secret and simultaneous, the last one included."""
        return self.phase == "interim" and seat in self.acting

    def many_moves(self, seat: int) -> bool:
        return self.phase == "place" and seat in self.acting

    def random_move(self, seat: int, rng: random.Random) -> Move:
        """A legal move, uniformly at random. A placement is the very draw
        ``rng.choice(legal_moves)`` makes, without listing the placements
        (``uniform_legal_placement``). Taking, it checks the affordable cards in a random order
        and takes the first that fits: uniform among the takes too, without checking every
        card, but another draw than ``rng.choice``'s."""
        drawn = self._draw(seat, rng)
        return _place(*drawn) if isinstance(drawn, tuple) else drawn

    def random_action(self, seat: int, rng: random.Random) -> int:
        """:meth:`random_move`'s very draw as its action, from one table of the codec: a
        placement's by its (rotation, x, y), without looking up its Place; any other move
        (one shared value, the codec's own) by its identity."""
        codec = self._codec or self.codec()
        try:
            actions = _DRAWN_ACTIONS[codec]
        except KeyError:
            actions = _drawn_actions(codec)
        drawn = self._draw(seat, rng)
        try:
            return actions[drawn if isinstance(drawn, tuple) else id(drawn)]
        except KeyError:  # a move the rules built afresh (none today): by its value
            return codec.index[_place(*drawn) if isinstance(drawn, tuple) else drawn]

    def _draw(self, seat: int, rng: random.Random) -> tuple[int, int, int] | Move:
        """:meth:`random_move`'s draw: a placement as its (rotation, x, y), or the move."""
        if seat in self.acting and self.phase == "place":
            _, _, boards, x0, y0, width = self._spots(seat)
            spot = uniform_on_boards(boards, x0, y0, width, rng)  # uniform_legal_placement's draw
            assert spot is not None, "a card is only taken when it can be placed"
            return spot
        if seat in self.acting and self.phase == "take":
            cached = self._fit_cache
            if cached is None or cached[0] != len(self.history):  # not worked out here yet
                return self._random_take(seat, rng)
        return rng.choice(self.legal_moves(seat))

    def _random_take(self, seat: int, rng: random.Random) -> Move:
        moves = self._affordable(seat)
        shuffle(rng, moves)
        island = self.islands[seat]
        offered = self._offered()
        for move in moves:
            if fits(island, offered[_offer_index(move)]):
                return move
        return SCRAP

    def _affordable(self, seat: int) -> list[Move]:
        return self.variant.affordable(self, self.banks[seat])

    def _placements(self) -> tuple[Place, ...]:
        """The legal placements of the card in hand (worked out once per position)."""
        cached = self._placement_cache
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        assert self.holding is not None
        found = tuple(_place(*p) for p in legal_placements(self.islands[self.turn], self.holding))
        self._placement_cache = (len(self.history), found)
        return found

    def _offered(self) -> list[str]:
        """The cards a seat may take from now: the row, or solo the two cards shown."""
        return self.variant.offered(self)

    def _fits(self) -> tuple[bool, ...]:
        """Whether each offered card has a legal place on the island of the seat to act (cached)."""
        cached = self._fit_cache
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        island = self.islands[self.turn]
        found = tuple([fits(island, c) for c in self._offered()])
        self._fit_cache = (len(self.history), found)
        return found

    def _take_moves(self, seat: int) -> list[Move]:
        fitting = self._fits()
        out = [m for m in self._affordable(seat) if fitting[_offer_index(m)]]
        return out or [SCRAP]

    def _extras_moves(self, seat: int) -> list[Move]:
        out: list[Move] = self._buys(seat)
        if self._may_travel(seat):
            out.append(TRAVEL)
        return [*out, DONE] if out else out

    def _buys(self, seat: int) -> list[Move]:
        """The Destinies ``seat`` may buy now (one a turn, if it can pay)."""
        if self.use_destinies and not self.bought:
            return [BUYS[d] for d in self.table_destinies if DESTINIES[d].price <= self.banks[seat]]
        return []

    def _may_travel(self, seat: int) -> bool:
        return self.use_travelers and not self.played[seat]

    def scored(self, seat: int) -> list[str]:
        """The Sources ``seat`` has recorded at earlier interims."""
        return [s for _, sources, _ in self.interims[seat] for s in sources]

    # ------------------------------------------------------------- why not
    def _not_to_act_reason(self, seat: int) -> str:
        if self.phase == "interim" and self.choices[seat] is not None:
            return f"seat {seat} has already chosen its Sources for this interim total"
        if self.phase == "interim":
            return super()._not_to_act_reason(seat)
        return f"it is not seat {seat}'s turn: seat {self.turn} is asked to {PHASE_WORDS[self.phase]}"

    def _illegal_reason(self, seat: int, move: Move) -> str | None:
        # its fields' types are checked before (field_problem)
        if type(move) is Place and self.phase == "place" and self._may_place(seat, move):
            return None  # legal (the placement rule, read from bit boards): at once, for searches
        malformed = move_fields_problem(move)
        if malformed is not None:
            return malformed
        phase = self.phase
        if phase == "place":
            if type(move) is not Place:
                return f"first place {self.holding} on your island: place ROTATION X Y (e.g. place 90 2 -1)"
            assert self.holding is not None
            far = out_of_reach(
                move, placement_bound(placements_per_seat(self.players, self.options["solo_piles"]))
            )
            return far or kept_problem(self.islands[seat], self.holding, move.rotation, move.x, move.y)
        if type(move) is Place:
            return f"there is no card to place now: {PHASE_WORDS[phase]}"
        if phase == "take":
            return self._take_problem(seat, move)
        if phase == "extras":
            return self._extras_problem(seat, move)
        if phase == "other":
            if move not in (GIVE, DISCARD):
                return f"say what becomes of {self.other}: give (to the Opponent) or discard (pay 3)"
            return None
        return self._score_problem(seat, move)

    def _spots(self, seat: int) -> tuple[Island, str | None, tuple[int, ...], int, int, int]:
        """The legal boards of the card in hand on ``seat``'s island (:func:`legal_boards`),
        kept with the state for that island and card: (island, card, boards, x0, y0, width)."""
        island = self.islands[seat]
        spots = self._spot_cache
        if spots is None or spots[0] is not island or spots[1] != self.holding:
            spots = self._spot_cache = (island, self.holding, *legal_boards(island, self.holding or ""))
        return spots

    def _may_place(self, seat: int, move: Place) -> bool:
        """:func:`is_legal_placement` for the card in hand on ``seat``'s island, read from
        :meth:`_spots`, so a search asking of many placements (ISMCTS's widening) pays one
        bit test each."""
        spots = self._spot_cache
        if spots is None or spots[0] is not self.islands[seat] or spots[1] != self.holding:
            spots = self._spots(seat)  # (asked here first: no call where they are kept)
        board = _ROTATION_INDEX.get(move.rotation)
        dx = move.x - spots[3]
        if board is None or not 0 <= dx < spots[5]:
            return False
        at = (move.y - spots[4]) * spots[5] + dx
        return at >= 0 and bool(spots[2][board] >> at & 1)

    def _legal_among(self, seat: int, actions: Iterable[int]) -> list[int]:
        """A search's yes or no: placing, each placement one bit test on :meth:`_spots`'s
        boards, as :meth:`_may_place` (any other move is refused then); else by the core."""
        if self.phase != "place":
            return super()._legal_among(seat, actions)
        codec = self._codec or self.codec()
        cells = _PLACE_CELLS.get(codec) or _place_cells(codec)
        _, _, boards, x0, y0, width = self._spots(seat)
        out = []
        for a in actions:
            cell = cells[a]
            if cell is not None:
                dx = cell[1] - x0
                if 0 <= dx < width:
                    at = (cell[2] - y0) * width + dx
                    if at >= 0 and boards[cell[0]] >> at & 1:
                        out.append(a)
        return out

    def _take_problem(self, seat: int, move: Move) -> str | None:
        legal = self._take_moves(seat)
        if move in legal:
            return None
        if move == SCRAP:
            return (
                f"scrap is only for when no card you can afford can be placed; you can "
                f"{' or '.join(map(str, legal))}"
            )
        return self.variant.take_problem(self, seat, move)

    def _row_problem(self, seat: int, position: int) -> str:
        name = self.row[position]
        if take_cost(position) > self.banks[seat]:
            return (
                f"taking card {position + 1} ({name}) costs {take_cost(position)} coconut(s), one on "
                f"each card to its left, and you have {self.banks[seat]}"
            )
        return f"{name} has no legal place on your island (only cards you can place may be taken)"

    def _solo_take_problem(self, seat: int, side: str) -> str:
        name = self.shown[0 if side == "left" else 1]
        if side == "left" and self.banks[seat] < SOLO_LEFT_COST:
            return (
                f"the left card ({name}) costs {SOLO_LEFT_COST} coconut for the Beach Hut and you have none"
            )
        return f"{name} has no legal place on your island (only cards you can place may be taken)"

    def _extras_problem(self, seat: int, move: Move) -> str | None:
        if move in self._extras_moves(seat):
            return None
        if type(move) is Buy:
            return self._buy_problem(seat, move.destiny)
        if move == TRAVEL:
            return (
                "this game has no Travelers"
                if not self.use_travelers
                else "your Traveler has already been played"
            )
        return f"{move} is not a move now: finish your turn (buy a Destiny, travel, or done)"

    def _buy_problem(self, seat: int, destiny: str) -> str:
        if not self.use_destinies:
            return "this game has no Destinies"
        if self.bought:
            return "you have already bought a Destiny this turn (one per round)"
        if destiny not in self.table_destinies:
            return f"{destiny} is not on the table (there: {', '.join(self.table_destinies) or 'none'})"
        price = DESTINIES[destiny].price
        return f"{destiny} costs {price} coconut(s) and you have {self.banks[seat]}"

    def _score_problem(self, seat: int, move: Move) -> str | None:
        picks = PICKS[self.pile]
        if type(move) is not Score:
            return (
                f"interim total (pile {PILES[self.pile]}): choose {picks} Source(s) to score, "
                f"e.g. {self._example(seat)}"
            )
        chosen = move.sources
        if len(chosen) != picks:
            return f"this interim total (pile {PILES[self.pile]}) scores {picks} Source(s), not {len(chosen)}"
        again = [s for s in chosen if s in self.scored(seat)]
        if again:
            return f"you scored {again[0]} at an earlier interim total: each Source is scored once"
        return None

    def _example(self, seat: int) -> str:
        return str(SCORES[interim_choices(self.scored(seat), PICKS[self.pile])[0]])

    # ------------------------------------------------------------- a turn
    def _apply(self, seat: int, move: Move) -> None:
        kind = type(move)
        if kind is Place:
            self._place(seat, move)  # type: ignore[arg-type]
        elif kind is Take:
            self._take(seat, move.position)  # type: ignore[attr-defined]
        elif kind is SoloTake:
            self._pick(seat, move.side)  # type: ignore[attr-defined]
        elif kind is Buy:
            self._buy(seat, move.destiny)  # type: ignore[attr-defined]
        elif kind is Score:
            self._commit(seat, move.sources)  # type: ignore[attr-defined]
        elif move == SCRAP:
            self._scrap(seat)
        elif move == TRAVEL:
            self._travel(seat)
        elif move == DONE:
            self._end_turn()
        elif move == GIVE:
            self._give(seat)
        else:
            self._discard(seat)

    def _start_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = "take"
        self.bought = False
        self.acting = frozenset((seat,))
        EMIT.turn(self.log, EVERYONE, seat=seat, round=self.round)
        self.variant.start_turn(self)

    def _take(self, seat: int, position: int) -> None:
        """Pay one coconut on each card left of it, gain the coconuts on it, hold it to place."""
        name = self.row.pop(position)
        gained = self.row_coconuts.pop(position)
        paid = take_cost(position)
        for i in range(paid):
            self.row_coconuts[i] += 1
        self.banks[seat] += gained - paid
        EMIT.take(self.log, EVERYONE, seat=seat, position=position, card=name, paid=paid, gained=gained)
        self.holding = name
        self.phase = "place"

    def _scrap(self, seat: int) -> None:
        """No card can be taken and placed: the leftmost card is discarded (solo: the left one),
        its coconuts gained (:meth:`Table.scrap`)."""
        name, gained = self.variant.scrap(self, seat)
        self.discards.append(name)
        EMIT.scrap(self.log, EVERYONE, seat=seat, card=name, gained=gained)
        self._after_card(seat)

    def _place(self, seat: int, move: Place) -> None:
        name = self.holding
        assert name is not None
        self.islands[seat] = lay_card(self.islands[seat], name, move.rotation, move.x, move.y)
        self.holding = None
        EMIT.place(self.log, EVERYONE, seat=seat, card=name, rotation=move.rotation, x=move.x, y=move.y)
        self._after_card(seat)

    def _after_card(self, seat: int) -> None:
        """After the card is placed (or scrapped): refill the row, then the optional steps;
        solo: the other card's fate (:meth:`Table.after_card`)."""
        self.variant.after_card(self, seat)

    def _refill(self) -> None:
        pile = self.piles[self.pile]
        name = pile.pop()
        self.row.append(name)
        self.row_coconuts.append(0)
        EMIT.refill(self.log, EVERYONE, pile=PILES[self.pile], card=name)
        if not pile:
            self._pile_emptied()

    def _pile_emptied(self) -> None:
        self.emptied = True
        EMIT.pile_empty(self.log, EVERYONE, pile=PILES[self.pile])

    def _extras(self, seat: int) -> None:
        """The optional steps, asked only when there is something to do; else the turn ends."""
        if self._may_travel(seat) or self._buys(seat):  # any extras move (none listed)
            self.phase = "extras"
        else:
            self._end_turn()

    def _buy(self, seat: int, destiny: str) -> None:
        """Pay the price onto the row, right to left (wrapping), and take the Destiny."""
        price = DESTINIES[destiny].price
        onto = pay_positions(price, len(self.row))
        for i in onto:
            self.row_coconuts[i] += 1
        self.banks[seat] -= price
        self.table_destinies.remove(destiny)
        self.owned[seat].append(destiny)
        self.bought = True
        EMIT.buy(self.log, EVERYONE, seat=seat, destiny=destiny, price=price, onto=tuple(onto))
        self._extras(seat)

    def _travel(self, seat: int) -> None:
        """Turn the Traveler face up: its points from the row now; from then on its symbols and
        the coconuts printed on it count for points (they are not counters: never spent)."""
        name = self.travelers[seat]
        assert name is not None
        traveler = TRAVELERS[name]
        self.played[seat] = True
        points = traveler_points(traveler, self.row)
        self.traveler_points[seat] = points
        EMIT.travel(self.log, EVERYONE, seat=seat, card=name, points=points, coconuts=traveler.coconuts)
        self._end_turn()  # a Destiny comes before the Traveler: nothing is left to do

    def _end_turn(self) -> None:
        if self.emptied:
            self._start_interim()
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        nxt = (self.turn + 1) % self.players  # solo: always seat 0, a new round each turn
        if nxt == self.first:
            self.round += 1
        self._start_turn(nxt)

    # ------------------------------------------------------------- solo
    def _show_two(self) -> None:
        """Solo: the first two cards of the pile, face up: left, then right."""
        pile = self.piles[self.pile]
        self.shown = [pile.pop(), pile.pop()]
        EMIT.shown(self.log, EVERYONE, pile=PILES[self.pile], left=self.shown[0], right=self.shown[1])
        if not pile:
            self._pile_emptied()

    def _pick(self, seat: int, side: str) -> None:
        i = 0 if side == "left" else 1
        name, self.other = self.shown[i], self.shown[1 - i]
        change = solo_take_price(side, self.hut)
        self.banks[seat] += change
        self.hut -= change
        self.shown = []
        EMIT.pick(
            self.log, EVERYONE, seat=seat, side=side, card=name, paid=max(0, -change), gained=max(0, change)
        )
        self.holding = name
        self.phase = "place"

    def _give(self, seat: int) -> None:
        assert self.other is not None
        self.opponent.append(self.other)
        self.other = None
        EMIT.give(self.log, EVERYONE, seat=seat)
        self._end_turn()

    def _discard(self, seat: int) -> None:
        assert self.other is not None
        self.banks[seat] -= SOLO_DISCARD
        self.hut += SOLO_DISCARD
        self.discards.append(self.other)
        EMIT.discard(self.log, EVERYONE, seat=seat, card=self.other, paid=SOLO_DISCARD)
        self.other = None
        self._end_turn()

    # ------------------------------------------------------------- interim totals
    def _start_interim(self) -> None:
        """A pile is empty: every seat chooses its Sources at once (the last pile: by itself)."""
        self.emptied = False
        self.holding = None
        if self.pile == len(PILES) - 1:  # the last interim: the Sources left, by themselves
            self.choices = [
                tuple(s for s in SOURCES if s not in self.scored(seat)) for seat in range(self.players)
            ]
            self._reveal()
            return
        self.phase = "interim"
        self.choices = [None] * self.players
        self.acting = frozenset(range(self.players))

    def _commit(self, seat: int, sources: tuple[str, ...]) -> None:
        self.choices[seat] = sources
        EMIT.chose(self.log, seats(seat), seat=seat, pile=PILES[self.pile], sources=sources)
        self.acting = self.acting - {seat}
        if not self.acting:
            self._reveal()

    def _reveal(self) -> None:
        """Every choice at once, each Source's points recorded for good."""
        chosen: list[tuple[str, ...]] = []
        points: list[tuple[int, ...]] = []
        for seat, sources in enumerate(self.choices):
            assert sources is not None
            pts = tuple(self.source_value(seat, s) for s in sources)
            self.interims[seat].append((PILES[self.pile], sources, pts))
            chosen.append(sources)
            points.append(pts)
        self.choices = [None] * self.players
        EMIT.interim(self.log, EVERYONE, pile=PILES[self.pile], sources=tuple(chosen), points=tuple(points))
        if self.pile == len(PILES) - 1:
            self._finish()
            return
        self.pile += 1
        self._next_turn()

    def source_value(self, seat: int, source: str) -> int:
        """What ``source`` is worth to ``seat`` now (its Traveler's symbols once played)."""
        return source_points(
            source, self.islands[seat], self.extra(seat), self.coconut_count(seat), totems=self.totem_rule
        )

    @property
    def totem_rule(self) -> str:
        """How the seats' totems count (:func:`sources.totem_points`): kinds seen exactly once;
        in solo, as the option ``solo_totems`` says."""
        return self.variant.totem_rule(self.options)

    def extra(self, seat: int) -> Mapping[str, int] | None:
        """The symbols a played Traveler adds to ``seat``'s island."""
        name = self.travelers[seat]
        return TRAVELERS[name].adds if name is not None and self.played[seat] else None

    def printed_coconuts(self, seat: int) -> int:
        """The coconuts printed on ``seat``'s played Traveler (0 before): they count for points
        like banked ones, but are not counters and are never spent."""
        name = self.travelers[seat]
        return TRAVELERS[name].coconuts if name is not None and self.played[seat] else 0

    def coconut_count(self, seat: int) -> int:
        """The coconuts that count for ``seat``'s points (the Coconut Source and bonus, Destinies,
        the tie-break): its bank, plus those on its played Traveler."""
        return self.banks[seat] + self.printed_coconuts(seat)

    # ------------------------------------------------------------- the end
    def _finish(self) -> None:
        self.phase = "over"
        self.over = True
        self.acting = frozenset()
        self.variant.finish(self)
        opponent = None if self.opponent_final is None else self.opponent_final["total"]
        EMIT.end(
            self.log, EVERYONE, scores=tuple(self.scores()), winners=tuple(self.winners()), opponent=opponent
        )

    def _finish_table(self) -> None:
        n = self.players
        zero = self.options["zero_is_most"]
        beach = beach_bonuses([longest_beach(isl) for isl in self.islands], zero)
        coconut = coconut_bonuses([self.coconut_count(s) for s in range(n)], zero)
        counts = self.component_counts(
            {p for owned in self.owned for d in owned for p in DESTINIES[d].components}
        )
        self.final = []
        for s in range(n):
            row = {
                "interims": self.interim_total(s),
                "traveler": self.traveler_points[s],
                "destinies": sum(destiny_points(DESTINIES[d], s, counts, zero) for d in self.owned[s]),
                "beach": beach[s],
                "coconut": coconut[s],
            }
            row["total"] = sum(row.values())
            self.final.append(row)

    def _finish_solo(self) -> None:
        zero = self.options["zero_is_most"]
        beach = beach_bonuses([longest_beach(self.islands[0]), opponent_beach(self.opponent)], zero)
        self.final = [{"interims": self.interim_total(0), "beach": beach[0]}]
        if self.options["solo_coconut_bonus"]:
            # Alone, "the most" means at least one coconut: 0 coconuts earn no bonus.
            self.final[0]["coconut"] = coconut_bonuses(self.banks, zero_counts=False)[0]
        self.final[0]["total"] = sum(self.final[0].values())
        self.opponent_final = self.opponent_score_parts()
        self.opponent_final["beach"] = beach[1]
        self.opponent_final["total"] = sum(v for k, v in self.opponent_final.items() if k != "total")

    def opponent_score_parts(self) -> dict[str, int]:
        """The Opponent's starting score and its points by Source, from its pile as it stands."""
        volcanoes = symbol_counts(self.islands[0]).get("volcano", 0)
        parts = {"start": SOLO_START_SCORES[self.options["difficulty"]]}
        parts.update(opponent_points(self.opponent, self.hut, volcanoes))
        return parts

    def component_counts(self, parts: Iterable[str]) -> dict[str, list[int]]:
        """Every seat's count of each Destiny component (:func:`.sources.component_count`; the
        coconuts that count: the bank and a played Traveler's)."""
        return {
            p: [
                component_count(p, self.islands[s], self.extra(s), self.coconut_count(s))
                for s in range(self.players)
            ]
            for p in parts
        }

    def destiny_value(self, seat: int, destiny: str) -> int:
        """What ``destiny`` would give ``seat`` if the game ended now."""
        counts = self.component_counts(DESTINIES[destiny].components)
        return destiny_points(DESTINIES[destiny], seat, counts, self.options["zero_is_most"])

    def interim_total(self, seat: int) -> int:
        return sum(sum(points) for _, _, points in self.interims[seat])

    # ------------------------------------------------------------- results
    def scores(self) -> list[float]:
        """Each seat's score: interim totals and Traveler points so far; final once over."""
        if self.final is not None:
            return [int(row["total"]) for row in self.final]  # whole points
        return [int(self.interim_total(s) + self.traveler_points[s]) for s in range(self.players)]

    def parties(self) -> tuple[Party, ...]:
        return self.variant.parties(self) or super().parties()

    def party_scores(self) -> list[float]:
        return self.variant.party_scores(self)

    def opponent_score(self) -> int:
        """The Opponent's score: final once over, else its start and its pile as it stands."""
        if self.opponent_final is not None:
            return self.opponent_final["total"]
        return sum(self.opponent_score_parts().values())

    def tiebreaks(self) -> list[tuple[float, ...]] | None:
        """Equal scores: the most coconuts (a played Traveler's included); solo, the Beach Hut is
        the Opponent's bank and a tie there goes to the player."""
        return self.variant.tiebreaks(self)

    # ------------------------------------------------------------- invariants
    def check_invariants(self) -> None:
        held = (
            self.row
            + self.box
            + self.discards
            + self.shown
            + self.opponent
            + [c for p in self.piles for c in p]
            + [p.card for isl in self.islands for p in isl.placements[1:]]
            + [c for c in (self.holding, self.other) if c is not None]
        )
        assert sorted(held) == sorted(ISLAND_IDS), "an island card was created or lost"
        assert sorted(self.villages + [v for v in VILLAGE_IDS if v not in self.villages]) == list(VILLAGE_IDS)
        coconuts = sum(self.banks) + sum(self.row_coconuts) + self.hut + self.supply
        assert coconuts == COCONUTS, f"{coconuts} coconuts accounted for, not {COCONUTS}"
        assert min(self.banks) >= 0 and self.supply >= 0 and self.hut >= 0, "a negative heap of coconuts"
        assert len(self.row) == self.variant.row_size or self.phase == "place", "the row is not full"
        for s, isl in enumerate(self.islands):
            assert terrain_problem(isl) is None, f"seat {s}'s island breaks a terrain rule"
            assert isl.placements[0].card == self.villages[s]
            scored = self.scored(s)
            assert len(scored) == len(set(scored)), f"seat {s} scored a Source twice"
        assert sorted(self.table_destinies + [d for o in self.owned for d in o] + self.destiny_box) == sorted(
            DESTINIES
        )

    # ------------------------------------------------------------- views
    def _view(self, viewer: Any) -> V.MotuView:
        """The one place a view is made: a seat, None (a spectator) or REFEREE. Its rule facts
        (costs, prices, rounds, picks, the ruler, where a card may go) come from the rule
        functions here, so that no front end restates them (:mod:`.view`)."""
        ref = viewer == REFEREE
        n = self.players
        islands, sources, beach, placing = self._shared_view()
        return V.MotuView(
            game="motu",
            players=n,
            options=dict(self.options),
            viewer=viewer,
            solo=self.solo,
            over=self.over,
            phase=self.phase,
            turn=self.turn,
            round=self.round,
            rounds=placements_per_seat(n, self.options["solo_piles"]),
            first=self.first,
            to_act=tuple(sorted(self.acting)),
            scores=tuple(self.scores()),
            winners=tuple(self.winners()),
            coconuts=tuple(self.banks),
            supply=self.supply,
            row=tuple(
                V.RowCard(c, k, take_cost(i), _token(TAKES[i]))
                for i, (c, k) in enumerate(zip(self.row, self.row_coconuts))
            ),
            pile=PILES[self.pile],
            picks=PICKS[self.pile],
            piles={PILES[i]: tuple(p[::-1]) if ref else (HIDDEN,) * len(p) for i, p in enumerate(self.piles)},
            holding=self.holding,
            placing=placing,
            discards=tuple(self.discards),
            islands=islands,
            sources=sources,
            beach=beach,
            interims=tuple(self._interims_view(s, viewer, ref) for s in range(n)),
            choices=self._choices_view(viewer),
            travelers=tuple(self._traveler_view(s, viewer, ref) for s in range(n)),
            destinies=V.Destinies(
                tuple(self.table_destinies),
                tuple(tuple(o) for o in self.owned),
                {d: _token(BUYS[d]) for d in self.table_destinies},
            ),
            final=None if self.final is None else tuple(dict(row) for row in self.final),
            solo_table=self.variant.table_view(self, ref),
            ruler=tuple(V.Band(up_to, points) for up_to, points in RULER_BANDS),
            box=V.Box(
                tuple(self.box),
                tuple(self.traveler_box),
                tuple(self.destiny_box),
                tuple(v for v in VILLAGE_IDS if v not in self.villages),
            )
            if ref
            else None,
        )

    def _shared_view(self) -> tuple[Any, ...]:
        """The parts of a view that every viewer sees alike and that cost the most (islands,
        Source values, beaches, the card to place and its spots), worked out once per
        position: a server builds a view for every viewer after every move."""
        cached = self._shared_cache
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        parts = (
            tuple(island_view(isl) for isl in self.islands),
            tuple({s: self.source_value(seat, s) for s in SOURCES} for seat in range(self.players)),
            tuple(longest_beach(isl) for isl in self.islands),
            self._placing_view(),
        )
        self._shared_cache = (len(self.history), parts)
        return parts

    def _placing_view(self) -> V.Placing | None:
        """The card in hand and its legal placements by rotation (public: the island and the
        card are face up)."""
        if self.phase != "place" or self.holding is None:
            return None
        by_rotation: dict[int, list[V.Spot]] = {r: [] for r in ROTATIONS}
        first: dict[int, str] = {}
        for m in self._placements():
            turn, spot = m.steps()
            first[m.rotation] = turn
            by_rotation[m.rotation].append(V.Spot(m.x, m.y, spot))
        turned = (V.Turned(r, first[r], tuple(spots)) for r, spots in by_rotation.items() if spots)
        return V.Placing(self.turn, self.holding, tuple(turned))

    def _choices_view(self, viewer: Any) -> tuple[V.Choice, ...]:
        """The viewer's Source choices while it is asked for them (else none)."""
        if self.phase != "interim" or viewer not in self.acting:
            return ()
        return tuple(
            V.Choice(c, _token(SCORES[c])) for c in interim_choices(self.scored(viewer), PICKS[self.pile])
        )

    def _interims_view(self, seat: int, viewer: Any, ref: bool) -> tuple[V.Interim, ...]:
        out = [
            V.Interim(pile, tuple(sources), tuple(points), sum(points))
            for pile, sources, points in self.interims[seat]
        ]
        chosen = self.choices[seat]
        if self.phase == "interim" and chosen is not None:
            mine = ref or seat == viewer
            out.append(V.Interim(PILES[self.pile], tuple(chosen) if mine else HIDDEN, HIDDEN, HIDDEN))
        return tuple(out)

    def _traveler_view(self, seat: int, viewer: Any, ref: bool) -> V.TravelerView | None:
        name = self.travelers[seat]
        if name is None:
            return None
        shown = ref or seat == viewer or self.played[seat]
        return V.TravelerView(
            name if shown else HIDDEN,
            self.played[seat],
            self.traveler_points[seat],
            TRAVELERS[name].coconuts if shown else HIDDEN,
        )

    def _solo_view(self, ref: bool) -> V.SoloTable:
        shown = ref or self.over
        offers = tuple(
            V.Offer(side, card, solo_take_price(side, self.hut), _token(SOLO_TAKES[side]))
            for side, card in zip(("left", "right"), self.shown)
        )
        return V.SoloTable(
            hut=self.hut,
            shown=tuple(self.shown),
            other=self.other,
            difficulty=self.options["difficulty"],
            start=SOLO_START_SCORES[self.options["difficulty"]],
            opponent=tuple(self.opponent) if shown else (HIDDEN,) * len(self.opponent),
            opponent_score=self.opponent_score() if shown else HIDDEN,
            opponent_final=None if self.opponent_final is None else dict(self.opponent_final),
            offers=offers,
            discard_price=SOLO_DISCARD,
        )

    # ------------------------------------------------------------- copies
    def _copy_parts(self, new: State) -> None:
        assert isinstance(new, MotuState)
        new.villages = self.villages.copy()
        new.islands = self.islands.copy()  # islands are immutable
        new._shared_cache = None  # its views' parts are its own (a copy may go another way)
        new.banks = self.banks.copy()
        new.row = self.row.copy()
        new.row_coconuts = self.row_coconuts.copy()
        new.piles = [p.copy() for p in self.piles]
        new.box = self.box.copy()
        new.discards = self.discards.copy()
        new.travelers = self.travelers.copy()
        new.traveler_box = self.traveler_box.copy()
        new.played = self.played.copy()
        new.traveler_points = self.traveler_points.copy()
        new.table_destinies = self.table_destinies.copy()
        new.destiny_box = self.destiny_box.copy()
        new.owned = [o.copy() for o in self.owned]
        new.interims = [i.copy() for i in self.interims]  # of immutable tuples
        new.choices = self.choices.copy()
        new.shown = self.shown.copy()
        new.opponent = self.opponent.copy()
        new.final = None if self.final is None else [dict(row) for row in self.final]
        new.opponent_final = None if self.opponent_final is None else dict(self.opponent_final)

    def resample(self, seat: int, rng: random.Random) -> MotuState:
        """Redraw what ``seat`` cannot see: the order and split of the piles and the box, the
        other seats' face-down Travelers, and their secret Source choices of this interim."""
        seat = self._viewer(seat)
        new = self._resampled_copy(rng)
        assert isinstance(new, MotuState)
        pool = list(self._unseen_cards())
        shuffle(rng, pool)
        new.piles = [[pool.pop() for _ in p] for p in new.piles]
        new.box = sorted(pool)
        new._redraw_travelers(seat, rng)
        new._redraw_choices(seat, rng)
        for island in new.islands:
            share(island)  # every determinisation drawn from here starts from these islands
        return new

    def _unseen_cards(self) -> tuple[str, ...]:
        """The cards of the piles and the box, sorted (worked out once per position: a search
        redraws them every iteration)."""
        cached = self._pool_cache
        if cached is not None and cached[0] == len(self.history):
            return cached[1]
        pool = tuple(sorted([c for p in self.piles for c in p] + self.box))
        self._pool_cache = (len(self.history), pool)
        return pool

    def _redraw_travelers(self, seat: int, rng: random.Random) -> None:
        others = [
            s
            for s in range(self.players)
            if s != seat and self.travelers[s] is not None and not self.played[s]
        ]
        pool = sorted([str(self.travelers[s]) for s in others] + self.traveler_box)
        shuffle(rng, pool)
        for s in others:
            self.travelers[s] = pool.pop()
        self.traveler_box = sorted(pool)
        for i, (audience, kind, args, _) in enumerate(self.log):
            if kind == "traveler" and args[0] in others:
                self.log[i] = (audience, kind, (args[0], self.travelers[args[0]]), None)

    def _redraw_choices(self, seat: int, rng: random.Random) -> None:
        if self.phase != "interim":
            return
        pile = PILES[self.pile]
        for s, chosen in enumerate(self.choices):
            if s == seat or chosen is None:
                continue
            pick = rng.choice(interim_choices(self.scored(s), PICKS[self.pile]))
            self.choices[s] = pick
            for i, (audience, kind, args, _) in enumerate(self.log):
                if kind == "chose" and args[0] == s and args[1] == pile:  # this interim's, still secret
                    self.log[i] = (audience, kind, (s, pile, pick), None)
            for i in range(len(self.history) - 1, -1, -1):
                if self.history[i][0] == s and type(self.history[i][1]) is Score:
                    self.history[i] = (s, SCORES[pick])
                    break

    # ------------------------------------------------------------- for people
    def describe_move(self, seat: int, move: Move) -> str:
        return describe(self, seat, move)

    def explain_move(self, seat: int, move: Move) -> str:
        """What legal ``move`` would do, worked out on a copy by the rule functions (:mod:`.explain`)."""
        from .explain import explain  # imported here: it reads this module

        return explain(self, seat, move)


PHASE_WORDS = {
    "take": "take a card",
    "place": "place a card",
    "extras": "finish a turn",
    "other": "say what becomes of the other card",
    "interim": "score an interim total",
    "over": "nothing (the game is over)",
}
_SOLO_PARTIES = (Party("seat 0", (0,)), Party("Opponent", ()))
_PLACES: dict[tuple[int, int, int], Place] = {}


def _token(move: Move) -> str:
    """The token of a one-step move (what a view names, for a client to find in the steps)."""
    (token,) = move.steps()
    return token


#: By codec, the action of each placement by its (rotation, x, y) and of every other move
#: by its identity (the codec keeps its moves alive): :meth:`MotuState.random_action`.
_DRAWN_ACTIONS: dict[ActionCodec, dict[tuple[int, int, int] | int, int]] = {}


def _drawn_actions(codec: ActionCodec) -> dict[tuple[int, int, int] | int, int]:
    """``codec``'s entry of :data:`_DRAWN_ACTIONS`, made on its first use."""
    actions: dict[tuple[int, int, int] | int, int] = {
        (m.rotation, m.x, m.y) if type(m) is Place else id(m): a for a, m in enumerate(codec.moves)
    }
    _DRAWN_ACTIONS[codec] = actions
    return actions


#: By codec, each action's (legal board, x, y) where it is a placement, else None:
#: :meth:`MotuState._legal_among`.
_PLACE_CELLS: dict[ActionCodec, list[tuple[int, int, int] | None]] = {}


def _place_cells(codec: ActionCodec) -> list[tuple[int, int, int] | None]:
    """``codec``'s entry of :data:`_PLACE_CELLS`, made on its first use."""
    cells = _PLACE_CELLS[codec] = [
        (_ROTATION_INDEX[m.rotation], m.x, m.y) if type(m) is Place else None for m in codec.moves
    ]
    return cells


def _place(rotation: int, x: int, y: int) -> Place:
    """The one Place value for these fields (the codec finds an interned move by identity)."""
    key = (rotation, x, y)
    move = _PLACES.get(key)
    if move is None:
        move = _PLACES[key] = Place(rotation, x, y)
    return move


def island_view(island: Island) -> V.IslandView:
    """An island for views: its cards in the order laid, its bounds and every visible cell."""
    x0, y0, x1, y1 = bounds(island)
    return V.IslandView(
        origin=(0, 0),
        bounds=(x0, y0, x1, y1),
        placements=tuple((p.card, p.rotation, p.x, p.y) for p in island.placements),
        cells=tuple(
            V.Cell(x, y, c.terrain, c.symbol, c.card)
            for (x, y), c in sorted(island.cells.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        ),
    )


def describe(state: MotuState, seat: int, move: Move) -> str:
    """A move in words, for the terminal's help."""
    if isinstance(move, Take):
        name = state.row[move.position] if move.position < len(state.row) else "?"
        cost = take_cost(move.position)
        return f"take {name}" + (f" for {cost} coconut(s)" if cost else " (free)")
    if isinstance(move, SoloTake):
        return f"take the {move.side} card" + (
            " (1 coconut to the Beach Hut)" if move.side == "left" else " (gain 1 coconut from the Beach Hut)"
        )
    if isinstance(move, Place):
        return f"lay {state.holding} turned {move.rotation}, its top-left cell on ({move.x}, {move.y})"
    if isinstance(move, Buy):
        return f"buy Destiny {move.destiny} for {DESTINIES[move.destiny].price} coconut(s)"
    if isinstance(move, Score):
        return "score " + " and ".join(
            f"{SOURCE_NAME[s]} ({state.source_value(seat, s)})" for s in move.sources
        )
    return {
        "scrap": "discard the leftmost card (no card can be taken and placed)",
        "travel": "play your Traveler (points from the row now)",
        "done": "end your turn",
        "give": "the other card goes face down to the Opponent",
        "discard": f"pay {SOLO_DISCARD} coconuts to discard the other card",
    }.get(str(move), str(move))


# ------------------------------------------------------------------ helpers
def _setup_seat(first: Any, players: int) -> int:
    if type(first) is not int or not 0 <= first < players:
        raise SetupError(f"setup first must be a seat 0-{players - 1}, not {quoted(first)}")
    return first


def _check_island_ids(cards: Any, what: str) -> list[str]:
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise SetupError(f"setup {what} must be a list of island card ids (I01-I58)")
    bad = [c for c in cards if c not in ISLAND_IDS]
    if bad:
        raise SetupError(f"setup {what}: {quoted(bad[0])} is not an island card (I01-I58)")
    twice = [c for c, k in Counter(cards).items() if k > 1]
    if twice:
        raise SetupError(f"setup {what}: {quoted(twice[0])} appears twice")
    return list(cards)


def _setup_deck(deck: Any, needed: int) -> list[str]:
    """The whole deck, top first (row, then A, B, C); unlisted cards go to the box."""
    cards = _check_island_ids(deck, "deck")
    if len(cards) < needed:
        raise SetupError(f"setup deck lists {len(cards)} cards; this game needs at least {needed}")
    return cards + sorted(set(ISLAND_IDS) - set(cards))


def _setup_piles(piles: Any, row_size: int, sizes: Sequence[int]) -> list[str]:
    """{"row": [...], "A": [...], "B": [...], "C": [...]}, each top first, of the exact sizes."""
    keys = (["row"] if row_size else []) + list(PILES)
    if not isinstance(piles, dict) or set(piles) != set(keys):
        raise SetupError(f"setup piles must be an object with exactly the keys {', '.join(keys)}")
    order: list[str] = []
    for key, size in zip(keys, ([row_size] if row_size else []) + list(sizes)):
        cards = _check_island_ids(piles[key], f"piles {key}")
        if len(cards) != size:
            raise SetupError(f"setup piles {key} must hold {size} cards, not {len(cards)}")
        order += cards
    _check_island_ids(order, "piles")
    return order + sorted(set(ISLAND_IDS) - set(order))


def _offer_index(move: Move) -> int:
    """Which offered card a take names: its row position, or solo 0 (left) / 1 (right)."""
    if type(move) is Take:
        return move.position
    return 0 if move.side == "left" else 1  # type: ignore[attr-defined]


def _parse_take(arg: str, text: str) -> Move:
    if arg in SOLO_TAKES:
        return SOLO_TAKES[arg]
    if arg.isascii() and arg.isdigit() and len(arg) == 1 and 1 <= int(arg) <= ROW:
        return TAKES[int(arg) - 1]
    raise NotationError(f"{quoted(text)}: take a row position 1-4 (take 2), or solo take left / take right")


def _parse_score(names: str, text: str) -> Score:
    try:
        chosen = source_names(names)
    except NotationError as exc:
        raise NotationError(f"{quoted(text)}: {exc}") from None
    if len(set(chosen)) != len(chosen):
        raise NotationError(f"{quoted(text)} names a Source twice")
    if len(chosen) > max(PICKS):
        raise NotationError(
            f"{quoted(text)} names {len(chosen)} Sources; an interim total scores at most {max(PICKS)}"
        )
    return SCORES[tuple(s for s in SOURCES if s in chosen)]
