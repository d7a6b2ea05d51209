"""``kiti serve``: the online server (extra ``[server]``): lobby, tables, WebSockets."""

from __future__ import annotations

import os
from pathlib import Path

import typer

from ..core.errors import quoted
from .app import app, fail


def _check_extra() -> None:
    try:
        import alembic  # noqa: F401
        import sqlalchemy  # noqa: F401
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as exc:
        fail(f"kiti serve needs the [server] extra ({exc.name} is missing): pip install 'kiti[server]'")


def database_url(db: str | None) -> str | None:
    """``--db`` as a database URL: a URL as given, a plain file path as an SQLite file."""
    if db is None or db.startswith(("sqlite:", "postgresql:", "postgresql+psycopg:", "postgres:")):
        return db
    if "://" in db or not db.strip():
        fail(f"--db must be a file path, an sqlite:/// URL or a postgresql:// URL, not {quoted(db)}")
    return "sqlite:///" + str(Path(db).expanduser().resolve())


@app.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0: every interface)."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="TCP port."),
    db: str | None = typer.Option(None, "--db", metavar="URL",
                                  help="Database: a file path or sqlite:///path/kiti.db (SQLite), or "
                                       "postgresql://user@host/db (default: kiti.db in the user data folder)."),
    bot_workers: int = typer.Option(max(1, (os.cpu_count() or 2) - 1), "--bot-workers", min=1,
                                    metavar="N", help="Worker processes bots think in."),
    bot_threads: bool = typer.Option(False, "--bot-threads", help="Bots think in threads, not processes."),
    fsync: bool = typer.Option(False, "--fsync", help="SQLite: sync every commit to disk (survives power cuts)."),
    log_level: str = typer.Option("info", "--log-level", metavar="LEVEL", help="debug, info, warning, error."),
    seed: int | None = typer.Option(None, "--seed", metavar="N",
                                    help="Tests and demos only: draw every game's seed from N, so games "
                                         "repeat (anyone who knows N can predict the cards)."),
) -> None:
    """Serve tables online: a lobby API, a WebSocket per seat or spectator, a page at /."""
    _check_extra()
    from ..server.app import serve
    from ..server.config import ServerConfig

    db = database_url(db)
    config = ServerConfig(db=db or "", bot_workers=bot_workers,
                          bot_mode="thread" if bot_threads else "process", fsync=fsync, seed=seed)
    serve(config, host=host, port=port, log_level=log_level)
