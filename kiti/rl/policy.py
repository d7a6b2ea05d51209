"""Policies as bots: the bot spec ``policy:TARGET[,observation=info_state]``.

``TARGET`` is ``module:callable`` (an importable module, e.g. ``mypkg.agents:act``) or
``path/to/file.py:callable`` (a Python file, loaded as a module).  The callable maps a
seat's tensor and mask to an action: ``policy(tensor, mask) -> int``, where ``tensor`` is
the seat's observation (float32, :mod:`kiti.rl.tensors`; its information state with
``observation=info_state``) and ``mask`` the int8 mask of :class:`kiti.rl.spaces.Actions`
(the flat action space with NOOP, as the PettingZoo and Gymnasium envs give it).

Like every bot, a policy bot sees only a :class:`~kiti.core.seatview.SeatView`: it draws a
state the seat cannot tell from the true one (``determinize``) and encodes that, which gives
the seat's own tensors and legal actions exactly (the conformance suite checks that every
resample for a seat gives identical tensors).  A missing module, file or callable is a
:class:`~kiti.bots.registry.BotSpecError` when the bot is made; an action the mask forbids is
an :class:`~kiti.rl.spaces.IllegalActionError` naming the policy, the seat and the action.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Callable
from typing import Any

from ..core.errors import KitiError, quoted
from ..core.game import State
from ..core.load import Game, load
from ..core.moves import Move
from ..core.seatview import SeatView
from .spaces import Actions, IllegalActionError
from .tensors import encoder_for

Policy = Callable[[Any, Any], Any]
OBSERVATIONS = ("tensor", "info_state")


class PolicyError(KitiError, ValueError):
    """A policy target that cannot be loaded."""


def load_policy(target: str) -> Policy:
    """The callable ``target`` names (``module:callable`` or ``file.py:callable``)."""
    where, sep, name = target.strip().rpartition(":")
    if not sep or not where or not name:
        raise PolicyError(
            f"policy {quoted(target)} must be written module:callable or path/to/file.py:callable"
        )
    module = _module_of(where.strip(), target)
    policy = getattr(module, name.strip(), None)
    if policy is None:
        raise PolicyError(f"policy {quoted(target)}: {quoted(where)} has no {quoted(name)}")
    if not callable(policy):
        raise PolicyError(f"policy {quoted(target)}: {quoted(name)} is not callable")
    return policy  # type: ignore[no-any-return]


def _module_of(where: str, target: str) -> Any:
    if where.endswith(".py"):
        path = os.path.abspath(where)
        if not os.path.isfile(path):
            raise PolicyError(f"policy {quoted(target)}: there is no file {quoted(where)}")
        name = f"kiti_policy_{abs(hash(path)):x}"
        if name in sys.modules:
            return sys.modules[name]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise PolicyError(f"policy {quoted(target)}: {quoted(where)} cannot be loaded as Python")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            raise PolicyError(f"policy {quoted(target)}: loading {quoted(where)} failed: {exc}") from None
        sys.modules[name] = module
        return module
    try:
        return importlib.import_module(where)
    except ModuleNotFoundError as exc:
        raise PolicyError(f"policy {quoted(target)}: no module {quoted(exc.name or where)}") from None
    except Exception as exc:
        raise PolicyError(f"policy {quoted(target)}: importing {quoted(where)} failed: {exc}") from None


class PolicyBot:
    """A bot that plays ``policy(tensor, mask)``'s action from its SeatView; a ``target``
    without ``:`` is a learned policy (:class:`LearnedBot`)."""

    name = "policy"

    def __new__(cls, game: type[State], seed: int | None, target: str, observation: str = "tensor") -> Any:
        if ":" not in target:
            return LearnedBot(game, seed, target)
        return super().__new__(cls)

    def __init__(self, game: type[State], seed: int | None, target: str, observation: str = "tensor") -> None:
        if observation not in OBSERVATIONS:
            raise PolicyError(
                f"observation must be one of {', '.join(OBSERVATIONS)}, not {quoted(observation)}"
            )
        self.target = target
        self.policy = load_policy(target)
        self.observation = observation
        self.rng = random.Random(seed)
        self._games: dict[tuple[int, tuple[Any, ...]], Game] = {}
        encoder_for(load(game.info.id, players=game.info.min_seats))  # a game without tensors: refused now

    def _game(self, view: SeatView) -> Game:
        key = (view.players, tuple(sorted(view.options.items())))
        game = self._games.get(key)
        if game is None:
            game = self._games[key] = load(view.game.info.id, players=view.players, **view.options)
        return game

    def choose(self, view: SeatView) -> Move:
        game = self._game(view)
        seat = view.seat
        guess = view.determinize(self.rng)  # the seat's own tensors and legal actions, exactly
        encoder = encoder_for(game)
        if self.observation == "tensor":
            tensor = encoder.observation(guess, seat)
        else:
            tensor = encoder.info_state(guess, seat)
        actions = Actions(game)
        mask = actions.mask(guess, seat)
        try:
            action = self.policy(tensor, mask)
        except Exception as exc:  # the user's own code: its failure named, not its traceback
            raise PolicyError(
                f"policy {self.target} failed at seat {seat}: {type(exc).__name__}: {quoted(str(exc))}"
            ) from exc
        try:
            value = actions.as_int(action, seat)
        except IllegalActionError as exc:
            raise IllegalActionError(f"policy {self.target} returned an illegal action: {exc}") from None
        if not mask[value]:
            raise IllegalActionError(
                f"policy {self.target} returned an illegal action: {actions.refusal(guess, seat, value, mask)}"
            )
        return actions.moves[value]


class LearnedBot:
    """``policy:TARGET`` where TARGET names a learned policy (:mod:`kiti.rl.learned`): a game's
    shipped one (``miaui``: the one that plays the table; ``mauw.teams``: by name) or a saved
    one (``runs/miaui/policy.npz``, a run's folder).  It draws its move from the policy."""

    name = "policy"

    def __init__(self, game: type[State], seed: int | None, target: str) -> None:
        from .learned import LearnedPolicyError, is_path, resolve, shipped

        self.target = target.strip()
        self.rng = random.Random(seed)
        self._policies: dict[Game, Any] = {}
        game_id = self.target.partition(".")[0]
        if is_path(self.target):
            self._fixed: Any = resolve(self.target)
            if self._fixed.game.id != game.info.id:
                raise LearnedPolicyError(
                    f"policy {quoted(target)} plays {self._fixed.game.name}, not {game.info.name}"
                )
        else:
            self._fixed = None
            if game_id != game.info.id:
                raise LearnedPolicyError(
                    f"policy {quoted(target)} is no learned {game.info.name} policy (that is "
                    f"policy:{game.info.id}), and a callable must be written module:callable or "
                    "path/to/file.py:callable"
                )
            if not shipped(game_id):
                raise LearnedPolicyError(f"{game.info.name} ships no learned policy")

    def policy(self, view: SeatView) -> Any:
        """The learned policy that plays this view's table (checked once per table)."""
        return self._for(load(view.game.info.id, players=view.players, **view.options))

    def check_table(self, players: int, options: dict[str, Any]) -> None:
        """Refuse (a KitiError naming the tables there are policies for) a table that no
        policy this bot names plays, before its game starts."""
        game_id = self._fixed.game.id if self._fixed is not None else self.target.partition(".")[0]
        self._for(load(game_id, players=players, **options))

    def _for(self, game: Game) -> Any:
        from .learned import resolve

        found = self._policies.get(game)
        if found is None:
            found = self._policies[game] = resolve(self.target, game) if self._fixed is None else self._fixed
            if not found.fits(game):
                raise PolicyError(f"policy {quoted(self.target)} plays {found.game!r}, not {game!r}")
        return found

    def choose(self, view: SeatView) -> Move:
        return self.policy(view).choose(view, self.rng)  # type: ignore[no-any-return]
