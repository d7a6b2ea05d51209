"""The bot interface.  A bot never receives the game state: only a :class:`SeatView`.

A :class:`SeatView` is built by :func:`seat_view` from the true state, but what
it keeps is (a) the seat's information state (JSON), (b) its legal moves and
(c) a *determinisation*: a full state drawn at random among those consistent
with the seat's information state (``State.resample``).  The draw depends only
on what the seat knows, so nothing reachable from a SeatView carries hidden
information; bots may call :meth:`SeatView.determinize` as often as they like.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from ..core.game import Move, State


class SeatView:
    """Everything a bot may know when its seat must act."""

    __slots__ = ("seat", "game", "info", "legal_moves", "players", "options", "_guess")

    def __init__(self, state: State, seat: int, guess_seed: int = 0) -> None:
        self.seat = seat
        self.game: type[State] = type(state)
        self.players = state.players
        self.options = dict(state.options)
        self.info: dict[str, Any] = state.information_state(seat)
        self.legal_moves: list[Move] = state.legal_moves(seat)
        # A guess at the hidden cards, drawn from the seat's information set only.
        self._guess: State = state.resample(seat, random.Random(guess_seed))

    def determinize(self, rng: random.Random) -> State:
        """A full state drawn at random among those consistent with this seat's information."""
        return self._guess.resample(self.seat, rng)

    @property
    def observation(self) -> dict[str, Any]:
        return self.info["now"]


def seat_view(state: State, seat: int) -> SeatView:
    """The only way Kiti hands a position to a bot."""
    return SeatView(state, seat)


class Bot(Protocol):
    """A player program.  ``choose`` sees a SeatView, never the state."""

    name: str

    def choose(self, view: SeatView) -> Move: ...
