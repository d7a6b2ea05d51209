"""The game protocol every Kiti game implements.

A game is a subclass of :class:`State` that declares a :class:`GameInfo` once
(id, name, seat range, options, version) and implements the rules.  Front
ends, bots, records and simulations only use the methods defined here, so
they work for every game without special cases.

Turn structure is expressed by :meth:`State.to_act`, a set of seats: one seat
for an ordinary turn, several for a simultaneous secret choice (each commits
separately; nobody else sees a committed choice until the game reveals it),
and any seat that may respond out of turn.  Chance is resolved inside the
state from its own seeded generator, so every state is a pure function of
(seat count, options, seed, setup, moves).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from .errors import IllegalMoveError, NotationError, SetupError
from .options import OptionSpec, resolve_options

JSON = Any


class Move:
    """Base class of game moves.  ``str(move)`` is its canonical notation."""

    __slots__ = ()


@dataclass(frozen=True)
class GameInfo:
    """What a game declares about itself, once."""

    id: str
    name: str
    min_seats: int
    max_seats: int
    version: str
    options: tuple[OptionSpec, ...] = field(default_factory=tuple)
    notation: str = ""


class State(ABC):
    """A game in progress.  Subclasses implement the rules of one game."""

    info: ClassVar[GameInfo]

    # Filled in by ``__init__`` of every subclass through ``_init_common``.
    players: int
    options: dict[str, Any]
    seed: int
    setup: dict[str, Any] | None
    history: list[tuple[int, Move]]
    rng: random.Random

    # ----------------------------------------------------------- creation
    @classmethod
    def new(
        cls,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> State:
        """A new game: ``players`` seats, validated ``options``, a seed (random if None)."""
        info = cls.info
        if isinstance(players, bool) or not isinstance(players, int):
            raise SetupError(f"players must be an integer, not {players!r}")
        if not info.min_seats <= players <= info.max_seats:
            raise SetupError(
                f"{info.name} is for {info.min_seats}-{info.max_seats} players, not {players}"
            )
        opts = resolve_options(info.options, options)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"seed must be an integer, not {seed!r}")
        state = cls.__new__(cls)
        state.players = players
        state.options = opts
        state.seed = seed
        state.setup = dict(setup) if setup is not None else None
        state.history = []
        state.rng = random.Random(seed)
        state._setup(opts, state.setup)
        return state

    @abstractmethod
    def _setup(self, options: dict[str, Any], setup: dict[str, Any] | None) -> None:
        """Lay out the table (validate ``options`` combinations and ``setup`` here)."""

    # ------------------------------------------------------------ turns
    @abstractmethod
    def to_act(self) -> frozenset[int]:
        """The seats that must (or may) act now; empty when the game is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[Move]:
        """Every legal move of ``seat`` now (empty if it is not to act)."""

    @abstractmethod
    def illegal_reason(self, seat: int, move: Move) -> str | None:
        """Why ``move`` by ``seat`` is illegal now, or None if it is legal."""

    @abstractmethod
    def _apply(self, seat: int, move: Move) -> None:
        """Apply a legal move (no checks)."""

    def apply(self, seat: int, move: Move | str, check: bool = True) -> None:
        """Apply ``move`` (a Move or its notation) for ``seat``.

        Checked by default: an illegal move raises :class:`IllegalMoveError`
        and leaves the state unchanged.  ``check=False`` is the fast path for
        bots and simulations that only ever pick from :meth:`legal_moves`.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if check:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
                raise IllegalMoveError(
                    seat, move, f"no seat {seat!r} in a {self.players}-player game"
                )
            reason = self.illegal_reason(seat, move)
            if reason is not None:
                raise IllegalMoveError(seat, move, reason)
        self.history.append((seat, move))
        self._apply(seat, move)

    @classmethod
    @abstractmethod
    def parse_move(cls, text: str) -> Move:
        """Parse move notation; raise :class:`NotationError` naming what is wrong."""

    # ------------------------------------------------------------- ending
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[float]:
        """Current score per seat (final once the game is over)."""

    def winners(self) -> list[int]:
        """Seats sharing the victory (empty until the game is over)."""
        if not self.is_over():
            return []
        scores = self.scores()
        best = max(scores)
        return [s for s, v in enumerate(scores) if v == best]

    def returns(self) -> list[float]:
        """Share of the victory per seat: 1/k for each of k winners, else 0."""
        win = self.winners()
        return [1.0 / len(win) if s in win else 0.0 for s in range(self.players)]

    # -------------------------------------------------------------- views
    @abstractmethod
    def observation(self, seat: int | None) -> JSON:
        """The table now as ``seat`` sees it (None: a spectator). JSON-serialisable."""

    @abstractmethod
    def information_state(self, seat: int) -> JSON:
        """Everything ``seat`` has seen so far (history) and sees now. JSON-serialisable."""

    def events_seen(self, seat: int | None) -> list[JSON]:
        """What ``seat`` saw happen, oldest first (None: a spectator).

        By default the ``events`` of the seat's information state; a game whose
        spectators see events too overrides this.
        """
        if seat is None:
            return []
        info = self.information_state(seat)
        return list(info.get("events", [])) if isinstance(info, dict) else []

    @abstractmethod
    def table(self) -> JSON:
        """The whole table, hidden cards included (for referees, replays and tests)."""

    # ------------------------------------------------------------- copies
    @abstractmethod
    def clone(self) -> State:
        """An independent copy (its generator included)."""

    @abstractmethod
    def resample(self, seat: int, rng: random.Random) -> State:
        """A full state drawn at random among those consistent with ``seat``'s
        information state.  The result gives ``seat`` the identical
        observation and information state, and has a fresh generator."""

    # ------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """The game record: setup + moves. Replaying it gives this state."""
        rec: dict[str, Any] = {
            "game": self.info.id,
            "version": self.info.version,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
        }
        if self.setup is not None:
            rec["setup"] = self.setup
        rec["moves"] = [[seat, str(move)] for seat, move in self.history]
        return rec

    def describe_move(self, seat: int, move: Move) -> str:
        """A sentence for humans explaining what ``move`` does (front ends use it)."""
        return str(move)

    def legal_notations(self, seat: int) -> list[str]:
        return [str(m) for m in self.legal_moves(seat)]

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} seed={self.seed} "
            f"moves={len(self.history)} over={self.is_over()}>"
        )


def check_notation(text: object) -> str:
    """Normalise move text (strip, lower-case, single spaces)."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, not {text!r}")
    out = " ".join(text.split()).lower()
    if not out:
        raise NotationError("empty move")
    return out

