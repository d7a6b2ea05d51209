"""The promises of a game's tensors (its ``tensors`` part, :mod:`kiti.rl.tensors`), one public
check each, in the style of :mod:`kiti.testing.checks`.

They run only for a game that declares a ``tensors`` part, and only where numpy is installed
(the ``[rl]`` extra); otherwise each raises :class:`~kiti.testing.support.Skipped`.

- the seat's observation and information state are identical on every resample of the
  state for that seat (they hold nothing the seat cannot see);
- every value lies inside its segment's declared bounds, and every tensor has the layout's
  fixed shape and dtype float32, in every state of a random game;
- an information-state tracker following a game (moves, a clone's branch, an undo) gives
  exactly what a tracker built afresh on the same state gives.
"""

from __future__ import annotations

import importlib.util
import random
from typing import Any

from ..core.game import State
from ..core.load import Game
from ..core.registry import has_part
from .cases import Case
from .support import Skipped, checkpoints


def encoder_of(case: Case) -> Any:
    """The case's tensor encoder; Skipped where the game has none or numpy is missing."""
    if not has_part(case.cls, "tensors"):
        raise Skipped(f"{case.cls.info.name} declares no tensors part")
    if importlib.util.find_spec("numpy") is None:
        raise Skipped("numpy is not installed (the [rl] extra)")
    from ..rl.tensors import encoder_for

    return encoder_for(Game(case.cls, case.players, case.new(0).options))


def _same(a: Any, b: Any) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool((a == b).all())


def _differing(layout: Any, a: Any, b: Any) -> list[str]:
    """The segments where two tensors of ``layout`` differ."""
    return [s.name for s in layout if not (a[s.offset : s.stop] == b[s.offset : s.stop]).all()]


def tensors_are_identical_on_every_resample(case: Case) -> None:
    """A seat's observation and information state are the same for every resample of the
    state for that seat: the tensors hold nothing the seat cannot see."""
    enc = encoder_of(case)
    rng = random.Random(23)
    for state in checkpoints(lambda: case.new(808), 808 + case.seed, 10):
        for seat in range(state.players):
            obs = enc.observation(state, seat)
            info = enc.info_state(state, seat)
            for _ in range(3):
                guess = state.resample(seat, random.Random(rng.random()))
                other = enc.observation(guess, seat)
                assert _same(obs, other), (
                    f"seat {seat}'s observation differs on a resample, in "
                    f"{_differing(enc.observation_layout, obs, other)}"
                )
                other = enc.info_state(guess, seat)
                assert _same(info, other), (
                    f"seat {seat}'s information state differs on a resample, in "
                    f"{_differing(enc.info_state_layout, info, other)}"
                )


def tensors_keep_their_shape_and_bounds(case: Case) -> None:
    """In every state of a random game, every seat's tensors are float32, of the layout's
    fixed shape, and every value lies inside its segment's bounds."""
    enc = encoder_of(case)
    obs_layout, info_layout = enc.observation_layout, enc.info_state_layout
    trackers = [enc.info_state_tracker(s) for s in range(case.players)]
    state = case.new(909)
    rng = random.Random(29)
    while True:
        for seat in range(state.players):
            for name, layout, tensor in (
                ("observation", obs_layout, enc.observation(state, seat)),
                ("information state", info_layout, trackers[seat](state)),
            ):
                assert tensor.dtype.name == "float32", f"the {name} is {tensor.dtype}, not float32"
                assert tensor.shape == layout.shape, (
                    f"the {name} has shape {tensor.shape}, not {layout.shape}"
                )
                bad = layout.out_of_bounds(tensor)
                assert not bad, (
                    f"seat {seat}'s {name} is outside its bounds in {bad} (move {len(state.history)})"
                )
        if state.over:
            return
        seat = rng.choice(sorted(state.to_act()))
        state.apply(seat, state.random_move(seat, rng))


def tensor_trackers_match_a_fresh_build(case: Case) -> None:
    """A tracker following a game move by move, across an undo, onto another branch of the
    same game (an earlier copy played on otherwise, then the game again) and onto a resample
    for another seat (which may rewrite entries the tracker read) equals a tracker built
    afresh on the same state at every step."""
    enc = encoder_of(case)
    state = case.new(1010)
    rng = random.Random(31)
    trackers = [enc.info_state_tracker(s) for s in range(case.players)]
    fork: State | None = None
    undone = False
    while not state.over:
        _agree(enc, trackers, state)
        seat = rng.choice(sorted(state.to_act()))
        move = state.random_move(seat, rng)
        state.apply(seat, move)
        if not undone and state.undo_refusal(seat) is None:
            _agree(enc, trackers, state)
            state.undo(seat)  # the tracker must not keep what the undone move showed
            _agree(enc, trackers, state)
            state.apply(seat, move)
            undone = True
        if len(state.history) == 4 and not state.over:
            for other in range(case.players):  # a search's guess for each seat, then the game
                _agree(enc, trackers, state.resample(other, random.Random(other)))
                _agree(enc, trackers, state)
        if len(state.history) == 6:
            fork = state.clone()
        elif fork is not None and len(state.history) == 6 + 4 * case.players:
            # Another future of the same game, as long as this one: the tracker must notice.
            branch_rng = random.Random(rng.random())
            while not fork.over and len(fork.log) < len(state.log):
                _play_some(fork, branch_rng, 1)
            _agree(enc, trackers, fork)
            fork = None
    _agree(enc, trackers, state)


def _play_some(state: State, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.over:
            return
        seat = rng.choice(sorted(state.to_act()))
        state.apply(seat, state.random_move(seat, rng))


def _agree(enc: Any, trackers: list[Any], state: State) -> None:
    for seat, tracker in enumerate(trackers):
        got = tracker(state)
        fresh = enc.info_state(state, seat)
        assert _same(got, fresh), (
            f"seat {seat}'s tracker differs from a fresh one after move {len(state.history)}, in "
            f"{_differing(enc.info_state_layout, got, fresh)}"
        )


#: The tensor checks, in the order check_game runs them.
TENSOR_CHECKS = (
    tensors_are_identical_on_every_resample,
    tensors_keep_their_shape_and_bounds,
    tensor_trackers_match_a_fresh_build,
)
