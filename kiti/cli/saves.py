"""Where games are saved, and how: plain records, or sealed ones while people could cheat.

- **Automatic saves** (the record kept up to date while a game with people is played, and
  the saves made on Ctrl-C or after an unexpected error) go to ``games/`` in Kiti's data
  directory (``platformdirs.user_data_dir("kiti")``, or ``$KITI_DATA_DIR``).
- **Sealed saves**: a game still in progress at a table with more than one person is
  written sealed (:mod:`kiti.core.sealed`): only what every seat has seen is in clear; the
  key is kept in ``keys/`` of the data directory, never in the file.  A finished game, or
  one with at most one person, is written as a plain record.

See docs/records.md for which file is which and what sealing protects against.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots.registry import BotSpecError, check_lineup
from ..core.errors import KitiError, RecordError, quoted
from ..core.game import State
from ..core.records import MAX_NAME, check_header, dump_record, parse_record
from ..core.sealed import KeyStore, is_sealed, key_id_of, seal, unseal
from ..core.words import name_refusal, same_name
from ..games import get_game

HUMAN = "human"


def data_dir() -> Path:
    """Kiti's data directory: ``$KITI_DATA_DIR``, else the platform's user data directory."""
    override = os.environ.get("KITI_DATA_DIR")
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("kiti", appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


def key_store() -> KeyStore:
    return KeyStore(data_dir() / "keys")


def auto_path(game_id: str) -> Path:
    """A new file name for an automatic save: ``games/<game>-<date>-<time>-<random>.json``."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return games_dir() / f"{game_id}-{stamp}-{secrets.token_hex(2)}.json"


def sealed_note(path: Path) -> str:
    return (
        "This game was saved while in progress at a table with several people, so the "
        "record (the shuffled deck and every secret choice) is sealed: it is encrypted, "
        "and the key is kept on the machine that saved it, not in this file. Only what "
        "every player has seen is readable here. Resume the game on that machine with: "
        f"kiti play --load {path.name}"
    )


@dataclass
class Lineup:
    """Who sits where: ``"human"`` or a bot spec per seat, and the players' names."""

    specs: list[str]
    names: list[str | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.names = (list(self.names) + [None] * len(self.specs))[: len(self.specs)]

    @property
    def humans(self) -> list[int]:
        return [s for s, spec in enumerate(self.specs) if spec == HUMAN]

    def labels(self) -> list[str]:
        """What plays at each seat, in a word: 'human', or the bot's name."""
        return [spec.split(":")[0] for spec in self.specs]

    def metadata(self) -> dict[str, Any]:
        meta: dict[str, Any] = {"lineup": list(self.specs)}
        if any(self.names):
            meta["names"] = list(self.names)
        return meta


def public_part(state: State, lineup: Lineup) -> dict[str, Any]:
    """What every seat has seen: header, lineup, and the public progress of the game."""
    return {
        "game": state.info.id,
        "version": state.info.version,
        "players": state.players,
        "options": dict(state.options),
        **lineup.metadata(),
        "public": {"moves": len(state.history), "over": state.over, "view": state.observation(None)},
    }


class Saver:
    """Writes one game's record: sealed while it must be (one key per game), else plain."""

    def __init__(self, lineup: Lineup, key_id: str | None = None) -> None:
        self.lineup = lineup
        self.key: tuple[str, bytes] | None = None
        if key_id is not None:
            self.key = (key_id, key_store().get(key_id))

    def must_seal(self, state: State) -> bool:
        return len(self.lineup.humans) > 1 and not state.over

    def document(self, state: State, path: Path) -> dict[str, Any]:
        record = {**state.record(), **self.lineup.metadata()}
        if "moves" in record:  # keep moves last, as records are written
            record["moves"] = record.pop("moves")
        if not self.must_seal(state):
            return record
        if self.key is None:
            self.key = key_store().create()
        key_id, key = self.key
        return seal(record, public_part(state, self.lineup), key_id, key, sealed_note(path))

    def write(self, state: State, path: str | Path) -> Path:
        """Write the game to ``path`` (replacing it whole); OSError if it cannot be written."""
        path = Path(os.path.expanduser(str(path)))
        text = dump_record(self.document(state, path))
        if _is_ours(path):  # Kiti's own folders are made as needed; a user's are not
            path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
        try:
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, path)
        finally:
            if temp.exists():
                temp.unlink()
        return path


