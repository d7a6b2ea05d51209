"""``kiti play``: a game at the terminal, for humans and bots, generic over games.

The command checks every argument before anything happens (:func:`plan_game`), then plays
one :class:`~kiti.cli.session.Session` after another (a rematch keeps the seats and
options).  Whatever happens during a game, the record is kept: Ctrl-C, end of input,
``quit`` and even an unexpected error save it and say where (:func:`play_through`).
"""

from __future__ import annotations

import os
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import typer

from ..bots.registry import BOTS, BotSpecError, check_table, split_bot_specs
from ..core.errors import KitiError, RecordError
from ..core.game import State
from ..core.records import replay
from ..games import game_ids, get_game
from .app import app, fail, option_args
from .saves import HUMAN, Lineup, Opened, Saver, data_dir, names_of, open_game, reason
from .screen import Leave, Screen, silence_stdout
from .session import Session, Settings


def default_bot() -> str:
    return "heuristic" if "heuristic" in BOTS else "random"


def default_players(cls: type[State]) -> int:
    """4 where the game allows it (Miaui's usual table), else the nearest allowed count."""
    return max(cls.info.min_seats, min(4, cls.info.max_seats))


@dataclass
class Plan:
    """A game to play, every argument checked."""

    state: State
    lineup: Lineup
    settings: Settings
    opened: Opened | None = None

    def rematch(self) -> Plan:
        """The same seats and options, a fresh seed, a new record."""
        state = type(self.state).new(self.state.players, self.state.options)
        old = self.settings
        settings = Settings(None, old.watch, old.delay, old.confirm, auto=old.auto)
        return Plan(state, self.lineup, settings)


def seat_specs(specs: list[str], watch: bool, state: State) -> list[str]:
    """One spec per seat: those given, then bots; by default one human at seat 0. Every bot
    is checked against ``state``'s table (seats and options) before the game starts."""
    n = state.players
    if len(specs) > n:
        fail(f"--seats names {len(specs)} seats but the game has {n} players")
    if not specs and not watch:
        specs = [HUMAN]
    specs = [HUMAN if s.lower() == HUMAN else s for s in specs] + [default_bot()] * (n - len(specs))
    if watch and HUMAN in specs:
        fail("--watch is for bots only: leave human out of --seats")
    for spec in specs:
        if spec != HUMAN:
            check_table(spec, type(state), n, state.options)  # before the game starts
    return specs


def check_flags(
    game: str | None,
    load: str | None,
    option: list[str] | None,
    seed: int | None,
    watch: bool,
    delay: float | None,
) -> None:
    """Refuse combinations that make no sense, before anything is read or written."""
    if load is None and game is None:
        games = ", ".join(game_ids())
        fail(f"name a game to play: kiti play GAME, one of {games} (or resume one with --load FILE)")
    if load is not None and option:
        fail("--option cannot be used with --load: the options come from the record")
    if load is not None and seed is not None:
        fail("--seed cannot be used with --load: the seed comes from the record")
    if delay is not None and not watch:
        fail("--delay only applies with --watch")


def load_plan(load: str, game: str | None, players: int | None) -> tuple[State, Opened]:
    try:
        opened = open_game(load)
        record = opened.record
        if game is not None and record.get("game") != game:
            fail(f"{load} records a game of {record.get('game')!r}, not {game!r}")
        state = replay(record)
    except RecordError as exc:
        fail(f"invalid record {load}: {exc}")
    if players is not None and players != state.players:
        fail(f"{load} is a {state.players}-player game, not {players}")
    return state, opened


