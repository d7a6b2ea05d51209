"""Several ``kiti serve --cluster`` instances on one PostgreSQL behind HAProxy (issue 22):
routing and relays, kill -9 mid-game, a paused owner (split brain), instances started
together, a graceful hand-over, lobby lists across instances.  All on loopback, from the
test (tests/cluster_kit.py); leases of 2 s so that failovers take seconds."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pg_kit
import pytest
from cluster_kit import LEASE, Kit, Player, get_json, new_database, post_json, seat_players


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    with pg_kit.postgres_server() as url:
        yield url


@pytest.fixture
def kit3(postgres: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Kit]:
    kit = Kit(new_database(postgres, "kiti_" + request.node.name.split("[")[0][5:30]), tmp_path, 3)
    yield kit
    kit.close()


@pytest.fixture
def kit2(postgres: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Kit]:
    kit = Kit(new_database(postgres, "kiti_" + request.node.name.split("[")[0][5:30]), tmp_path, 2)
    yield kit
    kit.close()


def play(players: list[Player], seconds: float) -> None:
    until = time.monotonic() + seconds

    async def main() -> None:
        await asyncio.gather(*(p.run(until) for p in players))

    asyncio.run(main())


def test_routing_relay_lobby_and_graceful_handover(kit3: Kit) -> None:
    """Three instances started together on an empty database migrate it once; a table's
    people reach one owner through the proxy, a stray connection is relayed, a lobby join
    sent to another instance is forwarded; every instance lists every table; a graceful
    stop hands its tables over at once and their games go on."""
    assert [r.version_num for r in kit3.query("SELECT version_num FROM alembic_version")] == ["0005"]
    epochs = {i.health()["cluster"]["epoch"] for i in kit3.instances}  # type: ignore[index]
    assert len(epochs) == 3
    assert kit3.proxy is not None
    tables = [kit3.create(open=[True] * 4) for _ in range(6)]
    ids = {t["table"]["id"] for t in tables}
    for instance in kit3.instances:  # the lobby, from the database: every table everywhere
        status, listing = get_json(instance.base + "/api/tables?status=all&limit=50")
        assert status == 200 and ids <= {t["id"] for t in listing["tables"]}
    players = [p for t in tables for p in seat_players(kit3, t, kit3.proxy.ws)]
    play(players, 1.0)
    owners = {t["table"]["id"]: kit3.owner(t["table"]["id"]) for t in tables}
    assert all(owners.values()), owners
    relayed = sum(i.health()["cluster"]["relayed"] for i in kit3.instances)  # type: ignore[index]
    assert relayed == 0, "every seat of a table reached its owner through the proxy"

    # a stray spectator at an instance that does not own the table: relayed, sees the moves
    table = tables[0]["table"]["id"]
    stray = next(i for i in kit3.instances if i.address != owners[table])
    assert kit3.query("SELECT status FROM kiti_tables WHERE id = :t", t=table)[0].status == "playing"
    watcher = Player(stray.base.replace("http", "ws"), table, None)
    mover = seat_players(kit3, tables[0], kit3.proxy.ws)
    play([watcher, *mover], 1.0)
    assert watcher.connections == 1 and watcher.cursor > 0 and not watcher.errors
    assert stray.health()["cluster"]["relayed"] >= 1  # type: ignore[index]

    # a join sent to another instance is answered by the owner
    fresh = kit3.create(open=[True] * 4)
    fresh_id = fresh["table"]["id"]
    play(seat_players(kit3, {**fresh, "seats": fresh["seats"][:1]}, kit3.proxy.ws), 0.5)
    elsewhere = next(i for i in kit3.instances if i.address != kit3.owner(fresh_id))
    status, joined = post_json(f"{elsewhere.base}/api/tables/{fresh_id}/join", {"name": "Ada"})
    assert status == 200, joined
    assert joined["link"].startswith(elsewhere.base)
    assert elsewhere.health()["cluster"]["forwarded"] == 1  # type: ignore[index]

    # a graceful stop: its tables move at once (well within the lease), nothing lost
    leaving = kit3.by_address(owners[table])
    mine = [t for t in tables if owners[t["table"]["id"]] == leaving.address]
    players = [p for t in mine for p in seat_players(kit3, t, kit3.proxy.ws)]  # the same seats, afresh
    before = {t["table"]["id"]: len(kit3.moves(t["table"]["id"])) for t in mine}
    stopped = time.monotonic()
    leaving.proc.send_signal(signal.SIGTERM)
    play(players, 3.0)
    assert leaving.proc.wait(10) in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled
    for t in mine:
        tid = t["table"]["id"]
        if kit3.query("SELECT status FROM kiti_tables WHERE id = :t", t=tid)[0].status == "over":
            continue
        assert kit3.owner(tid) not in (None, leaving.address), tid
        assert len(kit3.moves(tid)) > before[tid], tid
    first = [min(p.acked_at) - stopped for p in players if p.acked_at]
    assert first and min(first) < LEASE, f"the first move after the hand-over came after {min(first):.1f} s"
