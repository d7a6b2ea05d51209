"""``kiti tournament``: duplicate-deal tournaments between bots, with statistics and plots."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import typer

from ..core.errors import KitiError
from ..core.options import parse_option_args
from .app import app, fail


def _check_out_dir(out: str) -> None:
    """Refuse an --out folder that could not be written, without creating anything."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        fail(f"--out {out} is a file, not a folder")
    probe = path
    while not probe.exists():
        probe = probe.parent
    if not os.access(probe, os.W_OK | os.X_OK):
        fail(f"cannot write to --out {out}: permission denied")
    try:
        import matplotlib  # noqa: F401  (plots are part of --out)
    except ImportError:
        fail("--out draws plots with matplotlib: pip install 'kiti[sim]' (or pip install matplotlib)")


@app.command("tournament", short_help="Bots against bots on duplicate deals, with statistics.")
def tournament_command(
    game: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. miaui."),
    bots: str = typer.Option(
        ...,
        "--bots",
        metavar="BOT,BOT,...",
        help="One bot per seat (per team in team play), comma-separated, e.g. "
        "ismcts:iters=500,heuristic,random,random (a piece k=v without ':' "
        "belongs to the previous bot).",
    ),
    games: int = typer.Option(
        2000,
        "--games",
        min=1,
        max=1_000_000,
        metavar="N",
        help="Games to play, 1 to 1,000,000 (rounded up to whole deals).",
    ),
    players: int | None = typer.Option(
        None, "--players", metavar="N", help="Seats (default: number of bots)."
    ),
    option: list[str] | None = typer.Option(  # noqa: B008
        None, "--option", "-o", metavar="NAME=VALUE", help="Game option (repeatable)."
    ),
    jobs: int | None = typer.Option(
        None, "--jobs", min=1, metavar="N", help="Worker processes (default: all cores)."
    ),
    seed: int = typer.Option(
        0, "--seed", metavar="S", help="Tournament seed: every deal and bot seed derive from it."
    ),
    rotation: str = typer.Option(
        "cyclic", "--rotation", metavar="MODE", help="Seat rotations per deal: cyclic or all."
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="DIR", help="Write results.json, results.csv and plots here."
    ),
    save_records: bool = typer.Option(
        False, "--save-records", metavar="", help="With --out: one record per game."
    ),
    as_json: bool = typer.Option(
        False, "--json", metavar="", help="Print the summary as JSON instead of tables."
    ),
) -> None:
    """Play GAME between bots on duplicate deals with rotated seats, and report who wins."""
    from ..bots.registry import split_bot_specs
    from ..sim.tournament import (
        TournamentConfig,
        plan_tournament,
        run_tournament,
        slim_summary,
        write_outputs,
    )

    if save_records and out is None:
        fail("--save-records needs --out DIR")
    if out is not None:
        _check_out_dir(out)
    try:
        config = TournamentConfig(
            game=game,
            bots=split_bot_specs(bots, "--bots"),
            games=games,
            players=players,
            options=parse_option_args(option),
            jobs=jobs,
            seed=seed,
            rotation=rotation,
            save_records=save_records,
        )
        plan = plan_tournament(config)  # every argument checked before the first game
    except KitiError as exc:
        fail(str(exc))
    try:
        result = run_tournament(plan) if as_json else _with_progress(plan, run_tournament)
    except KitiError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        typer.echo("kiti: tournament stopped; nothing was written", err=True)
        raise typer.Exit(130) from None
    summary = result["summary"]
    if out is not None:
        try:
            write_outputs(result, out, records=save_records)
        except ImportError as exc:
            fail(str(exc), 1)
        except OSError as exc:
            fail(f"cannot write results to {out}: {exc.strerror}", 1)
    if as_json:
        typer.echo(json.dumps(slim_summary(summary), allow_nan=False))
        return
    _print_summary(summary)
    if out is not None:
        typer.echo(f"results written to {out}")


def _with_progress(plan: Any, run: Any) -> dict[str, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}/s"),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task("games", total=plan.total, rate="-")
        start = time.perf_counter()

        def tick(done: int, total: int) -> None:
            rate = done / max(1e-9, time.perf_counter() - start)
            bar.update(task, completed=done, total=total, rate=f"{rate:,.1f}")

        out: dict[str, Any] = run(plan, progress=tick)
        return out


def _range(d: dict[str, Any], fmt: str = "{:.2f}") -> str:
    if d["low"] is None or d["high"] is None:
        return "n/a"
    return f"{fmt.format(d['low'])}-{fmt.format(d['high'])}"


def _print_summary(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    cfg = summary["config"]
    console = Console(highlight=False)
    title = (
        f"{cfg['game']}: {cfg['games']} games ({cfg['deals']} deals x {cfg['games_per_deal']} "
        f"rotations), seed {cfg['seed']}"
    )
    console.print(title)
    table = Table(pad_edge=False, box=None, header_style="bold")
    for col, just in (
        ("bot", "left"),
        ("wins", "right"),
        ("share", "right"),
        ("95% range", "right"),
        ("", "left"),
        ("score", "right"),
        ("rank", "right"),
        ("rating", "right"),
    ):
        table.add_column(col, justify=just, no_wrap=True)  # type: ignore[arg-type]
    rat = {r["bot"]: r for r in (summary["ratings"] or [])}
    for b in summary["bots"] + summary["others"]:
        r = rat.get(b["bot"])
        mark = "*" if b["beats_fair_share"] else ("-" if b["below_fair_share"] else "")
        table.add_row(
            b["bot"][:28],
            f"{b['wins']:.1f}/{b['games']}",
            f"{b['win_share']['mean']:.2f}",
            _range(b["win_share"]),
            mark,
            f"{b['mean_score']['mean']:.1f}",
            f"{b['mean_rank']['mean']:.2f}",
            "n/a" if r is None else f"{r['mu']:.1f}±{1.96 * r['sigma']:.1f}",
        )
    console.print(table)
    console.print(f"Win share per seat (an even share: {summary['fair_share']:.2f})")
    seats = Table(pad_edge=False, box=None, header_style="bold")
    for col in ("seat", "share", "95% range", ""):
        seats.add_column(col, justify="left" if col in ("seat", "") else "right", no_wrap=True)
    for s in summary["seats"]:
        seats.add_row(
            str(s.get("place", s["seat"])),
            f"{s['win_share']['mean']:.2f}",
            _range(s["win_share"]),
            "!" if s["differs_from_fair"] else "",
        )
    console.print(seats)
    console.print(
        "* wins more than an even share (95% confidence); - fewer; ! this seat differs "
        "from an even share; rating: skill rating ± 95% range"
    )
    for warning in summary.get("warnings", []):
        console.print(f"[bold yellow]warning:[/] {warning}", markup=True)
    console.print(f"{summary['games_per_s']} games/s")
