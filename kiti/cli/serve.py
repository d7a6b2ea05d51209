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
    db: str | None = typer.Option(
        None,
        "--db",
        metavar="URL",
        help="Database: a file path or sqlite:///path/kiti.db (SQLite), or "
        "postgresql://user@host/db (default: kiti.db in the user data folder).",
    ),
    bot_workers: int = typer.Option(
        max(1, (os.cpu_count() or 2) - 1),
        "--bot-workers",
        min=1,
        metavar="N",
        help="Worker processes bots think in.",
    ),
    bot_threads: bool = typer.Option(False, "--bot-threads", help="Bots think in threads, not processes."),
    fsync: bool = typer.Option(
        False,
        "--fsync",
        help="Wait for the disk at every commit (survives power cuts): "
        "SQLite synchronous=FULL, PostgreSQL synchronous_commit=on.",
    ),
    log_level: str = typer.Option(
        "info", "--log-level", metavar="LEVEL", help="debug, info, warning, error."
    ),
    seed: int | None = typer.Option(
        None,
        "--seed",
        metavar="N",
        help="Tests and demos only: draw every game's seed from N, so games "
        "repeat (anyone who knows N can predict the cards).",
    ),
    hello_timeout: float = typer.Option(
        5.0,
        "--hello-timeout",
        min=0.1,
        metavar="S",
        help="Close a WebSocket that has not joined a table after S seconds.",
    ),
    header_timeout: float = typer.Option(
        10.0,
        "--header-timeout",
        min=0.1,
        metavar="S",
        help="Drop an HTTP connection whose request headers take over S seconds.",
    ),
    keep_alive: float = typer.Option(
        5.0, "--keep-alive", min=0.1, metavar="S", help="Close an idle HTTP connection after S seconds."
    ),
    max_header_bytes: int = typer.Option(
        16_384,
        "--max-header-bytes",
        min=1024,
        metavar="N",
        help="Refuse a request whose headers exceed N bytes (HTTP 400).",
    ),
    max_connections: int = typer.Option(
        4_096, "--max-connections", min=1, metavar="N", help="Open connections in all; more get HTTP 503."
    ),
    conns_per_address: int = typer.Option(
        64,
        "--conns-per-address",
        min=0,
        metavar="N",
        help="Open WebSockets and requests per client address; more get HTTP 429 (0: no limit).",
    ),
    tables_per_minute: int = typer.Option(
        60,
        "--tables-per-minute",
        min=0,
        metavar="N",
        help="Tables a client address may create per minute; more get HTTP 429 (0: no limit).",
    ),
    cluster: bool = typer.Option(
        False,
        "--cluster",
        help="Run as one instance of a cluster: several kiti serve on one PostgreSQL behind a "
        "proxy (docs/deploy.md).",
    ),
    instance: str = typer.Option(
        "", "--instance", metavar="NAME", help="With --cluster: this instance's name (default: --advertise)."
    ),
    advertise: str = typer.Option(
        "",
        "--advertise",
        metavar="HOST:PORT",
        help="With --cluster: where the other instances reach this one (default: --host:--port).",
    ),
    lease: float = typer.Option(
        10.0,
        "--lease",
        min=0.5,
        metavar="S",
        help="With --cluster: an instance not heard of for S seconds is dead; its tables move.",
    ),
    claim_delay: float = typer.Option(
        1.0,
        "--claim-delay",
        min=0.0,
        metavar="S",
        help="With --cluster: an orphaned table waits S seconds for its clients before any instance takes it.",
    ),
    print_haproxy: str | None = typer.Option(
        None,
        "--print-haproxy",
        metavar="HOST:PORT,...",
        help="Print an HAProxy configuration for the cluster instances at these addresses "
        "(listening on --host:--port) and exit.",
    ),
) -> None:
    """Serve tables online: a lobby API, a WebSocket per seat or spectator, a page at /."""
    if print_haproxy is not None:
        _print_haproxy(print_haproxy, host, port)
        return
    _check_extra()
    from ..server.app import StartError, preflight, serve
    from ..server.config import ServerConfig

    db = database_url(db)
    if cluster and not (db or "").startswith(("postgresql", "postgres:")):
        fail(
            "--cluster needs a PostgreSQL database shared by every instance (--db postgresql://...): "
            "SQLite serves one machine only, without --cluster"
        )
    config = ServerConfig(
        db=db or "",
        bot_workers=bot_workers,
        bot_mode="thread" if bot_threads else "process",
        fsync=fsync,
        seed=seed,
        hello_timeout=hello_timeout,
        header_timeout=header_timeout,
        keep_alive=keep_alive,
        max_header_bytes=max_header_bytes,
        max_connections=max_connections,
        conns_per_address=conns_per_address,
        tables_per_minute=tables_per_minute,
        cluster=cluster,
        instance=instance,
        advertise=advertise or f"{'127.0.0.1' if host in ('0.0.0.0', '::', '') else host}:{port}",
        lease=lease,
        claim_delay=claim_delay,
    )
    try:
        preflight(config)
    except StartError as exc:
        fail(f"kiti serve cannot start: {exc}", 1)
    serve(config, host=host, port=port, log_level=log_level)


def _print_haproxy(servers: str, host: str, port: int) -> None:
    """The HAProxy configuration of docs/deploy.md for these instances."""
    from ..server.cluster import haproxy_config

    addresses = [a.strip() for a in servers.split(",") if a.strip()]
    bad = [a for a in addresses if not a.rpartition(":")[2].isdigit()]
    if not addresses or bad:
        fail(f"--print-haproxy takes HOST:PORT addresses separated by commas, not {quoted(servers)}")
    typer.echo(haproxy_config(addresses, f"{host}:{port}"))
