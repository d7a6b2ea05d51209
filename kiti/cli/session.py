"""One game at the terminal: turns for people and bots, the table on screen, the record kept.

Each human seat sees only its own view (the game's renderer draws it); bots decide from
:func:`kiti.bots.base.seat_view` only.  Between two human seats (hotseat) the screen and
its scrollback are cleared and the next person is asked to take the keyboard.  With no
human seat the bots play to the end without input (``--watch``: slowly, for an audience).

The commands typed at the prompt live in :mod:`kiti.cli.prompt`; saving in
:mod:`kiti.cli.saves`.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.text import Text

from ..bots.registry import make_bot
from ..core.chance import derive_seed
from ..core.errors import NotationError
from ..core.game import State
from ..core.moves import Move
from ..core.seatview import seat_view
from ..core.turns import forced_move
from ..core.words import seat_word
from .prompt import Prompt
from .render import dialogue, speak, standings, terminal, words
from .saves import Keeper, Lineup, Saver, reason
from .screen import Leave, Screen

NOBODY = -1  # no table on screen (a seat number, None for a spectator, or this)
MAX_MOVE_TEXT = 200  # longer input is never a move of any game


@dataclass
class Settings:
    """How a session plays: where the record is kept, pacing, confirmations."""

    save: str | None = None  # --save FILE (kept up to date); None: Kiti's data directory
    watch: bool = False
    delay: float = 1.0
    confirm: bool = True
    loaded_from: str | None = None  # the file the game was resumed from
    auto: bool = True  # play a person's forced move for them, after a notice (--no-auto: off)
    seed: int | None = None  # --seed: the bots' seeds come from it too (a reproducible game)


def bot_seed(seed: int | None, seat: int) -> int:
    """A bot's own seed: derived from the run's ``--seed`` (so a seeded game with bots plays
    the same every time, as a seeded tournament does), else fresh randomness.  Either way
    a bot cannot work out the deck from it."""
    return secrets.randbits(63) if seed is None else derive_seed(seed, "bot", seat)


class Session:
    """One game at the terminal."""

    def __init__(
        self, state: State, lineup: Lineup, screen: Screen, settings: Settings, saver: Saver | None = None
    ) -> None:
        self.state = state
        self.cls: type[State] = type(state)
        self.lineup = lineup
        self.humans = lineup.humans
        self.bots = {
            s: make_bot(spec, self.cls, bot_seed(settings.seed, s))
            for s, spec in enumerate(lineup.specs)
            if s not in self.humans
        }
        self.screen = screen
        self.settings = settings
        self.saver = saver or Saver(lineup)
        self.record = Keeper(state, lineup, self.saver, settings.save, settings.loaded_from)
        self.shown: int | None = NOBODY
        self.notice: Text | None = None
        self.stale = False  # something (help, rules, log) hides the table
        self.pending: str | None = None  # a line typed at a confirmation, to read as input
        self.prompt = Prompt(self)
        if self.humans:
            screen.enable_completion(self.prompt.completions)

    # ------------------------------------------------------------ people
    @property
    def hotseat(self) -> bool:
        return len(self.humans) > 1

    def who(self, seat: int, viewer: int | None = None) -> str:
        return seat_word(seat, viewer, self.lineup.names)

    def say(self, message: str, viewer: int | None) -> str:
        """An engine message worded for ``viewer`` ('you', players' names)."""
        return speak(message, viewer, self.lineup.names)

    # ----------------------------------------------------------- drawing
    def draw(self, viewer: int | None, spare: int = 3) -> None:
        """Draw the table as ``viewer`` sees it (None: a spectator), leaving ``spare`` lines."""
        state, screen = self.state, self.screen
        table = terminal(self.cls).render_view(
            state.view(viewer),
            state.events(viewer),
            self.lineup.names,
            self.lineup.labels(),
            width=screen.width,
            height=screen.rows - spare,
        )
        screen.draw(table)
        self.shown, self.stale = viewer, False
        if self.notice is not None:
            screen.say(self.notice)
            self.notice = None

    def face(self, seat: int) -> None:
        """Make sure ``seat``'s own table is on screen (after a handover in hotseat)."""
        if self.shown == seat and not self.stale:
            return
        if self.hotseat and self.shown != seat:
            self.handover(seat)
        self.draw(seat)

    def handover(self, seat: int) -> None:
        screen = self.screen
        screen.clear(scrollback=True)
        name = self.lineup.names[seat]
        named = f"{name} (seat {seat})" if name else f"seat {seat}"
        screen.say((f"{self.cls.info.name}: {named}, take the keyboard.", "bold"))
        screen.say("Everyone else, please look away from the screen.")
        screen.ask(f"{name or f'Seat {seat}'}: press Enter when you are ready. ")

    # ------------------------------------------------------------ record
    def keep(self) -> None:
        """Keep the record up to date; a failure is said once and play goes on."""
        problem = self.record.keep()
        if problem:
            self.screen.error(
                "Cannot keep the record: ", f"{problem}; the game goes on (use save FILE).", soft=True
            )

    # ------------------------------------------------------------- turns
    def run(self) -> None:
        while not self.state.over:
            to_act = sorted(self.state.to_act())
            humans = [s for s in to_act if s in self.humans]
            if humans:  # people first: bots answer after, so a secret choice can be taken back
                self.human_turn(humans[0])
            else:
                self.bot_turn(to_act[0])

    def bot_turn(self, seat: int) -> None:
        state, screen = self.state, self.screen
        before = state.to_act()
        if self.humans and screen.console.is_terminal and not screen.console.is_dumb_terminal:
            thinking = Text(f"{self.who(seat)} ({self.lineup.labels()[seat]}) is thinking…")
            with screen.console.status(thinking):
                move = self.bots[seat].choose(seat_view(state, seat))
        else:
            move = self.bots[seat].choose(seat_view(state, seat))
        state.apply(seat, move)
        self.keep()
        if self.settings.watch and not (state.to_act() < before):  # a step is complete: show it
            self.draw(None, spare=1)
            time.sleep(self.settings.delay)

    def human_turn(self, seat: int) -> None:
        self.face(seat)
        forced = forced_move(self.state, seat) if self.settings.auto else None
        if forced is not None:
            self.play_forced(seat, forced)
            return
        while True:
            move = self.read_move(seat)
            if move is None:  # a move was taken back: start the turn again
                return
            if self.hotseat and self.settings.confirm and not self.confirmed(seat, move):
                continue
            before = self.state.to_act()
            self.state.apply(seat, move)
            self.keep()
            self.offer_undo(seat, move, before)
            self.shown = NOBODY if self.shown == seat else self.shown  # the table has changed
            if self.hotseat:  # this person's cards leave the screen at once
                self.screen.clear(scrollback=True)
                self.screen.say(f"{self.lineup.names[seat] or f'Seat {seat}'} has played. The game goes on…")
            return

    def play_forced(self, seat: int, move: Move) -> None:
        """A seat's only legal move, played for its person after a one-line notice (in
        hotseat they press Enter first, so that the notice is read before the screen clears)."""
        self.make_room(seat, 2)
        self.screen.say("Your only move, ", (str(move), "bold"), ", is played for you.")
        if self.hotseat:
            self.screen.ask("Enter to go on: ")
        self.state.apply(seat, move)
        self.keep()
        self.shown = NOBODY if self.shown == seat else self.shown
        if self.hotseat:
            self.screen.clear(scrollback=True)
            self.screen.say(f"{self.lineup.names[seat] or f'Seat {seat}'} has played. The game goes on…")

    def read_move(self, seat: int) -> Move | None:
        """Read lines until one is a legal move; None if the turn must start again (undo)."""
        state, screen = self.state, self.screen
        while True:
            line = self.next_line(seat).strip()
            if not line:
                if self.stale:
                    self.draw(seat)
                continue
            rest = dialogue(state, seat, line, screen.console)  # the game's own answers first
            if rest is None:
                continue
            line = rest
            if self.prompt.run(seat, line):
                if self.prompt.undone:
                    return None
                continue
            move = self.parse(line, seat, hint=True)
            if move is None:
                continue
            reason = state.illegal_reason(seat, move)
            if reason is None:
                return move
            screen.error(f"{move} is not allowed: ", self.say(reason, seat) + ".")

    def next_line(self, seat: int) -> str:
        if self.pending is not None:
            line, self.pending = self.pending, None
            return line
        screen = self.screen
        if self.stale:
            screen.say(("Enter: back to the table.", "dim"))
        else:
            self.make_room(seat, 2)
        question = words(self.cls).prompt(self.state.view(seat), seat)
        return screen.ask(f"{self.addressed(seat, question)} (? for help) > ")

    def make_room(self, seat: int, lines: int) -> None:
        """If ``lines`` more would push the table's header off the screen, draw the table
        again (with the last message under it)."""
        screen = self.screen
        if self.shown == seat and not self.stale and screen.full(lines):
            last = screen.last
            self.draw(seat, spare=3 if last is None else screen.lines_of(last) + lines + 1)
            if last is not None:
                screen.say(last)

    def addressed(self, seat: int, question: str) -> str:
        """'Ann, your move' / 'Seat 1, your move' (hotseat) / 'Your move' (alone)."""
        name = self.lineup.names[seat]
        if name or self.hotseat:
            return f"{name or f'Seat {seat}'}, {question}"
        return question[0].upper() + question[1:]

    def parse(self, line: str, seat: int, hint: bool = False) -> Move | None:
        """The move typed (shorthand expanded), or None after saying why it is not one."""
        tip = " Type ? for the legal moves." if hint else ""
        if len(line) > MAX_MOVE_TEXT:
            self.screen.error("Not a move: ", f"{len(line):,} characters is far too long for a move.{tip}")
            return None
        try:
            return self.cls.parse_move(words(self.cls).expand_input(line, seat) or line)
        except NotationError as exc:
            self.screen.error("Not a move: ", f"{self.say(str(exc), seat)}.{tip}")
            return None

    # ------------------------------------------------------ confirmation
    def confirmed(self, seat: int, move: Move) -> bool:
        """Hotseat: the choice is final once the next person takes the keyboard, so ask first.
        Anything but Enter is read as a new line of input."""
        self.make_room(seat, 2)
        self.screen.say("You chose ", (str(move), "bold"), ".")
        line = self.screen.ask("Enter to confirm, or type another move: ")
        if line.strip():
            self.pending = line
            return False
        return True

    def undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` may not take back its last move now (None if it may): the engine
        decides, and a table with another person at it never allows it."""
        if any(s != seat for s in self.humans):
            return "undo is only for games against bots (another person plays here)"
        return self.state.undo_refusal(seat)

    def offer_undo(self, seat: int, move: Any, before: frozenset[int]) -> None:
        """While the move can still be taken back (the engine says so), hold the bots until
        the person confirms it."""
        if not self.settings.confirm or self.undo_refusal(seat) is not None:
            return
        secret = len(before) > 1
        self.make_room(seat, 2)
        self.screen.say(
            "You chose ", (str(move), "bold"), ": secret until everyone has chosen." if secret else "."
        )
        while True:
            self.make_room(seat, 1)
            line = self.screen.ask("Enter to reveal, or undo: " if secret else "Enter to go on, or undo: ")
            word = line.strip().lower()
            if not word:
                return
            if word == "undo":
                self.prompt.run(seat, word)
                return
            if not self.prompt.run(seat, line.strip()):
                self.screen.say("You have already chosen: press Enter, or type undo.")

    # ------------------------------------------------------------- the end
    def end_viewer(self) -> int | None:
        """Even at the end, a person sees only what their seat may see; with several people
        at the table, or none, the spectator's view."""
        return self.humans[0] if len(self.humans) == 1 else None

    def finish(self) -> Path | None:
        """The end screen: every pile, the standings; the record kept. Returns its path."""
        viewer = self.end_viewer()
        lines = standings(self.state.result(), viewer, self.lineup.names, self.screen.width)
        self.draw(viewer, spare=len(lines) + 3)
        for line in lines:
            self.screen.print(line)
        try:
            path = self.record.at_end()
        except (OSError, ValueError) as exc:
            self.screen.error("Cannot write the record: ", reason(exc))
            return None
        if path is not None:
            self.screen.path("Game record:", path)
        return path

    def rematch(self) -> bool:
        """At the end of a game with people: play again with the same seats?"""
        if not self.humans:
            return False
        try:
            return self.screen.yes("Play again with the same seats?")
        except Leave:
            return False
