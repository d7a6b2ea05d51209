"""Bots by name, configured from text such as ``ismcts:iters=2000`` or ``heuristic``.

Every bot declares its parameters as :class:`~kiti.core.options.OptionSpec` values, so a
spec is checked the same way game options are: unknown names and bad values are refused
with a message naming the bot and the parameter.  The heuristic's parameters are the
game's own (its strategy's ``params``).

Budgets are declared the same way (``ismcts``: at most ``MAX_ITERS`` iterations or
``MAX_SECONDS`` seconds a move), so :func:`make_bot` refuses a bigger one wherever a spec
comes from: the command line, a record's lineup (:func:`check_lineup`, which names the
seat) or a server request.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import KitiError, OptionError, quoted
from ..core.game import State
from ..core.options import OptionSpec
from ..core.registry import has_part
from .base import Bot


class BotSpecError(KitiError, ValueError):
    """A bot name or parameter that Kiti does not know."""


#: The longest bot spec (characters) a record or a server request may give a seat.
MAX_SPEC = 200
HUMAN = "human"


def ismcts_params() -> tuple[OptionSpec, ...]:
    from .ismcts import PARAMS

    return PARAMS


def heuristic_params(game: type[State]) -> tuple[OptionSpec, ...]:
    from .heuristic import strategy_class

    return tuple(strategy_class(game).params)


def _make_random(game: type[State], seed: int | None, params: dict[str, Any]) -> Bot:
    from .random_bot import RandomBot

    return RandomBot(seed)


def _make_heuristic(game: type[State], seed: int | None, params: dict[str, Any]) -> Bot:
    from .heuristic import HeuristicBot

    return HeuristicBot(game, seed, **params)


def _make_ismcts(game: type[State], seed: int | None, params: dict[str, Any]) -> Bot:
    from .ismcts import ISMCTSBot

    params = dict(params)
    seconds = params.pop("time", None)
    return ISMCTSBot(seed, seconds=seconds, game=game, **params)  # the game: for its learned policy


def openspiel_ismcts_params() -> tuple[OptionSpec, ...]:
    from .openspiel_ismcts import PARAMS

    return PARAMS


def _make_openspiel_ismcts(game: type[State], seed: int | None, params: dict[str, Any]) -> Bot:
    from .openspiel_ismcts import OpenSpielISMCTSBot

    return OpenSpielISMCTSBot(seed, **params)


def policy_params(game: type[State]) -> tuple[OptionSpec, ...]:
    what = "bot policy parameter"
    return (
        OptionSpec("target", str, "", "module:callable or path/to/file.py:callable", what=what),
        OptionSpec(
            "observation", str, "tensor", "what the policy reads", ("tensor", "info_state"), what=what
        ),
    )


def _make_policy(game: type[State], seed: int | None, params: dict[str, Any]) -> Bot:
    try:
        from ..rl.policy import PolicyBot
    except ImportError as exc:
        raise BotSpecError(f"bot policy needs the [rl] extra (pip install 'kiti[rl]'): {exc}") from None
    if not params.get("target"):
        raise BotSpecError("bot policy needs its callable: policy:module:callable or policy:file.py:callable")
    return PolicyBot(game, seed, params["target"], params.get("observation", "tensor"))


#: name -> (parameters for a game, factory(game, seed, checked params))
BOTS: dict[
    str,
    tuple[
        Callable[[type[State]], tuple[OptionSpec, ...]],
        Callable[[type[State], int | None, dict[str, Any]], Bot],
    ],
] = {
    "random": (lambda game: (), _make_random),
    "heuristic": (heuristic_params, _make_heuristic),
    "ismcts": (lambda game: ismcts_params(), _make_ismcts),
    "openspiel-ismcts": (lambda game: openspiel_ismcts_params(), _make_openspiel_ismcts),
    "policy": (policy_params, _make_policy),
}


#: Bots that need an optional package (the [rl] extra brings both), and bots a server never
#: offers to its players (a policy runs code named by whoever makes the table: the server's
#: operator lists the allowed ones, see kiti.server.newtable)
NEEDS = {"openspiel-ismcts": "pyspiel", "policy": "numpy"}  # the module each needs
OPERATOR_ONLY = frozenset({"policy"})


def installed(name: str) -> bool:
    """Whether the bot ``name`` can be made here (its optional package is installed)."""
    need = NEEDS.get(name)
    return need is None or importlib.util.find_spec(need) is not None


def offered_online(game: type[State]) -> list[str]:
    """The bots a server's lobby offers for ``game``: installed here, not operator-only, and
    the heuristic only where the game declares one; then the game's shipped learned policy
    (``policy:GAME``: data in its package, not code)."""
    return [
        name
        for name in BOTS
        if name not in OPERATOR_ONLY
        and installed(name)
        and (name != "heuristic" or has_part(game, "heuristic"))
    ] + shipped_policies(game)


def shipped_policies(game: type[State]) -> list[str]:
    """``["policy:GAME"]`` where the game's package ships learned policies (its ``policy/``
    folder, kiti.rl.learned) and numpy is installed to play them; else nothing."""
    return [f"policy:{game.info.id}"] if _shipped_names(game) else []


def is_shipped_policy(target: str, game: type[State]) -> bool:
    """Whether a ``policy:`` bot's ``target`` names policies ``game`` ships (``GAME``, or
    ``GAME.NAME`` for one of them by name): data in its package, not code."""
    game_id, _, name = target.partition(".")
    names = _shipped_names(game)
    return game_id == game.info.id and bool(names) and (not name or name in names)


def _shipped_names(game: type[State]) -> list[str]:
    """The names of the learned policies in the game's package (none without numpy to play them)."""
    import sys
    from pathlib import Path

    package = sys.modules.get(game.__module__.rpartition(".")[0])
    where = Path(getattr(package, "__file__", None) or ".").parent / "policy"
    if not installed("policy"):
        return []
    return sorted(p.stem for p in where.glob("*.npz"))


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iters=2000,rollout=heuristic"`` -> ("ismcts", {"iters": "2000", ...}).

    A policy's callable comes first and keeps its case: ``"policy:pkg.mod:act"`` ->
    ("policy", {"target": "pkg.mod:act"})."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    params: dict[str, str] = {}
    if name == "policy" and rest and "=" not in rest.partition(",")[0]:
        target, _, rest = rest.partition(",")
        params["target"] = target.strip()
    if rest:
        for part in rest.replace(";", ",").split(","):
            if not part.strip():
                continue
            if "=" not in part:
                if name not in BOTS:  # a misspelled bot, not a parameter written wrong
                    raise BotSpecError(f"unknown bot {quoted(name)} (known bots: {', '.join(sorted(BOTS))})")
                raise BotSpecError(
                    f"bot parameter {quoted(part.strip())} in {quoted(spec)} must be written key=value"
                )
            k, v = part.split("=", 1)
            key = k.strip().lower()
            if key in params:
                raise BotSpecError(f"bot parameter {quoted(key)} is given twice in {quoted(spec)}")
            params[key] = v.strip()
    return name, params


