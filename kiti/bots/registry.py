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


#: name -> factory(seed, params)
BOTS: dict[str, Callable[[int | None, dict[str, str]], Bot]] = {"random": _random}


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


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """Build a bot from its text spec; raise BotSpecError naming what is wrong."""
    name, params = parse_bot_spec(spec)
    if name not in BOTS:
        raise BotSpecError(f"unknown bot {name!r} (known bots: {', '.join(sorted(BOTS))})")
    return BOTS[name](seed, params)


def bot_names() -> list[str]:
    return sorted(BOTS)


def describe(spec: str) -> dict[str, Any]:
    name, params = parse_bot_spec(spec)
    return {"name": name, "params": params}
