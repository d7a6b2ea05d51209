"""Tensors of a seat's sight, for reinforcement learning: the contract a game's ``tensors``
part implements (no game here; :func:`kiti.rl.tensors.encoder_for` finds a game's encoder).

A game declares a ``tensors`` part (:class:`kiti.core.registry.GameParts`): a subclass of
:class:`Encoder`, built for one :class:`kiti.Game` (its rules, seat count and options).  It
gives, for a seat:

- an **observation**: the table now, as that seat sees it;
- an **information state**: the observation followed by what the seat has seen happen (the
  public history and its own private events), bounded by the game's length.

Both are flat float32 vectors of a fixed size for the game (seat count and options
included), laid out in named :class:`Segment`\\ s (a :class:`Layout`, which
:meth:`Layout.describe` prints as a table), ego-centric: wherever a segment has one row per
seat, the viewer comes first, then the others in turn order (``(seat + k) % players``).

An encoder reads the game's state, but only what the seat's view holds: its own hand, the
public table, and the events the seat saw (read through the same audience test as
:func:`kiti.core.events.visible`).  The conformance suite checks that every resample of a
state for the seat gives the identical tensors (:mod:`kiti.testing.tensors`).

**The information state is incremental.**  :meth:`Encoder.info_state_tracker` returns an
:class:`InfoStateTracker` for one seat; each call reads only the log entries added since
its previous call, so a whole game costs O(length).  A log only grows while a game is
played, and copies of a state share its entries, so the tracker continues from where it
stopped whenever the state's log still holds, at that place, the very entry it read last
(the same game moved on, or a clone of it moved on).  Otherwise (another game, an undo, which
rebuilds the log, or a state whose log is shorter) it starts again from the first event:
correct in every case, O(length) for that call.

Only this module, :mod:`kiti.rl` and the games' ``tensors`` modules import numpy (the ``[rl]``
extra); nothing else in the core imports this module.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import KitiError, quoted
from .events import Entry
from .game import State
from .load import Game

FLOAT = np.float32
Bound = float | Sequence[float]


@dataclass(frozen=True)
class Segment:
    """A named slice of a tensor: ``size`` floats from ``offset``, read as ``shape``.

    ``low`` and ``high`` bound every value: one number for the whole segment, or one per
    value (a flat sequence of ``size`` numbers)."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str
    low: Bound = 0.0
    high: Bound = 1.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    @property
    def stop(self) -> int:
        return self.offset + self.size

    def bounds(self) -> str:
        """The bounds in words: ``0..1``, or ``0..2 (per value)`` where they vary."""
        lo, hi = (
            np.broadcast_to(np.asarray(self.low, FLOAT), (self.size,)),
            np.broadcast_to(np.asarray(self.high, FLOAT), (self.size,)),
        )
        if self.size and (lo.min() != lo.max() or hi.min() != hi.max()):
            return f"{_num(lo.min())}..{_num(hi.max())} (per value)"
        return f"{_num(lo[0])}..{_num(hi[0])}" if self.size else "-"


def _num(x: Any) -> str:
    f = float(x)
    return str(int(f)) if f.is_integer() else f"{f:g}"


#: A segment as written by a game before offsets are known: (name, shape, meaning, low, high).
Spec = tuple[str, "int | tuple[int, ...]", str, Bound, Bound]


