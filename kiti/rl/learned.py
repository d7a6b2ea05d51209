"""Learned players: a policy-and-value network trained by ``kiti train`` (:mod:`kiti.rl.train`),
played with NumPy only.

A policy is two files: ``NAME.npz`` (the weights) and ``NAME.json`` (what it was trained on:
game, seats, options, the tensor it reads, its shape, and how it was trained).  The games ship
theirs in their package's ``policy`` folder (``kiti/games/<id>/policy/``); ``policy:miaui`` plays
the shipped Miaui policy that fits the table.

The network reads a seat's tensor (:mod:`kiti.rl.tensors`), each segment scaled by its bounds
and, where a segment is large (MOTU's island grids), averaged over its largest axes
(:class:`Features`); two ReLU layers; a value head (the seat's expected share of the victory);
and one head per step of a move (:class:`kiti.rl.spaces.FactoredActions`), each step's logits
read only for the legal tokens, the tokens chosen so far added to the hidden state.

Like every bot it sees only a :class:`~kiti.core.seatview.SeatView`: it encodes a state drawn
among those the seat cannot tell apart (``determinize``), which gives the seat's own tensors
and legal moves exactly.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import KitiError, quoted
from ..core.game import State
from ..core.load import Game, load
from ..core.moves import Move
from ..core.registry import get_game
from ..core.seatview import SeatView
from ..core.tensors import Layout
from .spaces import FactoredActions
from .tensors import encoder_for

#: A segment larger than this many values is averaged over its largest axes down to it.
POOL_CAP = 1200
FLOAT = np.float32


class LearnedPolicyError(KitiError, ValueError):
    """A learned policy that is missing, does not fit the game, or cannot be read."""


@dataclass(frozen=True)
class _Piece:
    offset: int
    shape: tuple[int, ...]
    axes: tuple[int, ...]  # axes averaged away (of the segment's shape)
    scale: np.ndarray  # 1 / max(|low|, |high|) per value, in the segment's shape


def _pool_axes(shape: tuple[int, ...], cap: int) -> tuple[int, ...]:
    """The axes to average away (largest first) until at most ``cap`` values remain."""
    kept = list(range(len(shape)))
    size = int(np.prod(shape)) if shape else 1
    axes: list[int] = []
    while size > cap and kept:
        axis = max(kept, key=lambda a: (shape[a], -a))
        kept.remove(axis)
        axes.append(axis)
        size //= shape[axis]
    return tuple(sorted(axes))


class Features:
    """A layout's tensors as the network's input: every value divided by its bound, large
    segments averaged over their largest axes (see :data:`POOL_CAP`)."""

    def __init__(self, layout: Layout, cap: int = POOL_CAP) -> None:
        bound = np.maximum(np.abs(layout.low), np.abs(layout.high)).astype(FLOAT)
        bound[bound == 0] = 1.0
        self.pieces = [
            _Piece(
                s.offset,
                tuple(s.shape),
                _pool_axes(tuple(s.shape), cap),
                (1.0 / bound[s.offset : s.stop]).reshape(s.shape),
            )
            for s in layout
        ]
        self.size = sum(
            int(np.prod([d for a, d in enumerate(p.shape) if a not in p.axes])) for p in self.pieces
        )

    def __call__(self, tensors: np.ndarray) -> np.ndarray:
        """``tensors`` (batch, layout size) -> (batch, :attr:`size`) float32."""
        batch = tensors.shape[0]
        parts = []
        for p in self.pieces:
            stop = p.offset + p.scale.size
            seg = tensors[:, p.offset : stop].reshape((batch, *p.shape)) * p.scale
            if p.axes:
                seg = seg.mean(axis=tuple(a + 1 for a in p.axes))
            parts.append(seg.reshape(batch, -1))
        return np.concatenate(parts, axis=1).astype(FLOAT, copy=False)


def fingerprint(layout: Layout) -> list[list[Any]]:
    """The layout's segments as (name, shape): a policy refuses a tensor of another layout."""
    return [[s.name, list(s.shape)] for s in layout]


def relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0)  # type: ignore[no-any-return]


class Network:
    """The forward pass in NumPy over the weights a trainer exports (names as in
    :mod:`kiti.rl.train.net`)."""

    def __init__(self, weights: Mapping[str, np.ndarray], heads: int) -> None:
        self.w = {k: np.asarray(v, FLOAT) for k, v in weights.items()}
        self.heads = heads

    def trunk(self, x: np.ndarray) -> np.ndarray:
        w = self.w
        h = relu(x @ w["w1"] + w["b1"])
        return relu(h @ w["w2"] + w["b2"])

    def value(self, h: np.ndarray) -> np.ndarray:
        return (h @ self.w["wv"] + self.w["bv"])[..., 0]

    def logits(self, h: np.ndarray, k: int, prefix: Sequence[int], legal: np.ndarray) -> np.ndarray:
        """Head ``k``'s logits of the ``legal`` tokens, after the tokens ``prefix``
        (``h``: one hidden state)."""
        w = self.w
        for j, token in enumerate(prefix):
            h = h + w[f"c{j}"][token]
        z = h @ w[f"p{k}"]
        return w[f"e{k}"][legal] @ z + w[f"o{k}"][legal]  # type: ignore[no-any-return]


