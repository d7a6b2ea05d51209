"""Kiti's games as OpenSpiel games: :func:`register_all`, then ``pyspiel.load_game("kiti_miaui")``.

Every registered Kiti game ``<id>`` becomes the OpenSpiel game ``kiti_<id>`` (see
``docs/rl.md``, section OpenSpiel), with these parameters:

- ``players``: the seat count (default: the fewest the game allows, as :func:`kiti.load`);
- ``simultaneous``: false (default) for the **turn-based shape**, Kiti's one turn rule: in a
  secret choice the seats commit one at a time, lowest seat first, and nobody sees a
  committed choice (the game is of imperfect information, so nothing is lost); true for the
  **simultaneous shape**: a node where several seats must choose is an OpenSpiel
  simultaneous node, applied with ``State.apply_all``; a seat outside the choice has one
  legal action there, ``NOOP`` (the action after the codec's last);
- every option of the game, by name, with its default.

**Actions** are the game's action codec (``Game.codec``): action ``a`` is
``codec.moves[a]``, and its string is that move's notation.

**Chance.**  Kiti draws every random event from the state's seeded generator, so a game is a
pure function of its seed and the moves.  The OpenSpiel game therefore opens with
:data:`DEAL_NODES` explicit chance nodes of 256 equally likely outcomes each, which spell the
Kiti seed byte by byte (the first byte is the most significant): the deal, the deck's whole
order and every later draw follow from it.  Nothing else is a chance node, and no player
observes a chance action: what a seat learns of the deck comes through the game's events.
The same deal is ``kiti.load(...).new_state(seed)`` with that seed.

**Hidden information and resampling.**  ``resample_from_infostate(player, sampler)`` is the
game's own :meth:`kiti.core.game.State.resample` for that seat (its generator seeded from
``sampler()``): a full state the seat cannot tell from this one, with the hidden cards and
the future draws redrawn.  So OpenSpiel's ISMCTS needs no resampler callback.  The returned
state has no OpenSpiel history (a guess has no record, as in Kiti), so the true deal never
leaks through ``history()``.

**Utilities** are Kiti's ``returns()``: each seat's share of the victory (0..1).  When every
party is a team of the same size k (each seat alone: k = 1), they sum to k in every game,
truncated games included: ``CONSTANT_SUM`` with ``utility_sum = k`` (Mauw with teams: 2, not
rescaled).  A party that is no seat (MOTU's solo Opponent), a single player or parties of
different sizes (Mauw's teams with an odd seat out) make it ``GENERAL_SUM``.

**Observations.**  Where the game declares a ``tensors`` part, the observation tensor and the
information-state tensor are its encoder's (:mod:`kiti.rl.tensors`), named by their segments;
before the deal they are zeros.  The information-state string is what ISMCTS keys its tree
with: the seat, its own moves, the events it saw and a digest of its observation tensor (of
its observation's JSON for a game without tensors); the observation string is the seat's
view as JSON.

Clones go through :meth:`State.clone` (the OpenSpiel state's only deep attribute copies
itself that way), never through a deep copy of the Kiti state.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import IllegalMoveError, KitiError, quoted
from ..core.game import State
from ..core.load import Game, load
from ..core.registry import game_ids, get_game, has_part
from ..core.tensors import Encoder, InfoStateTracker, Layout
from .tensors import encoder_for

#: The prefix of every Kiti game's OpenSpiel name.
PREFIX = "kiti_"
#: Chance nodes that draw the deal (the Kiti seed), one byte each: 2**32 deals.
DEAL_NODES = 4
DEAL_OUTCOMES = 256
_CHANCE = [(i, 1.0 / DEAL_OUTCOMES) for i in range(DEAL_OUTCOMES)]
_SHAPE_PARAM = "simultaneous"


def short_name(game_id: str) -> str:
    """The OpenSpiel name of the Kiti game ``game_id``."""
    return PREFIX + game_id


def parameters(cls: type[State]) -> dict[str, Any]:
    """The OpenSpiel parameters of a Kiti game and their defaults."""
    params: dict[str, Any] = {"players": cls.info.min_seats, _SHAPE_PARAM: False}
    for spec in cls.info.options:
        if spec.name in params:
            raise KitiError(f"{cls.info.name}'s option {spec.name!r} clashes with an OpenSpiel parameter")
        params[spec.name] = spec.default
    return params


def utility(state: State) -> tuple[Any, float | None]:
    """The OpenSpiel utility declaration of a game, read from its parties (see the module doc)."""
    sizes = {len(p.seats) for p in state.parties()}
    if state.players == 1 or 0 in sizes or len(sizes) != 1:
        return pyspiel.GameType.Utility.GENERAL_SUM, None
    return pyspiel.GameType.Utility.CONSTANT_SUM, float(sizes.pop())


def game_type(cls: type[State], simultaneous: bool, utility_kind: Any, tensors: bool) -> Any:
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name(cls.info.id),
        long_name=f"Kiti {cls.info.name}",
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility_kind,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.info.max_seats,
        min_num_players=cls.info.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=tensors,
        provides_observation_string=True,
        provides_observation_tensor=tensors,
        parameter_specification=parameters(cls),
    )


_REGISTERED: set[str] = set()
_CLASSES: dict[str, type[KitiGame]] = {}


def register_all() -> list[str]:
    """Register every Kiti game with OpenSpiel (once; later calls add games registered
    since); return the OpenSpiel names, ``kiti_<id>`` for each game id."""
    known = set(pyspiel.registered_names())
    for game_id in game_ids():
        name = short_name(game_id)
        if name in _REGISTERED or name in known:
            _REGISTERED.add(name)
            continue
        cls = get_game(game_id)
        first = cls.new(cls.info.min_seats, None, 0)
        kind, _ = utility(first)
        gtype = game_type(cls, False, kind, has_part(cls, "tensors"))
        # A class per game (kept here): OpenSpiel holds its creator until the process ends.
        _CLASSES[game_id] = type(f"Kiti_{game_id}", (KitiGame,), {"game_id": game_id})
        pyspiel.register_game(gtype, _CLASSES[game_id])
        _REGISTERED.add(name)
    return [short_name(g) for g in game_ids()]


def load_game(game: Game) -> Any:
    """The OpenSpiel game of a loaded Kiti game, turn-based (registering the games first)."""
    register_all()
    params: dict[str, Any] = {"players": game.players, **game.options}
    return pyspiel.load_game(short_name(game.id), params)


class _Shared:
    """What every state of one OpenSpiel game shares: never copied (a deep copy is itself)."""

    __slots__ = ("codec", "encoder", "game", "noop", "simultaneous")

    def __init__(self, game: Game, simultaneous: bool) -> None:
        self.game = game
        self.simultaneous = simultaneous
        self.codec = game.codec
        self.noop = self.codec.size
        self.encoder: Encoder | None = encoder_for(game) if has_part(game.rules, "tensors") else None

    def __deepcopy__(self, memo: Any) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return _shared, (self.game.id, self.game.players, self.simultaneous, tuple(self.game.options.items()))


@functools.cache
def _shared(game_id: str, players: int, simultaneous: bool, options: tuple[tuple[str, Any], ...]) -> _Shared:
    return _Shared(load(game_id, players=players, **dict(options)), simultaneous)


class _Held:
    """The Kiti state inside an OpenSpiel state (None before the deal), with the information
    strings worked out for it; a deep copy is :meth:`State.clone` (the strings start afresh)."""

    __slots__ = ("keys", "state")

    def __init__(self, state: State | None) -> None:
        self.state = state
        self.keys: dict[int, str] = {}

    def __deepcopy__(self, memo: Any) -> _Held:
        return _Held(None if self.state is None else self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        if self.state is None:
            return _Held, (None,)
        return _replayed, (json.dumps(self.state.record()),)  # a resampled state: SetupError


def _replayed(record: str) -> _Held:
    from ..core.records import replay

    return _Held(replay(json.loads(record)))


class KitiGame(pyspiel.Game):  # type: ignore[misc]
    """One Kiti game (rules, seats, options, shape) as an OpenSpiel game (a subclass per
    Kiti game, made by :func:`register_all`, names it by ``game_id``)."""

    game_id: str

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_id = self.game_id
        cls = get_game(game_id)
        params = {**parameters(cls), **dict(params or {})}
        simultaneous = bool(params.pop(_SHAPE_PARAM))
        players = params.pop("players")
        shared = _shared(
            game_id, int(players), simultaneous, tuple(load(game_id, players, **params).options.items())
        )
        game = shared.game
        kind, total = utility(game.new_state(0))
        gtype = game_type(cls, simultaneous, kind, shared.encoder is not None)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.codec.size + (1 if simultaneous else 0),
            max_chance_outcomes=DEAL_OUTCOMES,
            num_players=game.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=total,
            max_game_length=game.move_limit,
        )
        super().__init__(gtype, info, {"players": game.players, _SHAPE_PARAM: simultaneous, **game.options})
        self.shared = shared

    def new_initial_state(self) -> KitiSpielState:
        """A game before the deal (its first :data:`DEAL_NODES` nodes are chance nodes)."""
        return KitiSpielState(self, self.shared)

    def state_from_kiti(self, state: State) -> KitiSpielState:
        """An OpenSpiel state holding ``state`` (a Kiti state of this game; it is not copied),
        past the deal, with no OpenSpiel history."""
        kiti = self.shared.game
        if type(state) is not kiti.rules or state.players != kiti.players or state.options != kiti.options:
            raise KitiError(f"{state!r} is not a game of {kiti!r}")
        return KitiSpielState(self, self.shared, state)

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_NODES

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KitiObserver:
        return KitiObserver(self.shared, iig_obs_type, params)


class KitiSpielState(pyspiel.State):  # type: ignore[misc]
    """A Kiti state as an OpenSpiel state (see the module doc for the shapes and chance)."""

    def __init__(self, game: Any, shared: _Shared, state: State | None = None) -> None:
        super().__init__(game)
        self._shared = shared
        self._held = _Held(state)
        self._deal = 0 if state is None else state.seed
        self._dealt = 0 if state is None else DEAL_NODES

    @property
    def kiti_state(self) -> State | None:
        """The Kiti state inside (None before the deal): the full state, hidden cards included."""
        return self._held.state

    # ------------------------------------------------------------ turns
    def current_player(self) -> int:
        state = self._held.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        acting = state.to_act()
        if not acting:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(acting) > 1 and self._shared.simultaneous:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return min(acting)

    def _legal_actions(self, player: int) -> list[int]:
        state = self._held.state
        if state is None or state.over:
            return []
        if player in state.to_act():
            return state.legal_actions(player)
        return [self._shared.noop] if self._shared.simultaneous else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._held.state is not None:
            raise KitiError("only the deal is a chance node in a Kiti game")
        return _CHANCE

    def _apply_action(self, action: int) -> None:
        held = self._held
        state = held.state
        if state is None:
            if type(action) is not int or not 0 <= action < DEAL_OUTCOMES:
                raise KitiError(f"a deal byte is 0-{DEAL_OUTCOMES - 1}, not {quoted(action)}")
            self._deal = self._deal * DEAL_OUTCOMES + action
            self._dealt += 1
            if self._dealt == DEAL_NODES:
                held.state = self._shared.game.new_state(self._deal)
            return
        seat = self.current_player()
        if seat < 0:
            raise IllegalMoveError(None, action, "the game is over: no more moves")
        state.apply(seat, self._move(action))
        held.keys.clear()

    def _apply_actions(self, actions: list[int]) -> None:
        state = self._held.state
        if state is None or len(actions) != state.players:
            raise KitiError(f"a simultaneous choice needs one action per seat, not {quoted(actions)}")
        acting = state.to_act()
        noop = self._shared.noop
        for seat, action in enumerate(actions):
            if seat not in acting and action != noop:
                raise IllegalMoveError(
                    seat, action, f"seat {seat} is not in this choice: its action must be NOOP ({noop})"
                )
        state.apply_all({seat: self._move(actions[seat]) for seat in acting})
        self._held.keys.clear()

    def _move(self, action: Any) -> Any:
        return self._shared.codec.decode(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {action}"
        if action == self._shared.noop and self._shared.simultaneous:
            return "noop"
        return str(self._move(action))

    # ------------------------------------------------------------ results
    def is_terminal(self) -> bool:
        state = self._held.state
        return state is not None and state.over

    def returns(self) -> list[float]:
        state = self._held.state
        return [0.0] * self.num_players() if state is None else state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KitiSpielState:
        """A state ``player_id`` cannot tell from this one: the game's ``resample``."""
        state = self._held.state
        if state is None:
            return KitiSpielState(self.get_game(), self._shared)
        rng = random.Random(int(float(probability_sampler()) * 2**53))
        return KitiSpielState(self.get_game(), self._shared, state.resample(player_id, rng))

    def __str__(self) -> str:
        state = self._held.state
        if state is None:
            return f"before the deal ({self._dealt} of {DEAL_NODES} deal bytes drawn)"
        moves = " ".join(f"{seat}:{move}" for seat, move in state.history)
        guess = " (a resampled guess)" if state.resampled else ""
        return f"{self._shared.game!r} seed={state.seed}{guess} moves: {moves}"

    def information_key(self, seat: int) -> str:
        """The seat's information-state string (see the module doc), kept until the next move."""
        held = self._held
        key = held.keys.get(seat)
        if key is None:
            key = held.keys[seat] = _information_key(self._shared, held.state, seat)
        return key


