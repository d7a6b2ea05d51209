"""Shared helpers for the Mauw tests: positions built from explicit cards."""

from __future__ import annotations

from collections import Counter
from typing import Any

from kiti_asserts import assert_rejected  # noqa: F401  (the tests use it from here)

from kiti.core.events import REFEREE
from kiti.games import get_game
from kiti.games.mauw.cards import deck_counts
from kiti.games.mauw.rules import SLOTS, MauwState

G = get_game("mauw")


def position(
    hands: list[list[str]],
    columns: dict[str, tuple[list[str], str | None]] | None = None,
    draw: list[str] | None = None,
    first: int = 0,
    **options: Any,
) -> MauwState:
    """A game whose seats hold ``hands``, whose columns are ``{"1C": (nine cards, top)}``,
    and whose draw pile starts with ``draw`` (top first; the rest of the deck follows in a
    fixed order).  Every card of the game is somewhere, exactly once."""
    counts = deck_counts(options.get("kiwi", 0), options.get("ninox", 0), options.get("tuatura", 0))
    columns = columns or {}
    rest = Counter(counts)
    placed = [c for h in hands for c in h]
    for nines, top in columns.values():
        placed += nines + ([top] if top else [])
    placed += draw or []
    rest.subtract(Counter(placed))
    assert all(v >= 0 for v in rest.values()), f"too many copies: {-rest}"
    in_columns = [c for nines, top in columns.values() for c in nines + ([top] if top else [])]
    pile = list(draw or []) + sorted(rest.elements()) + in_columns
    setup: dict[str, Any] = {"hands": hands, "deck": pile, "first": first}
    state = G.new(len(hands), options or None, 0, setup)
    assert isinstance(state, MauwState)
    for _ in in_columns:  # the column cards were dealt last: take them off the bottom
        state.draw.pop(0)
    for where, (nines, top) in columns.items():
        seat, slot = int(where[0]), SLOTS.index(where[1])
        state.nines[seat][slot] = list(nines)
        state.unseen[seat][slot] = [True] * len(nines)
        state.tops[seat][slot] = top
    state.check_invariants()
    return state


def column(state: MauwState, where: str) -> tuple[int, str | None]:
    """(nines, top) of a column such as "1C", as the referee's view shows it."""
    col = state.observation(REFEREE)["columns"][int(where[0])][SLOTS.index(where[1])]
    return col["nines"], col["top"]