def plan_game(
    game: str | None,
    players: int | None,
    seats: str | None,
    names: str | None,
    seed: int | None,
    option: list[str] | None,
    load: str | None,
    settings: Settings,
) -> Plan:
    """Every argument checked and the game set up (or loaded); fails with a clear message."""
    try:
        options = option_args(option)
        opened: Opened | None = None
        if load is not None:
            state, opened = load_plan(load, game, players)
            cls, n = type(state), state.players
        else:
            cls = get_game(game or "")
            n = (
                players
                if players is not None
                else (len(split_bot_specs(seats, "--seats")) if seats else default_players(cls))
            )
            state = cls.new(n, options, seed)
        saved = opened.lineup if opened is not None else None
        if seats is None and saved is not None and not settings.watch:
            given_specs = saved.specs  # resume with the same people and bots
        else:
            given_specs = split_bot_specs(seats, "--seats") if seats is not None else []
        specs = seat_specs(given_specs, settings.watch, state)
        given = names_of(names, n) if names is not None or saved is None else list(saved.names)
    except (KitiError, BotSpecError, ValueError) as exc:
        fail(str(exc))
    settings.loaded_from = load
    settings.seed = seed
    return Plan(state, Lineup(specs, given), settings, opened)


def check_save_path(save: str | None) -> None:
    """Refuse a --save file that cannot be written, before the game starts."""
    if save is None:
        return
    path = Path(os.path.expanduser(save))
    if path.is_dir():
        fail(f"cannot write --save {save}: it is a folder")
    folder = path.parent
    if (
        not folder.is_dir()
        or not os.access(folder, os.W_OK | os.X_OK)
        or (path.exists() and not os.access(path, os.W_OK))
    ):
        fail(
            f"cannot write --save {save}: "
            + ("no such folder" if not folder.is_dir() else "permission denied")
        )


# ------------------------------------------------------------------ play
def play_through(session: Session) -> int:
    """Play the session to its end; return the exit status.  Every way out keeps the record."""
    try:
        return _play_through(session)
    except BrokenPipeError:  # the output was closed (e.g. piped into head), even while leaving
        return output_closed(session)


def _play_through(session: Session) -> int:
    screen = session.screen
    try:
        if session.settings.watch:
            session.draw(None, spare=1)
            time.sleep(session.settings.delay)
        session.run()
        session.finish()
    except Leave as leave:
        if leave.how == "quit unsaved":
            screen.say("Left without saving.")
            return 0
        if leave.how == "quit kept":
            return 0
        return left(session, 130 if leave.how == "interrupted" else 0)
    except KeyboardInterrupt:  # while a bot was thinking
        screen.console.print()
        return left(session, 130)
    except BrokenPipeError:
        raise
    except Exception as exc:
        return crashed(session, exc)
    return 0


def output_closed(session: Session) -> int:
    """Whoever read the table has gone: save the record and say where on stderr only."""
    silence_stdout()
    try:
        path = session.record.leaving()
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"kiti: the output was closed and the game could not be saved: {reason(exc)}\n")
        return 1
    sys.stderr.write(
        f"kiti: the output was closed; the game is saved: {path} (resume with: kiti play --load {path})\n"
    )
    return 1


def left(session: Session, status: int) -> int:
    """Leaving before the end: the record is saved; say where and how to resume."""
    screen = session.screen
    try:
        path = session.record.leaving()
    except (OSError, ValueError) as exc:
        screen.error("The game could not be saved: ", reason(exc))
        return status or 1
    screen.path("Game record saved to:", path, resume=True)
    return status


def crashed(session: Session, exc: BaseException) -> int:
    """An unexpected error: save the record and a report, say so in two lines, exit 1."""
    if os.environ.get("KITI_DEBUG"):
        raise exc
    screen = session.screen
    report = crash_report(exc)
    where = f" (details: {report})" if report else ""
    message = " ".join(f"{type(exc).__name__}: {exc}".split())
    screen.error("kiti: unexpected error: ", f"{message[:200]}{where}", soft=True)
    try:
        path = session.record.leaving()
    except Exception:
        screen.say("The game could not be saved.")
        return 1
    screen.say(
        "The game is saved: ", (str(path), "bold"), f" (resume with: kiti play --load {path})", soft=True
    )
    return 1


