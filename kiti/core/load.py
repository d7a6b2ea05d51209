"""A named game: the rules of one game with its players and options, checked once.

::

    import kiti

    game = kiti.load("mauw", players=4, teams=True)
    state = game.new_state(seed=7)

:func:`load` finds the game by id (:func:`kiti.core.registry.get_game`: built-in games and
plugins alike) and checks the players and options exactly as :meth:`State.new` does, by
making one game with them, so that a bad name, seat count or option (or a combination of
options the rules refuse) fails here, with the same error, before anything is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import OptionError, quoted
from .game import State, codec_for
from .moves import ActionCodec, Move
from .registry import get_game


@dataclass(frozen=True, repr=False, eq=False)
class Game:
    """The rules of one game for ``players`` seats and ``options``: made by :func:`load`,
    which checks them.  Immutable; equal when the rules, players and options are."""

    #: The game's State class (its rules).
    rules: type[State]
    players: int
    #: Every option the game declares, with its value (read-only).
    options: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    @property
    def id(self) -> str:
        return self.rules.info.id

    @property
    def name(self) -> str:
        return self.rules.info.name

    def applies(self, option: str) -> bool:
        """Whether ``option`` can change a game of this many players (an OptionError for a
        name the game does not declare)."""
        if option not in self.options:
            known = ", ".join(sorted(self.options)) or "none"
            raise OptionError(f"unknown option {quoted(option)} (known options: {known})")
        return self.rules.option_applies(option, self.players)

    def new_state(self, seed: int | None = None) -> State:
        """A new game from ``seed`` (None: a random seed)."""
        return self.rules.new(self.players, self.options, seed)

    def parse_move(self, text: str) -> Move:
        """The move ``text`` writes (a NotationError saying what is wrong otherwise)."""
        return self.rules.parse_move(text)

    @property
    def codec(self) -> ActionCodec:
        """The integer action codec of this game, these players and options."""
        return codec_for(self.rules, self.players, self.options)

    @property
    def move_limit(self) -> int:
        """The most moves a game may take; past it, it is stopped as a draw."""
        return self.rules.move_limit(self.players, self.options)

    def _key(self) -> tuple[Any, ...]:
        return (self.rules, self.players, tuple(sorted(self.options.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        """The call that loads this game (only the options that differ from their default)."""
        defaults = {spec.name: spec.default for spec in self.rules.info.options}
        changed = "".join(f", {k}={v!r}" for k, v in self.options.items() if v != defaults[k])
        return f"kiti.load({self.id!r}, players={self.players}{changed})"


def load(game_id: str, /, players: int | None = None, **options: Any) -> Game:
    """The game ``game_id`` for ``players`` seats (None: the fewest it allows) and ``options``
    (by name; those not given keep their default).

    Raises the errors :meth:`State.new` raises (a :class:`~kiti.core.errors.KitiError`
    naming what is wrong) for an unknown game, a bad seat count or a bad option."""
    rules = get_game(game_id)
    if players is None:
        players = rules.info.min_seats
    checked = rules.new(players, options, 0)  # the one place seats and options are checked
    return Game(rules, players, checked.options)
