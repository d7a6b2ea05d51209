"""Miaui's typed contract: the view of the table each viewer gets, and the event kinds.

:meth:`kiti.games.miaui.rules.MiauiState._view` is the one place these views are built;
the rule facts they carry (what a depth takes, its tie direction and order, Kiti's seat and
where it goes next, the number of rounds, what a No Fighting tie leaves) are computed there
by the rule functions of :mod:`.rules`, so no front end restates them.  This module only
declares shapes: it decides nothing.

A seat, a spectator (None) and the end get a :class:`MiauiView`; the referee gets a
:class:`RefereeView`, which adds the burned card (never in play, so never shown to anyone
else, not even at the end).  ``"?"`` (:data:`~kiti.core.contract.Hidden`) is a card or a
diver the viewer may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from ...core.contract import Hidden, declare_events

Direction = Literal["counterclockwise", "clockwise"]
Side = Literal["right", "left"]
Viewer = int | Literal["referee"] | None


@dataclass(frozen=True, slots=True)
class Depth:
    """One depth of the lagoon: who wins it and how Kiti breaks a tie there (rule facts)."""

    space: int = field(metadata={"doc": "0 is Deepest (the bottom), 1 Deep, 2 Shallow (the top)"})
    name: str = field(metadata={"doc": "the depth's name: Deepest, Deep or Shallow"})
    takes: Literal["highest", "lowest"] = field(
        metadata={"doc": "which end of the divers still in wins it (Deep: the highest left after Deepest)"}
    )
    rule: str = field(metadata={"doc": "who wins this depth, in words"})
    tie_direction: Direction | None = field(
        metadata={
            "doc": "which way Kiti looks along the table for a tie here; null without Kiti (No Fighting)"
        }
    )
    tie_from: Side | None = field(
        metadata={"doc": "the side of Kiti where its tie order starts; null without Kiti"}
    )
    tie_order: tuple[int, ...] | None = field(
        metadata={
            "doc": "the seats in the order Kiti favours them for a tie here this round; null without Kiti"
        }
    )


@dataclass(frozen=True, slots=True)
class PendingTake:
    """A No Fighting taker ordering her catch (option taker_chooses_order)."""

    seat: int = field(metadata={"doc": "the taker"})
    space: int = field(metadata={"doc": "the depth she caught"})
    cards: list[str] = field(metadata={"doc": "the cards still to join her pile"})


@dataclass(frozen=True, slots=True)
class MiauiView:
    """A Miaui table as one viewer sees it (a seat, a spectator, or anyone at the end)."""

    game: Literal["miaui"] = field(metadata={"doc": "the game's id"})
    players: int = field(metadata={"doc": "how many seats (3 to 6)"})
    options: dict[str, bool | int] = field(metadata={"doc": "the game's options, by name"})
    viewer: Viewer = field(
        metadata={"doc": "the seat looking, null for a spectator, 'referee' for the whole table"}
    )
    over: bool = field(metadata={"doc": "the game is over (the view then shows every card in play)"})
    round: int = field(metadata={"doc": "the round being played, 1 to rounds"})
    kiti: int | None = field(
        metadata={
            "doc": "the seat on Kiti's right (Kiti stands between it and the next seat "
            "clockwise); null without Kiti (No Fighting)"
        }
    )
    tie_order: dict[str, list[int]] | None = field(
        metadata={
            "doc": "Kiti's tie orders this round: 'deep' (Deepest and Deep) and 'shallow'; null without Kiti"
        }
    )
    lagoon: list[list[str | Hidden]] = field(
        metadata={"doc": "each depth's cards, oldest first (index: space)"}
    )
    piles: list[list[str | Hidden]] = field(metadata={"doc": "each seat's fish pile, bottom to top"})
    scores: list[float | None] = field(
        metadata={"doc": "each seat's points, null where the viewer cannot know them"}
    )
    winners: list[int] = field(metadata={"doc": "the winning seats once the game is over"})
    hands: list[list[int | Hidden]] = field(metadata={"doc": "each seat's divers left"})
    committed: list[int | Hidden | None] = field(
        metadata={"doc": "each seat's diver chosen this round (null: not yet)"}
    )
    discards: list[list[int | Hidden]] = field(
        metadata={"doc": "each seat's diver discard pile, oldest first"}
    )
    to_act: list[int] = field(metadata={"doc": "the seats to act now (every seat still to choose a diver)"})
    pending_take: PendingTake | None = field(metadata={"doc": "a catch its taker is ordering, if any"})
    deck: int | list[str] = field(
        metadata={"doc": "cards left in the deck (the referee: the cards, next first)"}
    )
    box: int | list[str] = field(metadata={"doc": "cards out of the game (the referee: the cards)"})
    rounds: int = field(metadata={"doc": "how many rounds a game lasts"})
    depths: tuple[Depth, ...] = field(metadata={"doc": "the rule facts of each depth (index: space)"})
    kiti_left: int | None = field(metadata={"doc": "the seat on Kiti's left; null without Kiti"})
    kiti_next: tuple[int, int] | None = field(
        metadata={
            "doc": "the seats Kiti stands between after this round (on its right, on its left): it moves "
            "on; null without Kiti or in the last round"
        }
    )
    kiti_moves: Direction | None = field(
        metadata={"doc": "which way Kiti moves after each round; null without Kiti"}
    )
    ties_carry_over: bool = field(
        metadata={
            "doc": "a tie catches nothing and its fish stay in the lagoon for the next round (No Fighting)"
        }
    )
    tie_rule: str = field(metadata={"doc": "what a tie does, in words"})
    peeked: list[list[bool]] = field(
        metadata={"doc": "per lagoon card: it lies face down and this viewer has seen it (a Lantern's peek)"}
    )


@dataclass(frozen=True, slots=True)
class RefereeView(MiauiView):
    """The whole table (the referee's view): every card, the burned one included."""

    burned: str = field(metadata={"doc": "the card burned face down at the start, never in play"})


#: What ``INFO.view_type`` declares: a viewer gets one of the two.
VIEW_TYPE: Any = MiauiView | RefereeView


# ------------------------------------------------------------------ events
@dataclass(frozen=True, slots=True)
class Stock:
    """The lagoon is restocked: one card per depth, bottom first ('?': face down)."""

    kind: ClassVar[str] = "stock"
    referee: ClassVar[dict[str, Any]] = {"cards": tuple[str, ...]}
    round: int
    cards: tuple[str | Hidden, ...]


@dataclass(frozen=True, slots=True)
class SeagullReturned:
    """A Seagull drawn for the first round went back into the deck."""

    kind: ClassVar[str] = "seagull_returned"
    round: int
    space: int


@dataclass(frozen=True, slots=True)
class Peek:
    """A Lantern's catcher sees the face-down card stocked in its space (only she gets this)."""

    kind: ClassVar[str] = "peek"
    round: int
    space: int
    card: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """Every seat's diver is turned face up; ``kiti``: the seat on Kiti's right (null: none)."""

    kind: ClassVar[str] = "reveal"
    round: int
    dives: tuple[int, ...]
    kiti: int | None


@dataclass(frozen=True, slots=True)
class Catch:
    """A seat wins a depth and its cards; ``tied``: the seats Kiti chose among, if any."""

    kind: ClassVar[str] = "catch"
    round: int
    space: int
    seat: int
    cards: tuple[str, ...]
    tied: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Tie:
    """No Fighting: tied divers catch nothing at this depth."""

    kind: ClassVar[str] = "tie"
    round: int
    space: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NoDiver:
    """No diver was left for this depth: its fish stay."""

    kind: ClassVar[str] = "no_diver"
    round: int
    space: int


@dataclass(frozen=True, slots=True)
class Take:
    """A card of a catch joins its taker's pile (No Fighting, taker orders)."""

    kind: ClassVar[str] = "take"
    round: int
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class Seagull:
    """A caught Seagull ate the top card of a pile (``ate``: null if the pile was empty)."""

    kind: ClassVar[str] = "seagull"
    round: int
    seat: int
    ate: str | None


@dataclass(frozen=True, slots=True)
class Jellyfish:
    """Three Jellyfish in one pile left the game together."""

    kind: ClassVar[str] = "jellyfish"
    round: int
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class End:
    """The game is over: every seat's score and the winners."""

    kind: ClassVar[str] = "end"
    scores: tuple[int, ...]
    winners: tuple[int, ...]


EVENT_TYPES = declare_events(
    Stock, SeagullReturned, Peek, Reveal, Catch, Tie, NoDiver, Take, Seagull, Jellyfish, End
)
