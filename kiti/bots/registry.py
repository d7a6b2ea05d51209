"""Bots by name, configured from text such as ``ismcts:iters=2000`` or ``heuristic``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import KitiError
from .base import Bot
from .random_bot import RandomBot


class BotSpecError(KitiError, ValueError):
    """A bot name or parameter that Kiti does not know."""


def _random(seed: int | None, params: dict[str, str]) -> Bot:
    if params:
        raise BotSpecError(f"bot random takes no parameters (got {', '.join(params)})")
    return RandomBot(seed)


def _check_params(bot: str, params: dict[str, str], allowed: tuple[str, ...]) -> None:
    for key in params:
        if key not in allowed:
            raise BotSpecError(
                f"bot {bot} has no parameter {key!r} (its parameters: {', '.join(allowed)})"
            )


def _int_param(bot: str, key: str, value: str, minimum: int) -> int:
    try:
        out = int(value)
    except ValueError:
        raise BotSpecError(f"bot {bot} parameter {key} must be an integer, not {value!r}") from None
    if out < minimum:
        raise BotSpecError(f"bot {bot} parameter {key} must be at least {minimum}, not {out}")
    return out


def _float_param(bot: str, key: str, value: str, minimum: float, strict: bool = False) -> float:
    try:
        out = float(value)
    except ValueError:
        raise BotSpecError(f"bot {bot} parameter {key} must be a number, not {value!r}") from None
    if out != out or out in (float("inf"), float("-inf")) or out < minimum or (strict and out == minimum):
        bound = f"greater than {minimum:g}" if strict else f"at least {minimum:g}"
        raise BotSpecError(f"bot {bot} parameter {key} must be {bound}, not {value!r}")
    return out


def _choice_param(bot: str, key: str, value: str, choices: tuple[str, ...]) -> str:
    v = value.strip().lower()
    if v not in choices:
        raise BotSpecError(
            f"bot {bot} parameter {key} must be one of {', '.join(choices)}, not {value!r}"
        )
    return v


def _heuristic(seed: int | None, params: dict[str, str]) -> Bot:
    from .heuristic import HeuristicBot

    _check_params("heuristic", params, ("samples", "beta"))
    kwargs: dict[str, Any] = {}
    if "samples" in params:
        kwargs["samples"] = _int_param("heuristic", "samples", params["samples"], 1)
    if "beta" in params:
        kwargs["beta"] = _float_param("heuristic", "beta", params["beta"], 0.0)
    return HeuristicBot(seed, **kwargs)


def _ismcts(seed: int | None, params: dict[str, str]) -> Bot:
    from .ismcts import ISMCTSBot

    _check_params("ismcts", params, ("iters", "time", "rollout", "c", "reward"))
    kwargs: dict[str, Any] = {}
    if "iters" in params:
        kwargs["iters"] = _int_param("ismcts", "iters", params["iters"], 1)
    if "time" in params:
        kwargs["seconds"] = _float_param("ismcts", "time", params["time"], 0.0, strict=True)
    if "rollout" in params:
        kwargs["rollout"] = _choice_param("ismcts", "rollout", params["rollout"], ("random", "heuristic"))
    if "c" in params:
        kwargs["c"] = _float_param("ismcts", "c", params["c"], 0.0)
    if "reward" in params:
        kwargs["reward"] = _choice_param("ismcts", "reward", params["reward"], ("win", "margin"))
    return ISMCTSBot(seed, **kwargs)


#: name -> factory(seed, params)
BOTS: dict[str, Callable[[int | None, dict[str, str]], Bot]] = {
    "random": _random,
    "heuristic": _heuristic,
    "ismcts": _ismcts,
}


def parse_bot_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iters=2000,rollout=heuristic"`` -> ("ismcts", {"iters": "2000", ...})."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    params: dict[str, str] = {}
    if rest:
        for part in rest.replace(";", ",").split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise BotSpecError(f"bot parameter {part!r} in {spec!r} must be written key=value")
            k, v = part.split("=", 1)
            params[k.strip().lower()] = v.strip()
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


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from its text spec; raise BotSpecError naming what is wrong."""
    name, params = parse_bot_spec(spec)
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r} (known bots: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed, params)

