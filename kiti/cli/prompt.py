"""The commands a person may type at the move prompt of ``kiti play``.

``?``/``help`` (the legal moves, each once), ``rules``, ``why MOVE``, ``board`` (draw the
table again; Ctrl-L does it too where readline allows binding it), ``log`` (every round
seen so far, in words), ``undo``, ``save FILE`` and ``quit``.  Help, rules and log take
the screen; Enter brings the table back.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from ..core.errors import KitiError
from ..core.registry import game_part
from .render import move_menu, tell_events, words
from .saves import reason
from .screen import Leave, literal, wrap_words

if TYPE_CHECKING:
    from .session import Session

COMMANDS = ["?", "help", "rules", "why ", "board", "log", "undo", "save ", "quit"]
COMMAND_LINE = "Commands: ? help · rules · why MOVE · board (or Ctrl-L) · log · undo · save FILE · quit."


class Prompt:
    """Runs the commands typed at one session's prompt."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.undone = False
        self.words: dict[str, Callable[[int, str], None]] = {
            "?": self.help,
            "help": self.help,
            "h": self.help,
            "rules": self.rules,
            "why": self.why,
            "board": self.board,
            "log": self.log,
            "undo": self.undo,
            "save": self.save,
            "quit": self.quit,
            "exit": self.quit,
            "q": self.quit,
        }

    def completions(self) -> list[str]:
        """What Tab offers: the legal moves (in the game's order), then the commands."""
        session = self.session
        seat = session.shown
        moves = (
            [str(m) for m in session.state.legal_moves(seat)] if isinstance(seat, int) and seat >= 0 else []
        )
        return moves + COMMANDS

    def run(self, seat: int, line: str) -> bool:
        """Run a command; False if ``line`` is not one (so it is a move)."""
        word, _, arg = line.partition(" ")
        action = self.words.get(word.lower())
        if action is None:
            return False
        self.undone = False
        action(seat, arg.strip())
        return True

    # ------------------------------------------------------- the screen
    def help(self, seat: int, arg: str) -> None:
        session = self.session
        screen = session.screen
        notations = list(dict.fromkeys(token for token, _ in move_menu(session.state, seat)))
        screen.clear()
        lines = [Text(x) for x in wrap_words(notations, screen.width, ", ", "Legal moves: ", "  ")]
        lines[0].stylize("bold", 0, len("Legal moves:"))
        lines.append(Text("why MOVE tells what a move does, or why it is not allowed."))
        lines.append(Text(words(session.cls).input_help(session.state.view(seat))))
        lines += [Text(x) for x in wrap_words(COMMAND_LINE.split(" · "), screen.width, " · ", "", "  ")]
        lines.append(Text("Tab completes moves and commands."))
        screen.page(lines)
        session.stale = True

    def rules(self, seat: int, arg: str) -> None:
        session = self.session
        cls = session.cls
        try:
            text = game_part(cls, "summary")
        except KitiError:
            text = f"(No rules summary is installed for {cls.info.name}.)"
        opts = ", ".join(
            f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in session.state.options.items()
        )
        lines = [Text(f"This game's options: {opts or 'none'}", style="bold")]
        if cls.info.notation:
            lines.append(Text(f"Move notation: {cls.info.notation}"))
        lines += [Text(x) for x in text.rstrip().splitlines()]
        session.screen.clear()
        session.screen.page(lines)
        session.stale = True

    def log(self, seat: int, arg: str) -> None:
        """Every round seen so far: this seat's own events, in words, a screenful at a time."""
        session = self.session
        events = session.state.events(seat)
        told = tell_events(session.cls, events, seat, session.lineup.names)
        lines = [Text(x) for x in told] or [Text("Nothing has happened yet.")]
        session.screen.clear()
        session.screen.page(lines, Text("What you have seen, oldest first:", style="bold"))
        session.stale = True

    def board(self, seat: int, arg: str) -> None:
        self.session.draw(seat)

    # ---------------------------------------------------------- moves
    def why(self, seat: int, arg: str) -> None:
        session = self.session
        state = session.state
        if not arg:
            example = ([str(m) for m in state.legal_moves(seat)] or ["?"])[0]
            session.screen.say("Write ", ("why MOVE", "bold"), f", e.g. why {example}")
            return
        move = session.parse(arg, seat)
        if move is None:
            return
        reason = state.illegal_reason(seat, move)
        if reason is None:
            explained = session.say(state.explain_move(seat, move), seat).rstrip(".")
            session.screen.say(f"{move} is legal now: {explained}.")
        else:
            session.screen.say(f"{move} is not allowed: {session.say(reason, seat)}.")

    def undo(self, seat: int, arg: str) -> None:
        session = self.session
        reason = session.undo_refusal(seat)
        if reason:
            session.screen.error("Cannot undo: ", f"{session.say(reason, seat)}.")
            return
        move = session.state.undo(seat)
        self.undone = True
        session.keep()
        session.shown = -1
        session.notice = literal(f"Took back {move}: choose again.")

    # --------------------------------------------------------- the file
    def save(self, seat: int, arg: str) -> None:
        session = self.session
        screen = session.screen
        if not arg:
            screen.say("Write ", ("save FILE", "bold"), ", e.g. save game.json")
            return
        target = Path(os.path.expanduser(arg))
        if target.exists() and not screen.yes(f"{arg} exists. Replace it?"):
            screen.say("Not saved.")
            return
        try:
            path = session.saver.write(session.state, target)
        except (OSError, ValueError) as exc:
            screen.error(f"Cannot save to {arg}: ", reason(exc), soft=True)
            return
        sealed = " (sealed: it opens only on this machine)" if session.saver.must_seal(session.state) else ""
        screen.path(f"Saved{sealed} to:", path, resume=True)

    def quit(self, seat: int, arg: str) -> None:
        session = self.session
        if session.settings.save:
            raise Leave("quit")
        screen = session.screen
        path = session.record.leaving()
        screen.path("The game is kept in:", path, resume=True)
        answer = screen.ask("Enter to leave, or n to leave and delete it: ").strip().lower()
        if answer in ("n", "no"):
            path.unlink(missing_ok=True)
            raise Leave("quit unsaved")
        raise Leave("quit kept")  # saved, and said where