#: A codec of at most this many actions is one head (the flat actions); a larger one (MOTU's)
#: is read step by step through :class:`kiti.rl.spaces.FactoredActions`.
FLAT_ACTIONS = 4096


class ActionHeads:
    """The heads a policy picks a move with: the flat codec as one head where it is small,
    else one head per step of the move (the factored actions)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.fac = None if game.codec.size <= FLAT_ACTIONS else FactoredActions(game)
        self.sizes: tuple[int, ...] = (game.codec.size,) if self.fac is None else self.fac.sizes

    def legal(self, state: State, seat: int, prefix: tuple[int, ...]) -> np.ndarray:
        """The legal tokens of head ``len(prefix)`` after ``prefix``, ascending."""
        if self.fac is None:
            return np.asarray(state.legal_actions(seat), np.int64)
        return np.flatnonzero(self.fac.mask(state, seat, prefix))

    def action(self, state: State, seat: int, prefix: tuple[int, ...]) -> int | None:
        """The flat action ``prefix`` completes, or None while the seat's legal moves go on.
        (A prefix can be a whole move of the codec and the start of a longer one; the legal
        moves now tell which.)"""
        if self.fac is None:
            return prefix[0]
        action = self.fac.action(prefix, state, seat)
        if action is None or len(prefix) == len(self.sizes):
            return action
        return None if self.fac.mask(state, seat, prefix).any() else action


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max())
    return z / z.sum()  # type: ignore[no-any-return]


class LearnedPolicy:
    """A trained policy and value for one game (seats and options), played with NumPy."""

    def __init__(self, meta: Mapping[str, Any], weights: Mapping[str, np.ndarray], where: str = "") -> None:
        self.meta = dict(meta)
        self.where = where or f"{meta.get('game')} policy"
        try:
            self.game = load(meta["game"], players=meta["players"], **meta.get("options", {}))
        except KitiError as exc:
            raise LearnedPolicyError(f"{self.where}: its game cannot be loaded: {exc}") from None
        self.encoder = encoder_for(self.game)
        self.observation = meta.get("observation", "info_state")
        layout = (
            self.encoder.info_state_layout
            if self.observation == "info_state"
            else self.encoder.observation_layout
        )
        if fingerprint(layout) != meta.get("layout"):
            raise LearnedPolicyError(
                f"{self.where} was trained on other tensors than {self.game!r} has now: train it again"
            )
        self.features = Features(layout, int(meta.get("pool_cap", POOL_CAP)))
        self._inputs = layout.size  # the tensor's values
        self.heads = ActionHeads(self.game)
        actions = "flat" if self.heads.fac is None else "factored"
        if list(self.heads.sizes) != list(meta.get("heads", [])) or meta.get("actions") != actions:
            raise LearnedPolicyError(f"{self.where} was trained on other moves than {self.game!r} has now")
        self.net = Network(weights, len(self.heads.sizes))
        self._last: tuple[Any, ...] | None = None

    def __repr__(self) -> str:
        return f"LearnedPolicy({self.where}: {self.game!r})"

    def fits(self, game: Game) -> bool:
        """Whether this policy plays ``game`` (same rules, seats and options)."""
        return game == self.game

    def _encode(self, view: SeatView) -> tuple[State, np.ndarray]:
        """The seat's guess and hidden state (the last view's kept: probabilities then value)."""
        last = self._last  # read once: a policy may be shared by bots on several threads
        if last is not None and last[0] is view:
            return last[1], last[2]
        game = load(view.game.info.id, players=view.players, **view.options)
        if not self.fits(game):
            raise LearnedPolicyError(f"{self.where} plays {self.game!r}, not {game!r}")
        guess = view.determinize(random.Random(0))  # the seat's own tensors, exactly
        if self.observation == "info_state":
            tensor = self.encoder.info_state(guess, view.seat)
        else:
            tensor = self.encoder.observation(guess, view.seat)
        h = self.net.trunk(self.features(tensor[None, :]))[0]
        self._last = (view, guess, h)
        return guess, h

    def value(self, view: SeatView) -> float:
        """The seat's expected share of the victory, 0..1."""
        _, h = self._encode(view)
        return float(np.clip(self.net.value(h), 0.0, 1.0))

    def probabilities(self, view: SeatView) -> dict[Move, float]:
        """The policy over the seat's legal moves (sums to 1)."""
        guess, h = self._encode(view)
        out: dict[Move, float] = {}
        for action, p in self._walk(guess, view.seat, h, (), 1.0):
            move = self.game.codec.moves[action]
            out[move] = out.get(move, 0.0) + p
        return out

    def _walk(
        self, guess: State, seat: int, h: np.ndarray, prefix: tuple[int, ...], p: float
    ) -> Iterator[tuple[int, float]]:
        legal = self.heads.legal(guess, seat, prefix)
        probs = softmax(self.net.logits(h, len(prefix), prefix, legal))
        for token, q in zip(legal.tolist(), probs.tolist()):
            longer = (*prefix, token)
            action = self.heads.action(guess, seat, longer)
            if action is not None:
                yield action, p * q
            else:
                yield from self._walk(guess, seat, h, longer, p * q)

    def __call__(self, tensor: np.ndarray, mask: np.ndarray) -> int:
        """The likeliest legal action from a seat's tensor (its information state, or its
        observation: whichever :attr:`observation` says) and its mask over the flat actions
        with NOOP, as the PettingZoo, Gymnasium and vector envs give them (NOOP where the
        mask allows nothing else): a policy for those faces and for ``policy:`` bots."""
        tensor, mask = np.asarray(tensor, FLOAT).reshape(-1), np.asarray(mask).reshape(-1)
        if len(tensor) != self._inputs or len(mask) not in (self.game.codec.size, self.game.codec.size + 1):
            raise LearnedPolicyError(
                f"{self.where} plays {self.game!r} from its {self.observation} tensor of "
                f"{self._inputs} values and a mask of {self.game.codec.size + 1}, not "
                f"{len(tensor)} and {len(mask)}: another table's, or the other tensor?"
            )
        legal = np.flatnonzero(mask[: self.game.codec.size])
        if not len(legal):
            return self.game.codec.size  # NOOP
        h = self.net.trunk(self.features(tensor[None, :]))[0]
        if self.heads.fac is None:
            return int(legal[int(np.argmax(self.net.logits(h, 0, (), legal)))])
        paths = {int(a): self.heads.fac.tokens(int(a)) for a in legal}
        return max(paths, key=lambda a: self._path_logp(h, paths[a], paths.values()))

    def _path_logp(self, h: np.ndarray, path: tuple[int, ...], paths: Any) -> float:
        """log p(path) where each head's legal tokens are those the legal paths allow."""
        total = 0.0
        for k, token in enumerate(path):
            legal = np.array(sorted({p[k] for p in paths if len(p) > k and p[:k] == path[:k]}))
            probs = softmax(self.net.logits(h, k, path[:k], legal))
            total += float(np.log(max(probs[int(np.searchsorted(legal, token))], 1e-30)))
        return total

    def choose(self, view: SeatView, rng: random.Random, greedy: bool = False) -> Move:
        """A move drawn from the policy head by head (the likeliest with ``greedy``)."""
        guess, h = self._encode(view)
        prefix: tuple[int, ...] = ()
        while True:
            legal = self.heads.legal(guess, view.seat, prefix)
            if not len(legal):
                raise LearnedPolicyError(f"{self.where}: seat {view.seat} has no legal move")
            probs = softmax(self.net.logits(h, len(prefix), prefix, legal))
            i = int(np.argmax(probs)) if greedy else _draw(probs, rng)
            prefix = (*prefix, int(legal[i]))
            action = self.heads.action(guess, view.seat, prefix)
            if action is not None:
                return self.game.codec.moves[action]


