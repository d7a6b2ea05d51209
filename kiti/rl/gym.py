"""A Gymnasium face of every Kiti game: one learning seat against Kiti bots.

``make("miaui", players=4, opponents="heuristic", seat=0)`` returns a
:class:`gymnasium.Env` in which the agent plays ``seat`` and every other seat is a Kiti bot
built from its spec (``"random"``, ``"heuristic"``, ``"ismcts:iters=200"``, a
``policy:...``: :func:`kiti.bots.registry.make_bot`); ``opponents`` is one spec for every
other seat, or a list of one spec per other seat in seat order.  Bots see only their seat's
:class:`~kiti.core.seatview.SeatView`, as in ``kiti play``.

The agent observes ``{"observation", "action_mask"}`` and acts in the flat action space of
the PettingZoo faces (:mod:`kiti.rl.spaces`; NOOP is never legal here: the agent is only
asked when it must act).  In a simultaneous secret choice the bots choose from the table
before anyone's choice, the agent chooses, and all choices are applied together.  The reward
is 0 until the game ends, then the seat's ``State.returns()`` share; ``truncated`` when the
engine stopped the game at its move limit.  Illegal actions follow the env's policy
(``"raise"``, ``"penalty"``: the episode ends with reward ``penalty``, ``"random"``).
``reset(seed=s)`` starts the game with seed ``s`` and seeds the bots and the env's own
generator from it (``reset()``: the next seed from that generator).
"""

from __future__ import annotations

from typing import Any

import gymnasium

from ..bots.registry import make_bot
from ..core.errors import KitiError, quoted
from ..core.game import MAX_SEED
from ..core.load import Game
from ..core.moves import Move
from ..core.seatview import seat_view
from . import play_bots_until
from .pettingzoo import Table, check_keywords


class KitiGym(gymnasium.Env):
    """One seat of a Kiti game against bots (see the module's docs); made by :func:`make`."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        game: Game | str,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        opponents: str | list[str] = "random",
        seat: int = 0,
        observation: str = "tensor",
        illegal: str = "raise",
        penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.table = Table(game, players, options, observation, illegal, penalty)
        n = self.table.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise KitiError(f"seat must be a seat of this {n}-player game (0-{n - 1}), not {quoted(seat)}")
        self.seat = seat
        self.specs = _opponents(opponents, seat, n)
        rules = self.table.game.rules
        for spec in self.specs.values():
            make_bot(spec, rules, 0)  # a bad spec fails here, naming what is wrong
        if render_mode not in (None, "ansi"):
            raise KitiError(f"render_mode must be None or 'ansi', not {quoted(render_mode)}")
        self.render_mode = render_mode
        spaces_obs, spaces_act = self.table.spaces()
        self.observation_space = spaces_obs[self.table.agents[seat]]
        self.action_space = spaces_act[self.table.agents[seat]]
        self.bots: dict[int, Any] = {}
        self._held: dict[int, Move] = {}
        self._ended = False
        self._started = False  # reset() seats the bots: step() before it is refused

    @property
    def state(self) -> Any:
        """The engine's state of the game being played (the referee's whole truth)."""
        return self.table.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        table = self.table
        table.reset(seed)  # (checks the seed first: Kiti's message, not Gymnasium's)
        super().reset(seed=seed)
        rules = table.game.rules
        self.bots = {
            s: make_bot(spec, rules, table.rng.randrange(MAX_SEED)) for s, spec in self.specs.items()
        }
        self._held = {}
        self._ended = False  # an illegal action ended the episode ("penalty")
        self._started = True
        self._play_bots()
        return table.observe(self.seat), {}

    def _play_bots(self) -> None:
        """Play the bots until the agent must act (holding the bots' part of a simultaneous
        choice that includes it) or the game ends."""
        state = self.table.state
        moved = len(state.history)
        self._held = play_bots_until(state, self.seat, lambda s: self.bots[s].choose(seat_view(state, s)))
        if len(state.history) != moved:
            self.table.version += 1

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        state = table.state
        if not self._started:
            raise KitiError("call reset() before step()")
        if state.over or self._ended:
            raise KitiError("the episode is over: call reset() before step()")
        info: dict[str, Any] = {}
        chosen = table.resolve(self.seat, action, table.mask(self.seat))
        if chosen is None:  # "penalty": the episode ends here, the game left as it was
            info["illegal_action"] = action
            self._ended = True
            return table.observe(self.seat), table.penalty, True, False, info
        if chosen != action:
            info.update(illegal_action=action, played=chosen)
        if self._held:
            moves = dict(self._held)
            moves[self.seat] = table.actions.moves[chosen]
            self._held = {}
            state.apply_all(moves)
        else:
            state.step(self.seat, chosen)
        table.version += 1
        self._play_bots()
        reward = float(state.returns()[self.seat]) if state.over else 0.0
        return table.observe(self.seat), reward, state.over and not state.truncated, state.truncated, info

    def render(self) -> str | None:
        return None if self.render_mode is None else self.table.render()


def _opponents(opponents: str | list[str], seat: int, players: int) -> dict[int, str]:
    others = [s for s in range(players) if s != seat]
    if isinstance(opponents, str):
        return dict.fromkeys(others, opponents)
    if not isinstance(opponents, (list, tuple)) or not all(isinstance(s, str) for s in opponents):
        raise KitiError(f"opponents must be a bot spec or a list of them, not {quoted(opponents)}")
    if len(opponents) != len(others):
        raise KitiError(f"opponents lists {len(opponents)} bots for the {len(others)} other seats")
    return dict(zip(others, opponents))


def make(
    game: Game | str, players: int | None = None, options: dict[str, Any] | None = None, **kwargs: Any
) -> KitiGym:
    """A Gymnasium env of ``game`` (an id with ``players`` and ``options``, or a loaded
    :class:`kiti.Game`); keywords: ``opponents`` ("random"; a spec or a list of specs),
    ``seat`` (0), ``observation`` ("tensor", "info_state", "dict"), ``illegal``, ``penalty``,
    ``render_mode`` (see :mod:`kiti.rl.pettingzoo`)."""
    check_keywords(KitiGym, kwargs)
    return KitiGym(game, players, options, **kwargs)


__all__ = ["KitiGym", "make"]
