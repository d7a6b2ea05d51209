"""The typer application object shared by every ``kiti`` sub-command module."""

from __future__ import annotations

from typing import NoReturn

import typer

from .. import __version__
from ..core.errors import KitiError, OptionError, quoted
from ..core.files import folder_problem
from ..core.game import State
from ..core.options import parse_option_args
from ..core.registry import get_game

app = typer.Typer(
    help="Kiti: a referee for card games (each game a package of its own). Play, replay, simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"kiti {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(
        False,
        "--version",
        "-V",
        metavar="",
        is_eager=True,
        callback=_version,
        help="Print Kiti's version and exit.",
    ),
) -> None:
    """Kiti: a referee for card games (each game a package of its own). Play, replay, simulate."""


#: Where simulations run (``kiti tournament`` and ``kiti balance``; :mod:`kiti.sim.runner`).
BACKEND_OPTION: str = typer.Option(
    "local", "--backend", metavar="NAME", help="local (a process pool) or ray (pip install 'kiti[ray]')."
)
ADDRESS_OPTION: str | None = typer.Option(
    None,
    "--address",
    metavar="ADDR",
    help="With --backend ray: the cluster (auto: the one this machine joined; default: a local Ray).",
)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``kiti: message`` on stderr and exit with ``code``."""
    typer.echo(f"kiti: {message}", err=True)
    raise typer.Exit(code)


def game_or_fail(game: str) -> type[State]:
    try:
        return get_game(game)
    except KitiError as exc:
        fail(str(exc))


def check_out_folder(out: str) -> None:
    """Refuse an ``--out`` folder that could not be made or written, before any game and
    without leaving anything behind (:func:`kiti.core.files.folder_problem`)."""
    if not out.strip():
        fail("--out is empty: name the folder to write to")
    problem = folder_problem(out)
    if problem is not None:
        fail(f"cannot write to --out {quoted(out)}: {problem}")


def check_plots_folder(out: str) -> None:
    """:func:`check_out_folder`, and matplotlib there to draw the plots a tournament's or a
    balance study's ``--out`` holds."""
    check_out_folder(out)
    try:
        import matplotlib  # noqa: F401  (the plots are part of --out)
    except ImportError:
        fail("--out draws plots with matplotlib: pip install 'kiti[sim]' (or pip install matplotlib)")


def option_args(args: list[str] | None) -> dict[str, str]:
    """``-o NAME=VALUE`` arguments as a dict (each read by
    :func:`kiti.core.options.parse_option_args`), refusing an option given twice under any of
    its spellings (the last one silently won)."""
    options: dict[str, str] = {}
    for arg in args or []:
        ((name, value),) = parse_option_args([arg]).items()
        if name in options:
            raise OptionError(f"option {quoted(name)} is given twice: give each option once")
        options[name] = value
    return options