class Layout:
    """Named segments laid end to end: the documented shape of a tensor.

    Build it from segments (:class:`Segment`, offsets given: they must tile ``0..size``
    in order) or, more simply, with :meth:`of` from specs laid one after the other."""

    def __init__(self, segments: Iterable[Segment]) -> None:
        self.segments: tuple[Segment, ...] = tuple(segments)
        self._by_name = {s.name: s for s in self.segments}
        if len(self._by_name) != len(self.segments):
            raise ValueError("two segments of a layout have the same name")
        at = 0
        for s in self.segments:
            if s.offset != at:
                raise ValueError(
                    f"segment {s.name!r} starts at {s.offset}, not {at} (segments tile the tensor)"
                )
            at = s.stop
        self.size = at
        self.shape = (at,)
        self.low = np.concatenate([_spread(s.low, s) for s in self.segments] or [np.zeros(0, FLOAT)])
        self.high = np.concatenate([_spread(s.high, s) for s in self.segments] or [np.zeros(0, FLOAT)])
        if np.any(self.low > self.high):
            bad = next(s.name for s in self.segments if np.any(_spread(s.low, s) > _spread(s.high, s)))
            raise ValueError(f"segment {bad!r} has a low bound above its high bound")
        self.low.flags.writeable = False
        self.high.flags.writeable = False

    @classmethod
    def of(cls, specs: Iterable[Spec]) -> Layout:
        """Segments from ``(name, shape, meaning, low, high)`` specs, one after the other."""
        segments = []
        at = 0
        for name, shape, meaning, low, high in specs:
            seg = Segment(name, at, (shape,) if isinstance(shape, int) else tuple(shape), meaning, low, high)
            segments.append(seg)
            at = seg.stop
        return cls(segments)

    def then(self, other: Layout) -> Layout:
        """This layout followed by ``other`` (its segments moved after this one's)."""
        moved = [
            Segment(s.name, s.offset + self.size, s.shape, s.meaning, s.low, s.high) for s in other.segments
        ]
        return Layout([*self.segments, *moved])

    def __getitem__(self, name: str) -> Segment:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no segment {name!r} (segments: {', '.join(self._by_name)})") from None

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __iter__(self) -> Iterator[Segment]:
        return iter(self.segments)

    def __len__(self) -> int:
        return len(self.segments)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.segments]

    def zeros(self) -> np.ndarray:
        """A fresh buffer of this layout, all zeros."""
        return np.zeros(self.size, FLOAT)

    def view(self, buffer: np.ndarray, name: str) -> np.ndarray:
        """The segment ``name`` of ``buffer`` (a flat tensor of this layout), in its shape:
        a view, so writing it writes the buffer."""
        s = self[name]
        return buffer[s.offset : s.stop].reshape(s.shape)

    def out_of_bounds(self, tensor: np.ndarray) -> list[str]:
        """The segments of ``tensor`` holding a value outside their bounds (or NaN)."""
        bad = ~((tensor >= self.low) & (tensor <= self.high))
        return [s.name for s in self.segments if bad[s.offset : s.stop].any()]

    def describe(self) -> str:
        """The layout as a table: offset, shape, bounds, name and meaning of each segment."""
        rows = [("offset", "shape", "bounds", "segment", "meaning")]
        for s in self.segments:
            shape = "×".join(map(str, s.shape)) or "1"
            rows.append((str(s.offset), shape, s.bounds(), s.name, s.meaning))
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r[:4], widths)) + "  " + r[4] for r in rows]
        lines.insert(1, "  ".join("-" * w for w in widths) + "  " + "-" * 7)
        lines.append(f"total: {self.size} float32")
        return "\n".join(line.rstrip() for line in lines)

    def __repr__(self) -> str:
        return f"<Layout {self.size} floats: {', '.join(self.names)}>"


def _spread(bound: Bound, s: Segment) -> np.ndarray:
    arr = np.asarray(bound, FLOAT)
    if arr.ndim == 0:
        return np.full(s.size, arr, FLOAT)
    if arr.shape != (s.size,):
        raise ValueError(f"segment {s.name!r}: {arr.size} bounds for {s.size} values")
    return arr.copy()


