"""Moves as values, step-by-step move choices, and the integer action codec.

A move is a small frozen value object (a frozen, slotted dataclass in practice): hashable,
equal by value, independent of any state, and ``str(move)`` is its canonical notation, which
the game's ``parse_move`` reads back to an equal move.

**Steps.** A game whose positions can offer thousands of moves (a MOTU placement: a
rotation, then a position) splits each move into steps: ``move.steps()`` is the tuple of
tokens a player picks one after the other.  ``State.move_steps(seat, prefix)`` offers the
next tokens, so a front end never lists thousands of lines.  Most moves are one step.

**Codec.** For each (game, seat count, options) the game lists every move that can ever be
legal (``State.all_moves``); :class:`ActionCodec` numbers them ``0 .. size-1``.  Adapters for
reinforcement-learning libraries (a fixed discrete action space with a legal-action mask)
and fast simulations use these integers (``State.legal_actions``, ``State.step``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from .errors import IllegalMoveError


class Move:
    """Base class of game moves.  ``str(move)`` is its canonical notation."""

    __slots__ = ()

    def steps(self) -> tuple[str, ...]:
        """The tokens a player picks, one after the other, to make this move."""
        return (str(self),)


@dataclass(frozen=True, slots=True)
class Step:
    """One token offered at a step of a move; ``move`` is set when the token completes it."""

    token: str
    move: Move | None
    count: int = 1  # how many legal moves start with the prefix plus this token


def steps_from_moves(moves: Sequence[Move], prefix: tuple[str, ...]) -> list[Step]:
    """The next steps after ``prefix`` among ``moves`` (in first-seen order)."""
    depth = len(prefix)
    out: dict[str, list[object]] = {}
    for move in moves:
        path = move.steps()
        if path[:depth] != prefix or len(path) <= depth:
            continue
        token = path[depth]
        entry = out.get(token)
        if entry is None:
            out[token] = [move if len(path) == depth + 1 else None, 1]
        else:
            entry[1] += 1  # type: ignore[operator]
            if len(path) == depth + 1:
                entry[0] = move
    return [Step(token, entry[0], entry[1]) for token, entry in out.items()]  # type: ignore[arg-type]


class ActionCodec:
    """Every possible move of a (game, seats, options) numbered ``0 .. size-1`` (immutable)."""

    __slots__ = ("moves", "index", "size")

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves: tuple[Move, ...] = tuple(moves)
        self.index: Mapping[Move, int] = MappingProxyType({m: i for i, m in enumerate(self.moves)})
        if len(self.index) != len(self.moves):
            raise ValueError("all_moves lists a move twice")
        self.size = len(self.moves)

    def encode(self, move: Move) -> int:
        try:
            return self.index[move]
        except (KeyError, TypeError):
            raise IllegalMoveError(None, move, f"{move!r} is not a move of this game") from None

    def decode(self, action: int) -> Move:
        if type(action) is not int or not 0 <= action < self.size:
            raise IllegalMoveError(None, action, f"action must be an integer 0-{self.size - 1}, "
                                                 f"not {action!r}")
        return self.moves[action]
