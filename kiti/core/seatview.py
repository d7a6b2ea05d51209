"""What a bot may know: a seat's view of a game, and nothing more.

A :class:`SeatView` is built from the true state by :func:`seat_view`, but all it keeps is
a *guess*: a full state drawn by ``State.resample`` among those the seat cannot tell from
the true one.  Such a draw depends only on what the seat knows, and it gives the seat the
identical observation, information state, events and legal moves, so every question a bot
asks is answered from the guess and no reference to the true state exists.

Bots run as ordinary Python code in Kiti's own process: this boundary keeps honest bots
honest (and makes their decisions independent of what they cannot see), it is not a
sandbox against hostile code.  See docs/architecture.md.
"""

from __future__ import annotations

import random
from functools import cached_property
from typing import Any

from .game import State
from .moves import ActionCodec, Move


class SeatView:
    """Everything a bot may know when its seat must act."""

    def __init__(self, state: State, seat: int, guess_seed: int = 0) -> None:
        self.seat = seat
        self.game: type[State] = type(state)
        self.players = state.players
        self.options = dict(state.options)
        self._guess: State = state.resample(seat, random.Random(guess_seed))

    @cached_property
    def info(self) -> dict[str, Any]:
        """The seat's information state: ``{"seat", "events", "now"}`` (``State.information_state``,
        its events shared with :attr:`events`)."""
        return {"seat": self.seat, "events": self.events, "now": self._guess.observation(self.seat)}

    @cached_property
    def events(self) -> list[dict[str, Any]]:
        """The events the seat has seen, oldest first (``info["events"]`` without building
        the observation: what a bot reading only the history and :attr:`view` asks for)."""
        return self._guess.events(self.seat)

    @property
    def observation(self) -> dict[str, Any]:
        now: dict[str, Any] = self.info["now"]
        return now

    @cached_property
    def view(self) -> Any:
        """The seat's typed view (``State.view``, the game's declared view type): what
        heuristics read, with the rule facts they need."""
        return self._guess.view(self.seat)

    @cached_property
    def legal_moves(self) -> list[Move]:
        return self._guess.legal_moves(self.seat)

    def random_move(self, rng: random.Random) -> Move:
        return self._guess.random_move(self.seat, rng)

    def many_moves(self) -> bool:
        return self._guess.many_moves(self.seat)

    def secret_choice(self) -> bool:
        """Whether this decision is part of a simultaneous secret choice (mix, then)."""
        return self._guess.secret_choice(self.seat)

    def codec(self) -> ActionCodec:
        """The game's action codec (public: it depends on the seat count and options only).
        Asked once, it is shared by every state :meth:`determinize` draws, so searches
        that step their moves' integers pay for it once."""
        return self._guess.codec()

    def determinize(self, rng: random.Random) -> State:
        """A full state drawn at random among those consistent with this seat's information."""
        return self._guess.resample(self.seat, rng)


def seat_view(state: State, seat: int) -> SeatView:
    """The only way Kiti hands a position to a bot."""
    return SeatView(state, seat)
