"""PettingZoo faces of every Kiti game: :func:`env` (AEC) and :func:`parallel_env`.

Agents are ``player_0 .. player_{n-1}``, one per seat.  Each observes a dict
``{"observation": ..., "action_mask": int8 mask}`` (as PettingZoo's classic games do); the
observation is chosen when the env is made: ``"tensor"`` (the seat's observation tensor,
:mod:`kiti.rl.tensors`), ``"info_state"`` (its information-state tensor, followed move by
move by a tracker) or ``"dict"`` (the seat's view as JSON, ``State.observation``).  Every
observation and every mask is a fresh array: keeping or writing one is safe (the env checks
actions against the legal actions it worked out, not against a mask it handed out).

**AEC.**  The agent to act follows the engine's turn rule (:func:`kiti.core.turns.turns`):
one seat at a time; a simultaneous secret choice asks its seats lowest first, holds each
choice, and applies them all in seat order once the last is in, so no seat observes
another's choice (nor that it has chosen) before the choice is complete.

**Parallel.**  One step is the current set of seats to act, applied together; every other
live agent must send ``NOOP`` (its mask holds only NOOP).

**Rewards** are ``State.returns()`` when the game ends (0 before): each seat's share of the
victory (a winning team's seats get 1 each; MOTU's solo seat gets 1 if it beats the
Opponent).  A game the engine stops at its move limit ends with ``truncations`` True and the
draw's shares as rewards.  ``max_cycles`` (None: off) stops an episode early, truncated,
with rewards 0: in the AEC env once the agent to be asked next has been asked
``max_cycles`` times, in the parallel env after ``max_cycles`` steps (each step asks every
live agent).  Illegal actions: see :mod:`kiti.rl.spaces`.

**Seeding.**  ``reset(seed=s)`` starts the game with seed ``s`` (``env.state.record()``
replays it) and seeds the env's own generator (the ``"random"`` illegal-action policy) from
it; ``reset()`` without a seed draws the next game's seed from that generator (from the
system's entropy before any seed was given).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from ..core.errors import KitiError, quoted
from ..core.game import MAX_SEED, State
from ..core.load import Game
from ..core.moves import Move
from ..core.tensors import FLOAT
from . import load_game
from .spaces import MASK, Actions, IllegalActionError, check_illegal
from .tensors import encoder_for

OBSERVATIONS = ("tensor", "info_state", "dict")


class JSONSpace(spaces.Dict):
    """The space of ``observation="dict"``: any JSON object (a seat's view).  A
    :class:`gymnasium.spaces.Dict` with no fixed keys, so tools that walk Dict spaces accept it."""

    def __init__(self) -> None:
        super().__init__({})

    def contains(self, x: Any) -> bool:
        return isinstance(x, dict)

    def sample(self, mask: Any = None, probability: Any = None) -> dict[str, Any]:
        """An empty object: the one member of the space that needs no game (a real view comes
        only from playing one)."""
        return {}

    def __repr__(self) -> str:
        return "JSONSpace()"


class Table:
    """What both faces share: one game, its spaces, the state, observations and the
    illegal-action policy (not a PettingZoo class)."""

    def __init__(
        self,
        game: Game | str,
        players: int | None,
        options: dict[str, Any] | None,
        observation: str,
        illegal: str,
        penalty: float,
    ) -> None:
        self.game = load_game(game, players, options)
        if observation not in OBSERVATIONS:
            raise KitiError(
                f"observation must be one of {', '.join(OBSERVATIONS)}, not {quoted(observation)}"
            )
        self.kind = observation
        self.illegal, self.penalty = check_illegal(illegal, penalty)
        self.players = self.game.players
        self.agents = [f"player_{s}" for s in range(self.players)]
        self.seat = {a: s for s, a in enumerate(self.agents)}
        self.encoder = None if observation == "dict" else encoder_for(self.game)
        # legal actions from the encoder where its game offers a cheaper way to the same set
        # (or writes them straight into a mask)
        self.actions = Actions(
            self.game,
            getattr(self.encoder, "legal_actions", None),
            getattr(self.encoder, "write_legal", None),
            getattr(self.encoder, "legal_key", None),
        )
        self.size = self.actions.size
        #: ``observe(seat)``: the seat's observation and mask now, written the way ``kind`` asks
        self.observe = {"tensor": self._tensor, "info_state": self._info_state, "dict": self._dict}[
            observation
        ]
        self._rng = random.Random()
        #: The seed given to the last reset, not yet given to ``_rng`` (seeding costs more
        #: than many a step: done only once the generator is asked for a number)
        self._seed: int | None = None
        self.seeded = False
        self.state: State = self.game.new_state(0)
        self.trackers: list[Any] = []
        #: Counts the changes of ``state`` (each move played), so a mask is worked out once.
        self.version = 0
        #: The legal actions last worked out: (version, seat, their mask's bytes, their mask).
        #: The env checks an action against them, never against a mask it handed out (the
        #: caller's to write): every mask handed out is a copy.
        self._legal: tuple[int, int, tuple[Any, np.ndarray]] = (-1, -1, (b"", np.zeros(0, MASK)))
        #: What the seats' observations share (Encoder.shared), for the state's ``version``.
        self._shared: tuple[int, Any] = (-1, None)
        #: Where the encoder offers one (``mirror()``), the shared table that this env keeps
        #: and brings up to date in place at each new version instead of making it anew
        mirror = getattr(self.encoder, "mirror", None)
        self._make_shared = (
            None if self.encoder is None else (self.encoder.shared if mirror is None else mirror().update)
        )
        self._new = None if self.encoder is None else self.encoder._new
        self._legal_mask = self.actions.legal_mask  # (by the encoder's legal_key where it has one)

    def spaces(self) -> tuple[dict[str, spaces.Space[Any]], dict[str, spaces.Space[Any]]]:
        """A separate (observation, action) space object per agent."""
        obs: dict[str, spaces.Space[Any]] = {}
        act: dict[str, spaces.Space[Any]] = {}
        for agent in self.agents:
            if self.encoder is None:
                inner: spaces.Space[Any] = JSONSpace()
            else:
                lay = (
                    self.encoder.info_state_layout
                    if self.kind == "info_state"
                    else self.encoder.observation_layout
                )
                inner = spaces.Box(lay.low, lay.high, lay.shape, FLOAT)
            obs[agent] = spaces.Dict(
                {"observation": inner, "action_mask": spaces.Box(0, 1, (self.actions.size,), MASK)}
            )
            act[agent] = spaces.Discrete(self.actions.size)
        return obs, act

    @property
    def rng(self) -> random.Random:
        """The env's own generator, seeded from the last seed given to reset."""
        if self._seed is not None:
            self._rng.seed(self._seed)
            self._seed = None
        return self._rng

    def seat_of(self, agent: Any) -> int:
        """The seat of ``agent`` (``player_N``); KitiError naming it where it is no agent here."""
        seat = self.seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise KitiError(f"no agent {quoted(agent)} in this game (its agents: {', '.join(self.agents)})")
        return seat

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < MAX_SEED:
                raise KitiError(f"seed must be an integer 0 to 2**63-1, not {quoted(seed)}")
            game_seed = self._seed = int(seed)
            self.seeded = True
        else:
            if not self.seeded:
                self._rng.seed(random.SystemRandom().randrange(MAX_SEED))
                self.seeded = True
            game_seed = self.rng.randrange(MAX_SEED)
        self.state = self.game.new_state(game_seed)
        self.version += 1
        if self.kind == "info_state":
            assert self.encoder is not None
            self.trackers = [self.encoder.info_state_tracker(s) for s in range(self.players)]

    def _tensor(self, seat: int) -> dict[str, Any]:
        # Encoder.observation(state, seat, None, shared) without its checks: the state is this
        # env's own and the seat one of its agents'; the mask as mask() gives it.
        version = self.version
        state = self.state
        shared = self._shared
        if shared[0] != version:
            shared = self._shared = (version, self._make_shared(state))  # type: ignore[misc]
        legal = self._legal  # mask(seat), written out: this runs at every step
        if legal[0] != version or legal[1] != seat:
            legal = self._legal = (version, seat, self._legal_mask(state, seat))
        return {
            "observation": self._new(state, seat, shared[1]),  # type: ignore[misc]
            "action_mask": legal[2][1].copy(),
        }

    def _info_state(self, seat: int) -> dict[str, Any]:
        return {"observation": self.trackers[seat](self.state), "action_mask": self.mask(seat)}

    def _dict(self, seat: int) -> dict[str, Any]:
        return {"observation": self.state.observation(seat), "action_mask": self.mask(seat)}

    def mask(self, seat: int) -> np.ndarray:
        """``seat``'s mask now, a new array each time (its legal actions worked out once per move)."""
        legal = self._legal
        if legal[0] != self.version or legal[1] != seat:
            legal = self._legal = (self.version, seat, self._legal_mask(self.state, seat))
        return legal[2][1].copy()

    def resolve(self, seat: int, action: Any, mask: np.ndarray) -> int | None:
        """``seat``'s action, legal: as given, or replaced (``"random"``); None: an illegal
        action under ``"penalty"`` (the caller ends the episode); raises under ``"raise"``."""
        if type(action) is int and 0 <= action < len(mask) and mask[action]:
            return action  # the common case, at once
        value = self.actions.as_int(action, seat) if self.illegal == "raise" else _loose_int(action)
        if value is not None and 0 <= value < len(mask) and mask[value]:
            return value
        if self.illegal == "raise":
            raise self.actions.refusal(self.state, seat, value, mask)  # type: ignore[arg-type]
        if self.illegal == "penalty":
            return None
        return self.actions.random_legal(mask, self.rng)

    def ending(self) -> tuple[list[float], bool]:
        """The rewards of a game that just ended and whether it was truncated."""
        state = self.state
        return state.returns(), state.truncated

    def render(self) -> str:
        state = self.state
        last = f"; last move: seat {state.history[-1][0]} {state.history[-1][1]}" if state.history else ""
        acting = ", ".join(f"seat {s}" for s in sorted(state.acting)) or "nobody (over)"
        return f"{self.game!r}, move {len(state.history)}, to act: {acting}{last}"


def _loose_int(action: Any) -> int | None:
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    return None


class KitiAEC(AECEnv):  # type: ignore[misc]
    """A Kiti game as a PettingZoo AEC env (see the module's docs); made by :func:`env`."""

    metadata = {"name": "kiti", "render_modes": ["ansi"], "is_parallelizable": True}  # noqa: RUF012

    def __init__(
        self,
        game: Game | str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        observation: str = "tensor",
        illegal: str = "raise",
        penalty: float = -1.0,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(game, players, options, observation, illegal, penalty)
        self.metadata = {**self.metadata, "name": f"kiti_{self.table.game.id}"}
        if render_mode not in (None, "ansi"):
            raise KitiError(f"render_mode must be None or 'ansi', not {quoted(render_mode)}")
        self.render_mode = render_mode
        self.max_cycles = _max_cycles(max_cycles)
        self.possible_agents = list(self.table.agents)
        self.observation_spaces, self.action_spaces = self.table.spaces()
        self._observe = self.table.observe  # (last() runs at every step)
        self._seat = self.table.seat
        self._moves = self.table.actions.moves
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state(self) -> State:
        """The engine's state of the game being played (the referee's whole truth)."""
        return self.table.state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._done = False  # every agent is terminated or truncated (the episode ends at once)
        self._asked = [0] * self.table.players
        self._held: list[tuple[int, Move]] = []  # a simultaneous choice's (seat, move) so far
        self._queue: list[int] = []  # its seats still to choose, lowest first
        self._skip_agent_selection: str | None = None
        self._select()

    def agent_iter(self, max_iter: int = 2**63) -> Iterable[str]:
        """As :meth:`pettingzoo.AECEnv.agent_iter` (the agent to act, until no agent is left
        or after ``max_iter`` agents), through a generator: a learner's loop reads it every step."""
        return _AgentIter(self, max_iter)

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self.table.seat_of(agent))

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """As :meth:`pettingzoo.AECEnv.last` (the agent to act's observation, reward so far,
        terminated, truncated, info), one call shorter: a learner's loop calls it every step."""
        agent = self.agent_selection
        return (
            self._observe(self._seat[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to ask next (or end the episode)."""
        table = self.table
        state = table.state
        if state.over:
            self._end(*table.ending())
            return
        if self._queue:
            seat = self._queue[0]
        else:
            acting = state.acting
            if len(acting) == 1:
                (seat,) = acting
            else:
                self._queue = sorted(acting)
                seat = self._queue[0]
        if self.max_cycles is not None and self._asked[seat] >= self.max_cycles:
            self._end([0.0] * table.players, True)
            return
        self.agent_selection = table.agents[seat]

    def _end(self, rewards: list[float], truncated: bool) -> None:
        agents = self.table.agents
        for seat, reward in enumerate(rewards):
            self.rewards[agents[seat]] = float(reward)
        done = self.truncations if truncated else self.terminations
        for agent in self.agents:
            done[agent] = True
        self._done = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def _was_dead_step(self, action: Any) -> None:
        """:meth:`pettingzoo.AECEnv._was_dead_step` (what ``step(None)`` does for a done
        agent) for this env's episodes, which end for every agent at once: the agent leaves,
        the next one left is asked (once none is left, the first to leave, as PettingZoo's
        does), the rewards are cleared.  The same effects (a test holds them so), without
        looking for the dead among the agents at each step."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        agents = self.agents
        agents.remove(agent)
        if agents:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = agents[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        rewards = self.rewards
        for other in rewards:
            rewards[other] = 0

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._done:
            self._was_dead_step(action)
            return
        table = self.table
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        if self.infos[agent]:
            self.infos[agent] = {}
        if self.max_cycles is not None:
            self._asked[seat] += 1
        legal = table._legal  # last() worked them out: the common case, at once
        if (
            legal[0] == table.version
            and legal[1] == seat
            and type(action) is int
            and 0 <= action < table.size
            and legal[2][0][action]
        ):
            chosen: int = action
        else:
            resolved = self._resolve(agent, seat, action)
            if resolved is None:
                return
            chosen = resolved
        queue = self._queue
        if queue:
            del queue[0]
            self._held.append((seat, self._moves[chosen]))
            if queue:  # the same state: the next seat of the choice
                if self.max_cycles is None:
                    self.agent_selection = table.agents[queue[0]]
                else:
                    self._select()
                return
            table.state._advance_all(self._held)  # the whole choice, in seat order, as apply_all
            self._held = []
        else:
            table.state.step(seat, chosen)
        table.version += 1
        state = table.state
        acting = state.acting
        if len(acting) == 1 and not state.over and self.max_cycles is None:  # _select's common case
            for seat in acting:
                self.agent_selection = table.agents[seat]
            return
        self._select()

    def _resolve(self, agent: str, seat: int, action: Any) -> int | None:
        """An action that last()'s mask does not allow at once: as :meth:`Table.resolve`,
        with its info; None: the episode ended ("penalty")."""
        table = self.table
        chosen = table.resolve(seat, action, table.mask(seat))
        if chosen is None:  # "penalty": the episode ends here
            rewards = [0.0] * table.players
            rewards[seat] = table.penalty
            self.infos[agent] = {"illegal_action": _loose_int(action)}
            self._end(rewards, False)
        elif chosen != action:
            self.infos[agent] = {"illegal_action": _loose_int(action), "played": chosen}
        return chosen

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.render()

    def close(self) -> None:
        pass


class _AgentIter:
    """What :meth:`KitiAEC.agent_iter` returns: iterable again and again, as PettingZoo's."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: KitiAEC, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env = self.env
        left = self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class KitiParallel(ParallelEnv):  # type: ignore[misc]
    """A Kiti game as a PettingZoo parallel env (see the module's docs); made by
    :func:`parallel_env`."""

    metadata = {"name": "kiti", "render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: Game | str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        observation: str = "tensor",
        illegal: str = "raise",
        penalty: float = -1.0,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(game, players, options, observation, illegal, penalty)
        self.metadata = {**self.metadata, "name": f"kiti_{self.table.game.id}"}
        if render_mode not in (None, "ansi"):
            raise KitiError(f"render_mode must be None or 'ansi', not {quoted(render_mode)}")
        self.render_mode = render_mode
        self.max_cycles = _max_cycles(max_cycles)
        self.possible_agents = list(self.table.agents)
        self.observation_spaces, self.action_spaces = self.table.spaces()
        self.agents: list[str] = []
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def state(self) -> State:
        """The engine's state of the game being played (the referee's whole truth)."""
        return self.table.state

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self._steps = 0
        return self._observations(), {a: {} for a in self.agents}

    def _observations(self) -> dict[str, Any]:
        table = self.table
        return {a: table.observe(table.seat[a]) for a in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        table = self.table
        if not self.agents:
            raise KitiError("the episode is over: call reset() before step()")
        if not isinstance(actions, Mapping):
            raise KitiError(f"actions must be a dict of agents to actions, not {quoted(actions)}")
        if not actions.keys() <= table.seat.keys():  # a misspelled agent: say so, play nothing
            table.seat_of(next(a for a in actions if a not in table.seat))
        state = table.state
        noop = table.actions.noop
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        chosen: list[tuple[int, int]] = []
        offenders: list[int] = []
        for agent in self.agents:
            seat = table.seat[agent]
            action = actions.get(agent, noop if seat not in state.acting else None)
            value = table.resolve(seat, action, table.mask(seat))
            if value is None:
                offenders.append(seat)
            elif value != noop:
                chosen.append((seat, value))
            if value != action:
                infos[agent] = {"illegal_action": _loose_int(action), "played": value}
        self._steps += 1
        if offenders:
            rewards = [0.0] * table.players
            for seat in offenders:
                rewards[seat] = table.penalty
            return self._finish(rewards, False, infos)
        for seat, value in sorted(chosen):  # the whole set to act, in seat order (as apply_all)
            state.step(seat, value)
        table.version += 1
        if state.over:
            return self._finish(*table.ending(), infos)
        if self.max_cycles is not None and self._steps >= self.max_cycles:
            return self._finish([0.0] * table.players, True, infos)
        agents = self.agents
        return (
            self._observations(),
            dict.fromkeys(agents, 0.0),
            dict.fromkeys(agents, False),
            dict.fromkeys(agents, False),
            infos,
        )

    def _finish(
        self, rewards: list[float], truncated: bool, infos: dict[str, dict[str, Any]]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        agents = self.agents
        table = self.table
        obs = self._observations()
        out = (
            obs,
            {a: float(rewards[table.seat[a]]) for a in agents},
            dict.fromkeys(agents, not truncated),
            dict.fromkeys(agents, truncated),
            infos,
        )
        self.agents = []
        return out

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.render()

    def close(self) -> None:
        pass


def env(
    game: Game | str, players: int | None = None, options: dict[str, Any] | None = None, **kwargs: Any
) -> KitiAEC:
    """A PettingZoo AEC env of ``game`` (an id with ``players`` and ``options``, or a loaded
    :class:`kiti.Game`); keywords: ``observation`` ("tensor", "info_state", "dict"),
    ``illegal`` ("raise", "penalty", "random"), ``penalty`` (-1.0), ``max_cycles`` (None),
    ``render_mode`` (None or "ansi")."""
    check_keywords(KitiAEC, kwargs)
    return KitiAEC(game, players, options, **kwargs)


def parallel_env(
    game: Game | str, players: int | None = None, options: dict[str, Any] | None = None, **kwargs: Any
) -> KitiParallel:
    """A PettingZoo parallel env of ``game``: the keywords of :func:`env`."""
    check_keywords(KitiParallel, kwargs)
    return KitiParallel(game, players, options, **kwargs)


def _max_cycles(value: Any) -> int | None:
    """``max_cycles`` as the envs take it: None or an integer of at least 1 (KitiError otherwise)."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise KitiError(f"max_cycles must be None or an integer of at least 1, not {quoted(value)}")
    return value


def check_keywords(cls: type, kwargs: dict[str, Any]) -> None:
    """Refuse a keyword ``cls`` does not take, naming it and the ones it takes (a game option
    given as a keyword, as ``kiti.load`` takes them, is pointed to ``options``)."""
    import inspect

    taken = [n for n in inspect.signature(cls).parameters if n not in ("game", "players", "options")]
    for name in kwargs:
        if name not in taken:
            raise KitiError(
                f"{cls.__name__} takes no keyword {quoted(name)} (its keywords: {', '.join(taken)}; "
                "game options go in options={...})"
            )


__all__ = [
    "OBSERVATIONS",
    "IllegalActionError",
    "JSONSpace",
    "KitiAEC",
    "KitiParallel",
    "env",
    "parallel_env",
]