def _information_key(shared: _Shared, state: State | None, seat: int) -> str:
    if state is None:
        return f"seat {seat}: before the deal"
    bit = 1 << seat
    seen = " ".join(f"{e[1]}{e[2]!r}" for e in state.log if e[0] & bit)
    own = " ".join(str(m) for s, m in state.history if s == seat)
    if shared.encoder is not None:
        now = shared.encoder.observation(state, seat).tobytes()
    else:
        now = json.dumps(state.observation(seat), sort_keys=True).encode()
    digest = hashlib.blake2b(now, digest_size=12).hexdigest()
    return f"seat {seat} | moves: {own} | saw: {seen} | now: {digest}"


class KitiObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``):
    the seat's own sight only, as the observation (``perfect_recall=False``) or the
    information state (``perfect_recall=True``)."""

    def __init__(self, shared: _Shared, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise KitiError(f"Kiti's observers take no parameters, not {quoted(params)}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise KitiError("Kiti observes a game as one seat sees it (public and that seat's private info)")
        self.shared = shared
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        encoder = shared.encoder
        self.layout: Layout | None = None
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        self._trackers: dict[int, InfoStateTracker] = {}
        if encoder is not None:
            self.layout = encoder.info_state_layout if self.perfect_recall else encoder.observation_layout
            self.tensor = self.layout.zeros()
            self.dict = {name: self.layout.view(self.tensor, name) for name in self.layout.names}

    def set_from(self, state: KitiSpielState, player: int) -> None:
        encoder = self.shared.encoder
        if encoder is None or self.tensor is None:
            return
        kiti = state.kiti_state
        if kiti is None:
            self.tensor.fill(0.0)
        elif not self.perfect_recall:
            encoder.observation(kiti, player, self.tensor)
        else:
            tracker = self._trackers.get(player)
            if tracker is None:
                tracker = self._trackers[player] = encoder.info_state_tracker(player)
            tracker(kiti, self.tensor)

    def string_from(self, state: KitiSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_key(player)
        kiti = state.kiti_state
        if kiti is None:
            return f"seat {player}: before the deal"
        return json.dumps(kiti.observation(player), separators=(",", ":"))
