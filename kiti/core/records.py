"""Game records: the save format, the bug-report format and the test-scenario format.

A record is JSON::

    {"game": "miaui", "version": "1", "players": 4, "options": {...}, "seed": 42,
     "setup": {...},                  # optional, game-specific
     "lineup": ["human", "heuristic", ...],   # optional: who sat where (metadata)
     "names": ["Ann", null, ...],             # optional: the players' names (metadata)
     "moves": [[seat, "dive 9"], ...]}

Replaying a record (new game from its header, then every move, checked) gives the
identical state.  Every problem is a :class:`RecordError` naming the bad part.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .errors import KitiError, RecordError, quoted
from .game import State
from .registry import get_game

KEYS = {"game", "version", "players", "options", "seed", "setup", "lineup", "names", "moves"}
MAX_NAME = 40
MAX_BYTES = 20_000_000


def check_header(record: Any) -> None:
    """Refuse a record whose top level is malformed (before any game is built)."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    extra = set(record) - KEYS
    if extra:
        raise RecordError(f"unknown record key(s): {', '.join(sorted(map(str, extra)))}")
    for key in ("game", "players", "moves"):
        if key not in record:
            raise RecordError(f"the record has no {key!r}")
    if not isinstance(record["game"], str):
        raise RecordError(f"'game' must be a game id such as \"miaui\", not {quoted(record['game'])}")
    options = record.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise RecordError(f"'options' must be an object (or null), not {quoted(options)}")
    setup = record.get("setup")
    if setup is not None and not isinstance(setup, Mapping):
        raise RecordError(f"'setup' must be an object, not {quoted(setup)}")
    seed = record.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"'seed' must be an integer, not {quoted(seed)}")
    lineup = record.get("lineup")
    if lineup is not None and (
        not isinstance(lineup, list) or not all(isinstance(x, str) and x for x in lineup)
    ):
        raise RecordError("'lineup' must be a list of seat descriptions such as \"human\"")
    names = record.get("names")
    if names is not None and (
        not isinstance(names, list)
        or not all(
            x is None or (isinstance(x, str) and x and len(x) <= MAX_NAME and x.isprintable()) for x in names
        )
    ):
        raise RecordError(
            f"'names' must be a list of player names (printable text of 1-{MAX_NAME} "
            "characters) or null for a seat without one"
        )
    if not isinstance(record["moves"], list):
        raise RecordError("'moves' must be a list of [seat, \"move\"] pairs")


def replay(record: Mapping[str, Any], lookup: Callable[[str], type[State]] = get_game) -> State:
    """Rebuild the state a record describes; raise :class:`RecordError` naming the bad part.

    The one replay: ``lookup`` finds the game's class by id (default: every game Kiti
    knows, :func:`kiti.core.registry.get_game`)."""
    state = start(record, lookup)
    for index, entry in enumerate(record["moves"]):
        apply_entry(state, index, entry)
    return state


def start(record: Mapping[str, Any], lookup: Callable[[str], type[State]] = get_game) -> State:
    """The state a record starts from (its header checked, no move applied yet)."""
    check_header(record)
    try:
        cls = lookup(record["game"])
    except KitiError as exc:
        raise RecordError(str(exc)) from None
    version = record.get("version")
    seed = record.get("seed")
    try:
        state = cls.new(
            record["players"], record.get("options"), 0 if seed is None else seed, record.get("setup")
        )
    except KitiError as exc:
        raise RecordError(str(exc)) from None
    if version is not None and not cls.replays_version(str(version), state.options):
        raise RecordError(
            f"the record is for {cls.info.id} rules version {quoted(version)}, "
            f"this Kiti plays version {cls.info.version}"
            + (
                ""
                if str(version) not in cls.info.old_versions
                else f" (version {version} records replay only {cls.info.old_versions[str(version)]})"
            )
        )
    for key in ("lineup", "names"):
        seats = record.get(key)
        if seats is not None and len(seats) != state.players:
            raise RecordError(f"'{key}' has {len(seats)} entries for a {state.players}-player game")
    return state


def apply_entry(state: State, index: int, entry: Any) -> None:
    """Apply the record's move number ``index`` (0-based); RecordError naming it if bad."""
    if (
        not isinstance(entry, (list, tuple))
        or len(entry) != 2
        or isinstance(entry[0], bool)
        or not isinstance(entry[0], int)
        or not isinstance(entry[1], str)
    ):
        raise RecordError('each move must be a [seat, "move"] pair', index, entry)
    seat, text = entry
    try:
        state.play(seat, text)
    except KitiError as exc:
        raise RecordError(str(exc), index, text) from None


def parse_record(data: bytes, name: str = "the record") -> dict[str, Any]:
    """Decode a record file's bytes (strict UTF-8 JSON); RecordError if it is not one."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"{name} is {len(data):,} bytes: too large for a record")
    if data.startswith(b"\xef\xbb\xbf"):
        raise RecordError(f"{name} starts with a byte-order mark: save it as UTF-8 without BOM")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(data) > 1 and b"\x00" in data[:4]):
        raise RecordError(f"{name} is UTF-16 (or another wide encoding): records are UTF-8 text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{name} is not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        value = json.loads(text)
    except RecursionError:
        raise RecordError(f"{name} is nested too deeply to be a record") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{name} is not JSON: {exc}") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise RecordError(f"{name} holds a value Kiti cannot read: {exc}") from None
    if not isinstance(value, dict):
        raise RecordError(f"{name} does not hold a record (a JSON object)")
    return value


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file; raise :class:`RecordError` if it is not one."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    return parse_record(data, str(path))


def dump_record(record: Mapping[str, Any]) -> str:
    return json.dumps(record, indent=1) + "\n"


def save_record(
    state: State, path: str | Path, lineup: list[str] | None = None, names: list[str | None] | None = None
) -> Path:
    """Write ``state``'s record (with an optional lineup and names) as JSON; return the path."""
    record = state.record()
    if lineup is not None:
        record["lineup"] = list(lineup)
    if names is not None and any(names):
        record["names"] = list(names)
    path = Path(path)
    path.write_text(dump_record(record), encoding="utf-8")
    return path
