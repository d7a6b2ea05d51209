"""``kiti play``: a game at the terminal, for humans and bots, generic over games.

Each human seat sees only its own view (the game's ``render`` hook draws it);
bots decide from :func:`kiti.bots.base.seat_view` only.  Between two human
seats (hotseat) the screen is cleared and the next seat is asked to take the
keyboard.  With no human seat the bots play to the end without input (or with
``--watch``, slowly, for an audience).

At the prompt a player types a move in the game's notation (Tab completes the
legal ones; the game may accept shorthand, e.g. a bare number ``9`` for
``dive 9`` in Miaui) or a command: ``?``/``help``, ``rules``, ``why MOVE``,
``undo``, ``save FILE``, ``quit``.
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..bots.base import seat_view
from ..bots.registry import BOTS, BotSpecError, make_bot, split_bot_specs
from ..core.errors import KitiError, NotationError
from ..core.game import State
from ..core.options import parse_option_args
from ..core.records import load_record, save_record
from ..core.registry import game_part
from ..games import get_game, replay
from .app import app, fail
from .render import dialogue, expand_input, move_menu, renderer, view_renderable

HUMAN = "human"
COMMANDS = ["?", "help", "rules", "why ", "undo", "save ", "quit"]

try:  # line editing and Tab completion where the platform has them
    import readline
except ImportError:  # pragma: no cover - e.g. Windows without pyreadline
    readline = None  # type: ignore[assignment]


class Leave(Exception):
    """The player asked to leave (quit, Ctrl-C, end of input)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


# ------------------------------------------------------------------ setup
def default_bot() -> str:
    return "heuristic" if "heuristic" in BOTS else "random"


def default_players(cls: type[State]) -> int:
    """4 where the game allows it (Miaui's usual table), else the nearest allowed count."""
    return max(cls.info.min_seats, min(4, cls.info.max_seats))


def bot_seed() -> int:
    """A bot's own seed: fresh randomness, unrelated to the game's seed (so a bot cannot
    work out the deck from it)."""
    return secrets.randbits(63)


