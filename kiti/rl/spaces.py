"""Actions for reinforcement learning: the flat action space with ``NOOP``, legal-action
masks, what an illegal action does, and a factored action built from the engine's move steps.

**Flat actions.**  A game's action codec (:meth:`kiti.core.game.State.codec`) numbers every
move that can ever be legal ``0 .. size-1``; :class:`Actions` adds one more action,
``NOOP = size``, the only legal action of a seat that is not to act (the parallel env asks
every live seat at every step).  A mask is an int8 array of ``size + 1`` values, 1 where the
action is legal now (what :meth:`gymnasium.spaces.Discrete.sample` takes as ``mask``).

**Illegal actions.**  :data:`ILLEGAL` lists what an env does with an action its mask forbids,
chosen when the env is made: ``"raise"`` (the default) raises :class:`IllegalActionError`
naming the seat and the action and changes nothing; ``"penalty"`` ends the episode at once,
the offending seat rewarded ``penalty`` and every other seat 0; ``"random"`` plays a legal
action drawn by the env's seeded generator instead (NOOP for a seat not to act).

**Factored actions.**  Where a game has thousands of actions for a few hundred legal ones
(MOTU's placements), :class:`FactoredActions` splits each action into the tokens of its move
(``Move.steps()``): head ``k`` is a :class:`~gymnasium.spaces.Discrete` over every token that
any move has at step ``k``, and its mask at a prefix lists the next tokens of the legal moves
that start with it, so an autoregressive policy picks token after token and never sees a
flat mask.  A move that is also the start of a longer one (Mauw's ``B5`` answer and ``B5 0A``
play) ends with the token :data:`END`, so a prefix is either a whole move or not.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from ..core.errors import KitiError, quoted
from ..core.game import State
from ..core.load import Game
from ..core.moves import steps_from_moves

#: What an illegal action does (the first is the default).
ILLEGAL = ("raise", "penalty", "random")
MASK = np.int8
#: The token that ends a move which is also the start of a longer one (:class:`FactoredActions`).
END = "<end>"


class IllegalActionError(KitiError, ValueError):
    """An action that the seat's mask forbids (or that is no action at all)."""


def check_illegal(illegal: Any, penalty: Any) -> tuple[str, float]:
    """The illegal-action policy and its penalty, checked (a clear error otherwise)."""
    if illegal not in ILLEGAL:
        raise KitiError(f"illegal must be one of {', '.join(ILLEGAL)}, not {quoted(illegal)}")
    if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not np.isfinite(penalty):
        raise KitiError(f"penalty must be a finite number, not {quoted(penalty)}")
    return illegal, float(penalty)