class Keeper:
    """The record of one game at the terminal: kept up to date while people play (in the
    --save file, or a new file of Kiti's data folder), saved on the way out, written once
    more at the end; a finished game that was loaded is never written again."""

    def __init__(
        self,
        state: State,
        lineup: Lineup,
        saver: Saver,
        save: str | None = None,
        loaded_from: str | None = None,
    ) -> None:
        self.state = state
        self.saver = saver
        self.save = save
        self.loaded_from = loaded_from
        self.was_over = state.over
        # a resumed game is kept in the file it came from, not in a new one
        resumed = loaded_from if loaded_from and not self.was_over else None
        self.path: Path | None = Path(save) if save else Path(resumed) if resumed else None
        self.auto: Path | None = None  # the file of Kiti's data folder, once made
        self.on = bool(lineup.humans or save) and not self.was_over

    def keep(self) -> str | None:
        """After a move: write the record.  If that fails, automatic saving stops and the
        reason is returned (to be said once)."""
        if not self.on:
            return None
        try:
            self.write()
        except (OSError, ValueError) as exc:
            self.on = False
            return f"cannot keep the record in {self.path}: {reason(exc)}"
        return None

    def write(self) -> Path:
        """Write the record now: to --save or the file the game was resumed from, else to a
        file in Kiti's data folder (also if the first can no longer be written)."""
        if self.path is None:
            self.path = self.auto = auto_path(self.state.info.id)
        try:
            return self.saver.write(self.state, self.path)
        except (OSError, ValueError):
            if self.path == self.auto:
                raise
            self.path = self.auto = auto_path(self.state.info.id)
            return self.saver.write(self.state, self.path)

    def leaving(self) -> Path:
        """Save for leaving (Ctrl-C, quit, an error) and return where."""
        if self.was_over and self.loaded_from and not self.save:
            return Path(self.loaded_from)
        return self.write()

    def at_end(self) -> Path | None:
        """Where the finished game's record is: the loaded file (nothing new is written), the
        file written now (games with people, or --save), or None (bots alone)."""
        if self.was_over and self.loaded_from and not self.save:
            return Path(self.loaded_from)
        if not (self.on or self.save or self.path):
            return None
        return self.write()


def reason(exc: BaseException) -> str:
    """Why a file could not be written, in a few words."""
    return str(getattr(exc, "strerror", None) or exc)


def _is_ours(path: Path) -> bool:
    """Whether ``path`` lies in Kiti's data directory (whose folders Kiti may create)."""
    try:
        path.resolve().relative_to(data_dir().resolve())
    except ValueError:
        return False
    return True


@dataclass
class Opened:
    """A game file read back: its record, and whether (and with which key) it was sealed."""

    record: dict[str, Any]
    key_id: str | None = None

    @property
    def sealed(self) -> bool:
        return self.key_id is not None

    @property
    def lineup(self) -> Lineup | None:
        specs = self.record.get("lineup")
        return None if specs is None else Lineup(list(specs), list(self.record.get("names") or []))


def open_game(path: str | Path) -> Opened:
    """Read a record file, plain or sealed (with this machine's key); RecordError if not one
    (its lineup included: see :func:`check_record_lineup`)."""
    shown = str(path)
    try:
        data = Path(os.path.expanduser(shown)).read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {shown}: {exc.strerror}") from None
    document = parse_record(data, shown)
    if not is_sealed(document):
        check_record_lineup(document)
        return Opened(document)
    key_id = key_id_of(document)
    record = unseal(document, key_store().get(key_id))
    for key in ("game", "players"):
        if record.get(key) != document.get(key):
            raise RecordError(f"{shown}: the sealed record does not match its clear {key!r}")
    check_record_lineup(record)
    return Opened(record, key_id)


def check_record_lineup(record: dict[str, Any]) -> None:
    """A record's lineup checked as a server checks a new table's seats: known bots, good
    parameters, budgets within the bots' declared caps (a record could otherwise make
    ``kiti play --load`` think for ever); RecordError naming the seat."""
    if record.get("lineup") is None:
        return
    check_header(record)
    try:
        game = get_game(record["game"])
    except KitiError:
        return  # replaying the record names the unknown game
    try:
        check_lineup(record["lineup"], game)
    except BotSpecError as exc:
        raise RecordError(f"'lineup': {exc}") from None


def names_of(text: str | None, players: int) -> list[str | None]:
    """``--names Ann,Bob`` as one name (or None) per seat; ValueError naming the problem."""
    if text is None:
        return [None] * players
    names: list[str | None] = [n.strip() or None for n in text.split(",")]
    if len(names) > players:
        raise ValueError(f"--names gives {len(names)} names for {players} seats")
    for n in names:
        if n is not None and (len(n) > MAX_NAME or not n.isprintable()):
            raise ValueError(
                f"--names: {quoted(n)} is not a name (printable text, at most {MAX_NAME} characters)"
            )
    for i, n in enumerate(names):
        refusal = None if n is None else name_refusal(n)
        if refusal is not None:
            raise ValueError(f"--names: {refusal}")
        if n is not None and same_name(n, names[:i]):
            raise ValueError("--names must all be different")
    return (names + [None] * players)[:players]