class Encoder(ABC):
    """The tensors of one game (rules, seat count, options) for any seat: a game's
    ``tensors`` part subclasses it.

    A subclass sets, in ``__init__`` (after calling this one's):

    - ``self.observation_layout``: the :class:`Layout` of :meth:`observation`;
    - ``self.history_layout``: the :class:`Layout` of what the information state adds
      after the observation (empty by default);

    and implements :meth:`_observe` (the observation into a zeroed buffer) and, if the
    history is not empty, :meth:`_read_events` (new events into the history buffer).

    A game may also share work between the seats of one state: :meth:`shared` works it out
    once, :meth:`_observe_shared` writes a seat's observation from it (the envs pass it to
    :meth:`observation` while the state does not change).  A game whose ``_observe`` writes
    every value of the buffer sets :attr:`writes_all`, and the buffer is not zeroed first.
    """

    #: True where ``_observe`` writes every value of its buffer (so it is not zeroed first).
    writes_all = False

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.rules = game.rules
        self.options = dict(game.options)
        self.observation_layout = Layout([])
        self.history_layout = Layout([])

    # ------------------------------------------------------------ what a game writes
    @abstractmethod
    def _observe(self, state: Any, seat: int, out: np.ndarray) -> None:
        """Write the observation of ``seat`` into ``out`` (zeroed, float32, the layout's size)."""

    def shared(self, state: Any) -> Any:
        """What the observations of ``state`` share between seats, worked out once (None by
        default: nothing).  It holds every seat's secrets: it never leaves the encoder but
        through :meth:`observation`, and only for the state it was made from, unchanged."""
        return None

    def _observe_shared(self, state: Any, seat: int, shared: Any, out: np.ndarray) -> None:
        """Write the observation of ``seat`` into ``out`` from ``shared`` (:meth:`shared` of
        this very state); by default :meth:`_observe`, which needs nothing shared."""
        self._observe(state, seat, out)

    @abstractmethod
    def _read_events(
        self, seat: int, entries: list[Entry], history: np.ndarray, memory: dict[str, Any]
    ) -> None:
        """Add the log ``entries`` that ``seat`` saw (oldest first, each seen by it) to
        ``history`` (the history part of its information state, kept between calls);
        ``memory`` is the tracker's own scratch space, empty at the start of a game."""

    # ------------------------------------------------------------ the API
    @functools.cached_property
    def info_state_layout(self) -> Layout:
        """The observation's segments, then the history's."""
        return self.observation_layout.then(self.history_layout)

    def check_state(self, state: State, seat: int) -> None:
        """A clear error if ``state`` is not a game of this encoder, or ``seat`` no seat of it."""
        if type(state) is not self.rules or state.players != self.players or state.options != self.options:
            raise KitiError(f"this encoder is for {self.game!r}, not for {state!r} (options {state.options})")
        self.check_seat(seat)

    def check_seat(self, seat: int) -> None:
        """A clear error if ``seat`` is no seat of this game."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise KitiError(
                f"there is no seat {quoted(seat)} in {self.game!r} (seats are 0-{self.players - 1})"
            )

    def new_buffer(self, layout: Layout, out: np.ndarray | None, zero: bool = True) -> np.ndarray:
        """``out`` checked against ``layout`` (a fresh buffer if None), zeroed unless ``zero``
        is False (then a fresh buffer holds anything)."""
        if out is None:
            return np.zeros(layout.size, FLOAT) if zero else np.empty(layout.size, FLOAT)
        if out.shape != layout.shape or out.dtype != FLOAT:
            raise ValueError(
                f"the buffer must be float32 of shape {layout.shape}, not {out.dtype} {out.shape}"
            )
        if zero:
            out.fill(0.0)
        return out

    def observation(
        self, state: State, seat: int, out: np.ndarray | None = None, shared: Any = None
    ) -> np.ndarray:
        """The table now as ``seat`` sees it, written into ``out`` (float32, the observation
        layout's shape; None: a new array), which is returned.  ``shared``: :meth:`shared`
        of this very state, unchanged since (a caller asking several seats saves work)."""
        if (
            type(state) is not self.rules
            or state.players != self.players
            or state.options != self.options
            or type(seat) is not int
            or not 0 <= seat < self.players
        ):
            self.check_state(state, seat)
        return self._write(
            state, seat, self.new_buffer(self.observation_layout, out, not self.writes_all), shared
        )

    def _write(self, state: State, seat: int, out: np.ndarray, shared: Any = None) -> np.ndarray:
        """:meth:`observation` into ``out`` (zeroed unless :attr:`writes_all`) without its
        checks: for a caller whose states are this encoder's game and seats its seats."""
        if shared is None:
            self._observe(state, seat, out)
        else:
            self._observe_shared(state, seat, shared, out)
        return out

    def _new(self, state: Any, seat: int, shared: Any = None) -> np.ndarray:
        """:meth:`observation` into a new array, without its checks (as :meth:`_write`); a
        game may write it a cheaper way, the same values."""
        size = self.observation_layout.size
        out = np.empty(size, FLOAT) if self.writes_all else np.zeros(size, FLOAT)
        return self._write(state, seat, out, shared)

    def info_state_tracker(self, seat: int) -> InfoStateTracker:
        """A tracker of ``seat``'s information state along a game (see :class:`InfoStateTracker`)."""
        self.check_seat(seat)
        return InfoStateTracker(self, seat)

    def info_state(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``seat``'s information state from scratch (O(length)): a fresh tracker's answer."""
        return self.info_state_tracker(seat)(state, out)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} for {self.game!r}>"


class InfoStateTracker:
    """One seat's information state along a game, read incrementally from the state's log.

    ``tracker(state, out=None)`` returns the information state tensor (the observation,
    then the history) written into ``out``.  Each call reads only the entries logged since
    the previous call, when ``state``'s log continues the one read before (same game moved
    on, or a clone of it); otherwise (an undo, another game, a shorter log) it rebuilds the
    history from the first entry.  Either way the answer equals a fresh tracker's."""

    __slots__ = ("_bit", "_hist", "_last", "_memory", "_obs_size", "_pos", "encoder", "rebuilds", "seat")

    def __init__(self, encoder: Encoder, seat: int) -> None:
        self.encoder = encoder
        self.seat = seat
        self._bit = 1 << seat  # the audience bit the seat reads events with (kiti.core.events)
        self._obs_size = encoder.observation_layout.size
        self._hist = encoder.history_layout.zeros()
        self._memory: dict[str, Any] = {}
        self._pos = 0
        self._last: Entry | None = None
        #: How many times the tracker started again from the first event (after the first).
        self.rebuilds = 0

    def reset(self) -> None:
        """Forget everything read: the next call reads the state's log from the start."""
        self._hist.fill(0.0)
        self._memory.clear()
        self._pos = 0
        self._last = None

    def __call__(self, state: State, out: np.ndarray | None = None) -> np.ndarray:
        enc = self.encoder
        if type(state) is not enc.rules or state.players != enc.players or state.options != enc.options:
            enc.check_state(state, self.seat)
        log = state.log
        pos = self._pos
        if pos and (len(log) < pos or log[pos - 1] is not self._last):
            self.reset()
            self.rebuilds += 1
            pos = 0
        end = len(log)
        if end > pos:
            bit = self._bit
            new = [e for e in log[pos:end] if e[0] & bit]
            if new:
                enc._read_events(self.seat, new, self._hist, self._memory)
            self._pos = end
            self._last = log[end - 1]
        out = enc.new_buffer(enc.info_state_layout, out, zero=False)
        obs = out[: self._obs_size]
        if not enc.writes_all:
            obs.fill(0.0)  # the history part is copied over whole: only the observation is zeroed
        enc._observe(state, self.seat, obs)
        out[self._obs_size :] = self._hist
        return out
