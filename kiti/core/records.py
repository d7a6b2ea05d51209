"""Game records: the save format, the bug-report format and the test-scenario format.

A record is JSON::

    {"game": "miaui", "version": "1", "players": 4, "options": {...}, "seed": 42,
     "setup": {...},                 # optional, game-specific
     "moves": [[seat, "dive 9"], ...]}

Replaying a record (new game from its header, then every move, checked)
gives the identical state.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import KitiError, RecordError
from .game import State

_KEYS = {"game", "version", "players", "options", "seed", "setup", "moves"}


def replay(record: Mapping[str, Any], lookup: Callable[[str], type[State]]) -> State:
    """Rebuild the state a record describes; raise :class:`RecordError` naming the bad part."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    extra = set(record) - _KEYS
    if extra:
        raise RecordError(f"unknown record key(s): {', '.join(sorted(extra))}")
    for key in ("game", "players", "moves"):
        if key not in record:
            raise RecordError(f"the record has no {key!r}")
    if not isinstance(record["game"], str):
        raise RecordError(f"'game' must be a game id such as \"miaui\", not {record['game']!r}")
    try:
        cls = lookup(record["game"])
    except KitiError as exc:
        raise RecordError(str(exc)) from None
    version = record.get("version")
    if version is not None and str(version) != cls.info.version:
        raise RecordError(
            f"the record is for {cls.info.id} rules version {version}, "
            f"this Kiti plays version {cls.info.version}"
        )
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object")
    setup = record.get("setup")
    if setup is not None and not isinstance(setup, Mapping):
        raise RecordError("'setup' must be an object")
    seed = record.get("seed")
    if seed is None:  # absent or null: the documented default
        seed = 0
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"'seed' must be an integer, not {seed!r}")
    try:
        state = cls.new(record["players"], options, seed, setup)
    except KitiError as exc:
        raise RecordError(str(exc)) from None
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RecordError("'moves' must be a list of [seat, move] pairs")
    for index, entry in enumerate(moves):
        if (
            not isinstance(entry, (list, tuple))
            or len(entry) != 2
            or isinstance(entry[0], bool)
            or not isinstance(entry[0], int)
            or not isinstance(entry[1], str)
        ):
            raise RecordError("each move must be a [seat, \"notation\"] pair", index, entry)
        seat, text = entry
        try:
            state.apply(seat, text)
        except KitiError as exc:
            raise RecordError(str(exc), index, text) from None
    return state


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (JSON); raise :class:`RecordError` if it is not one."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} does not hold a record (a JSON object)")
    return data


def save_record(state: State, path: str | Path) -> Path:
    """Write ``state``'s record as JSON and return the path."""
    path = Path(path)
    path.write_text(json.dumps(state.record(), indent=1) + "\n", encoding="utf-8")
    return path

