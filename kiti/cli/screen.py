"""The terminal as ``kiti play`` and ``kiti replay --step`` use it: one safe way out, one way in.

Output: everything goes through a rich console with markup, emoji codes and highlighting
*off*, and messages are assembled from pieces (:meth:`Screen.say`), so text that a person
typed, a file name or a player's name is always shown exactly as it is (``[bold]x[/]``
stays ``[bold]x[/]``).  Styles are given explicitly as ``(text, style)`` pieces.

The screen keeps count of the lines it printed since the table was last drawn, so that the
front end can draw the table again before it would scroll its header away (:meth:`full`).

Input: :meth:`Screen.ask` reads a line (with readline's editing and completion where the
platform has it); Ctrl-C and end of input become :class:`Leave`.
"""

from __future__ import annotations

import contextlib
import os
import sys
import textwrap
from collections.abc import Callable, Sequence

from rich.console import Console, RenderableType
from rich.text import Text

try:  # line editing and Tab completion where the platform has them
    import readline
except ImportError:  # pragma: no cover - e.g. Windows without pyreadline
    readline = None  # type: ignore[assignment]

Piece = str | tuple[str, str] | Text
NBSP = "\u00a0"  # keeps words together while a prompt is folded


class Leave(Exception):
    """The person asked to leave (quit, Ctrl-C, end of input)."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how


def silence_stdout() -> None:
    """Send whatever more is written to standard output to the null device (its reader has
    gone: even Python's flush at exit must not meet the closed pipe)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class _Console(Console):
    """Rich's console, except that a closed output raises BrokenPipeError (after sending
    anything more to the null device), so that ``kiti play`` can still save the game:
    Rich's own answer is to exit at once."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        silence_stdout()
        raise BrokenPipeError("the output was closed")


def make_console() -> Console:
    """A console that never interprets text: no markup, no emoji codes, no highlighting."""
    return _Console(markup=False, emoji=False, highlight=False)


def literal(*pieces: Piece) -> Text:
    """Pieces as one Text: strings are shown exactly as they are, never as markup."""
    return Text.assemble(*pieces)


def wrap_words(
    words: Sequence[str], width: int, sep: str = "  ", first: str = "", indent: str = ""
) -> list[str]:
    """Words laid out on lines of at most ``width`` columns, never split (e.g. 'dive 10').

    ``sep`` goes between words (its non-space part stays with the word before it, as the
    comma of ', '); the first line starts with ``first``, the others with ``indent``."""
    glue = sep.rstrip()
    space = sep[len(glue) :] or " "
    lines = [first]
    on_line = 0  # words on the last line
    for i, word in enumerate(words):
        piece = word + (glue if i < len(words) - 1 else "")
        if on_line and len(lines[-1]) + len(space) + len(piece) > width:
            lines.append(indent)
            on_line = 0
        lines[-1] += (space if on_line else "") + piece
        on_line += 1
    return lines


class Screen:
    """Output, input and a line budget for one terminal."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or make_console()
        self.used = 0  # lines printed since the screen was last cleared
        self.last: Text | None = None  # the last message (shown again after a redraw)
        self.completions: Callable[[], Sequence[str]] = lambda: ()
        self.prompt = ""  # the prompt being answered (shown again after a list of matches)

    # ------------------------------------------------------------ output
    @property
    def width(self) -> int:
        return self.console.width

    @property
    def rows(self) -> int:
        return max(self.console.height, 10)

    @property
    def interactive(self) -> bool:
        """A person at a terminal (output to a terminal and input from one)."""
        return self.console.is_terminal and sys.stdin.isatty()

    def lines_of(self, renderable: RenderableType) -> int:
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def print(self, renderable: RenderableType, soft_wrap: bool = False) -> None:
        self.console.print(renderable, soft_wrap=soft_wrap)
        self.used += self.lines_of(renderable)

    def say(self, *pieces: Piece, soft: bool = False) -> None:
        """A message made of literal pieces (``(text, style)`` for a styled piece).

        Wrapped between words; ``soft``: left to the terminal to wrap, for a message that
        holds a file name, so that no line break is put into it (it can be copied whole)."""
        message = literal(*pieces)
        self.print(message, soft_wrap=soft)
        self.last = message

    def path(self, lead: str, path: object, resume: bool = False) -> None:
        """``lead`` (e.g. "Game record:"), then the file's path on a line of its own, never
        broken by Kiti (the terminal may fold it, but it copies whole); ``resume``: then how
        to resume the game, the command on a line of its own too."""
        self.say(lead)
        self.print(literal((str(path), "bold")), soft_wrap=True)
        if resume:
            self.say("Resume it with:")
            self.print(literal(f"kiti play --load {path}"), soft_wrap=True)

    def error(self, what: str, *pieces: Piece, soft: bool = False) -> None:
        """A message that starts with ``what`` in red (e.g. 'Not a move:')."""
        self.say((what, "red"), *pieces, soft=soft)

    def clear(self, scrollback: bool = False) -> None:
        if self.console.is_terminal:
            self.console.file.write("\x1b[H\x1b[2J" + ("\x1b[3J" if scrollback else ""))
            self.console.file.flush()
        else:
            self.console.print()
        self.used = 0

    def draw(self, renderable: RenderableType) -> None:
        """Clear the screen and draw ``renderable`` at the top."""
        self.clear()
        self.last = None
        self.print(renderable)

    def full(self, more: int = 1) -> bool:
        """Whether ``more`` lines would push the top of the screen away."""
        return self.console.is_terminal and self.used + more > self.rows

    # ------------------------------------------------------------- input
    def ask(self, prompt: str) -> str:
        """One line of input; Ctrl-C and end of input become :class:`Leave`.

        A prompt too long for one line is broken between words: all but its last line are
        printed, and the last one (with room left to type) is the prompt proper."""
        prompt = self._fold_prompt(prompt)
        self.prompt = prompt
        try:
            line = input(prompt)
        except EOFError:
            self.console.print()
            raise Leave("end of input") from None
        except KeyboardInterrupt:
            self.console.print()
            raise Leave("interrupted") from None
        self.used += 1 + (len(prompt) + len(line)) // max(self.width, 1)
        return line

    def _fold_prompt(self, prompt: str) -> str:
        room = self.width - 20 if self.width >= 60 else self.width - 1
        if len(prompt) <= room:
            return prompt
        head, paren, tail = prompt.rstrip().rpartition(" (")
        text = f"{head} ({tail.replace(' ', NBSP)}" if paren else prompt  # "(? for help) >" stays whole
        lines = textwrap.wrap(text, max(room, 10), break_long_words=False, break_on_hyphens=False)
        for line in lines[:-1]:
            self.print(literal(line.replace(NBSP, " ")), soft_wrap=True)
        return lines[-1].replace(NBSP, " ") + prompt[len(prompt.rstrip()) :]

    def yes(self, question: str) -> bool:
        """A [y/N] question: only y or yes says yes."""
        return self.ask(f"{question} [y/N] ").strip().lower() in ("y", "yes")

    def page(self, lines: Sequence[Text], title: Text | None = None) -> bool:
        """Show ``lines`` a screenful at a time (wrapped lines counted); False if the person
        stopped (q).  Without a terminal, everything at once."""
        budget = self.rows - 2 - (self.lines_of(title) if title is not None else 0)
        pages: list[list[Text]] = [[]]
        used = 0
        for line in lines:
            height = self.lines_of(line)
            if pages[-1] and used + height > budget and self.interactive:
                pages.append([])
                used = 0
            pages[-1].append(line)
            used += height
        for number, page in enumerate(pages, 1):
            if number > 1:
                self.clear()
            if title is not None:
                self.print(title)
            for line in page:
                self.print(line)
            if number < len(pages):
                answer = self.ask(f"-- page {number} of {len(pages)}: Enter for more, q to stop -- ")
                if answer.strip().lower() == "q":
                    return False
        return True

    # -------------------------------------------------------- completion
    def enable_completion(self, candidates: Callable[[], Sequence[str]]) -> None:
        """Tab completes from ``candidates()`` (listed in its order, e.g. dive 2 before dive 10);
        Ctrl-L types the ``board`` command where readline allows binding it."""
        self.completions = candidates
        if readline is None:
            return
        readline.set_completer(self._complete)
        readline.set_completer_delims("")
        readline.set_completion_display_matches_hook(self._show_matches)
        if "libedit" in (readline.__doc__ or ""):  # macOS: its own syntax, no macro for ^L
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")
            readline.parse_and_bind(r'"\C-l": "\C-a\C-kboard\C-m"')

    def matches(self, text: str) -> list[str]:
        """The candidates that start with ``text``, each once, in the candidates' order."""
        low = text.lower()
        return list(dict.fromkeys(c for c in self.completions() if c.startswith(low)))

    def _complete(self, text: str, index: int) -> str | None:
        found = self.matches(text)
        return found[index] if index < len(found) else None

    def _show_matches(self, substitution: str, matches: Sequence[str], longest: int) -> None:
        """readline lists matches sorted as text (dive 10 before dive 2): list them in order."""
        order = {c: i for i, c in enumerate(self.matches(""))}
        ordered = sorted(matches, key=lambda m: order.get(m, len(order)))
        rows = [Text(x) for x in wrap_words(ordered, self.width)]
        typed = readline.get_line_buffer() if readline is not None else ""
        self.console.file.write("\n" + "\n".join(r.plain for r in rows) + "\n" + self.prompt + typed)
        self.console.file.flush()
        self.used += len(rows) + 1
