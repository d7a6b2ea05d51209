"""Mauw's typed contract: the view a viewer gets and the events it sees (:mod:`kiti.core.contract`).

Only declarations live here: :meth:`kiti.games.mauw.rules.MauwState._view` fills them, and
every rule fact in them (what a column accepts, which cards answer an attack, where a gain
may go, the scoring constants) is computed there by the rule functions themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from ...core.contract import Hidden, declare_events

Card = str  #: a card code (R8, JK, SP, KI, NI, TU, ...)
Viewer = int | Literal["referee"] | None


@dataclass(frozen=True, slots=True)
class MauwRules:
    """The game's constants, for front ends that show them (they never restate them)."""

    slots: tuple[str, ...] = field(metadata={"doc": "the names of a seat's slots, left to right"})
    hand: int = field(metadata={"doc": "cards in a full hand (a player draws back to it)"})
    max_nines: int = field(metadata={"doc": "the most nines a column holds (a full column)"})
    full_columns_to_end: int = field(metadata={"doc": "full columns in one area that end the game"})
    nine_value: int = field(metadata={"doc": "what bare nines are worth per nine before doubling"})
    nine_multiplier: int = field(metadata={"doc": "each nine under a column multiplies its points by this"})
    deck: dict[str, int] = field(
        metadata={"doc": "how many of each card this game's deck holds (options add animals)"}
    )


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a seat's area, as the viewer sees it."""

    slot: str = field(metadata={"doc": "the slot's name (A-D)"})
    where: str = field(metadata={"doc": "the column's name in moves and move steps: seat then slot ('1C')"})
    nines: int = field(metadata={"doc": "face-down nines under the top"})
    top: Card | None = field(
        metadata={"doc": "the Warrior or Spirit on top, None for bare nines or an empty slot"}
    )
    score: int = field(metadata={"doc": "the column's points now"})
    accepts: tuple[Card, ...] = field(
        metadata={
            "doc": "the cards the viewer may play on this column on her turn, whatever her hand holds "
            "(Warriors, SP, JK, NI; Kiwi fetches a Warrior): empty on a teammate's column and "
            "for a spectator or the referee"
        }
    )


@dataclass(frozen=True, slots=True)
class RefereeColumn(Column):
    """A column as the referee sees it: the true cards of its nines too."""

    nine_cards: tuple[Card, ...] = field(
        default=(), metadata={"doc": "the cards turned face down as its nines, bottom first"}
    )


@dataclass(frozen=True, slots=True)
class AttackView:
    """An attack in progress."""

    attacker: int
    defender: int
    slot: str = field(metadata={"doc": "the defender's attacked column (A-D)"})
    target: Card = field(metadata={"doc": "the Warrior attacked"})
    card: Card | None = field(metadata={"doc": "the attacking card now (None once defended, until renewed)"})
    declared: Card | None = field(metadata={"doc": "what a Joker attacking card stands for"})
    value: int = field(metadata={"doc": "the value a defence or a renewal must match"})
    awaiting: int | None = field(metadata={"doc": "the seat asked now"})
    answers: tuple[Card, ...] = field(
        metadata={
            "doc": "the cards that answer now: the Warrior of that value, a Joker standing for it, and "
            "Tuatura while the attacked player herself is asked (when the deck holds one)"
        }
    )


@dataclass(frozen=True, slots=True)
class GainView:
    """A gain waiting for its owner to choose its column."""

    seat: int
    nines: tuple[Card | Hidden, ...] = field(
        metadata={"doc": "the cards of the gained nines ('?' when drawn face down)"}
    )
    top: Card | None = field(metadata={"doc": "the Warrior on top of the gain (twins), or None"})
    slots: tuple[str, ...] = field(metadata={"doc": "the owner's slots that can take it"})


@dataclass(frozen=True, slots=True)
class MauwView:
    """A Mauw table as one viewer (a seat, a spectator, the referee) sees it."""

    game: Literal["mauw"]
    players: int
    options: dict[str, bool | int | str] = field(metadata={"doc": "the game's options, by name"})
    viewer: Viewer = field(metadata={"doc": "the seat this view is for, None for a spectator, 'referee'"})
    over: bool
    end_reason: str | None
    turn: int = field(metadata={"doc": "the seat whose turn it is (attacks and gains happen inside it)"})
    phase: Literal["turn", "defend", "assist", "renew", "place", "over"]
    to_act: tuple[int, ...]
    scores: tuple[float, ...]
    team_scores: tuple[int, ...] | None
    teams: tuple[tuple[int, ...], ...] | None
    opponents: tuple[int, ...] | None = field(
        metadata={
            "doc": "the viewer's opponents (every other seat but a teammate); None for a spectator or the referee"
        }
    )
    winners: tuple[int, ...]
    columns: tuple[tuple[Column | RefereeColumn, ...], ...] = field(
        metadata={"doc": "per seat, its columns A-D"}
    )
    hands: tuple[tuple[Card | Hidden, ...], ...] = field(
        metadata={
            "doc": "per seat, its hand: another seat's shows the cards everyone knows it holds, then '?'"
        }
    )
    known: tuple[tuple[Card, ...], ...] = field(
        metadata={"doc": "per seat, cards everyone knows it holds (Tuatura's)"}
    )
    draw_pile: int | tuple[Card, ...] = field(
        metadata={"doc": "its size; the referee gets its cards, top first"}
    )
    discard: tuple[Card, ...] = field(metadata={"doc": "the discards, oldest first"})
    attack: AttackView | None
    gain: GainView | None
    rules: MauwRules