def _draw(probs: np.ndarray, rng: random.Random) -> int:
    r = rng.random()
    i = int(np.searchsorted(np.cumsum(probs), r * float(probs.sum()), side="right"))
    return min(i, len(probs) - 1)


# -- files -----------------------------------------------------------------------------------


def read(path: str | Path, where: str = "") -> LearnedPolicy:
    """The policy saved at ``path`` (``NAME.npz`` with ``NAME.json`` beside it, or either
    name); ``where``: how errors name it (by default, its path)."""
    given = Path(path)
    base = given.with_suffix("") if given.suffix in (".npz", ".json") else given
    npz, meta_path = base.with_suffix(".npz"), base.with_suffix(".json")
    if not npz.is_file() or not meta_path.is_file():
        what = (
            "is no learned policy (a NAME.npz with NAME.json beside it)"
            if given.is_file()
            else "does not exist"
        )
        raise LearnedPolicyError(f"{quoted(str(path))} {what}")
    try:
        meta = json.loads(meta_path.read_text())
        with np.load(npz, allow_pickle=False) as data:
            weights = {k: data[k] for k in data.files}
        if not isinstance(meta, dict):
            raise ValueError("its .json holds no object")
    except (OSError, ValueError, EOFError) as exc:  # numpy's own words: not for a player
        raise LearnedPolicyError(
            f"the policy at {quoted(str(path))} cannot be read ({type(exc).__name__}): is it a policy "
            "kiti train wrote?"
        ) from None
    return LearnedPolicy(meta, weights, where=where or f"policy {quoted(str(path))}")


