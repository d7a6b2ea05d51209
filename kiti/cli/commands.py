"""``kiti rules`` and ``kiti bench``."""

from __future__ import annotations

import json
import textwrap

import typer

from ..core.errors import KitiError
from ..core.registry import game_part
from .app import app, fail, game_or_fail


@app.command("rules", short_help="Print a game's rules summary and its options.")
def rules_command(game: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. miaui.")) -> None:
    """Print a game's rules summary and its options with their defaults."""
    cls = game_or_fail(game)
    try:
        text = game_part(cls, "summary")
    except KitiError as exc:
        fail(str(exc))
    typer.echo(text.rstrip())
    typer.echo("")
    typer.echo(f"Options (set with --option name=value; players {cls.info.min_seats}-{cls.info.max_seats}):")
    for spec in cls.info.options:
        typer.echo(f"  {spec.name} = {spec.default_text()}  ({spec.type.__name__})")
        typer.echo(textwrap.fill(spec.help, width=78, initial_indent="      ",
                                 subsequent_indent="      "))
    typer.echo("")
    typer.echo(f"Move notation: {cls.info.notation}")


@app.command("bench", short_help="Random full games per second (against OpenSpiel).")
def bench_command(
    game: str = typer.Argument("miaui", metavar="GAME", help="Game id."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print a JSON list of results."),
    seconds: float = typer.Option(2.0, "--seconds", metavar="SECONDS", min=0.01, help="Time spent on each measurement."),
) -> None:
    """Random full games per second through the public API, against OpenSpiel's goofspiel."""
    from ..sim.bench import run_bench

    cls = game_or_fail(game)
    try:
        results = run_bench(cls, seconds=seconds, progress=not as_json)
    except KitiError as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(results))
