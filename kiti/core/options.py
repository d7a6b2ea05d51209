"""Typed game options (variants and rulings) with defaults and validation."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import OptionError, quoted

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}
_INTEGER = re.compile(r"[+-]?[0-9]{1,30}")  # ASCII digits only, and not absurdly long
MAX_DIGITS = 30


def parse_int(text: str, what: str) -> int:
    """``text`` as an integer written with ASCII digits (an optional sign), or OptionError.

    Refuses what ``int()`` would quietly take or choke on: ``"²"``, ``"٣"``, ``"--3"``,
    underscores, and numbers of more than 30 digits.
    """
    t = text.strip()
    if not _INTEGER.fullmatch(t):
        shown = quoted(t)
        if len(t) > MAX_DIGITS and t.lstrip("+-").isascii() and t.lstrip("+-").isdigit():
            raise OptionError(
                f"{what} must be an integer of at most {MAX_DIGITS} digits (got {len(t)} characters)"
            )
        raise OptionError(f"{what} must be an integer, not {shown}")
    return int(t)


@dataclass(frozen=True)
class OptionSpec:
    """One option a game declares: name, type, default and allowed values.

    Bots declare their parameters with the same class (``what`` names them in errors).
    """

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    maximum: float | None = None
    what: str = "option"
    above_minimum: bool = False  # the minimum itself is refused (``greater than``)

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise OptionError."""
        label = f"{self.what} {self.name}"
        if self.type is bool:
            if isinstance(value, bool):
                out: Any = value
            elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                out = value.strip().lower() in _TRUE
            else:
                raise OptionError(f"{label} must be true or false, not {quoted(value)}")
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, (int, str)):
                raise OptionError(f"{label} must be an integer, not {quoted(value)}")
            if isinstance(value, str):
                out = parse_int(value, label)
            elif abs(value) >= 10**MAX_DIGITS:
                raise OptionError(f"{label} must be an integer of at most {MAX_DIGITS} digits")
            else:
                out = value
            self._check_range(label, out)
        elif self.type is float:
            out = self._float(label, value)
            self._check_range(label, out)
        elif self.type is str:
            if not isinstance(value, str):
                raise OptionError(f"{label} must be a string, not {quoted(value)}")
            out = value.strip()
        else:  # pragma: no cover - games only declare bool, int, float and str
            raise OptionError(f"{label} has an unsupported type")
        if self.choices is not None and out not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"{label} must be one of {allowed}, not {quoted(out)}")
        return out

    def _float(self, label: str, value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise OptionError(f"{label} must be a number, not {quoted(value)}")
        if isinstance(value, str):
            t = value.strip()
            if not re.fullmatch(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?", t):
                raise OptionError(f"{label} must be a number, not {quoted(value)}")
            value = float(t)
        out = float(value)
        if out != out or out in (float("inf"), float("-inf")):
            raise OptionError(f"{label} must be a finite number, not {quoted(value)}")
        return out

    def _check_range(self, label: str, out: float) -> None:
        if self.above_minimum and self.minimum is not None and out <= self.minimum:
            raise OptionError(f"{label} must be greater than {_number(self.minimum)}, not {_number(out)}")
        if self.minimum is not None and out < self.minimum:
            raise OptionError(f"{label} must be at least {_number(self.minimum)}, not {_number(out)}")
        if self.maximum is not None and out > self.maximum:
            raise OptionError(f"{label} must be at most {_number(self.maximum)}, not {_number(out)}")

    def samples(self) -> tuple[Any, ...]:
        """Values worth testing every combination of (the conformance suite uses them)."""
        if self.type is bool:
            return (False, True)
        if self.choices is not None:
            return tuple(self.choices)
        values = {self.default}
        if self.type is int:
            if self.minimum is not None:
                values.add(int(self.minimum))
            if self.maximum is not None:
                values.add(int(self.maximum))
        return tuple(sorted(values))

    def default_text(self) -> str:
        return str(self.default).lower() if self.type is bool else str(self.default)


def _number(value: float) -> str:
    """A bound or a value as an error message writes it: whole numbers in full (100000, not
    1e+05), others short (0.5, 1e+30)."""
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e15):
        return str(int(value))
    return f"{value:g}"


def resolve_options(specs: tuple[OptionSpec, ...], given: Any) -> dict[str, Any]:
    """Merge ``given`` over the defaults, validating every value; unknown names are errors."""
    if not given and (given is None or isinstance(given, Mapping)):
        return {s.name: s.default for s in specs}
    if not isinstance(given, Mapping):
        raise OptionError(f"options must be a mapping of name to value, not {quoted(given)}")
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for key, value in given.items():
        if key not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option {quoted(key)} (known options: {known})")
        out[key] = by_name[key].coerce(value)
    return out


def parse_option_args(args: list[str] | None) -> dict[str, str]:
    """Parse command-line ``k=v`` pairs into a dict of strings."""
    out: dict[str, str] = {}
    for arg in args or []:
        if "=" not in arg:
            raise OptionError(f"option {quoted(arg)} must be written name=value")
        key, value = arg.split("=", 1)
        key = key.strip().replace("-", "_")
        if not key:
            raise OptionError(f"option {quoted(arg)} has no name")
        out[key] = value
    return out
