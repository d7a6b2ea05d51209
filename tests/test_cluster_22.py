"""Several ``kiti serve --cluster`` instances on one PostgreSQL behind HAProxy (issue 22):
routing and relays, kill -9 mid-game, a paused owner (split brain), instances started
together, a graceful hand-over, lobby lists across instances.  All on loopback, from the
test (tests/cluster_kit.py); leases of 2 s so that failovers take seconds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pg_kit
import pytest
import waits
from cluster_kit import LEASE, Kit, Player, check_moves, get_json, new_database, post_json, seat_players

#: a lease no instance misses on a loaded machine (as long as a test waits for a message)
STEADY = waits.MESSAGE


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


@pytest.fixture
def steady2(postgres: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Kit]:
    """Two instances whose leases outlast any stall of a loaded machine (``STEADY``), for a test
    of no failover: with 2 s leases, an instance starved for 2 s is declared dead and closes
    every socket (code 4004), whatever the test was checking."""
    kit = Kit(new_database(postgres, "kiti_" + request.node.name.split("[")[0][5:30]), tmp_path, 2, STEADY)
    yield kit
    kit.close()


@pytest.fixture
def kit4(postgres: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Kit]:
    kit = Kit(new_database(postgres, "kiti_" + request.node.name.split("[")[0][5:30]), tmp_path, 4)
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


def test_kill9_mid_game_loses_no_acknowledged_move_and_doubles_none(kit2: Kit) -> None:
    """kill -9 of an instance mid-game, players moving through the proxy: every orphaned
    table plays again within the lease + 3 s, every acknowledged move is stored once, in
    order, and every record replays."""
    assert kit2.proxy is not None
    tables = [kit2.create() for _ in range(6)]
    players = {t["table"]["id"]: seat_players(kit2, t, kit2.proxy.ws, think=0.1) for t in tables}
    killed: dict[str, float] = {}
    orphans: list[str] = []

    async def main() -> None:
        until = time.monotonic() + 2.0 + LEASE + 4.0
        runs = asyncio.gather(*(p.run(until) for ps in players.values() for p in ps))
        await asyncio.sleep(2.0)
        owners = {tid: kit2.owner(tid) for tid in players}
        victim = max(kit2.instances, key=lambda i: sum(o == i.address for o in owners.values()))
        live = {r.id for r in kit2.query("SELECT id FROM kiti_tables WHERE status = 'playing'")}
        orphans.extend(tid for tid, o in owners.items() if o == victim.address and tid in live)
        await asyncio.to_thread(victim.kill9)
        killed["at"] = time.monotonic()
        await runs

    asyncio.run(main())
    assert orphans, "the killed instance owned tables under way"
    lost = doubled = 0
    for tid, ps in players.items():
        a, d = check_moves(kit2, tid, ps, list(range(4)))
        lost, doubled = lost + a, doubled + d
    waits_ = {
        tid: min(t for p in players[tid] for t in p.acked_at if t > killed["at"]) - killed["at"]
        for tid in orphans
    }
    acked = sum(len(p.acked) for ps in players.values() for p in ps)
    print(
        f"\nkill -9: {acked} moves acknowledged, {lost} lost, {doubled} doubled; orphaned tables "
        f"playing again after {', '.join(f'{w:.2f}' for w in sorted(waits_.values()))} s (lease {LEASE} s)"
    )
    assert lost == 0 and doubled == 0
    assert max(waits_.values()) < LEASE + 3.0


#: The split-brain test's time per decision: long enough that no stand-in plays a seat while
#: the owner is paused and the seats reconnect (its move would count as one nobody sent).
TIMER = 30


def settle(sockets: list[Any]) -> list[dict[str, Any]]:
    """Each socket's latest ``state`` once the table is quiet (a move sent just before may
    still be answered)."""
    latest: list[dict[str, Any]] = [{} for _ in sockets]
    quiet_since, end = time.monotonic(), time.monotonic() + 15
    while time.monotonic() - quiet_since < 0.5 or not all(latest):
        assert time.monotonic() < end, f"the table never settled: {latest}"
        for i, ws in enumerate(sockets):
            try:
                m = json.loads(ws.recv(0.05))
            except TimeoutError:
                continue
            quiet_since = time.monotonic()
            if m["type"] == "state":
                latest[i] = m
    return latest


def first_state(ws: Any) -> dict[str, Any]:
    """The first ``state`` message on ``ws`` (after the welcome, presence and notices)."""
    for _ in range(50):
        m = json.loads(ws.recv(waits.MESSAGE))
        if m["type"] == "state":
            return m  # type: ignore[no-any-return]
    raise AssertionError("no state among the first 50 messages")


def test_a_paused_owner_commits_nothing_once_its_tables_moved(kit2: Kit) -> None:
    """Split brain: an owner paused (SIGSTOP) past its lease while another instance claims its
    table, then resumed (SIGCONT), commits nothing (a move already in its socket is refused,
    told to nobody), closes its sockets and rejoins under a new epoch."""
    from websockets.sync.client import connect

    a, b = kit2.instances
    created = kit2.create(timer=TIMER)
    tid = created["table"]["id"]
    players = seat_players(kit2, created, a.base.replace("http", "ws"))
    play(players, 1.0)  # straight to a: a owns it
    last_move = time.monotonic()
    assert kit2.owner(tid) == a.address
    epoch = a.health()["cluster"]["epoch"]  # type: ignore[index]
    stack = contextlib.ExitStack()
    raw = []
    for seat in created["seats"]:
        ws = stack.enter_context(connect(f"{a.base.replace('http', 'ws')}/ws?table={tid}", compression=None))
        ws.send(json.dumps({"type": "hello", "v": 1, "table": tid, "token": seat["token"]}))
        raw.append(ws)
    sockets = list(zip(raw, settle(raw)))
    turns = [(w, s) for w, s in sockets if s["your_turn"]]
    assert turns, f"the premise: a seat to act ({[s['to_act'] for _, s in sockets]})"
    ws, state = turns[0]
    a.signal(signal.SIGSTOP)
    try:
        end = time.monotonic() + LEASE + 5
        while kit2.owner(tid) != b.address:  # b claims the orphan once a's lease expired
            assert time.monotonic() < end, "the paused owner's table was not claimed"
            time.sleep(0.1)
        stored = kit2.moves(tid)
        with connect(f"{kit2.proxy.ws}/ws?table={tid}", compression=None) as spectator:  # type: ignore[union-attr]
            spectator.send(json.dumps({"type": "hello", "v": 1, "table": tid}))
            clock = first_state(spectator)["clock"]
        (seat, left), bank = next(iter(clock["left"].items())), clock["banks"][next(iter(clock["left"]))]
        # the decision's clock resumed from the last move's stored time, not afresh
        assert left <= TIMER + bank - (time.monotonic() - last_move) + 1.0, (
            clock,
            time.monotonic() - last_move,
        )
        with pytest.raises(Exception, match="not owned"), kit2.engine.begin() as conn:  # the fence
            conn.exec_driver_sql("CALL kiti_fence(%s, %s, %s)", (a.address, epoch, [tid]))
        ws.send(json.dumps({"type": "move", "move": state["legal"][0], "id": "late"}))
    finally:
        a.signal(signal.SIGCONT)
    answers, closed, error = [], None, None
    end = time.monotonic() + LEASE + 15  # the resumed owner finds out at its next lease renewal
    try:
        while time.monotonic() < end:
            try:
                answers.append(json.loads(ws.recv(1)))
            except TimeoutError:
                continue
    except Exception as exc:
        closed, error = getattr(getattr(exc, "rcvd", None), "code", None), exc
    assert not any(m.get("re") == "late" and m["type"] == "state" for m in answers), answers
    assert closed == 4004, f"the stale owner's socket was not closed as moved ({closed}: {error!r})"
    assert kit2.moves(tid) == stored, "the paused owner committed a move after losing its table"
    end = time.monotonic() + 5
    while not ((h := a.health() or {}).get("ok") and h["cluster"]["epoch"] > epoch):
        assert time.monotonic() < end, f"the resumed instance did not rejoin: {h}"
        time.sleep(0.1)
    assert h["cluster"]["lost"] == 1 and h["cluster"]["owned"] == 0
    stack.close()
    players[
        [w for w, _ in sockets].index(ws)
    ].unanswered += 1  # the late move was sent and never answered: at most once, it may be stored
    for p in players:  # the same seats play on, through the proxy
        p.ws = kit2.proxy.ws  # type: ignore[union-attr]
    play(players, 1.0)
    assert len(kit2.moves(tid)) > len(stored) and kit2.owner(tid) == b.address
    assert check_moves(kit2, tid, players, list(range(4))) == (0, 0)


def test_sqlite_refuses_cluster_and_the_proxy_configuration_is_valid(tmp_path: Path) -> None:
    """``--cluster`` on SQLite is refused with a clear error; ``--print-haproxy`` prints a
    configuration HAProxy accepts, hashing the table consistently, checking /api/health."""
    from typer.testing import CliRunner

    from kiti.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--cluster", "--db", str(tmp_path / "kiti.db")])
    assert result.exit_code != 0 and "--cluster needs a PostgreSQL database" in result.output
    result = CliRunner().invoke(
        app, ["serve", "--print-haproxy", "10.0.0.1:8000,10.0.0.2:8000", "--port", "80"]
    )
    assert result.exit_code == 0, result.output
    config = result.output
    assert "hash-type consistent" in config and "option httpchk GET /api/health" in config
    assert "server kiti2 10.0.0.2:8000 check" in config
    haproxy = shutil.which("haproxy")
    if haproxy is not None:
        (tmp_path / "h.cfg").write_text(config)
        checked = subprocess.run(
            [haproxy, "-c", "-f", str(tmp_path / "h.cfg")], capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stdout + checked.stderr


def test_connections_asking_for_one_table_at_once_share_one_load(tmp_path: Path) -> None:
    """A rematch's seats connect together to a table not yet in memory: they get one table
    object, loaded once (in a cluster also claimed once), not one replay each (a connection
    left on a replaced copy would never see the others' moves)."""
    from server_kit import config

    from kiti.server.lobby import Hub

    async def main() -> tuple[int, set[int]]:
        hub = Hub(config(tmp_path))
        await hub.start()
        try:
            table, _ = await hub.create({"game": "mauw", "seats": ["human"] * 4})
            table.close()
            del hub.tables[table.id]  # as after an eviction or a rematch made elsewhere
            reads = 0
            read = hub.store.read

            async def counted(op: object) -> object:
                nonlocal reads
                reads += 1
                return await read(op)  # type: ignore[arg-type]

            hub.store.read = counted  # type: ignore[method-assign]
            got = await asyncio.gather(*(hub.get(table.id) for _ in range(4)))
            return reads, {id(t) for t in got} | {id(hub.tables[table.id])}
        finally:
            await hub.close()

    reads, objects = asyncio.run(main())
    assert reads == 1
    assert len(objects) == 1


def start_refused(*args: str) -> subprocess.CompletedProcess[str]:
    """``kiti serve`` with ``args``, expected to refuse to start."""
    import sys

    from serve_kit import ROOT, free_port

    command = [sys.executable, "-m", "kiti.cli.main", "serve", "--port", str(free_port()), *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=waits.START)


def test_a_taken_instance_name_or_an_unreachable_database_is_one_clear_line(
    postgres: str, tmp_path: Path
) -> None:
    """Two live instances under one name would take each other's lease in turns: the second
    is refused, naming the first's address; a database that cannot be reached is one line
    (no traceback) and exit status 1."""
    from cluster_kit import Instance

    db = new_database(postgres, "kiti_instance_names")
    first = Instance(db, tmp_path / "kiti1.log")
    try:
        first.ready()
        done = start_refused("--db", db, "--cluster", "--instance", first.address)
        assert done.returncode == 1, done.stdout + done.stderr
        assert (
            f"the instance name '{first.address}' is held by a live instance at '{first.address}'"
            in done.stderr
        )
        assert "Traceback" not in done.stdout + done.stderr
        assert first.health()["cluster"]["lost"] == 0  # type: ignore[index]
    finally:
        first.stop()
    done = start_refused("--db", "postgresql://kiti@127.0.0.1:1/kiti", "--cluster")
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert done.stderr.startswith("kiti: kiti serve cannot start: cannot use the database:"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_three_survivors_take_over_and_resume_the_orphans_bots(kit4: Kit) -> None:
    """kill -9 of one of four instances mid-game: the survivors own its tables, the orphaned
    tables' bots play on at their new owners, and no acknowledged move is lost or doubled."""
    assert kit4.proxy is not None
    bots = ["human", "heuristic", "human", "heuristic"]
    tables = [kit4.create() for _ in range(8)] + [kit4.create(seats=bots) for _ in range(6)]
    humans = {t["table"]["id"]: [s["seat"] for s in t["seats"]] for t in tables}
    players = {tid: seat_players(kit4, t, kit4.proxy.ws, think=0.1) for tid, t in zip(humans, tables)}
    before: dict[str, list[tuple[int, str]]] = {}
    owned: dict[str, int] = {}
    victim: list[str] = []

    async def main() -> None:
        until = time.monotonic() + 2.0 + LEASE + 5.0
        runs = asyncio.gather(*(p.run(until) for ps in players.values() for p in ps))
        await asyncio.sleep(2.0)
        owners = {tid: kit4.owner(tid) for tid in players}
        counts = Counter(o for o in owners.values() if o)
        victim.append(counts.most_common(1)[0][0])
        owned.update({i.address: counts[i.address] for i in kit4.instances})
        before.update({tid: kit4.moves(tid) for tid, o in owners.items() if o == victim[0]})
        await asyncio.to_thread(kit4.by_address(victim[0]).kill9)
        await runs

    asyncio.run(main())
    live = {r.id for r in kit4.query("SELECT id FROM kiti_tables WHERE status IN ('waiting', 'playing')")}
    orphans = [tid for tid in before if tid in live or len(kit4.moves(tid)) > len(before[tid])]
    assert orphans, f"the premise: the killed instance owned tables under way ({owned})"
    after = Counter(kit4.owner(tid) for tid in humans if tid in live)
    assert victim[0] not in after, after
    # every orphan still under way is owned by a survivor (whether every survivor still owns a
    # live table depends on how fast the games end: not asserted)
    survivors = {i.address for i in kit4.instances} - {victim[0]}
    taken = Counter(kit4.owner(tid) for tid in orphans if tid in live)
    assert set(taken) <= survivors, f"the orphans went to the survivors: {dict(taken)}"
    moved_bots = [
        tid
        for tid in orphans
        if humans[tid] == [0, 2] and sum(s in (1, 3) for s, _ in kit4.moves(tid)[len(before[tid]) :]) > 0
    ]
    assert moved_bots == [tid for tid in orphans if humans[tid] == [0, 2]], "bots resumed at the new owners"
    lost = doubled = 0
    for tid, ps in players.items():
        a, d = check_moves(kit4, tid, ps, humans[tid])
        lost, doubled = lost + a, doubled + d
    print(f"\nfailover among 3 survivors: owned before {owned}, after {dict(after)}, {len(orphans)} orphans")
    assert lost == 0 and doubled == 0


def test_orphans_are_claimed_up_to_an_even_share_whoever_claims_first(postgres: str) -> None:
    """The claim rule alone (no client brings a claim): survivors owning 2, 3 and 4 live tables
    share a dead instance's 6 so that each ends with 5, in any order of claiming; a survivor
    already over an even share claims none until the orphans have waited a lease longer."""
    from sqlalchemy import create_engine, text

    from kiti.server.cluster import Cluster
    from kiti.server.store import Store, engine_url

    db = new_database(postgres, "kiti_fair_shares")
    Store(db).migrate()
    engine = create_engine(engine_url(db))

    class Hub:  # what claim_orphans needs of the hub: the database, and a table to adopt
        store = Store(db)

        async def adopt(self, table_id: str, since: float | None) -> None:
            pass

    def setup(loads: dict[str, int], dead: int) -> dict[str, Cluster]:
        with engine.begin() as conn:
            conn.execute(text("DELETE FROM kiti_tables"))
            conn.execute(text("DELETE FROM kiti_leases"))
            owners = [*(name for name, n in loads.items() for _ in range(n)), *["dead"] * dead]
            for i, owner in enumerate(owners):
                conn.execute(
                    text(
                        "INSERT INTO kiti_tables (id, game, version, players, options, seed, takeover, "
                        "stand_in, status, created, owner, owner_epoch, owned_at) VALUES (:id, 'mauw', '2', "
                        "4, '{}', 1, false, 'heuristic', 'playing', 0, :o, 1, 0)"
                    ),
                    {"id": f"t{i}", "o": owner},
                )
            for name in [*loads, "dead"]:
                left = -60 if name == "dead" else 60
                conn.execute(
                    text(
                        "INSERT INTO kiti_leases VALUES (:i, 1, 'nowhere:1', "
                        "clock_timestamp() + make_interval(secs => :s))"
                    ),
                    {"i": name, "s": left},
                )
        clusters = {}
        for name in loads:
            cluster = Cluster(Hub(), name, "nowhere:1", lease=120.0, claim_delay=0.0)  # type: ignore[arg-type]
            cluster.epoch, cluster.held = 1, True
            clusters[name] = cluster
        return clusters

    def owned() -> dict[str, int]:
        with engine.begin() as conn:
            rows = conn.execute(text("SELECT owner, count(*) AS n FROM kiti_tables GROUP BY owner")).all()
        return {r.owner: r.n for r in rows}

    for order in (["a", "b", "c"], ["c", "b", "a"], ["b", "c", "a"]):
        clusters = setup({"a": 2, "b": 3, "c": 4}, dead=6)
        for name in order:
            asyncio.run(clusters[name].claim_orphans())
        assert owned() == {"a": 5, "b": 5, "c": 5}, (order, owned())

    clusters = setup({"a": 1, "b": 8}, dead=3)  # b is over an even share (6) already
    asyncio.run(clusters["b"].claim_orphans())
    assert owned()["b"] == 8, "an instance over its share claimed before the others"
    asyncio.run(clusters["a"].claim_orphans())
    assert owned() == {"a": 4, "b": 8}, owned()
    engine.dispose()


def test_a_rematch_asked_on_two_instances_at_once_is_made_once(steady2: Kit) -> None:
    """A finished table may be read by every instance; two of its people asking for the
    rematch at once on two instances get one rematch table, the same for both."""
    from websockets.sync.client import connect

    assert steady2.proxy is not None
    created = steady2.create(game="miaui", seats=3)
    tid = created["table"]["id"]
    players = seat_players(steady2, created, steady2.proxy.ws, think=0.0)
    end = time.monotonic() + waits.GAME
    while not all(p.over for p in players):
        assert time.monotonic() < end, "the premise: the game ends"
        play(players, 2.0)
    sockets = []
    with contextlib.ExitStack() as stack:
        for instance, seat in zip(steady2.instances, created["seats"]):
            ws = stack.enter_context(connect(f"{instance.base.replace('http', 'ws')}/ws?table={tid}"))
            ws.send(json.dumps({"type": "hello", "v": 1, "table": tid, "token": seat["token"]}))
            assert first_state(ws)["over"]
            sockets.append(ws)
        for ws in sockets:
            ws.send(json.dumps({"type": "rematch"}))
        answers = []
        for ws in sockets:
            for _ in range(50):
                m = json.loads(ws.recv(waits.MESSAGE))
                if m["type"] == "rematch":
                    answers.append(m["table"])
                    break
                assert m["type"] != "error", m
    made = [r.id for r in steady2.query("SELECT id FROM kiti_tables WHERE rematch_of = :t", t=tid)]
    assert len(made) == 1 and answers == made * 2, (answers, made)


def test_a_transaction_that_loses_a_deadlock_is_run_once_more(postgres: str) -> None:
    """Two instances' transactions on one row can deadlock (each holds the fence's shared lock
    and wants to update it: two rematches of one finished table); PostgreSQL aborts one, and
    the store runs that one again instead of answering ``storage``."""
    from sqlalchemy import text

    from kiti.server.store import Store

    db = new_database(postgres, "kiti_deadlock_retry")
    store = Store(db)
    store.migrate()
    runs = []

    def op(conn: Any) -> None:
        runs.append(1)
        if len(runs) == 1:  # what PostgreSQL raises in the transaction it picks to abort
            conn.execute(text("DO $$ BEGIN RAISE EXCEPTION 'deadlock' USING ERRCODE = '40P01'; END $$"))

    async def main() -> None:
        store.start()
        try:
            await store.write(op)
        finally:
            store.close()

    asyncio.run(main())
    assert len(runs) == 2