def write(path: str | Path, meta: Mapping[str, Any], weights: Mapping[str, np.ndarray]) -> Path:
    """Save a policy as ``path``.npz (float16 weights) and ``path``.json."""
    base = Path(path)
    base.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, Any] = {k: np.asarray(v, np.float16) for k, v in weights.items()}
    np.savez_compressed(base.with_suffix(".npz"), **arrays)
    base.with_suffix(".json").write_text(json.dumps(dict(meta), indent=2, sort_keys=True) + "\n")
    return base


def shipped_dir(game_id: str) -> Path:
    """The folder of a game's shipped policies (its package's ``policy`` folder)."""
    try:
        cls = get_game(game_id)
    except KitiError as exc:
        raise LearnedPolicyError(str(exc)) from None
    package = cls.__module__.rpartition(".")[0]
    module = __import__(package, fromlist=["__file__"])
    return Path(module.__file__ or "").parent / "policy"


def shipped(game_id: str) -> list[str]:
    """The names of a game's shipped policies."""
    folder = shipped_dir(game_id)
    return (
        sorted(p.stem for p in folder.glob("*.npz") if p.with_suffix(".json").is_file())
        if folder.is_dir()
        else []
    )


_CACHE: dict[tuple[str, str], LearnedPolicy] = {}
DEFAULT = "default"


def load_learned(game_id: str, name: str | None = None) -> LearnedPolicy:
    """A game's shipped policy: ``name`` (a variant such as ``"teams"`` or ``"solo"``), or
    without a name ``"default"`` (the table ``kiti play`` sets by default: 4 seats where the
    game allows them), else the one for ``kiti.load(game_id)``'s table."""
    names = shipped(game_id)
    if not names:
        raise LearnedPolicyError(f"{quoted(game_id)} ships no learned policy")
    if name is None:
        if DEFAULT in names:
            return load_learned(game_id, DEFAULT)
        fallback = load(game_id)
        for n in names:
            policy = load_learned(game_id, n)
            if policy.fits(fallback):
                return policy
        raise LearnedPolicyError(
            f"{quoted(game_id)} ships no policy for its default table (it has: {', '.join(names)})"
        )
    if name not in names:
        raise LearnedPolicyError(
            f"{quoted(game_id)} has no learned policy {quoted(name)} (it has: {', '.join(names)})"
        )
    key = (game_id, name)
    if key not in _CACHE:
        _CACHE[key] = read(shipped_dir(game_id) / name, where=f"policy {game_id}.{name}")
    return _CACHE[key]


def learned_for(game: Game) -> LearnedPolicy:
    """The shipped policy that plays ``game`` (its seats and options); a clear error naming
    the tables the game's policies play where none fits."""
    tables = []
    for name in shipped(game.id):
        policy = load_learned(game.id, name)
        if policy.fits(game):
            return policy
        tables.append(f"{name}: {policy.game!r}")
    have = "; ".join(tables) or "none"
    raise LearnedPolicyError(f"no learned policy plays {game!r} (shipped: {have})")


def is_path(target: str) -> bool:
    """Whether a policy target names files (``runs/x/policy.npz``; a run's folder, written
    with a ``/``: ``runs/x`` or ``./x``) rather than a shipped policy (``miaui``, ``mauw.teams``)."""
    return "/" in target or "\\" in target or target.endswith((".npz", ".json"))


def resolve(target: str, game: Game | None = None) -> LearnedPolicy:
    """The policy ``target`` names: a saved policy (a ``.npz`` path, or a training run's
    folder), ``GAME`` (the game's shipped policy that plays ``game``, else its default one)
    or ``GAME.NAME`` (a named shipped policy)."""
    target = target.strip()
    if is_path(target):
        path = Path(target)
        policy = read(path / "policy" if path.is_dir() else path)
    else:
        game_id, _, name = target.partition(".")
        if game is not None and game_id != game.id:
            raise LearnedPolicyError(
                f"policy {quoted(target)} is a {game_id} policy, not one for {game.name}"
            )
        if name:
            policy = load_learned(game_id, name)
        elif game is not None:
            return learned_for(game)
        else:
            policy = load_learned(game_id)
    if game is not None and not policy.fits(game):
        raise LearnedPolicyError(f"{policy.where} plays {policy.game!r}, not {game!r}")
    return policy