def split_bot_specs(text: str, what: str = "--bots") -> list[str]:
    """``"human,ismcts:time=1,c=2,random"`` -> one spec per seat.

    A comma separates seats, except that a ``key=value`` piece after a bot that already
    has parameters continues that bot's parameters (``ismcts:time=1,c=2`` is one seat).
    An empty entry is an error naming its place in ``what`` (the option it came from).
    """
    specs: list[str] = []
    for index, piece in enumerate(text.split(",")):
        piece = piece.strip()
        if not piece:
            raise BotSpecError(f"{what} entry {index + 1} is empty (write e.g. heuristic,random,random)")
        if "=" in piece and ":" not in piece and specs and ":" in specs[-1]:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def check_bot_params(name: str, specs: tuple[OptionSpec, ...], params: dict[str, str]) -> dict[str, Any]:
    """``params`` converted by the bot's declared parameters; BotSpecError naming a bad one."""
    by_name = {s.name: s for s in specs}
    out: dict[str, Any] = {}
    for key, value in params.items():
        spec = by_name.get(key)
        if spec is None:
            have = ", ".join(by_name) or "none"
            raise BotSpecError(f"bot {name} has no parameter {quoted(key)} (its parameters: {have})")
        try:
            out[key] = spec.coerce(value)
        except OptionError as exc:
            raise BotSpecError(str(exc)) from None
    return out


def make_bot(spec: str, game: type[State], seed: int | None = None) -> Bot:
    """Build a bot for ``game`` from its text spec; raise BotSpecError naming what is wrong."""
    name, raw = parse_bot_spec(spec)
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {quoted(name)} (known bots: {', '.join(sorted(BOTS))})")
    params_for, factory = BOTS[name]
    try:
        specs = params_for(game)
    except KitiError as exc:  # e.g. the game declares no heuristic
        raise BotSpecError(f"bot {name} cannot play {game.info.name}: {exc}") from None
    params = check_bot_params(name, specs, raw)
    try:
        return factory(game, seed, params)
    except KitiError as exc:
        raise BotSpecError(f"bot {name} cannot play {game.info.name}: {exc}") from None


def check_table(spec: str, game: type[State], players: int, options: Mapping[str, Any]) -> None:
    """Check that the bot ``spec`` names can play a table of ``players`` seats with
    ``options`` (a bot may declare ``check_table(players, options)``: a learned policy plays
    only the tables it was trained for), before the game starts; BotSpecError naming the bot."""
    bot = make_bot(spec, game, 0)
    hook = getattr(bot, "check_table", None)
    if hook is None:
        return
    try:
        hook(players, dict(options))
    except KitiError as exc:
        raise BotSpecError(f"bot {spec.strip()} cannot play this table: {exc}") from None


def check_lineup(specs: list[str], game: type[State]) -> None:
    """Check a lineup that came from elsewhere (a record): each seat ``"human"`` or a bot
    spec of at most :data:`MAX_SPEC` characters that :func:`make_bot` accepts, within the
    bots' declared budgets.  BotSpecError naming the seat, its spec and what is wrong."""
    for seat, spec in enumerate(specs):
        if spec.strip().lower() == HUMAN:
            continue
        if not spec.strip() or len(spec) > MAX_SPEC:
            raise BotSpecError(
                f'seat {seat} must be "human" or a bot spec of 1-{MAX_SPEC} characters, not {quoted(spec)}'
            )
        try:
            make_bot(spec, game, 0)
        except BotSpecError as exc:
            raise BotSpecError(f"seat {seat}'s bot {spec.strip()}: {exc}") from None
