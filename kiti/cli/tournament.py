"""``kiti tournament``: duplicate-deal tournaments between bots, with statistics and plots."""

from __future__ import annotations

import typer

from ..core.errors import KitiError
from ..core.options import parse_option_args
from .app import app, fail


@app.command("tournament")
def tournament_command(
    game: str = typer.Argument(..., help="Game id, e.g. miaui."),
    bots: str = typer.Option(..., "--bots", help="One bot per seat, comma-separated, e.g. "
                             "ismcts:iters=500,heuristic,random,random (a piece k=v without ':' "
                             "belongs to the previous bot)."),
    games: int = typer.Option(2000, "--games", min=1, help="Games to play (rounded up to whole deals)."),
    players: int | None = typer.Option(None, "--players", help="Seats (default: number of bots)."),
    option: list[str] | None = typer.Option(  # noqa: B008
        None, "--option", "-o", help="Game option name=value (repeatable)."),
    jobs: int | None = typer.Option(None, "--jobs", min=1, help="Worker processes (default: all cores)."),
    seed: int = typer.Option(0, "--seed", help="Tournament seed: every deal and bot seed derive from it."),
    rotation: str = typer.Option("cyclic", "--rotation", help="Seat rotations per deal: cyclic or all."),
    out: str | None = typer.Option(None, "--out", help="Write results.json, results.csv and plots here."),
    save_records: bool = typer.Option(False, "--save-records", help="With --out: one record JSON per game."),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON instead of a table."),
) -> None:
    """Play GAME between bots on duplicate deals with rotated seats, and report who wins."""
    import json

    from ..bots.registry import split_bot_specs
    from ..sim.tournament import TournamentConfig, run_tournament, write_outputs

    if save_records and out is None:
        fail("--save-records needs --out DIR")
    if out is not None:  # check it now, not after hours of games
        from pathlib import Path

        try:
            Path(out).mkdir(parents=True, exist_ok=True)
            probe = Path(out) / ".kiti-write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            fail(f"cannot write to --out {out}: {exc.strerror}")
        try:
            import matplotlib  # noqa: F401  (plots are part of --out)
        except ImportError:
            fail("--out draws plots with matplotlib: pip install 'kiti[sim]' (or pip install matplotlib)")
    try:
        config = TournamentConfig(game=game, bots=split_bot_specs(bots, "--bots"), games=games, players=players,
                                  options=parse_option_args(option), jobs=jobs, seed=seed,
                                  rotation=rotation, save_records=save_records)
        if as_json:
            result = run_tournament(config)
        else:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(),
                       TextColumn("ETA"), TimeRemainingColumn())
            with Progress(*columns, transient=False) as bar:
                task = bar.add_task("games", total=None, rate="-")
                import time

                start = time.perf_counter()

                def tick(done: int, total: int) -> None:
                    rate = done / max(1e-9, time.perf_counter() - start)
                    bar.update(task, completed=done, total=total, rate=f"{rate:,.1f}")

                result = run_tournament(config, progress=tick)
    except KitiError as exc:
        fail(str(exc))
    summary = result["summary"]
    if out is not None:
        try:
            write_outputs(result, out, records=save_records)
        except ImportError as exc:
            fail(str(exc), 1)
        except OSError as exc:
            fail(f"cannot write results to {out}: {exc.strerror}", 1)
    if as_json:
        slim = dict(summary, bots=[{k: v for k, v in b.items() if k != "scores"} for b in summary["bots"]])
        typer.echo(json.dumps(slim))
        return
    _print_summary(summary)
    if out is not None:
        typer.echo(f"results written to {out}")


def _ci(d: dict, fmt: str = "{:.3f}") -> str:
    return f"{fmt.format(d['mean'])} [{fmt.format(d['low'])}, {fmt.format(d['high'])}]"


def _print_summary(summary: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    cfg = summary["config"]
    console = Console()
    title = (f"{cfg['game']}: {cfg['games']} games ({cfg['deals']} deals x {cfg['games_per_deal']} "
             f"seat rotations), seed {cfg['seed']}, {summary['games_per_s']} games/s")
    table = Table(title=title)
    for col in ("bot", "games", "wins", "win share [95% CI]", "mean score [95% CI]",
                "mean rank [95% CI]", "rating mu ± 1.96σ (ordinal)"):
        table.add_column(col, justify="right" if col != "bot" else "left")
    rat = {r["bot"]: r for r in (summary["ratings"] or [])}
    fair = summary["fair_share"]
    for b in summary["bots"]:
        r = rat.get(b["bot"])
        mark = " *" if b["beats_fair_share"] else (" -" if b["below_fair_share"] else "")
        table.add_row(
            b["bot"], str(b["games"]), f"{b['wins']:.1f}", _ci(b["win_share"]) + mark,
            _ci(b["mean_score"], "{:.1f}"), _ci(b["mean_rank"], "{:.2f}"),
            "n/a (pip install openskill)" if r is None else
            f"{r['mu']:.1f} ± {1.96 * r['sigma']:.1f} ({r['ordinal']:.1f})")
    console.print(table)
    seats = Table(title=f"win share per seat (fair share {fair:.3f})")
    seats.add_column("seat", justify="right")
    seats.add_column("win share [95% CI]", justify="right")
    for s in summary["seats"]:
        seats.add_row(str(s["seat"]), _ci(s["win_share"]) + (" !" if s["differs_from_fair"] else ""))
    console.print(seats)
    console.print("* win share above the fair share at 95%; - below it; ! seat differs from fair share")
