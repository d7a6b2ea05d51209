"""``kiti tournament``: duplicate-deal tournaments between bots, with statistics and plots."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from ..core.errors import KitiError
from .app import ADDRESS_OPTION, BACKEND_OPTION, app, check_plots_folder, fail, option_args


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
        None,
        "--jobs",
        min=1,
        metavar="N",
        help="Worker processes (default: all cores); with --backend ray, deals in flight "
        "(default: twice the cluster's CPUs).",
    ),
    seed: int = typer.Option(
        0, "--seed", metavar="S", help="Tournament seed: every deal and bot seed derive from it."
    ),
    rotation: str = typer.Option(
        "cyclic", "--rotation", metavar="MODE", help="Seat rotations per deal: cyclic or all."
    ),
    out: str | None = typer.Option(
        None,
        "--out",
        metavar="DIR",
        help="Write deals.jsonl (as deals finish), results.json, results.csv, games.csv, "
        "run.json and plots here.",
    ),
    resume: bool = typer.Option(
        False, "--resume", metavar="", help="With --out: continue the run stopped there (same arguments)."
    ),
    shard: str | None = typer.Option(
        None,
        "--shard",
        metavar="K/N",
        help="With --out: play only shard K of N (deals i with i % N == K-1); "
        "combine the shards with kiti tournament-merge.",
    ),
    backend: str = BACKEND_OPTION,
    address: str | None = ADDRESS_OPTION,
    save_records: bool = typer.Option(
        False, "--save-records", metavar="", help="With --out: one record per game."
    ),
    as_json: bool = typer.Option(
        False, "--json", metavar="", help="Print the summary as JSON instead of tables."
    ),
) -> None:
    """Play GAME between bots on duplicate deals with rotated seats, and report who wins."""
    from ..bots.registry import split_bot_specs
    from ..sim.tournament import TournamentConfig, parse_shard, plan_tournament

    for flag, given in (("--save-records", save_records), ("--resume", resume), ("--shard", shard)):
        if given and out is None:
            fail(f"{flag} needs --out DIR")
    if out is not None:
        check_plots_folder(out)
    try:
        config = TournamentConfig(
            game=game,
            bots=split_bot_specs(bots, "--bots"),
            games=games,
            players=players,
            options=option_args(option),
            jobs=jobs,
            seed=seed,
            rotation=rotation,
            save_records=save_records,
            backend=backend,
            address=address,
            shard=None if shard is None else parse_shard(shard),
        )
        plan = plan_tournament(config)  # every argument checked before the first game
    except KitiError as exc:
        fail(str(exc))
    result = _play(plan, out, resume, as_json)
    _report(result, out, save_records, as_json)


def _play(plan: Any, out: str | None, resume: bool, quiet: bool) -> dict[str, Any]:
    """Run the tournament (its deals on file in ``out``); exit with a message if stopped."""
    from ..sim.tournament import run_tournament
    from ..sim.tournament_file import DEALS, open_deals

    store = None
    try:
        if out is not None:
            store = open_deals(out, plan, resume)
        return run_tournament(plan, store=store) if quiet else _with_progress(plan, store)
    except KitiError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write to {exc.filename or out}: {exc.strerror}", 1)
    except KeyboardInterrupt:
        if store is None:
            typer.echo("kiti: tournament stopped; nothing was written", err=True)
        else:
            typer.echo(
                f"kiti: tournament stopped; the finished deals are in {Path(out or '') / DEALS}: "
                "run the same command with --resume to go on",
                err=True,
            )
        raise typer.Exit(130) from None
    finally:
        if store is not None:
            store.close()


def _report(result: dict[str, Any], out: str | None, records: bool, as_json: bool) -> None:
    """Write the outputs to ``out`` (a shard: only run.json) and print the summary."""
    from ..sim.tournament import slim_summary, write_outputs, write_run

    shard = result["run"].get("shard")
    if out is not None:
        try:
            write_run(result, out) if shard else write_outputs(result, out, records=records)
        except ImportError as exc:
            fail(str(exc), 1)
        except OSError as exc:
            fail(f"cannot write results to {exc.filename or out}: {exc.strerror}", 1)
    if as_json:
        typer.echo(json.dumps(dict(slim_summary(result["summary"]), run=result["run"]), allow_nan=False))
        return
    _print_summary(result["summary"], result["run"])
    if shard:
        typer.echo(
            f"shard {shard[0]}/{shard[1]} written to {out}: combine the shards with kiti tournament-merge"
        )
    elif out is not None:
        typer.echo(f"results written to {out}")


def _with_progress(plan: Any, store: Any) -> dict[str, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from ..sim.tournament import run_tournament

    columns = (
        TextColumn("[bold]games"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}/s"),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, transient=False) as bar:
        resumed = sum(map(len, store.done.values())) if store is not None else 0
        task = bar.add_task("games", total=plan.total, completed=resumed, rate="-")
        start = time.perf_counter()

        def tick(done: int, total: int) -> None:
            rate = (done - resumed) / max(1e-9, time.perf_counter() - start)
            bar.update(task, completed=done, total=total, rate=f"{rate:,.1f}")

        out: dict[str, Any] = run_tournament(plan, progress=tick, store=store)
        return out


def _range(d: dict[str, Any], fmt: str = "{:.2f}") -> str:
    if d["low"] is None or d["high"] is None:
        return "n/a"
    return f"{fmt.format(d['low'])}-{fmt.format(d['high'])}"


def _print_summary(summary: dict[str, Any], run: dict[str, Any]) -> None:
    from rich.console import Console

    cfg = summary["config"]
    console = Console(highlight=False)
    shard = run.get("shard")
    if shard:
        played = summary["length"]["games"]
        console.print(
            f"{cfg['game']}, shard {shard[0]}/{shard[1]}: {played} of {cfg['games']} games "
            f"({played // cfg['games_per_deal']} of {cfg['deals']} deals), seed {cfg['seed']}"
        )
    else:
        rotations = f"{cfg['games_per_deal']} rotation" + ("s" if cfg["games_per_deal"] > 1 else "")
        console.print(
            f"{cfg['game']}: {cfg['games']} games ({cfg['deals']} deals x {rotations}), seed {cfg['seed']}"
        )
    console.print(_bots_table(summary))
    console.print(f"Win share per seat (an even share: {summary['fair_share']:.2f})")
    console.print(_seats_table(summary))
    console.print(_spreads_table(summary))
    console.print("* wins more than an even share (95% confidence); - fewer")
    console.print("! this seat differs from an even share; rating: skill rating ± 95% range")
    for warning in summary.get("warnings", []):
        console.print(f"[bold yellow]warning:[/] {warning}", markup=True)
    if run.get("deals_resumed"):
        console.print(
            f"{run['deals_resumed']} deal(s) resumed from the file, {run['deals_played']} played now"
        )
    if run.get("games_per_s") is not None:
        console.print(f"{run['games_per_s']} games/s")


def _bots_table(summary: dict[str, Any]) -> Any:
    from rich.table import Table

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
    return table


def _seats_table(summary: dict[str, Any]) -> Any:
    from rich.table import Table

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
    return seats


def _spreads_table(summary: dict[str, Any]) -> Any:
    """Game length (in the game's unit, if it declares one), moves and the winner's margin:
    mean, its 95% range, spread."""
    from rich.table import Table

    table = Table(pad_edge=False, box=None, header_style="bold")
    cols = ("per game", "mean", "95% range", "sd", "min", "10%", "median", "90%", "max")
    for col in cols:
        table.add_column(col, justify="left" if col == "per game" else "right", no_wrap=True)
    unit = summary["length"].get("unit")
    names = {"length": f"length ({unit})", "moves": "moves", "margin": "winner's margin"}
    for key, name in names.items():
        d = summary[key]
        if key == "length" and unit is None:
            continue
        if not d["games"]:
            table.add_row(name, *["n/a"] * (len(cols) - 1))
            continue
        keys = ("sd", "min", "p10", "median", "p90", "max")
        table.add_row(name, _num(d["mean"]), _range(d, "{:.1f}"), *(_num(d[k]) for k in keys))
    return table


def _num(x: float | None) -> str:
    if x is None:
        return "n/a"
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


@app.command(
    "tournament-merge", short_help="Combine the shards of a tournament (kiti tournament --shard K/N)."
)
def tournament_merge_command(
    folders: list[str] = typer.Argument(  # noqa: B008
        ..., metavar="DIR", help="The --out folders of the shards, each a finished run."
    ),
    out: str = typer.Option(
        ..., "--out", metavar="DIR", help="Write deals.jsonl, results.json, games.csv... here."
    ),
    as_json: bool = typer.Option(
        False, "--json", metavar="", help="Print the summary as JSON instead of tables."
    ),
) -> None:
    """Combine the shards of a tournament (each played with kiti tournament ... --shard K/N
    --out DIR): check that they belong to one tournament and hold every deal once, and
    write the outputs of the whole tournament, as one unsharded run writes them."""
    from ..sim.tournament_file import merge_deals

    check_plots_folder(out)
    try:
        result = merge_deals(folders, out)
    except KitiError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot merge into {exc.filename or out}: {exc.strerror}", 1)
    records = (Path(out) / "records").is_dir()
    _report(result, out, records, as_json)
