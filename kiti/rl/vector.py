"""Many games at once, as batches of numpy arrays: :func:`make` and the :class:`VectorEnv` API.

``make("miaui", 64, players=4, seed=7, workers=2)`` runs 64 games of Miaui in two worker
processes (``workers=0``: in this process) and hands them to a learner as arrays, one row per
env, in the layout of pgx's batched ``State``:

================  ==========================  ===============================================
array             shape, dtype                what it holds
================  ==========================  ===============================================
``obs``           [num_envs, obs_size] f32    the current player's tensor (observation or
                                              information state, :mod:`kiti.rl.tensors`)
``mask``          [num_envs, num_actions] i8  its legal actions: the flat actions of
                                              :class:`kiti.rl.spaces.Actions` (codec, then
                                              NOOP, which is never legal here)
``player``        [num_envs] int32            the seat asked (whose tensor and mask these are)
``rewards``       [num_envs, players] f32     ``State.returns()`` on the step a game ended,
                                              0 on every other step
``terminated``    [num_envs] bool             the step ended the game
``truncated``     [num_envs] bool             the engine stopped it at its move limit
================  ==========================  ===============================================

**Turns.**  One seat per env is asked per step, in the engine's turn order
(:func:`kiti.core.turns.turns`).  A simultaneous secret choice (Miaui's dives) asks its seats
lowest first, over several steps, and holds each action; the choice is applied, in seat order,
on the step its last seat chooses.  Until then every seat of it observes the table as it was
when the choice began, so no seat sees another's choice.  With ``opponents`` (a bot spec for
every seat but ``seat``), the bots play their turns inside the step and only ``seat`` is asked;
in a choice it shares with bots, they choose first from the table before anyone's choice.

**Auto-reset** (pgx's ``auto_reset``).  On the step a game ends, its row of ``rewards`` and its
flags say so, while ``obs``, ``mask`` and ``player`` already show env ``i``'s next game.  Game
``k`` (0, 1, ...) of env ``i`` uses the seed ``episode_seed(seed, i, k)`` (``env.seeds`` holds
each env's current one, so any game can be replayed with ``kiti.load(...).new_state(s)``);
bots are seeded from it as :mod:`kiti.rl.gym` seeds them.  Nothing depends on how envs are
spread over workers: the same seed and actions give identical batches for any ``workers``.

**Actions** are checked in the caller before anything moves: an action its row's mask forbids
raises :class:`~kiti.rl.spaces.IllegalActionError` naming the env, and nothing changes.  An
error inside a game or a bot raises :class:`VectorEnvError` naming the env (its ``env``
attribute; the worker's traceback is added as a note); the batch is then inconsistent and
``reset()`` must come before the next ``step()``.

Workers are started with ``multiprocessing``'s ``spawn`` context (``start_method=`` takes
``forkserver``), share one block of memory holding every array (the caller writes actions in,
each worker writes its rows), and are told what to do through pipes.  ``close()`` (or leaving a
``with`` block, or the env being garbage collected) stops them all.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import random
import signal
import traceback
import weakref
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import KitiError, quoted
from ..core.game import MAX_SEED, State
from ..core.load import Game, load
from ..core.tensors import FLOAT, Encoder, Layout
from . import load_game, play_bots_until
from .spaces import MASK, Actions, IllegalActionError
from .tensors import encoder_for

OBSERVATIONS = ("tensor", "info_state")
BACKENDS = ("engine", "batch")
START_METHODS = ("spawn", "forkserver")
PLAYER = np.int32

Batch = tuple[np.ndarray, ...]


class VectorEnvError(KitiError, RuntimeError):
    """An error inside one env of a vector env (a game or a bot failed), or a worker lost."""

    def __init__(self, message: str, env: int | None = None) -> None:
        super().__init__(message)
        self.env = env


def episode_seed(seed: int, env: int, episode: int) -> int:
    """The seed of game ``episode`` (0, 1, ...) of env ``env`` in a run seeded ``seed``: drawn by
    numpy's ``SeedSequence(seed, spawn_key=(env, episode))``, so envs and games are independent
    streams, and the same whatever the number of workers."""
    sequence = np.random.SeedSequence(seed, spawn_key=(env, episode))
    return int(sequence.generate_state(1, np.uint64)[0] >> np.uint64(1))


class VectorEnv(ABC):
    """The API of a batch of games (see the module's docs): what a learner codes against.

    An implementation sets ``num_envs``, ``players``, ``num_actions`` (NOOP included),
    ``noop``, ``observation_layout`` (a :class:`~kiti.core.tensors.Layout`), ``seed`` (the run's,
    once reset) and ``seeds`` (each env's current game seed), and implements the three methods.
    The engine's worker processes are one implementation (:class:`KitiVectorEnv`); a batch
    simulator can be another."""

    num_envs: int
    players: int
    num_actions: int
    noop: int
    workers: int  # processes running the envs (0: in this process)
    actions: Actions
    observation_layout: Layout
    seed: int | None = None
    _next_seed: int | None = None

    @property
    def observation_size(self) -> int:
        return self.observation_layout.size

    @property
    @abstractmethod
    def seeds(self) -> np.ndarray:
        """Each env's current game seed (int64, [num_envs])."""

    @abstractmethod
    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start a new game in every env (game 0 of each, seeded from ``seed``): ``(obs,
        mask, player)``.  Without ``seed``: the seed given to :func:`make` the first time,
        then one drawn from the previous run's seed (so a run is replayable from its first
        seed), or from the system's entropy if none was ever given."""

    @abstractmethod
    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        """Play ``actions`` ([num_envs] integers, one per env for its ``player``):
        ``(obs, mask, player, rewards, terminated, truncated)``, games that ended restarted."""

    @abstractmethod
    def close(self) -> None:
        """Release what the env holds (worker processes); safe to call twice."""

    def _run_seed(self, seed: Any) -> int:
        """The seed of a reset (see :meth:`reset`), and the next one drawn from it."""
        if seed is not None:
            seed = _check_seed(seed)
        elif self._next_seed is not None:
            seed = self._next_seed
        else:
            seed = random.SystemRandom().randrange(MAX_SEED)
        self._next_seed = random.Random(seed).randrange(MAX_SEED)
        return int(seed)

    def _checked(self, actions: Any, mask: np.ndarray, player: np.ndarray) -> np.ndarray:
        """``actions`` as [num_envs] integers, each legal in its env's ``mask`` row; else an
        IllegalActionError naming the first bad env (nothing is played)."""
        n = self.num_envs
        values = np.asarray(actions)
        if values.shape != (n,) or values.dtype.kind not in "iu":
            raise IllegalActionError(
                f"actions must be {n} integers (one per env), not {values.dtype} of shape {values.shape}"
            )
        inside = (values >= 0) & (values < self.num_actions)
        legal = inside.copy()
        legal[inside] = mask[np.flatnonzero(inside), values[inside]] != 0
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise self._refusal(i, int(values[i]), mask[i], int(player[i]))
        return values

    def _refusal(self, i: int, action: int, mask: np.ndarray, seat: int) -> IllegalActionError:
        name = self.actions.name
        legal = np.flatnonzero(mask)
        shown = ", ".join(f"{x} ({name(int(x))})" for x in legal[:8])
        more = f" and {len(legal) - 8} more" if len(legal) > 8 else ""
        what = (
            f"action {action} ({name(action)})"
            if 0 <= action < self.num_actions
            else f"{action}, which is no action (0-{self.num_actions - 1})"
        )
        return IllegalActionError(
            f"env {i}: seat {seat} may not play {what}; legal now: {shown}{more}; nothing was played"
        )

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ---------------------------------------------------------------- what a worker needs


@dataclass(frozen=True)
class _Spec:
    """Everything a worker needs to rebuild the games (picklable: no Game, no State)."""

    game_id: str
    players: int
    options: dict[str, Any]
    observation: str
    opponents: dict[int, str] | None
    seat: int
    num_envs: int

    def game(self) -> Game:
        return load(self.game_id, players=self.players, **self.options)


def _fields(spec: _Spec, obs_size: int, num_actions: int) -> list[tuple[str, Any, tuple[int, ...]]]:
    n = spec.num_envs
    return [
        ("obs", FLOAT, (n, obs_size)),
        ("mask", MASK, (n, num_actions)),
        ("player", PLAYER, (n,)),
        ("rewards", FLOAT, (n, spec.players)),
        ("terminated", np.bool_, (n,)),
        ("truncated", np.bool_, (n,)),
        ("actions", np.int64, (n,)),
        ("seeds", np.int64, (n,)),
    ]


def _nbytes(fields: list[tuple[str, Any, tuple[int, ...]]]) -> int:
    return sum(_aligned(int(np.prod(shape)) * np.dtype(dtype).itemsize) for _, dtype, shape in fields)


def _aligned(n: int) -> int:
    return (n + 63) // 64 * 64


@dataclass
class _Arrays:
    """The batch arrays, views of one block of (shared) memory."""

    obs: np.ndarray
    mask: np.ndarray
    player: np.ndarray
    rewards: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    actions: np.ndarray
    seeds: np.ndarray

    @classmethod
    def over(cls, buffer: Any, fields: list[tuple[str, Any, tuple[int, ...]]]) -> _Arrays:
        raw = np.frombuffer(buffer, np.uint8)
        views: dict[str, np.ndarray] = {}
        at = 0
        for name, dtype, shape in fields:
            size = int(np.prod(shape)) * np.dtype(dtype).itemsize
            views[name] = raw[at : at + size].view(dtype).reshape(shape)
            at += _aligned(size)
        return cls(**views)


@dataclass
class _Slot:
    """One env: its game, the game's number and seed, a choice in progress, trackers, bots."""

    state: State
    episode: int = -1
    queue: list[int] = field(default_factory=list)  # seats of a choice still to be asked
    held: list[tuple[int, int]] = field(default_factory=list)  # its actions so far
    bot_moves: dict[int, Any] = field(default_factory=dict)  # bots' part of the seat's choice
    trackers: dict[int, Any] = field(default_factory=dict)
    bots: dict[int, Any] = field(default_factory=dict)


class _EnvFailure(Exception):
    """An exception raised in env ``env``: what a worker reports (as :meth:`report`)."""

    def __init__(self, env: int, exc: BaseException) -> None:
        super().__init__(f"{type(exc).__name__}: {exc}")
        self.env = env
        self.trace = "".join(traceback.format_exception(exc))

    def report(self) -> tuple[int, str, str]:
        return self.env, str(self), self.trace


class _Envs:
    """Envs ``lo .. hi-1`` of a batch, writing their rows of the arrays (in a worker or here)."""

    def __init__(self, spec: _Spec, lo: int, hi: int, arrays: _Arrays) -> None:
        from ..bots.registry import make_bot
        from ..core.seatview import seat_view

        self.spec = spec
        self.game = spec.game()
        self.encoder: Encoder = encoder_for(self.game)
        self.moves = self.game.codec.moves
        self.lo, self.hi = lo, hi
        self.a = arrays
        self.seed = 0
        self._make_bot = make_bot
        self._seat_view = seat_view
        self.slots = [_Slot(self.game.new_state(0)) for _ in range(lo, hi)]

    def reset(self, seed: int) -> None:
        self.seed = seed
        for i, slot in enumerate(self.slots, self.lo):
            slot.episode = -1
            self._guard(i, self._begin, i, slot)

    def step(self) -> None:
        a = self.a
        for i, slot in enumerate(self.slots, self.lo):
            self._guard(i, self._step, i, slot, int(a.actions[i]))

    def _guard(self, i: int, call: Any, *args: Any) -> None:
        try:
            call(*args)
        except Exception as exc:
            raise _EnvFailure(i, exc) from exc

    def _step(self, i: int, slot: _Slot, action: int) -> None:
        a = self.a
        seat = int(a.player[i])
        if self.spec.opponents is None:
            self._play(slot, seat, action)
        else:
            self._play_with_bots(slot, seat, action)
        state = slot.state
        if state.over:
            a.rewards[i] = state.returns()
            a.truncated[i] = state.truncated
            a.terminated[i] = not state.truncated
            self._begin(i, slot)
            return
        a.rewards[i] = 0.0
        a.terminated[i] = a.truncated[i] = False
        self._observe(i, slot)

    def _play(self, slot: _Slot, seat: int, action: int) -> None:
        state = slot.state
        if not slot.queue:
            state.step(seat, action)
            return
        slot.queue.pop(0)
        slot.held.append((seat, action))
        if not slot.queue:  # the whole choice, in seat order (as apply_all)
            for s, x in slot.held:
                state.step(s, x)
            slot.held = []

    def _play_with_bots(self, slot: _Slot, seat: int, action: int) -> None:
        if slot.bot_moves:
            moves = dict(slot.bot_moves)
            moves[seat] = self.moves[action]
            slot.bot_moves = {}
            slot.state.apply_all(moves)
        else:
            slot.state.step(seat, action)
        self._play_bots(slot)

    def _play_bots(self, slot: _Slot) -> None:
        """Bots play until ``seat`` must act (holding their part of a choice it shares) or the end."""
        state = slot.state
        slot.bot_moves = play_bots_until(
            state, self.spec.seat, lambda s: slot.bots[s].choose(self._seat_view(state, s))
        )

    def _begin(self, i: int, slot: _Slot) -> None:
        """Env ``i``'s next game (one the bots end before the seat is asked is skipped)."""
        while True:
            slot.episode += 1
            game_seed = episode_seed(self.seed, i, slot.episode)
            self.a.seeds[i] = game_seed
            slot.state = self.game.new_state(game_seed)
            slot.queue, slot.held, slot.bot_moves = [], [], {}
            seats = range(self.spec.players) if self.spec.opponents is None else [self.spec.seat]
            if self.spec.observation == "info_state":
                slot.trackers = {s: self.encoder.info_state_tracker(s) for s in seats}
            if self.spec.opponents is None:
                break
            rng = random.Random(game_seed)  # the bots' seeds, as kiti.rl.gym draws them
            rules = self.game.rules
            slot.bots = {
                s: self._make_bot(spec, rules, rng.randrange(MAX_SEED))
                for s, spec in self.spec.opponents.items()
            }
            self._play_bots(slot)
            if not slot.state.over:
                break
        self._observe(i, slot)

    def _observe(self, i: int, slot: _Slot) -> None:
        """Env ``i``'s player, its tensor and mask (the next seat of a choice in progress)."""
        a, state = self.a, slot.state
        if slot.queue:
            seat = slot.queue[0]
        elif self.spec.opponents is not None:
            seat = self.spec.seat
        else:
            acting = state.acting
            if len(acting) == 1:
                (seat,) = acting
            else:
                slot.queue = sorted(acting)
                seat = slot.queue[0]
        a.player[i] = seat
        if self.spec.observation == "tensor":
            self.encoder.observation(state, seat, a.obs[i])
        else:
            slot.trackers[seat](state, a.obs[i])
        mask = a.mask[i]
        mask.fill(0)
        mask[state.legal_actions(seat)] = 1


def _worker(spec: _Spec, lo: int, hi: int, buffer: Any, fields: list[Any], conn: Any) -> None:
    """A worker process: builds envs ``lo .. hi-1`` and answers the caller's commands."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    try:
        envs = _Envs(spec, lo, hi, _Arrays.over(buffer, fields))
    except Exception as exc:
        conn.send(("error", _EnvFailure(lo, exc).report()))
        return
    conn.send(("ok", None))
    while True:
        try:
            command, arg = conn.recv()
        except (EOFError, OSError):
            return
        if command == "close":
            return
        try:
            envs.reset(arg) if command == "reset" else envs.step()
        except _EnvFailure as failure:
            conn.send(("error", failure.report()))
            continue
        conn.send(("ok", None))


# ---------------------------------------------------------------- the caller's side


def _shutdown(processes: list[Any], conns: list[Any]) -> None:
    """Stop every worker: ask, wait a little, then terminate (and kill) the ones left."""
    for conn in conns:
        with contextlib.suppress(OSError, ValueError):
            conn.send(("close", None))
    for proc in processes:
        proc.join(timeout=2)
        if proc.is_alive():
            proc.terminate()
            proc.join(timeout=1)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=1)
    for conn in conns:
        conn.close()


class KitiVectorEnv(VectorEnv):
    """``num_envs`` games of the engine, in worker processes or here: made by :func:`make`."""

    def __init__(self, spec: _Spec, workers: int, start_method: str, copy: bool, seed: int | None) -> None:
        self.spec = spec
        self._next_seed = seed
        game = spec.game()
        self.game = game
        self.num_envs = spec.num_envs
        self.players = spec.players
        self.actions = Actions(game)
        self.num_actions = self.actions.size
        self.noop = self.actions.noop
        encoder = encoder_for(game)
        self.observation_layout = (
            encoder.info_state_layout if spec.observation == "info_state" else encoder.observation_layout
        )
        self.copy = copy
        self.workers = workers
        self._broken: str | None = "call reset() before step()"
        self._closed = False
        fields = _fields(spec, self.observation_layout.size, self.num_actions)
        _check_fits(spec.num_envs, _nbytes(fields))
        self._processes: list[Any] = []
        self._conns: list[Any] = []
        self._ranges: list[tuple[int, int]] = []
        if workers == 0:
            self._a = _Arrays.over(bytearray(_nbytes(fields)), fields)
            self._local: _Envs | None = _Envs(spec, 0, spec.num_envs, self._a)
        else:
            self._local = None
            self._start(fields, workers, start_method)

    def _start(self, fields: list[Any], workers: int, start_method: str) -> None:
        ctx: Any = multiprocessing.get_context(start_method)
        buffer = ctx.RawArray(ctypes.c_uint8, _nbytes(fields))
        self._a = _Arrays.over(buffer, fields)
        bounds = np.linspace(0, self.num_envs, workers + 1).round().astype(int)
        self._finalizer = weakref.finalize(self, _shutdown, self._processes, self._conns)
        for w in range(workers):
            lo, hi = int(bounds[w]), int(bounds[w + 1])
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(
                target=_worker,
                args=(self.spec, lo, hi, buffer, fields, theirs),
                name=f"kiti-vector-{w}",
                daemon=True,
            )
            proc.start()
            theirs.close()
            self._processes.append(proc)
            self._conns.append(mine)
            self._ranges.append((lo, hi))
        self._collect()

    # ------------------------------------------------------------ running the envs
    def _run(self, command: str, arg: Any = None) -> None:
        if self._closed:
            raise KitiError("this vector env is closed")
        if self._local is not None:
            try:
                self._local.reset(arg) if command == "reset" else self._local.step()
            except _EnvFailure as failure:
                self._fail(failure.report(), None, failure.__cause__)
            return
        for w, conn in enumerate(self._conns):
            try:
                conn.send((command, arg))
            except OSError:
                self._lost(w)
        self._collect()

    def _collect(self) -> None:
        """Every worker's answer; the failure of the lowest env, if any, raised."""
        failures: list[tuple[tuple[int, str, str], int]] = []
        lost: list[int] = []
        for w, conn in enumerate(self._conns):
            try:
                status, failure = conn.recv()
            except (EOFError, OSError):
                lost.append(w)
                continue
            if status == "error":
                failures.append((failure, w))
        if failures:
            failure, w = min(failures, key=lambda f: f[0][0])
            self._fail(failure, w, None)
        if lost:
            self._lost(lost[0])

    def _fail(self, report: tuple[int, str, str], worker: int | None, cause: BaseException | None) -> None:
        env, text, trace = report
        where = f" (worker {worker})" if worker is not None else ""
        self._broken = f"env {env} failed: call reset() before step()"
        error = VectorEnvError(f"env {env}{where} failed: {text}", env)
        if worker is not None:
            error.add_note(f"traceback in worker {worker}:\n{trace}")
        raise error from cause

    def _lost(self, w: int) -> None:
        proc = self._processes[w]
        proc.join(timeout=1)
        lo, hi = self._ranges[w]
        self.close()
        raise VectorEnvError(
            f"worker {w} (envs {lo}-{hi - 1}) stopped (exit code {proc.exitcode}); the env is closed", lo
        )

    # ------------------------------------------------------------ the API
    @property
    def seeds(self) -> np.ndarray:
        return self._a.seeds.copy()

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.seed = self._run_seed(seed)
        self._broken = "a reset failed: call reset() again"
        self._run("reset", self.seed)
        a = self._a
        a.rewards.fill(0.0)
        a.terminated.fill(False)
        a.truncated.fill(False)
        self._broken = None
        obs, mask, player = self._out(a.obs, a.mask, a.player)
        return obs, mask, player

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        if self._broken is not None:
            raise KitiError(self._broken)
        self._check(actions)
        self._run("step")
        a = self._a
        return self._out(a.obs, a.mask, a.player, a.rewards, a.terminated, a.truncated)

    def _out(self, *arrays: np.ndarray) -> Batch:
        return tuple(x.copy() for x in arrays) if self.copy else arrays

    def _check(self, actions: Any) -> None:
        """``actions`` into the shared array, or a clear error naming the first bad env."""
        self._a.actions[:] = self._checked(actions, self._a.mask, self._a.player)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._broken = "this vector env is closed"
        if self._processes:
            self._finalizer()

    def __repr__(self) -> str:
        where = "in this process" if self.workers == 0 else f"{self.workers} workers"
        return f"<KitiVectorEnv {self.game!r} ×{self.num_envs}, {self.spec.observation}, {where}>"


def _opponents(opponents: Any, seat: Any, players: int, game: Game) -> dict[int, str] | None:
    if opponents is None:
        return None
    from ..bots.registry import make_bot

    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise KitiError(
            f"seat must be a seat of this {players}-player game (0-{players - 1}), not {quoted(seat)}"
        )
    others = [s for s in range(players) if s != seat]
    if isinstance(opponents, str):
        specs = dict.fromkeys(others, opponents)
    elif isinstance(opponents, (list, tuple)) and all(isinstance(s, str) for s in opponents):
        if len(opponents) != len(others):
            raise KitiError(f"opponents lists {len(opponents)} bots for the {len(others)} other seats")
        specs = dict(zip(others, opponents))
    else:
        raise KitiError(f"opponents must be None, a bot spec or a list of them, not {quoted(opponents)}")
    for spec in specs.values():
        make_bot(spec, game.rules, 0)  # a bad spec fails here, naming what is wrong
    return specs


def _check_fits(num_envs: int, nbytes: int) -> None:
    """Refuse ``num_envs`` whose shared arrays alone would not fit in this machine's memory
    (rather than a MemoryError or an OSError from the allocator, or a machine swapping)."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf: let the allocator say
        return
    if nbytes > total:
        raise KitiError(
            f"num_envs={num_envs:,}: their arrays alone would take {nbytes / 2**30:,.1f} GiB, "
            f"more than this machine's {total / 2**30:,.1f} GiB of memory"
        )


def _count(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise KitiError(f"{name} must be an integer of at least {low}, not {quoted(value)}")
    return int(value)


def make(
    game: str | Game,
    num_envs: int,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    observation: str = "tensor",
    seed: int | None = None,
    workers: int | None = None,
    opponents: str | list[str] | None = None,
    seat: int = 0,
    start_method: str = "spawn",
    copy: bool = True,
    backend: str = "engine",
) -> VectorEnv:
    """``num_envs`` games of ``game`` (an id, or a loaded :class:`kiti.Game` without
    ``players`` and ``options``) as a :class:`VectorEnv`; its first ``reset()`` without a seed
    uses ``seed`` (None: one from the system's entropy; ``env.seed`` says which).

    ``observation``: "tensor" or "info_state".  ``workers``: processes to run the envs
    (None: one per CPU, at most ``num_envs``; 0: in this process).  ``opponents``: None (the
    caller plays every seat) or a bot spec for every seat but ``seat`` (or a list, one per
    other seat in seat order).  ``copy=False`` returns the env's own arrays, overwritten by the
    next call, instead of copies.  ``backend``: "engine" (the game's rules, in ``workers``
    processes) or "batch" (:mod:`kiti.rl.batch`: Miaui's batch simulator, every env in one
    NumPy batch in this process; the same arrays for the same seed and actions)."""
    loaded = load_game(game, players, options)
    num_envs = _count("num_envs", num_envs, 1)
    if backend not in BACKENDS:
        raise KitiError(f"backend must be one of {', '.join(BACKENDS)}, not {quoted(backend)}")
    if not isinstance(copy, (bool, np.bool_)):  # "no" is true, and would be taken as copy=True
        raise KitiError(f"copy must be True or False, not {quoted(copy)}")
    if backend == "batch":
        return _batch(loaded, num_envs, observation, seed, workers, opponents, copy)
    if workers is None:
        workers = min(os.cpu_count() or 1, num_envs)
    workers = min(_count("workers", workers, 0), num_envs)
    if observation not in OBSERVATIONS:
        raise KitiError(f"observation must be one of {', '.join(OBSERVATIONS)}, not {quoted(observation)}")
    if start_method not in START_METHODS:
        raise KitiError(f"start_method must be one of {', '.join(START_METHODS)}, not {quoted(start_method)}")
    encoder_for(loaded)  # a game without tensors is refused here
    spec = _Spec(
        loaded.id,
        loaded.players,
        dict(loaded.options),
        observation,
        _opponents(opponents, seat, loaded.players, loaded),
        seat,
        num_envs,
    )
    if seed is not None:
        _check_seed(seed)
    return KitiVectorEnv(spec, workers, start_method, copy, seed)


def _batch(
    game: Game,
    num_envs: int,
    observation: str,
    seed: int | None,
    workers: int | None,
    opponents: Any,
    copy: bool,
) -> VectorEnv:
    """The batch back end, or a clear error naming what it cannot do."""
    from .batch import BATCH_GAMES, BatchVectorEnv

    if game.id not in BATCH_GAMES:
        raise KitiError(
            f"backend 'batch' has no simulator for {game.id} (it plays {', '.join(BATCH_GAMES)}): "
            "use backend='engine'"
        )
    if observation != "tensor":
        raise KitiError(f"backend 'batch' gives the 'tensor' observation only, not {quoted(observation)}")
    if opponents is not None:
        raise KitiError("backend 'batch' plays every seat itself: opponents must be None")
    if workers not in (None, 0):
        raise KitiError(
            f"backend 'batch' runs in this process: workers must be None or 0, not {quoted(workers)}"
        )
    if seed is not None:
        _check_seed(seed)
    _check_fits(num_envs, num_envs * encoder_for(game).observation_layout.size * np.dtype(FLOAT).itemsize)
    return BatchVectorEnv(game, num_envs, seed, copy)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < MAX_SEED:
        raise KitiError(f"seed must be an integer 0 to 2**63-1, not {quoted(seed)}")
    return int(seed)


__all__ = [
    "BACKENDS",
    "OBSERVATIONS",
    "KitiVectorEnv",
    "VectorEnv",
    "VectorEnvError",
    "episode_seed",
    "make",
]
