"""``kiti replay``: the table after a record's moves.

The viewer is the referee (every card) or one seat (``--seat N``: only what that seat sees
and saw).  A sealed file (a game saved in progress at a table with several people) opens
on the machine that holds its key; while that game is unfinished, replay shows only the
public view, what every seat has seen, because any of those people could ask for it.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from ..core.errors import KitiError
from ..core.events import REFEREE
from ..core.game import State
from ..core.records import apply_entry, start
from ..games import get_game
from .app import app, fail
from .render import render_table
from .saves import Opened, open_game


def viewer_for(opened: Opened, seat: int | None, over: bool) -> Any:
    """Who looks: the referee, a seat, or (sealed and unfinished) only the public."""
    if opened.sealed and not over:
        if seat is not None:
            fail("this game is sealed and unfinished: replay shows only what every seat has "
                 "seen (no --seat); finish it with kiti play --load FILE", 2)
        return None
    return REFEREE if seat is None else seat


def replayed(record: dict[str, Any]) -> State:
    state = start(record, get_game)
    for index, entry in enumerate(record["moves"]):
        apply_entry(state, index, entry)
    return state


@app.command("replay")
def replay_command(
    file: str = typer.Argument(..., help="A record (JSON) to replay."),
    seat: int | None = typer.Option(None, "--seat", help="Show only what this seat sees."),
    as_json: bool = typer.Option(False, "--json", help="Print the view as JSON."),
) -> None:
    """Replay a record and print the table after its moves (or one seat's view of it)."""
    try:
        opened = open_game(file)
        header = start(opened.record, get_game)
        if seat is not None and not 0 <= seat < header.players:
            fail(f"no seat {seat} in a {header.players}-player game")
        state = replayed(opened.record)
    except KitiError as exc:
        fail(f"invalid record {file}: {exc}", 1)
    viewer = viewer_for(opened, seat, state.is_over())
    view = state.observation(viewer) if viewer != REFEREE else state.table()
    if as_json:
        typer.echo(json.dumps(view))
        return
    lineup = opened.lineup
    if viewer is None:
        typer.echo("This game is sealed and unfinished: only what every seat has seen is shown.")
    render_table(state, view, viewer if isinstance(viewer, int) else None, None,
                 lineup.names if lineup else None, lineup.labels() if lineup else None, viewer)