class Session:
    """One game at the terminal."""

    def __init__(self, state: State, seats: list[str], console: Console, save: str | None,
                 watch: bool, delay: float) -> None:
        self.state = state
        self.cls: type[State] = type(state)
        self.seats = seats
        self.console = console
        self.save_path = save
        self.watch = watch
        self.delay = delay
        self.humans = [s for s, spec in enumerate(seats) if spec == HUMAN]
        self.bots: dict[int, Any] = {}
        for s, spec in enumerate(seats):
            if spec != HUMAN:
                self.bots[s] = make_bot(spec, self.cls, bot_seed())
        self.shown: int | None = None  # the human seat whose private view is on screen
        self.completions: list[str] = []
        self.notice: str | None = None  # a line for the next time the table is drawn
        self.undone = False
        if readline is not None and self.humans:
            readline.set_completer(self._complete)
            readline.set_completer_delims("")
            readline.parse_and_bind("tab: complete")

    # ------------------------------------------------------------ helpers
    def labels(self, viewer: int | None) -> list[str]:
        out = []
        for s, spec in enumerate(self.seats):
            if spec == HUMAN:
                out.append("you" if s == viewer else ("human" if len(self.humans) > 1 else "player"))
            else:
                out.append(spec.split(":")[0])
        return out

    def seat_name(self, s: int, viewer: int | None = None) -> str:
        return f"you (seat {s})" if s == viewer else f"seat {s}"

    def clear(self, scrollback: bool = False) -> None:
        if self.console.is_terminal:
            self.console.file.write("\x1b[H\x1b[2J" + ("\x1b[3J" if scrollback else ""))
            self.console.file.flush()
        else:
            self.console.print()

    def autosave(self) -> None:
        if self.save_path:
            try:
                save_record(self.state, self.save_path)
            except OSError as exc:
                self.console.print(f"[red]Cannot save to {self.save_path}: {exc.strerror}; "
                                   "the game goes on (use save FILE).[/]")
                self.save_path = None

    def keep_record(self) -> Path:
        """Save the record to --save, or to a new temporary file; return the path."""
        if self.save_path:
            try:
                return save_record(self.state, self.save_path)
            except OSError as exc:
                self.console.print(f"[red]Cannot save to {self.save_path}: {exc.strerror}.[/]")
        fd, name = tempfile.mkstemp(prefix=f"kiti-{self.cls.info.id}-", suffix=".json")
        os.close(fd)
        return save_record(self.state, name)

    def show(self, seat: int | None) -> None:
        """Draw the table as ``seat`` sees it (None: a spectator)."""
        self.clear()
        view = self.state.observation(seat)
        self.console.print(view_renderable(self.cls, view, self.state.events(seat), self.labels(seat)))
        self.shown = seat
        if self.notice:
            self.console.print(self.notice)
            self.notice = None

    def _complete(self, text: str, index: int) -> str | None:
        matches = [c for c in self.completions if c.startswith(text.lower())]
        return matches[index] if index < len(matches) else None

    def ask(self, prompt: str) -> str:
        """One line of input; Ctrl-C and end of input become :class:`Leave`."""
        try:
            return input(prompt)
        except EOFError:
            self.console.print()
            raise Leave("end of input") from None
        except KeyboardInterrupt:
            self.console.print()
            raise Leave("interrupted") from None

    # -------------------------------------------------------------- game
    def run(self) -> None:
        while not self.state.is_over():
            to_act = sorted(self.state.to_act())
            humans = [s for s in to_act if s in self.humans]
            if humans:  # people first: bots answer after, so a secret choice can be taken back
                self.human_turn(humans[0])
            else:
                self.bot_turn(to_act[0])

    def bot_turn(self, seat: int) -> None:
        state = self.state
        before = state.to_act()
        if self.humans and self.console.is_terminal and not self.console.is_dumb_terminal:
            with self.console.status(f"seat {seat} ({self.seats[seat]}) is thinking…"):
                move = self.bots[seat].choose(seat_view(state, seat))
        else:
            move = self.bots[seat].choose(seat_view(state, seat))
        state.apply(seat, move)
        self.autosave()
        if self.watch and not (state.to_act() < before):  # a step is complete: show it
            self.show(None)
            time.sleep(self.delay)

    def handover(self, seat: int) -> None:
        self.clear(scrollback=True)
        self.console.print(Text(f"{self.cls.info.name}: seat {seat}, take the keyboard.", style="bold"))
        self.console.print("Everyone else, please look away from the screen.")
        self.ask(f"Seat {seat}: press Enter when you are ready. ")

    def human_turn(self, seat: int) -> None:
        if self.shown != seat:
            if len(self.humans) > 1:
                self.handover(seat)
            self.show(seat)
        state = self.state
        while True:
            self.completions = state.legal_notations(seat) + COMMANDS
            line = self.ask(f"Seat {seat}, your move (? for help) > ").strip()
            if not line:
                continue
            rest = dialogue(state, seat, line, self.console)  # the game's own answers first
            if rest is None:
                continue
            line = rest
            if self.command(seat, line):
                if self.undone:  # taken back: start the turn again
                    self.undone = False
                    return
                continue
            move = self.parse_input(line, " Type [bold]?[/] for the legal moves.")
            if move is None:
                continue
            reason = state.illegal_reason(seat, move)
            if reason is not None:
                self.console.print(f"[red]{move} is not allowed:[/] {reason}.")
                continue
            before = state.to_act()
            state.apply(seat, move)
            self.autosave()
            self.after_move(seat, move, before)
            return

    def after_move(self, seat: int, move: Any, before: frozenset[int]) -> None:
        """A secret choice stays open until the reveal: offer to take it back before the bots answer."""
        state = self.state
        rest = state.to_act()
        if (len(before) > 1 and rest and all(s in self.bots for s in rest)
                and self.undo_refusal(seat) is None):
            self.completions = ["undo", "help", "rules", "save ", "quit"]
            self.console.print(f"You chose [bold]{move}[/]: secret until everyone has chosen.")
            while True:
                line = self.ask("Enter to reveal, or undo: ").strip()
                if not line:
                    break
                if line.lower() == "undo":
                    self.command(seat, line)
                    return
                if not self.command(seat, line):
                    self.console.print("You have already chosen: press Enter to reveal, or type undo.")
        self.shown = None  # the table has changed

    # ----------------------------------------------------------- commands
    def command(self, seat: int, line: str) -> bool:
        """Run a command; False if ``line`` is not one (so it is a move)."""
        word, _, arg = line.partition(" ")
        word = word.lower()
        arg = arg.strip()
        if word in ("?", "help", "h"):
            self.help(seat)
        elif word == "rules":
            self.rules()
        elif word == "why":
            self.why(seat, arg)
        elif word == "undo":
            reason = self.undo_refusal(seat)
            if reason:
                self.console.print(f"[red]Cannot undo:[/] {reason}.")
            else:
                self.undo(seat)
        elif word == "save":
            if not arg:
                self.console.print("Write [bold]save FILE[/], e.g. save game.json")
            else:
                try:
                    path = save_record(self.state, arg)
                except OSError as exc:
                    self.console.print(f"[red]Cannot save to {arg}:[/] {exc.strerror}")
                else:
                    self.console.print(f"Saved to {path}. Resume with: kiti play --load {path}")
        elif word in ("quit", "exit", "q"):
            self.quit()
        else:
            return False
        return True

    def help(self, seat: int) -> None:
        cells = move_menu(self.state, seat)
        self.console.print(Text("Legal moves:", style="bold"))
        grid = Table.grid(padding=(0, 2))
        cols = 2 if len(cells) > 6 else 1
        for _ in range(cols):
            grid.add_column(style="bold", no_wrap=True)
            grid.add_column()
        rows = (len(cells) + cols - 1) // cols
        for r in range(rows):
            row: list[str] = []
            for c in range(cols):
                k = c * rows + r
                row.extend(cells[k] if k < len(cells) else ("", ""))
            grid.add_row(*row)
        self.console.print(grid)
        extra = renderer(self.cls).input_help
        if extra:
            self.console.print(extra)
        self.console.print("Commands: ? help · rules · why MOVE · undo · save FILE · quit. "
                           "Tab completes.")

    def rules(self) -> None:
        try:
            text = game_part(self.cls, "summary")
        except KitiError:
            text = f"(No rules summary is installed for {self.cls.info.name}.)"
        self.console.print(text.rstrip())
        opts = ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}"
                         for k, v in self.state.options.items())
        self.console.print(f"This game's options: {opts or 'none'}")
        if self.cls.info.notation:
            self.console.print(f"Move notation: {self.cls.info.notation}")

    def parse_input(self, line: str, hint: str = "") -> Any:
        """The move typed (shorthands expanded), or None after saying why it is not one."""
        try:
            return self.cls.parse_move(expand_input(self.cls, line))
        except NotationError as exc:
            self.console.print(f"[red]Not a move:[/] {exc}.{hint}")
            return None

    def why(self, seat: int, arg: str) -> None:
        if not arg:
            self.console.print("Write [bold]why MOVE[/], e.g. why " + (self.state.legal_notations(seat) or ["?"])[0])
            return
        move = self.parse_input(arg)
        if move is None:
            return
        reason = self.state.illegal_reason(seat, move)
        if reason is None:
            self.console.print(f"{move} is legal now: {self.state.describe_move(seat, move)}.")
        else:
            self.console.print(f"{move} is not allowed: {reason}.")

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last move now (None if it may): the engine
        decides, and a table with another person at it never allows it."""
        if any(s != seat for s in self.humans):
            return "undo is only for games against bots (another person plays here)"
        return self.state.undo_refusal(seat)

    def undo(self, seat: int) -> None:
        move = self.state.undo(seat)
        self.undone = True
        self.autosave()
        self.shown = None
        self.notice = f"Took back {move}: choose again."

    def quit(self) -> None:
        if self.save_path:
            raise Leave("quit")
        while True:
            self.console.print("Save the game before leaving? Type a file name, or just Enter "
                               "for a temporary file, or n for no.")
            answer = self.ask("Save to: ").strip()
            if answer.lower() in ("n", "no"):
                raise Leave("quit unsaved")
            if not answer:
                raise Leave("quit")
            try:
                save_record(self.state, answer)
            except OSError as exc:
                self.console.print(f"[red]Cannot save to {answer}:[/] {exc.strerror}")
                continue
            self.save_path = answer
            raise Leave("quit")

    # ----------------------------------------------------------- the end
    def finish(self) -> Path | None:
        state = self.state
        self.clear()
        # Even at the end, a person sees only what their seat may see (a face-down card can
        # stay in the lagoon); with several humans, or none, the spectator's view.
        me = self.humans[0] if len(self.humans) == 1 else None
        self.console.print(view_renderable(self.cls, state.observation(me), state.events(me),
                                           self.labels(me)))
        self.print_result()
        if self.save_path or self.humans:
            path = self.keep_record()
            self.console.print(f"Game record: {path}")
            return path
        return None

    def print_result(self) -> None:
        state = self.state
        me = self.humans[0] if len(self.humans) == 1 else None
        scores = state.scores()
        result = state.result()
        parts = [f"{self.seat_name(s, me)}: {_num(v)}" for s, v in enumerate(scores)]
        parts += [f"{p.name}: {_num(v)}" for p, v in zip(result.parties, result.scores) if not p.seats]
        self.console.print(Text("Final scores: ", style="bold") + Text(" · ".join(parts)))
        names = [self.seat_name(s, me) for s in state.winners()]
        names += [result.parties[i].name for i in result.winners if not result.parties[i].seats]
        label = "Winners (shared victory): " if len(names) > 1 else "Winner: "
        self.console.print(Text(label, style="bold") + Text(", ".join(names), style="bold yellow"))


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# ------------------------------------------------------------------ command
@app.command("play")
def play_command(
    game: str | None = typer.Argument(None, help="Game id, e.g. miaui (optional with --load)."),
    players: int | None = typer.Option(None, "--players", "-n", help="Number of seats (Miaui: 3-6, default 4)."),
    seats: str | None = typer.Option(
        None, "--seats",
        help="Who sits where, comma-separated: human, random, heuristic, ismcts:time=1 ... "
             "Default: one human at seat 0 and bots in the other seats."),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the shuffle (random if not given)."),
    option: list[str] | None = typer.Option(  # noqa: B008
        None, "--option", "-o", help="A game option name=value (repeatable)."),
    save: str | None = typer.Option(None, "--save", help="Write the game record to this file (kept up to date)."),
    load: str | None = typer.Option(None, "--load", help="Resume the game recorded in this file."),
    watch: bool = typer.Option(False, "--watch", help="Bots only: show every round, with a pause."),
    delay: float = typer.Option(1.0, "--delay", min=0.0, help="Seconds between rounds with --watch."),
) -> None:
    """Play a game at the terminal: you against bots, several people on one screen, or bots alone.

    Type a move at the prompt (Tab completes; in Miaui a bare number N means 'dive N'). Commands: ? or help, rules, why MOVE, undo (against bots, before the reveal), save FILE, quit. Ctrl-C or Ctrl-D leave with the record saved.
    """
    console = Console(highlight=False)
    n: int | None
    try:
        if load is not None:
            record = load_record(load)
            if game is not None and record.get("game") != game:
                fail(f"{load} records a game of {record.get('game')!r}, not {game!r}")
            if option:
                fail("--option cannot be used with --load: the options come from the record")
            if seed is not None:
                fail("--seed cannot be used with --load: the seed comes from the record")
            state = replay(record)
            cls = type(state)
            if players is not None and players != state.players:
                fail(f"{load} is a {state.players}-player game, not {players}")
            n = state.players
        else:
            if game is None:
                fail("name a game to play, e.g. kiti play miaui (or resume one with --load FILE)")
            cls = get_game(game)
            n = players
        seat_specs = split_bot_specs(seats, "--seats") if seats is not None else []
        if n is None:
            n = len(seat_specs) if seat_specs else default_players(cls)
        if len(seat_specs) > n:
            fail(f"--seats names {len(seat_specs)} seats but the game has {n} players")
        if not seat_specs:
            seat_specs = [] if watch else [HUMAN]
        seat_specs += [default_bot()] * (n - len(seat_specs))
        seat_specs = [HUMAN if s.lower() == HUMAN else s for s in seat_specs]
        if watch and HUMAN in seat_specs:
            fail("--watch is for bots only: leave human out of --seats")
        for spec in seat_specs:
            if spec != HUMAN:
                make_bot(spec, cls, 0)  # check the spec before the game starts
        if load is None:
            state = cls.new(n, parse_option_args(option), seed)
    except (KitiError, BotSpecError) as exc:
        fail(str(exc))

    if save is not None:
        try:
            save_record(state, save)
        except OSError as exc:
            fail(f"cannot write --save {save}: {exc.strerror}")
    session = Session(state, seat_specs, console, save, watch, delay)
    if not session.humans and not watch:
        session.run()
        session.finish()
        return
    try:
        if watch:
            session.show(None)
            time.sleep(delay)
        session.run()
    except Leave as leave:
        if leave.how == "quit unsaved":
            console.print("Left without saving.")
            raise typer.Exit(0) from None
        path = session.keep_record()
        console.print(f"Game record saved to {path}")
        console.print(f"Resume with: kiti play --load {path}")
        raise typer.Exit(130 if leave.how == "interrupted" else 0) from None
    except KeyboardInterrupt:  # while a bot was thinking
        console.print()
        path = session.keep_record()
        console.print(f"Game record saved to {path}")
        console.print(f"Resume with: kiti play --load {path}")
        raise typer.Exit(130) from None
    session.finish()
    sys.stdout.flush()
