"""``kiti train``: a learned player for a game, by self-play (the ``[train]`` extra).
See docs/rl.md, "Training"."""

from __future__ import annotations

import importlib.util
from typing import Any

import typer

from ..core.errors import KitiError
from .app import app, check_out_folder, fail, option_args


@app.command("train", short_help="Train a learned player by self-play (needs the [train] extra).")
def train_command(
    game: str = typer.Argument(..., metavar="GAME", help="Game id, e.g. miaui."),
    out: str = typer.Option(..., "--out", metavar="DIR", help="Folder for checkpoints and the policy."),
    players: int | None = typer.Option(
        None, "--players", "-p", metavar="N", help="Seats (default: the fewest the game allows)."
    ),
    option: list[str] | None = typer.Option(  # noqa: B008
        None, "--option", "-o", metavar="NAME=VALUE", help="Game option (repeatable)."
    ),
    steps: int | None = typer.Option(
        None, "--steps", metavar="N", help="Stop after this many trained decisions."
    ),
    minutes: float | None = typer.Option(
        None, "--minutes", metavar="M", help="Stop after this much training time."
    ),
    seed: int | None = typer.Option(
        None, "--seed", metavar="SEED", help="Seed of the whole run (same seed, same run; default 0)."
    ),
    resume: bool = typer.Option(
        False, "--resume", help="Go on from the checkpoint in DIR, with its settings (one given must match)."
    ),
    against: str | None = typer.Option(
        None,
        "--against",
        metavar="heuristic|POLICY",
        help="Best response: every seat outside the learner's (its team's, in a team game) plays this, frozen.",
    ),
    init: str | None = typer.Option(
        None, "--init", metavar="POLICY", help="Start from this policy's weights."
    ),
    imitate: str | None = typer.Option(
        None, "--imitate", metavar="heuristic", help="First clone this player's moves, then PPO."
    ),
    imitate_games: int | None = typer.Option(
        None, "--imitate-games", metavar="N", help="Games recorded to imitate (every seat; default 2000)."
    ),
    imitate_epochs: int | None = typer.Option(
        None, "--imitate-epochs", metavar="N", help="Passes over the recorded games (default 10)."
    ),
    lr: float | None = typer.Option(
        None, "--lr", metavar="RATE", help="PPO's learning rate (Adam; default 0.0003)."
    ),
    margin: float | None = typer.Option(
        None,
        "--margin",
        metavar="W",
        help="Reward the share plus W x the score margin (-1..1): a denser signal (default 0).",
    ),
    games: int | None = typer.Option(None, "--games", metavar="N", help="Games an iteration (default 16)."),
    hidden: int | None = typer.Option(
        None,
        "--hidden",
        metavar="N",
        help="Width of the network's hidden layers (default: the --init policy's, else 64).",
    ),
    observation: str | None = typer.Option(
        None,
        "--observation",
        metavar="info_state|tensor",
        help="The tensor the network reads (default: the --init policy's, else info_state).",
    ),
    checkpoint: float = typer.Option(
        60.0, "--checkpoint-every", metavar="SECONDS", help="Seconds between checkpoints."
    ),
    device: str | None = typer.Option(
        None, "--device", metavar="cpu|cuda", help="Where updates run (default: cuda where present)."
    ),
) -> None:
    """Train a policy-and-value network for GAME by masked PPO, against a pool of its past
    selves and the heuristic; DIR gets checkpoint.pt, policy.npz/.json (play it with
    policy:DIR, written with a /) and history.json.  With --resume, a setting left out is the
    checkpoint's, and one given otherwise is refused (the run would not go on as it was)."""
    if importlib.util.find_spec("torch") is None:
        fail("kiti train needs the [train] extra: pip install 'kiti[train]'")
    if steps is None and minutes is None and not resume:
        fail("say how long to train: --steps N or --minutes M")
    if imitate is None and not resume and (imitate_games, imitate_epochs) != (None, None):
        fail("--imitate-games and --imitate-epochs go with --imitate heuristic")
    check_out_folder(out)
    from ..rl.train import Config, train
    from ..rl.train.ppo import resume_settings

    try:
        said = {
            "players": players,
            "options": option_args(option) if option else None,
            "seed": seed,
            "steps": steps,
            "minutes": minutes,
            "observation": observation,
            "hidden": hidden,
            "games": games,
            "lr": lr,
            "margin": margin,
            "against": against,
            "init": init,
            "imitate": imitate,
            "imitate_games": imitate_games,
            "imitate_epochs": imitate_epochs,
        }
        given: dict[str, Any] = {k: v for k, v in said.items() if v is not None}
        given["checkpoint_every"] = checkpoint
        config = resume_settings(game, given, out) if resume else Config(game=game, **given)
        with _Bar(config) as bar:
            trainer = train(config, out, resume=resume, progress=bar.tick, device=device)
    except KitiError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        typer.echo(
            f"kiti: training stopped; resume it with --resume (the last checkpoint is in {out})", err=True
        )
        raise typer.Exit(130) from None
    last = trainer.history[-1] if trainer.history else {}
    typer.echo(
        f"{trainer.iteration} iterations, {trainer.steps} decisions, {trainer.games} games, "
        f"{trainer.elapsed:.0f} s; last share {last.get('share', '-')}, against the heuristic "
        f"{last.get('share_vs_heuristic', '-')}; policy in {out}/policy.npz"
    )


class _Bar:
    """A rich progress bar over the run's budget (decisions or minutes)."""

    def __init__(self, config: Any) -> None:
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.config = config
        self.progress = Progress(
            TextColumn("[bold]training"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TextColumn("{task.fields[info]}"),
            TimeElapsedColumn(),
        )
        self.task = self.progress.add_task("train", total=1.0, info="")

    def __enter__(self) -> _Bar:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def tick(self, trainer: Any) -> None:
        if trainer.imitating():
            self.progress.update(self.task, info=f"imitating: epoch {trainer.imitated + 1}")
            return
        c = self.config
        if c.steps is not None:
            done = trainer.steps / c.steps if c.steps else 1.0
        else:
            done = trainer.elapsed / (60 * c.minutes)
        last = trainer.history[-1] if trainer.history else {}
        info = f"it {trainer.iteration} · {trainer.steps:,} decisions · share {last.get('share', 0):.2f} · vs heuristic {last.get('share_vs_heuristic', 0):.2f}"
        self.progress.update(self.task, completed=min(done, 1.0), info=info)