class Actions:
    """The flat actions of one game (rules, seat count, options): the codec, then NOOP."""

    def __init__(
        self,
        game: Game,
        legal: Callable[[State, int], Sequence[int]] | None = None,
        write_legal: Callable[[State, int, memoryview], None] | None = None,
        legal_key: Callable[[State, int], Hashable] | None = None,
    ) -> None:
        self.game = game
        #: ``legal(state, seat)``: the seat's legal actions (a seat to act), as
        #: :meth:`State.legal_actions`; a game's encoder may offer a cheaper one (``legal_actions``).
        self._legal = legal
        #: ``write_legal(state, seat, out)``: a game encoder's way to write a seat's (to act)
        #: legal actions straight into a zeroed mask (``out``: its bytes, one per action).
        self._write_legal = write_legal
        #: ``legal_key(state, seat)``: a game encoder's cheap key that decides a seat's legal
        #: actions (the same key: the same actions; None: no key for this seat now), so a
        #: mask is looked up by it once worked out (Miaui: a diving seat's divers left).
        self._legal_key = legal_key
        self._keyed: dict[Hashable, tuple[memoryview, np.ndarray]] = {}
        self.codec = game.codec
        self.moves = self.codec.moves
        self.noop = self.codec.size
        self.size = self.codec.size + 1
        #: Masks made so far by their legal actions, each with its bytes (read, never handed
        #: out: a mask handed out is a copy), kept while they fit in about 4 MB.
        self._made: dict[tuple[int, ...], tuple[memoryview, np.ndarray]] = {}
        self._keep = max(16, (4 << 20) // self.size)

    def mask(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s legal actions now as an int8 mask of :attr:`size` values (only NOOP
        for a seat that is not to act, none once the game is over): a new array."""
        return self.legal_mask(state, seat)[1].copy()

    def legal(self, state: State, seat: int) -> tuple[int, ...]:
        """``seat``'s legal actions now, as :meth:`mask` counts them (NOOP for a seat not to act)."""
        if seat in state.acting:
            return tuple(state.legal_actions(seat) if self._legal is None else self._legal(state, seat))
        return () if state.over else (self.noop,)

    def legal_mask(self, state: State, seat: int) -> tuple[memoryview, np.ndarray]:
        """``seat``'s mask now, not to be written nor handed out (hand out a copy), with its
        bytes (``legal[action]``: 1 where legal, a cheap test)."""
        key_of = self._legal_key
        if key_of is not None:
            key = key_of(state, seat)
            if key is not None:
                made = self._keyed.get(key)
                if made is None:
                    if len(self._keyed) >= self._keep:
                        self._keyed.clear()
                    made = self._keyed[key] = self.mask_bytes(self.legal(state, seat))
                return made
        write = self._write_legal
        if write is None or seat not in state.acting:
            return self.mask_bytes(self.legal(state, seat))
        mask = np.zeros(self.size, MASK)
        out = mask.data.cast("B")
        write(state, seat, out)
        return out, mask

    def mask_bytes(self, legal: tuple[int, ...]) -> tuple[memoryview, np.ndarray]:
        """The mask of ``legal`` and its bytes, kept: as :meth:`legal_mask`."""
        made = self._made.get(legal)
        if made is None:
            if len(self._made) >= self._keep:
                self._made.clear()
            mask = np.zeros(self.size, MASK)
            mask[list(legal)] = 1
            made = self._made[legal] = (mask.data.cast("B"), mask)
        return made

    def name(self, action: int) -> str:
        """The action in words: its move's notation, or ``NOOP``."""
        return "NOOP" if action == self.noop else str(self.moves[action])

    def as_int(self, action: Any, seat: int) -> int:
        """``action`` as a Python int (numpy integers accepted); IllegalActionError naming
        the seat for anything that is not an action of this space."""
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            value = int(action)
            if 0 <= value < self.size:
                return value
        raise IllegalActionError(
            f"seat {seat}: {quoted(action)} is not an action of {self.game!r} "
            f"(actions are integers 0-{self.size - 1}, {self.noop} is NOOP)"
        )

    def refusal(self, state: State, seat: int, action: int, mask: np.ndarray) -> IllegalActionError:
        """The error for ``seat``'s illegal ``action`` (legal per ``mask``: none)."""
        legal = np.flatnonzero(mask)
        shown = ", ".join(f"{a} ({self.name(int(a))})" for a in legal[:8])
        more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
        why = "it is not to act (only NOOP is)" if seat not in state.acting else "its mask forbids it"
        return IllegalActionError(
            f"seat {seat} may not play action {action} ({self.name(action)}): {why}; "
            f"legal now: {shown or 'none'}{more}"
        )

    def random_legal(self, mask: np.ndarray, rng: random.Random) -> int:
        """A legal action of ``mask``, uniformly."""
        legal = np.flatnonzero(mask)
        return int(legal[int(rng.random() * len(legal))])


class FactoredActions:
    """A game's flat actions as a sequence of Discrete heads, one per step of its moves.

    ``heads[k]`` lists every token a move can have at step ``k`` (first seen first, in codec
    order); a move of fewer steps ends early.  :meth:`mask` gives the legal tokens of head
    ``len(prefix)`` after a prefix of token indices, :meth:`action` the flat action that a
    complete prefix makes (None while incomplete), :meth:`tokens` the reverse."""

    def __init__(self, game: Game, legal: Callable[[State, int], Sequence[int]] | None = None) -> None:
        self.game = game
        #: ``legal(state, seat)``: the seat's legal actions (a seat to act), as
        #: :meth:`State.legal_actions`; a game's encoder may offer a cheaper one (``legal_actions``).
        self._legal = legal
        steps = [move.steps() for move in game.codec.moves]
        starts = {p[:k] for p in steps for k in range(1, len(p))}
        #: Moves that are also the start of a longer move (Mauw: ``B5`` and ``B5 0A``): they
        #: end with the token END, so that a prefix is a whole move or not, never both.
        self._ending = frozenset(p for p in steps if p in starts)
        paths = [(*p, END) if p in self._ending else p for p in steps]
        depth = max((len(p) for p in paths), default=1)
        index: list[dict[str, int]] = [{} for _ in range(depth)]
        for path in paths:
            for k, token in enumerate(path):
                index[k].setdefault(token, len(index[k]))
        self._index = index
        self.heads: tuple[tuple[str, ...], ...] = tuple(tuple(ix) for ix in index)
        self._paths = [tuple(index[k][t] for k, t in enumerate(p)) for p in paths]
        #: The flat actions of each path: one, but where moves differ only by the phase they
        #: are played in (Mauw's Joker as an answer to defend or to renew), several.
        self._action: dict[tuple[int, ...], tuple[int, ...]] = {}
        for a, p in enumerate(self._paths):
            self._action[p] = (*self._action.get(p, ()), a)

    @property
    def sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.heads)

    def spaces(self) -> list[Any]:
        """A :class:`gymnasium.spaces.Discrete` per head."""
        from gymnasium import spaces

        return [spaces.Discrete(n) for n in self.sizes]

    def _words(self, prefix: Sequence[int]) -> tuple[str, ...]:
        if len(prefix) >= len(self.heads):
            raise KitiError(
                f"a prefix of {len(prefix)} tokens is complete: there are {len(self.heads)} heads"
            )
        try:
            return tuple(self.heads[k][int(i)] for k, i in enumerate(prefix))
        except (IndexError, TypeError, ValueError):
            raise KitiError(
                f"{quoted(list(prefix))} is no prefix of token indices of {self.game!r}"
            ) from None

    def mask(self, state: State, seat: int, prefix: Sequence[int] = ()) -> np.ndarray:
        """The legal tokens of head ``len(prefix)`` after ``prefix`` (int8, that head's size)."""
        k = len(prefix)
        words = self._words(prefix)
        mask = np.zeros(len(self.heads[k]), MASK)
        if seat in state.acting:
            ix = self._index[k]
            moves = state.legal_moves(seat)
            mask[[ix[s.token] for s in steps_from_moves(moves, words)]] = 1
            if words in self._ending and any(m.steps() == words for m in moves):
                mask[ix[END]] = 1
        return mask

    def action(
        self, prefix: Sequence[int], state: State | None = None, seat: int | None = None
    ) -> int | None:
        """The flat action of the move whose steps are ``prefix`` (None: not a whole move).
        Where several moves have those steps (they differ by the phase they are played in),
        the one legal for ``seat`` in ``state`` (which must then be given)."""
        found = self._action.get(tuple(int(i) for i in prefix))
        if found is None or len(found) == 1:
            return None if found is None else found[0]
        if state is None or seat is None:
            raise KitiError(
                f"{quoted(list(prefix))} is the steps of several moves of {self.game!r}: "
                "give the state and the seat to tell which is meant"
            )
        legal = set(state.legal_actions(seat)) if seat in state.acting else set()
        return next((a for a in found if a in legal), found[0])

    def tokens(self, action: int) -> tuple[int, ...]:
        """The token indices of flat ``action``, head by head."""
        return self._paths[action]

    def describe(self) -> str:
        """Each head's size and first tokens, one line per head."""
        lines = []
        for k, head in enumerate(self.heads):
            first = ", ".join(head[:4]) + (", ..." if len(head) > 4 else "")
            lines.append(f"head {k}: {len(head)} tokens ({first})")
        return "\n".join(lines)
