"""Typed game options (variants and rulings) with defaults and validation."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class OptionSpec:
    """One option a game declares: name, type, default and allowed values."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None  # may be the string "players-1" style handled by the game

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise OptionError."""
        name = self.name
        if self.type is bool:
            if isinstance(value, bool):
                out: Any = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                out = value.strip().lower() in _TRUE
            else:
                raise OptionError(f"option {name} must be true or false, not {value!r}")
        elif self.type is int:
            if isinstance(value, bool):
                raise OptionError(f"option {name} must be an integer, not {value!r}")
            if isinstance(value, int):
                out = value
            elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
                out = int(value.strip())
            else:
                raise OptionError(f"option {name} must be an integer, not {value!r}")
            if self.minimum is not None and out < self.minimum:
                raise OptionError(f"option {name} must be at least {self.minimum}, not {out}")
            if self.maximum is not None and out > self.maximum:
                raise OptionError(f"option {name} must be at most {self.maximum}, not {out}")
        elif self.type is str:
            if not isinstance(value, str):
                raise OptionError(f"option {name} must be a string, not {value!r}")
            out = value.strip()
        else:  # pragma: no cover - games only declare bool, int and str
            raise OptionError(f"option {name} has an unsupported type")
        if self.choices is not None and out not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {name} must be one of {allowed}, not {out!r}")
        return out


def resolve_options(specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None) -> dict[str, Any]:
    """Merge ``given`` over the defaults, validating every value; unknown names are errors."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for key, value in (given or {}).items():
        if key not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option {key!r} (known options: {known})")
        out[key] = by_name[key].coerce(value)
    return out


def parse_option_args(args: list[str] | None) -> dict[str, str]:
    """Parse command-line ``k=v`` pairs into a dict of strings."""
    out: dict[str, str] = {}
    for arg in args or []:
        if "=" not in arg:
            raise OptionError(f"option {arg!r} must be written name=value")
        key, value = arg.split("=", 1)
        key = key.strip().replace("-", "_")
        if not key:
            raise OptionError(f"option {arg!r} has no name")
        out[key] = value
    return out