# ------------------------------------------------------------------ events
@dataclass(frozen=True, slots=True)
class Deal:
    kind: ClassVar[str] = "deal"
    first: int


@dataclass(frozen=True, slots=True)
class Draw:
    """A seat drew cards (how many: everyone sees it)."""

    kind: ClassVar[str] = "draw"
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Drew:
    """The cards a seat drew (that seat only)."""

    kind: ClassVar[str] = "drew"
    seat: int
    cards: tuple[Card | Hidden, ...]


@dataclass(frozen=True, slots=True)
class Reshuffle:
    kind: ClassVar[str] = "reshuffle"
    count: int


@dataclass(frozen=True, slots=True)
class Turn:
    kind: ClassVar[str] = "turn"
    seat: int


Effect = Literal["place", "strengthen", "block", "combo", "attack", "unblock"]


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """A card from a hand on a column, told by its effect (rules.play_effect)."""

    kind: ClassVar[str] = "play"
    seat: int
    card: Card
    declared: Card | None = field(metadata={"doc": "what a Joker stands for"})
    target: int = field(metadata={"doc": "the seat whose column it is"})
    slot: int
    effect: Effect


@dataclass(frozen=True, slots=True)
class KiwiEvent:
    kind: ClassVar[str] = "kiwi"
    seat: int
    from_seat: int = field(metadata={"doc": "the seat the Warrior was taken from"})
    from_slot: int
    warrior: Card
    target: int
    slot: int
    effect: Effect


@dataclass(frozen=True, slots=True)
class NinoxEvent:
    kind: ClassVar[str] = "ninox"
    seat: int
    target: int
    slot: int


@dataclass(frozen=True, slots=True)
class Combo:
    kind: ClassVar[str] = "combo"
    seat: int
    combo: Literal["pair", "twins"]
    cards: tuple[Card, Card]


@dataclass(frozen=True, slots=True)
class Nine:
    """A nine laid on a column ('?' when face down; the referee also gets its card)."""

    kind: ClassVar[str] = "nine"
    referee: ClassVar[dict[str, type]] = {"card": str}
    seat: int
    slot: int
    card: Card | Hidden


@dataclass(frozen=True, slots=True)
class Top:
    kind: ClassVar[str] = "top"
    seat: int
    slot: int
    card: Card


@dataclass(frozen=True, slots=True)
class Lost:
    kind: ClassVar[str] = "lost"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Defend:
    kind: ClassVar[str] = "defend"
    seat: int
    card: Card
    declared: Card | None


@dataclass(frozen=True, slots=True)
class TuaturaEvent:
    kind: ClassVar[str] = "tuatura"
    seat: int
    card: Card = field(metadata={"doc": "the attacking card she takes into her hand"})


@dataclass(frozen=True, slots=True)
class Decline:
    kind: ClassVar[str] = "decline"
    seat: int


@dataclass(frozen=True, slots=True)
class Renew:
    kind: ClassVar[str] = "renew"
    seat: int
    card: Card
    declared: Card | None


@dataclass(frozen=True, slots=True)
class Stop:
    kind: ClassVar[str] = "stop"
    seat: int


@dataclass(frozen=True, slots=True)
class Success:
    kind: ClassVar[str] = "success"
    attacker: int
    defender: int
    slot: int
    card: Card


@dataclass(frozen=True, slots=True)
class Unblock:
    kind: ClassVar[str] = "unblock"
    seat: int
    slot: int


@dataclass(frozen=True, slots=True)
class PassEvent:
    kind: ClassVar[str] = "pass"
    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class End:
    kind: ClassVar[str] = "end"
    reason: str
    scores: tuple[float, ...]
    winners: tuple[int, ...]


EVENT_TYPES = declare_events(
    Deal,
    Draw,
    Drew,
    Reshuffle,
    Turn,
    PlayEvent,
    KiwiEvent,
    NinoxEvent,
    Combo,
    Nine,
    Top,
    Lost,
    Defend,
    TuaturaEvent,
    Decline,
    Renew,
    Stop,
    Success,
    Unblock,
    PassEvent,
    End,
)