def crash_report(exc: BaseException) -> Path | None:
    """The traceback, for a bug report, in Kiti's data directory (None if it cannot be written)."""
    try:
        folder = data_dir() / "crashes"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"crash-{time.strftime('%Y%m%d-%H%M%S')}.txt"
        path.write_text("".join(traceback.format_exception(exc)), encoding="utf-8")
        return path
    except OSError:
        return None


# --------------------------------------------------------------- command
@app.command("play", short_help="Play a game at the terminal: you, friends on one screen, bots.")
def play_command(
    game: str | None = typer.Argument(
        None, metavar="GAME", show_default=False, help="Game id, e.g. miaui (optional with --load)."
    ),
    players: int | None = typer.Option(
        None,
        "--players",
        "-n",
        metavar="N",
        min=1,
        help="Number of seats (default 4, or the nearest count the game allows).",
    ),
    seats: str | None = typer.Option(
        None,
        "--seats",
        metavar="SEAT,SEAT,...",
        help="Who sits where, comma-separated: human, random, heuristic, ismcts:time=1 ... "
        "Default: one human at seat 0 and bots in the other seats (with --load: the "
        "record's seats).",
    ),
    names: str | None = typer.Option(
        None,
        "--names",
        metavar="NAME,NAME,...",
        help="Players' names by seat, shown instead of 'seat N' (leave one empty for no name: Ann,,Cy).",
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="SEED",
        min=0,
        help="Seed of the game: the shuffle and every bot's choices come from it, "
        "so a game of bots with a seed plays the same, move "
        "for move, every time (random if not given).",
    ),
    option: list[str] | None = typer.Option(  # noqa: B008
        None, "--option", "-o", metavar="NAME=VALUE", help="A game option (repeatable)."
    ),
    save: str | None = typer.Option(
        None,
        "--save",
        metavar="FILE",
        help="Keep the game record in this file (default: Kiti's data folder).",
    ),
    load: str | None = typer.Option(
        None,
        "--load",
        metavar="FILE",
        help="Resume the game recorded in this file (its seats and names too).",
    ),
    watch: bool = typer.Option(
        False, "--watch", metavar="", help="Bots only: show every round, with a pause."
    ),
    delay: float | None = typer.Option(
        None, "--delay", metavar="SECONDS", min=0.0, help="Seconds between rounds with --watch (default 1)."
    ),
    no_confirm: bool = typer.Option(
        False,
        "--no-confirm",
        metavar="",
        help="Never ask to confirm a move (Enter to confirm, reveal or undo).",
    ),
    no_auto: bool = typer.Option(
        False,
        "--no-auto",
        metavar="",
        help="Type your forced moves yourself (by default a move that is "
        "your only legal one is played for you, after a notice).",
    ),
) -> None:
    """Play a game at the terminal: you against bots, several people on one screen, or bots alone.

    Type a move at the prompt (Tab completes; ? shows the game's own shorthands). Commands: ? or help, rules, why MOVE, board (Ctrl-L), log, undo (against bots, before the reveal), save FILE, quit. Ctrl-C or Ctrl-D leave with the record saved.
    """
    check_flags(game, load, option, seed, watch, delay)
    check_save_path(save)
    settings = Settings(save, watch, 1.0 if delay is None else delay, not no_confirm, auto=not no_auto)
    plan = plan_game(game, players, seats, names, seed, option, load, settings)
    screen = Screen()
    status = 0
    while True:
        saver = Saver(plan.lineup, plan.opened.key_id if plan.opened else None)
        if plan.settings.save is not None:
            try:
                saver.write(plan.state, plan.settings.save)
            except OSError as exc:
                fail(f"cannot write --save {plan.settings.save}: {reason(exc)}")
        session = Session(plan.state, plan.lineup, screen, plan.settings, saver)
        status = play_through(session)
        if status != 0 or not session.state.over or not session.rematch():
            break
        plan = plan.rematch()
    sys.stdout.flush()
    raise typer.Exit(status)
