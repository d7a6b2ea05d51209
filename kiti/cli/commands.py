"""``kiti rules``, ``kiti cards`` and ``kiti bench``."""

from __future__ import annotations

import json
import textwrap

import typer

from ..core.errors import KitiError
from ..core.registry import game_ids, game_part, get_game, has_part
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
        typer.echo(textwrap.fill(spec.help, width=78, initial_indent="      ", subsequent_indent="      "))
    typer.echo("")
    typer.echo(f"Move notation: {cls.info.notation}")


@app.command("cards", short_help="Show a game's cards as the terminal draws them.")
def cards_command(
    game: str = typer.Argument(..., help="Game id, e.g. motu."),
    card_id: str | None = typer.Argument(None, help="A card id (e.g. I23); all cards if none."),
) -> None:
    """Show a game's cards as the terminal draws them: one card by its id, or every card."""
    from rich.console import Console

    cls = game_or_fail(game)
    try:
        drawer = game_part(cls, "cards")
    except KitiError:
        drawn = [get_game(g).info.name for g in game_ids() if has_part(get_game(g), "cards")]
        fail(
            f"kiti cards draws the cards of {', '.join(drawn)}; {cls.info.name}'s cards are "
            f"described by: kiti rules {cls.info.id}"
        )
    console = Console(highlight=False)
    if card_id is None:
        console.print(drawer.overview())
        return
    try:
        drawing = drawer.draw(card_id)
    except KeyError:
        ids = drawer.ids()
        fail(
            f"{cls.info.name} has no card {card_id!r} (its {len(ids)} cards: {ids[0]} ... {ids[-1]}; "
            f"kiti cards {cls.info.id} lists them all)"
        )
    console.print(drawing)


@app.command("bench", short_help="Random full games per second (against OpenSpiel).")
def bench_command(
    game: str = typer.Argument(..., metavar="GAME", help="Game id."),
    as_json: bool = typer.Option(False, "--json", metavar="", help="Print a JSON list of results."),
    seconds: float = typer.Option(
        2.0,
        "--seconds",
        metavar="SECONDS",
        min=0.01,
        max=3600,
        help="Time spent on each measurement (0.01 to 3600).",
    ),
    rl: bool = typer.Option(
        False, "--rl", help="Also the tensors' cost and the PettingZoo AEC env's speed (the [rl] extra)."
    ),
) -> None:
    """Random full games per second through the public API (and the like-for-like legal
    loop), per game and per move, against OpenSpiel's goofspiel; for Miaui also the batch
    simulator (kiti.sim.batch) against goofspiel played in C++ by evaluate_bots."""
    from ..sim.bench import bench_seat_counts, run_bench

    cls = game_or_fail(game)
    if rl:
        try:  # every package the measurements use, before the first one
            from ..rl import pettingzoo, vector  # noqa: F401
            from ..rl.bench import print_rl, run_rl_bench
        except ImportError as exc:
            fail(f"--rl needs the [rl] extra (pip install 'kiti[rl]'): {exc}")
    try:
        results = run_bench(cls, seconds=seconds, progress=not as_json)
        rl_rows = run_rl_bench(cls.info.id, bench_seat_counts(cls), seconds) if rl else None
    except KitiError as exc:
        fail(str(exc))
    if rl_rows is not None and not as_json:
        print_rl(cls.info.name, rl_rows)
    if as_json:
        typer.echo(json.dumps(results if rl_rows is None else {"engine": results, "rl": rl_rows}))
