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

**Declared fields.**  A move's dataclass fields are typed; :func:`field_problem` checks a
move's values against those types (``State.apply``'s checked path asks it before the game's
own rules), so a hand-built ``Word(None)`` or ``Place("B")`` is refused as a bad move, not
met by a ``TypeError`` deep inside a rule.  Ranges stay the game's to check.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .errors import IllegalMoveError, quoted

#: The longest move notation (characters); no field of a move holds longer text or more items.
MAX_NOTATION = 200


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

    __slots__ = ("_pairs", "identity", "index", "moves", "size")

    def __init__(self, moves: Sequence[Move]) -> None:
        self.moves: tuple[Move, ...] = tuple(moves)
        self.index: Mapping[Move, int] = MappingProxyType({m: i for i, m in enumerate(self.moves)})
        if len(self.index) != len(self.moves):
            raise ValueError("all_moves lists a move twice")
        self.size = len(self.moves)
        #: The action of each of the codec's own Move objects, by identity: a game that hands
        #: out those very objects (interned values) has its moves numbered by one look-up.
        #: The codec keeps them alive, so no other object has their ``id``.
        self.identity: Mapping[int, int] = MappingProxyType({id(m): i for i, m in enumerate(self.moves)})
        self._pairs: list[tuple[tuple[int, Move], ...]] = []

    def pairs(self, seats: int) -> list[tuple[tuple[int, Move], ...]]:
        """``pairs(n)[seat][action]`` is the history entry ``(seat, move of action)`` for seats
        ``0 .. n-1``, each made once (the integer playouts apply a choice's moves by them)."""
        made = self._pairs
        while len(made) < seats:
            seat = len(made)
            made.append(tuple((seat, m) for m in self.moves))
        return made

    def encode(self, move: Move) -> int:
        try:
            return self.index[move]
        except (KeyError, TypeError):
            raise IllegalMoveError(None, move, f"{quoted(move)} is not a move of this game") from None

    def decode(self, action: int) -> Move:
        if type(action) is not int or not 0 <= action < self.size:
            raise IllegalMoveError(
                None, action, f"action must be an integer 0-{self.size - 1}, not {quoted(action)}"
            )
        return self.moves[action]


# ------------------------------------------------------------ declared fields
#: A field's check: (name, accepts(value), what it must be in words).
FieldCheck = tuple[str, Callable[[Any], bool], str]
_FIELD_CHECKS: dict[type, tuple[FieldCheck, ...]] = {}
_ABSENT = object()


def field_problem(move: object) -> str | None:
    """Why ``move``'s fields do not hold values of their declared types, or None.

    Each field is checked against its annotation (resolved once per class): ``int`` takes
    an integer but not a bool, ``str`` text of at most :data:`MAX_NOTATION` characters,
    ``X | None`` also None, ``tuple[X, ...]`` a tuple of such items.  A move class that is
    not a dataclass, or whose annotations cannot be resolved, declares nothing to check.
    """
    cls = type(move)
    checks = _FIELD_CHECKS.get(cls)
    if checks is None:
        checks = _FIELD_CHECKS[cls] = _declared_checks(cls)
    for name, accepts, what in checks:
        value = getattr(move, name, _ABSENT)
        if value is _ABSENT:
            return f"{cls.__name__} has no {name}"
        if not accepts(value):
            return f"{cls.__name__}'s {name} must be {what}, not {quoted(value)}"
    return None


def _declared_checks(cls: type) -> tuple[FieldCheck, ...]:
    if not dataclasses.is_dataclass(cls):
        return ()
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return ()
    return tuple((f.name, *_check_for(hints.get(f.name, Any))) for f in dataclasses.fields(cls))


def _check_for(kind: Any) -> tuple[Callable[[Any], bool], str]:
    """A predicate for values of the annotation ``kind`` and what it asks for, in words."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is int:
        return (lambda v: isinstance(v, int) and not isinstance(v, bool)), "an integer"
    if kind is str:
        return (
            lambda v: isinstance(v, str) and len(v) <= MAX_NOTATION
        ), f"text of at most {MAX_NOTATION} characters"
    if kind is float:
        return (lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)), "a number"
    if kind is bool:
        return (lambda v: isinstance(v, bool)), "true or false"
    if kind is None or kind is type(None):
        return (lambda v: v is None), "None"
    if origin in (typing.Union, types.UnionType):
        parts = [_check_for(a) for a in args]
        return (lambda v: any(ok(v) for ok, _ in parts)), " or ".join(what for _, what in parts)
    if origin is typing.Literal:
        return (lambda v: any(type(v) is type(a) and v == a for a in args)), "one of " + ", ".join(
            map(repr, args)
        )
    if origin is tuple:
        return _tuple_check(args)
    if isinstance(kind, type) and kind is not object:
        return (lambda v: isinstance(v, kind)), f"a {kind.__name__}"
    return (lambda v: True), "anything"  # Any, a type variable, ...


def _tuple_check(args: tuple[Any, ...]) -> tuple[Callable[[Any], bool], str]:
    if len(args) == 2 and args[1] is Ellipsis:
        item, what = _check_for(args[0])
        return (
            lambda v: isinstance(v, tuple) and len(v) <= MAX_NOTATION and all(map(item, v))
        ), f"a tuple (each item {what})"
    if not args:
        return (lambda v: isinstance(v, tuple) and len(v) <= MAX_NOTATION), "a tuple"
    items = [_check_for(a) for a in args]
    return (
        lambda v: isinstance(v, tuple) and len(v) == len(items) and all(ok(x) for (ok, _), x in zip(items, v))
    ), f"a tuple of {len(items)} items ({'; '.join(what for _, what in items)})"
