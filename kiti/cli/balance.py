"""``kiti balance``: a game's options and seat counts played on the same deals, with a report."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import typer

from ..core.errors import KitiError
from .app import ADDRESS_OPTION, BACKEND_OPTION, app, check_plots_folder, fail, game_or_fail


@app.command("balance", short_help="Balance study: options x seat counts on the same deals, with a report.")
def balance_command(
    game: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. miaui."),
    bots: str = typer.Option(
        "heuristic",
        "--bots",
        metavar="BOT,BOT,...",
        help="One bot fills every seat; several are rotated over the seats (e.g. heuristic,random).",
    ),
    players: str = typer.Option(..., "--players", metavar="N|A..B|A,B", help="Seat counts: 4, 3..6 or 3,5."),
    grid: list[str] | None = typer.Option(  # noqa: B008
        None,
        "--grid",
        metavar="OPTION=V1,V2",
        help="An option and the values to compare (repeatable; the first value is the baseline).",
    ),
    games: int = typer.Option(
        200,
        "--games",
        min=1,
        max=1_000_000,
        metavar="N",
        help="Games per combination (rounded up to whole deals).",
    ),
    seed: int = typer.Option(
        0, "--seed", metavar="S", help="Study seed: every deal and bot seed derive from it."
    ),
    out: str = typer.Option(
        ..., "--out", metavar="DIR", help="Write games.csv, summary.json, report.md and the plots here."
    ),
    jobs: int | None = typer.Option(
        None, "--jobs", min=1, metavar="N", help="Worker processes (default: all cores)."
    ),
    backend: str = BACKEND_OPTION,
    address: str | None = ADDRESS_OPTION,
) -> None:
    """Play GAME over every combination of --grid values and --players on the same deals, and
    write what changes (docs/balance.md)."""
    from ..bots.registry import split_bot_specs
    from ..sim.balance import BalanceConfig, parse_grid, parse_players, plan_balance

    cls = game_or_fail(game)
    check_plots_folder(out)
    try:
        config = BalanceConfig(
            game=game,
            bots=split_bot_specs(bots, "--bots"),
            players=parse_players(players, cls),
            grid=parse_grid(grid or [], cls),
            games=games,
            seed=seed,
            jobs=jobs,
            backend=backend,
            address=address,
        )
        plan = plan_balance(config)
    except KitiError as exc:
        fail(str(exc))
    _run(plan, out)


def _run(plan: Any, out: str) -> None:
    from ..sim.balance import summarize
    from ..sim.balance_report import write_outputs

    try:
        games = _with_progress(plan)
        summary = summarize(plan, games)
        write_outputs(plan, games, summary, out)
    except KitiError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write to {out}: {exc.strerror}", 1)
    except KeyboardInterrupt:
        typer.echo("kiti: balance study stopped; nothing was written", err=True)
        raise typer.Exit(130) from None
    cells = len(plan.cells)
    typer.echo(f"{plan.total:,} games in {cells} combination(s); report: {Path(out) / 'report.md'}")


def _with_progress(plan: Any) -> list[Any]:
    """Play the study, with a progress bar and its ETA on stderr when it is a terminal."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..sim.balance import run_balance

    console = Console(stderr=True)
    if not sys.stderr.isatty():
        return run_balance(plan)
    columns = (
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}/s"),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as bar:
        task = bar.add_task("games", total=plan.total, rate="-")
        start = time.perf_counter()

        def tick(done: int, total: int) -> None:
            rate = done / max(1e-9, time.perf_counter() - start)
            bar.update(task, completed=done, total=total, rate=f"{rate:,.1f}")

        return run_balance(plan, progress=tick)
