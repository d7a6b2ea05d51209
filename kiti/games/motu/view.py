"""MOTU's typed contract: the view a viewer gets and the events it sees (:mod:`kiti.core.contract`).

Every class here is a declaration only: :meth:`.rules.MotuState._view` fills the view, and the
rules module logs the events by keyword with the generated ``EMIT`` functions.  The view carries the **rule facts** a front end
shows, each worked out by the rule function that applies it (so no front end restates one):

- ``rounds``: the cards a seat adds to its island in this game (9; solo 18 or 9), with ``round``;
- ``picks``: how many Sources the interim total of the pile in play scores;
- ``row[].cost``: what taking each row card costs (:func:`.rules.take_cost`);
- ``solo_table.offers[].change``: what each solo take pays to or wins from the Beach Hut
  (:func:`.rules.solo_take_price`: -1, +1, 0 once the Hut is empty), ``solo_table.discard_price``;
- ``ruler``: the volcanic ruler's bands (:data:`.cards.RULER_BANDS`);
- ``placing``: where the card in hand may go, by rotation (the rules' legal placements).

Each thing a player may pick names the **step token** that picks it (``row[].step``,
``solo_table.offers[].step``, ``destinies.steps``, ``choices[].step``, and a placement's two
steps, ``placing.rotations[].step`` then ``spots[].step``): a client finds that token among the
steps the server offers (:meth:`.rules.MotuState.move_steps`) and sends the move the step
gives, so it never writes or reads notation.

``"?"`` (:data:`~kiti.core.contract.HIDDEN`) stands wherever the viewer may not see.  A field's
``metadata={"doc": ...}`` is its schema description (what :func:`kiti.core.contract.doc` makes; written
out as ``field(...)`` so that type checkers see a field without a default).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ...core.contract import Hidden, declare_events

Viewer = int | None | str


# ------------------------------------------------------------------ the view
@dataclass(frozen=True, slots=True)
class RowCard:
    """A card of the row, left to right."""

    card: str
    coconuts: int = field(metadata={"doc": "coconuts lying on it (the taker gains them)"})
    cost: int = field(metadata={"doc": "coconuts it costs to take (one put on each card to its left)"})
    step: str = field(metadata={"doc": "the token of the step that takes it"})


@dataclass(frozen=True, slots=True)
class Cell:
    """A visible cell of an island (x right, y down; the village's top-left cell is 0, 0)."""

    x: int
    y: int
    terrain: str = field(metadata={"doc": "L (land), B (beach) or S (sea)"})
    symbol: str | None
    card: str = field(metadata={"doc": "the card the cell belongs to"})


@dataclass(frozen=True, slots=True)
class IslandView:
    """A seat's island: its cards in the order laid (village first), bounds and visible cells."""

    origin: tuple[int, int]
    bounds: tuple[int, int, int, int] = field(metadata={"doc": "x0, y0, x1, y1 of the visible cells"})
    placements: tuple[tuple[str, int, int, int], ...] = field(
        metadata={"doc": "[card, rotation, x, y] in the order laid"}
    )
    cells: tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Interim:
    """One interim total of a seat; a choice made but not revealed shows ``"?"``."""

    pile: str
    sources: tuple[str, ...] | Hidden
    points: tuple[int, ...] | Hidden = field(metadata={"doc": "points per Source, in the order of sources"})
    total: int | Hidden


@dataclass(frozen=True, slots=True)
class TravelerView:
    """A seat's Traveler (its card ``"?"`` while face down, but for its owner)."""

    card: str | Hidden
    played: bool
    points: int = field(metadata={"doc": "its points from the row, once played"})
    coconuts: int | Hidden = field(metadata={"doc": "coconuts printed on it (they count once it is played)"})


@dataclass(frozen=True, slots=True)
class Destinies:
    """The Destinies to buy and those each seat owns."""

    table: tuple[str, ...]
    owned: tuple[tuple[str, ...], ...]
    steps: dict[str, str] = field(
        metadata={"doc": "the token of the step that buys each Destiny on the table"}
    )


@dataclass(frozen=True, slots=True)
class Offer:
    """Solo: one of the two cards shown."""

    side: str = field(metadata={"doc": "left or right"})
    card: str
    change: int = field(
        metadata={
            "doc": "coconuts taking it changes in the bank, from or to the Beach Hut "
            "(left -1; right +1, 0 once the Hut is empty)"
        }
    )
    step: str = field(metadata={"doc": "the token of the step that takes it"})


@dataclass(frozen=True, slots=True)
class SoloTable:
    """Solo: the Beach Hut, the two cards shown, the other card and the Opponent."""

    hut: int = field(metadata={"doc": "coconuts on the Beach Hut (the Opponent's bank)"})
    shown: tuple[str, ...] = field(
        metadata={"doc": "the two cards shown, left first (empty once one is taken)"}
    )
    other: str | None = field(metadata={"doc": "the card not taken, whose fate is to be said"})
    difficulty: str
    start: int = field(metadata={"doc": "the Opponent's starting score"})
    opponent: tuple[str | Hidden, ...] = field(
        metadata={"doc": "the Opponent's pile ('?' each until the end)"}
    )
    opponent_score: int | Hidden
    opponent_final: dict[str, int] | None = field(
        metadata={"doc": "the Opponent's score by Source, once over"}
    )
    offers: tuple[Offer, ...] = field(
        metadata={"doc": "the cards shown with what taking each costs or gains"}
    )
    discard_price: int = field(metadata={"doc": "coconuts paid (to the Beach Hut) to discard the other card"})


@dataclass(frozen=True, slots=True)
class Band:
    """A band of the volcanic ruler: a volcano up to ``up_to`` cells from the star scores ``points``."""

    up_to: float
    points: int


@dataclass(frozen=True, slots=True)
class Spot:
    """A legal placement of the card in hand: its top-left cell."""

    x: int
    y: int
    step: str = field(metadata={"doc": "the token of the step that places it there (after its rotation's)"})


@dataclass(frozen=True, slots=True)
class Turned:
    """The card in hand turned one way, and every cell where its top-left corner may go."""

    rotation: int
    step: str = field(metadata={"doc": "the token of the step that turns it so"})
    spots: tuple[Spot, ...]


@dataclass(frozen=True, slots=True)
class Placing:
    """The card being placed and where the rules let it go (public: the island and card are)."""

    seat: int
    card: str
    rotations: tuple[Turned, ...] = field(metadata={"doc": "by rotation, those with at least one legal spot"})


@dataclass(frozen=True, slots=True)
class Choice:
    """A set of Sources the viewer may score at this interim total, and the token of its step."""

    sources: tuple[str, ...]
    step: str


@dataclass(frozen=True, slots=True)
class Box:
    """Referee only: what is out of the game."""

    islands: tuple[str, ...]
    travelers: tuple[str, ...]
    destinies: tuple[str, ...]
    villages: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MotuView:
    """A MOTU table as one viewer sees it (a seat, None: a spectator, or the referee)."""

    game: str
    players: int
    options: dict[str, Any]
    viewer: Viewer = field(metadata={"doc": "the seat seeing it, null (a spectator) or 'referee'"})
    solo: bool
    over: bool
    phase: str = field(metadata={"doc": "take, place, extras, other (solo), interim or over"})
    turn: int = field(metadata={"doc": "the seat whose turn it is"})
    round: int = field(metadata={"doc": "the round (solo: the turn), from 1"})
    rounds: int = field(
        metadata={"doc": "rounds in this game: the cards each seat adds to its island (solo: its turns)"}
    )
    first: int
    to_act: tuple[int, ...]
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    coconuts: tuple[int, ...] = field(metadata={"doc": "banked coconuts per seat"})
    supply: int = field(metadata={"doc": "coconut counters left in the box"})
    row: tuple[RowCard, ...]
    pile: str = field(metadata={"doc": "the pile being played: A, B or C"})
    picks: int = field(metadata={"doc": "how many Sources the interim total of this pile scores"})
    piles: dict[str, tuple[str | Hidden, ...]] = field(
        metadata={"doc": "the cards left in each pile, next first"}
    )
    holding: str | None = field(metadata={"doc": "the card taken and being placed"})
    placing: Placing | None
    discards: tuple[str, ...]
    islands: tuple[IslandView, ...]
    sources: tuple[dict[str, int], ...] = field(metadata={"doc": "per seat, each Source's value now"})
    beach: tuple[int, ...] = field(metadata={"doc": "per seat, its longest beach in cards"})
    interims: tuple[tuple[Interim, ...], ...]
    choices: tuple[Choice, ...] = field(
        metadata={"doc": "the viewer's Source choices while it is asked for them"}
    )
    travelers: tuple[TravelerView | None, ...]
    destinies: Destinies
    final: tuple[dict[str, int], ...] | None = field(
        metadata={"doc": "once over: per seat its score by part and total"}
    )
    solo_table: SoloTable | None
    ruler: tuple[Band, ...] = field(metadata={"doc": "the volcanic ruler's bands, nearest first"})
    box: Box | None = field(metadata={"doc": "referee only"})


# ------------------------------------------------------------------ the events
@dataclass(frozen=True, slots=True)
class Setup:
    """The table laid out."""

    kind: ClassVar[str] = "setup"
    first: int
    villages: tuple[str, ...]
    row: tuple[str, ...]
    destinies: tuple[str, ...]
    piles: tuple[int, ...] = field(metadata={"doc": "cards in piles A, B, C"})


@dataclass(frozen=True, slots=True)
class Traveler:
    """A seat's face-down Traveler (to that seat only)."""

    kind: ClassVar[str] = "traveler"
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Turn:
    kind: ClassVar[str] = "turn"
    seat: int
    round: int


@dataclass(frozen=True, slots=True)
class Take:
    kind: ClassVar[str] = "take"
    seat: int
    position: int = field(metadata={"doc": "the row position, 0 the leftmost"})
    card: str
    paid: int
    gained: int


@dataclass(frozen=True, slots=True)
class Pick:
    """Solo: a card of the two shown taken."""

    kind: ClassVar[str] = "pick"
    seat: int
    side: str
    card: str
    paid: int
    gained: int


@dataclass(frozen=True, slots=True)
class Scrap:
    kind: ClassVar[str] = "scrap"
    seat: int
    card: str
    gained: int


@dataclass(frozen=True, slots=True)
class Place:
    kind: ClassVar[str] = "place"
    seat: int
    card: str
    rotation: int
    x: int
    y: int


@dataclass(frozen=True, slots=True)
class Refill:
    kind: ClassVar[str] = "refill"
    pile: str
    card: str


@dataclass(frozen=True, slots=True)
class Shown:
    """Solo: the two cards shown."""

    kind: ClassVar[str] = "shown"
    pile: str
    left: str
    right: str


@dataclass(frozen=True, slots=True)
class PileEmpty:
    kind: ClassVar[str] = "pile_empty"
    pile: str


@dataclass(frozen=True, slots=True)
class Buy:
    kind: ClassVar[str] = "buy"
    seat: int
    destiny: str
    price: int
    onto: tuple[int, ...] = field(metadata={"doc": "the row positions a coconut was put on"})


@dataclass(frozen=True, slots=True)
class Travel:
    kind: ClassVar[str] = "travel"
    seat: int
    card: str
    points: int
    coconuts: int


@dataclass(frozen=True, slots=True)
class Give:
    """Solo: the other card went face down to the Opponent."""

    kind: ClassVar[str] = "give"
    seat: int


@dataclass(frozen=True, slots=True)
class Discard:
    """Solo: the other card discarded, for a price paid to the Beach Hut."""

    kind: ClassVar[str] = "discard"
    seat: int
    card: str
    paid: int


@dataclass(frozen=True, slots=True)
class Chose:
    """A seat's secret Source choice (to that seat only, until the reveal)."""

    kind: ClassVar[str] = "chose"
    seat: int
    pile: str
    sources: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InterimTotal:
    """Every seat's Sources and points at an interim total, revealed together."""

    kind: ClassVar[str] = "interim"
    pile: str
    sources: tuple[tuple[str, ...], ...]
    points: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class End:
    kind: ClassVar[str] = "end"
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    opponent: int | None = field(metadata={"doc": "solo: the Opponent's final score"})


EVENT_TYPES = declare_events(
    Setup,
    Traveler,
    Turn,
    Take,
    Pick,
    Scrap,
    Place,
    Refill,
    Shown,
    PileEmpty,
    Buy,
    Travel,
    Give,
    Discard,
    Chose,
    InterimTotal,
    End,
)
