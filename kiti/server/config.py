"""The server's settings (``kiti serve`` options), with defaults for a small server."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class TimerPreset:
    """A table's clock: ``move`` seconds for each decision; the unused part of it goes to the
    person's reserve (``bank`` at the start, at most ``cap``), which a slow decision draws on."""

    move: float
    bank: float
    cap: float


#: The clocks a table may be created with by name (``"timer": "fast"``).
TIMER_PRESETS = {
    "fast": TimerPreset(20.0, 60.0, 180.0),
    "normal": TimerPreset(60.0, 180.0, 600.0),
    "slow": TimerPreset(180.0, 600.0, 1800.0),
}
#: A timer given in seconds starts with an empty reserve that holds at most this many decisions.
CUSTOM_CAP = 4


def timer_preset(seconds: float) -> TimerPreset:
    """The clock of a table whose timer is ``seconds`` per decision: a named preset's (a table
    stores only the seconds), else an empty reserve of at most ``CUSTOM_CAP`` decisions."""
    for preset in TIMER_PRESETS.values():
        if preset.move == seconds:
            return preset
    return TimerPreset(seconds, 0.0, CUSTOM_CAP * seconds)


def default_db_url() -> str:
    """An SQLite file in the user's data folder (``platformdirs.user_data_dir("kiti")``)."""
    from platformdirs import user_data_dir

    return "sqlite:///" + os.path.join(user_data_dir("kiti"), "kiti.db")


@dataclass
class ServerConfig:
    db: str = ""  # database URL ("" = default_db_url())
    fsync: bool = False  # wait for the disk at each commit (SQLite FULL, PostgreSQL synchronous_commit on)
    max_frame: int = 16_384  # largest client frame, in characters (larger: error too_large)
    hard_frame: int = 1_048_576  # larger frames close the connection (uvicorn ws_max_size)
    max_body: int = 65_536  # largest lobby request body, in bytes
    rate: float = 20.0  # messages per second a connection may send (token bucket refill)
    burst: int = 40  # bucket size
    outbox: int = 512  # messages queued to a connection before it is dropped as too slow
    bot_workers: int = 1  # bot worker processes (or threads)
    bot_mode: str = "process"  # process or thread
    bot_time_limit: float = 30.0  # seconds a bot may think before a random legal move is played
    leave_grace: float = 5.0  # seconds before a bot takes over a seat whose human left
    evict_after: float = 60.0  # seconds a finished table without viewers stays in memory
    seed: int | None = None  # tests and demos: game seeds drawn from this (None: unpredictable)
    # Connection limits (docs/protocol.md, "Limits"); 0 turns a per-address limit off.
    hello_timeout: float = 5.0  # seconds a WebSocket may take to send a hello that joins a table
    header_timeout: float = 10.0  # seconds an HTTP request's headers may take to arrive in full
    keep_alive: float = 5.0  # seconds an idle HTTP connection stays open (uvicorn timeout_keep_alive)
    max_header_bytes: int = 16_384  # largest request head (h11_max_incomplete_event_size)
    max_connections: int = 4_096  # open connections in all (uvicorn limit_concurrency: HTTP 503 beyond)
    conns_per_address: int = 64  # open WebSockets and requests in progress per client address
    tables_per_minute: int = 60  # tables one client address may create per minute
    # Cluster mode (kiti serve --cluster, PostgreSQL only; kiti.server.cluster, docs/deploy.md).
    cluster: bool = False
    instance: str = ""  # this instance's name in the cluster ("": made from host, port, process)
    advertise: str = ""  # host:port the other instances reach it at (relays, forwarded requests)
    lease: float = 10.0  # seconds an instance's lease lasts without renewal (renewed every quarter)
    claim_delay: float = 1.0  # seconds an orphaned table waits for a client to bring its claim

    def db_url(self) -> str:
        return self.db or default_db_url()

    def limits(self) -> dict[str, float]:
        return {"frame": self.max_frame, "rate": self.rate, "burst": self.burst}
