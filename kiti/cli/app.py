"""The typer application object shared by every ``kiti`` sub-command module."""

from __future__ import annotations

from typing import NoReturn

import typer

from ..core.errors import KitiError
from ..games import get_game

app = typer.Typer(
    help="Kiti: the referee for Miaui, Mauw and MOTU. Play, replay, simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``kiti: message`` on stderr and exit with ``code``."""
    typer.echo(f"kiti: {message}", err=True)
    raise typer.Exit(code)


def game_or_fail(game: str):
    try:
        return get_game(game)
    except KitiError as exc:
        fail(str(exc))
