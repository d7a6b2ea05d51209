"""``kiti replay``: the table after a record's moves, or the game move by move (``--step``).

The viewer is the referee (every card) or one seat (``--seat N``: only what that seat sees
and saw).  A sealed file (a game saved in progress at a table with several people) opens
on the machine that holds its key; while that game is unfinished, replay shows only the
public view, what every seat has seen, because any of those people could ask for it.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from ..core.errors import KitiError, quoted
from ..core.events import REFEREE
from ..core.records import apply_entry, replay, start
from ..core.words import seat_word
from ..games import get_game
from .app import app, fail
from .render import render_table, standings, terminal
from .saves import Opened, open_game
from .screen import Leave, Screen, literal

STEP_KEYS = "Enter: next move · r: next round/turn · q: quit"


def viewer_for(opened: Opened, seat: int | None, over: bool) -> Any:
    """Who looks: the referee, a seat, or (sealed and unfinished) only the public."""
    if opened.sealed and not over:
        if seat is not None:
            fail(
                "this game is sealed and unfinished: replay shows only what every seat has "
                "seen (no --seat); finish it with kiti play --load FILE",
                2,
            )
        return None
    return REFEREE if seat is None else seat


@app.command("replay", short_help="Show the table after a record's moves, or step through it.")
def replay_command(
    file: str = typer.Argument(..., metavar="FILE", help="A record (JSON) to replay."),
    seat: int | None = typer.Option(None, "--seat", metavar="N", help="Show only what this seat sees."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print the view as JSON."),
    step: bool = typer.Option(
        False,
        "--step",
        metavar="",
        help=f"Walk through the record move by move ({STEP_KEYS}); reads lines from standard input.",
    ),
) -> None:
    """Replay a record and print the table after its moves (or one seat's view of it)."""
    if as_json and step:
        fail("--json and --step do not go together")
    try:
        opened = open_game(file)
        header = start(opened.record, get_game)
        if seat is not None and not 0 <= seat < header.players:
            fail(f"no seat {quoted(seat)} in a {header.players}-player game")
        state = replay(opened.record)
    except KitiError as exc:
        fail(f"invalid record {file}: {exc}")
    viewer = viewer_for(opened, seat, state.over)
    if step:
        raise typer.Exit(Stepper(opened, viewer, Screen()).run())
    if as_json:
        typer.echo(json.dumps(state.observation(viewer)))
        return
    lineup = opened.lineup
    if viewer is None:
        typer.echo("This game is sealed and unfinished: only what every seat has seen is shown.")
    render_table(
        state,
        state.view(viewer),
        viewer if isinstance(viewer, int) else None,
        None,
        lineup.names if lineup else None,
        lineup.labels() if lineup else None,
        viewer,
    )


class Stepper:
    """``--step``: the table after each move, as the referee, a seat or the public sees it."""

    def __init__(self, opened: Opened, viewer: Any, screen: Screen) -> None:
        self.record = opened.record
        self.moves: list[Any] = self.record["moves"]
        self.state = start(self.record, get_game)
        self.viewer = viewer
        self.screen = screen
        lineup = opened.lineup
        self.names = lineup.names if lineup else []
        self.labels = lineup.labels() if lineup else None
        self.done = 0

    def run(self) -> int:
        self.show("the start, before any move")
        try:
            while self.done < len(self.moves):
                answer = self.screen.ask(f"{STEP_KEYS} > ").strip().lower()
                if answer in ("q", "quit"):
                    return 0
                if answer not in ("", "r"):
                    self.screen.say(f"Not a key here: {quoted(answer)}. {STEP_KEYS}.")
                    continue
                what = self.next_turn() if answer == "r" else self.next_move()
                self.show(what)
        except Leave:
            return 0
        except KitiError as exc:
            self.screen.error("Invalid record: ", str(exc))
            return 2
        return 0

    def next_move(self) -> str:
        seat, text = self.moves[self.done][0], self.moves[self.done][1]
        apply_entry(self.state, self.done, self.moves[self.done])
        self.done += 1
        sees = self.viewer == REFEREE or seat == self.viewer
        who = seat_word(seat, self._seat(), self.names)
        return f"move {self.done} of {len(self.moves)}: {who} " + (f"played {text}" if sees else "moved")

    def next_turn(self) -> str:
        """Moves until a new turn, round or step begins (the seats to act are no longer those
        left from the moment before: see kiti.core.turns) or the record ends."""
        first = self.done + 1
        said = ""
        while self.done < len(self.moves):
            before = self.state.to_act()
            said = self.next_move()
            now = self.state.to_act()
            if not now or not now <= before:
                break
        return said if self.done == first else f"moves {first}-{self.done} of {len(self.moves)}"

    def show(self, what: str) -> None:
        state, screen = self.state, self.screen
        view = state.view(self.viewer)
        lines = standings(state.result(), self._seat(), self.names, screen.width) if state.over else []
        screen.draw(
            terminal(type(state)).render_view(
                view,
                state.events(self.viewer),
                self.names,
                self.labels,
                width=screen.width,
                height=screen.rows - 3 - len(lines) if screen.interactive else 10_000,
            )
        )
        for line in lines:
            screen.print(line)
        end = " (the end of the record)" if self.done == len(self.moves) else ""
        screen.say(literal(("Replay: ", "bold"), what + end))

    def _seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None
