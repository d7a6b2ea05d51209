"""The batch simulator behind the vector env's API: ``kiti.rl.vector.make(..., backend="batch")``.

:class:`BatchVectorEnv` plays every env's game in one :class:`kiti.sim.batch.BatchState`
(NumPy arrays, all games stepped at once) and returns exactly the arrays the engine's
vector env returns for the same seed and actions: the same deals (each game is dealt by the
engine from ``episode_seed(seed, env, game)``, then handed to the batch), the same turn
order (a round's dives ask the seats lowest first over several steps and hold each action
until the last), the same observation tensors (:class:`kiti.sim.batch.tensors.BatchObserver`,
checked equal to the game's encoder), masks, rewards and auto-reset.  Only the games that
have a batch simulator (Miaui) and the ``"tensor"`` observation, with no bot opponents.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..core.errors import KitiError
from ..core.game import State
from ..core.load import Game
from ..core.tensors import FLOAT
from ..sim.batch import state as B
from ..sim.batch import tables as T
from ..sim.batch.tensors import BatchObserver
from .spaces import MASK, Actions
from .tensors import encoder_for
from .vector import VectorEnv, episode_seed

#: The games a batch simulator plays, by id.
BATCH_GAMES = ("miaui",)
PLAYER = np.int32


class BatchVectorEnv(VectorEnv):
    """``num_envs`` games of Miaui in one batch (see the module's docs); made by
    :func:`kiti.rl.vector.make` with ``backend="batch"``."""

    workers = 0

    def __init__(self, game: Game, num_envs: int, seed: int | None, copy: bool) -> None:
        self.game = game
        self.num_envs = n = num_envs
        self.players = p = game.players
        self.actions = Actions(game)
        self.num_actions = self.actions.size
        self.noop = self.actions.noop
        encoder = encoder_for(game)
        self.observation_layout = encoder.observation_layout
        self._observer = BatchObserver(encoder, dict(game.options))
        self._codec = game.codec.size  # the batch's actions 0 .. codec-1 are the codec's
        self._next_seed = seed
        self.copy = copy
        self.obs = np.zeros((n, self.observation_layout.size), FLOAT)
        self.mask = np.zeros((n, self.num_actions), MASK)
        self.player = np.zeros(n, PLAYER)
        self.rewards = np.zeros((n, p), FLOAT)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self._seeds = np.zeros(n, np.int64)
        self._episode = np.zeros(n, np.int64)
        self._held = np.zeros((n, p), np.int64)  # a round's dives chosen so far
        self._state: B.BatchState | None = None
        self._broken: str | None = "call reset() before step()"

    @property
    def seeds(self) -> np.ndarray:
        return self._seeds.copy()

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        self.seed = self._run_seed(seed)
        self._episode.fill(0)
        self._state = self._deal(np.arange(self.num_envs))
        self.player.fill(0)
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        self._observe()
        self._broken = None
        obs, mask, player = self._out(self.obs, self.mask, self.player)
        return obs, mask, player

    def step(self, actions: Any) -> tuple[np.ndarray, ...]:
        if self._broken is not None:
            raise KitiError(self._broken)
        values = self._checked(actions, self.mask, self.player)
        state = self._state
        assert state is not None
        envs = np.arange(self.num_envs)
        self._held[envs, self.player] = values
        taking = state.taker >= 0
        complete = taking | (self.player == self.players - 1)
        B.step_in_place(state, self._held, check=False, only=complete)
        self.rewards[:] = state.rewards
        ended = state.terminated.copy()
        self.terminated[:] = ended
        ended_envs = np.flatnonzero(ended)
        if ended_envs.size:
            self._episode[ended_envs] += 1
            state.put(ended_envs, self._deal(ended_envs))
        self.player[:] = np.where(complete, 0, self.player + 1)
        self._observe()
        return self._out(self.obs, self.mask, self.player, self.rewards, self.terminated, self.truncated)

    def _deal(self, envs: np.ndarray) -> B.BatchState:
        """The next game of each env in ``envs``, dealt by the engine from its seed."""
        assert self.seed is not None
        decks = np.zeros((len(envs), len(T.DECK)), np.int8)
        for row, i in enumerate(envs.tolist()):
            game_seed = episode_seed(self.seed, i, int(self._episode[i]))
            self._seeds[i] = game_seed
            decks[row] = _deck_of(self.game.new_state(game_seed))
        return B.init_from_decks(decks, self.players, dict(self.game.options))

    def _observe(self) -> None:
        """Each env's player (the taker, else the next seat of the round's dives), its
        tensor and its mask."""
        state = self._state
        assert state is not None
        taking = np.flatnonzero(state.taker >= 0)
        self.player[taking] = state.taker[taking]
        envs = np.arange(self.num_envs)
        self._observer.write(state, self.player, self.obs)
        self.mask.fill(0)
        legal = state.legal_action_mask[envs, self.player]
        self.mask[:, : self._codec] = legal[:, : self._codec]

    def _out(self, *arrays: np.ndarray) -> tuple[np.ndarray, ...]:
        return tuple(x.copy() for x in arrays) if self.copy else arrays

    def close(self) -> None:
        self._broken = "this vector env is closed"

    def __repr__(self) -> str:
        return f"<BatchVectorEnv {self.game!r} ×{self.num_envs}, tensor, one batch>"


def _deck_of(state: State) -> list[int]:
    """The engine's deal as the batch reads it: the burned card, then every card in the
    order it is stocked (round 1's three, then the deck's next card first)."""
    s: Any = state
    order = [s.burned, *(space[0] for space in s.lagoon), *reversed(s.deck)]
    return [_CARD[c] for c in order]


_CARD = {code: i for i, code in enumerate(T.CODES)}
