"""The store: migrations at start, grouped commits, a bad change failing alone, restore."""

from __future__ import annotations

import asyncio
import random

import pytest
from server_kit import config
from sqlalchemy import inspect

from kiti.server import queries
from kiti.server.lobby import Hub
from kiti.server.store import Store


def row(table_id: str) -> queries.TableRow:
    return queries.TableRow(
        id=table_id,
        game="miaui",
        version="1",
        players=3,
        options={},
        seed=7,
        timer=None,
        takeover=False,
        stand_in="random",
        status="playing",
        created=0.0,
        seats=[queries.SeatRow("human", f"seat {i}") for i in range(3)],
    )


def test_migrations_create_the_schema_and_are_idempotent(tmp_path) -> None:
    store = Store(f"sqlite:///{tmp_path}/k.db")
    store.migrate()
    store.migrate()
    names = set(inspect(store.engine).get_table_names())
    store.close()
    assert {"kiti_tables", "kiti_seats", "kiti_moves", "alembic_version"} <= names


def test_changes_of_one_loop_turn_share_a_commit_and_a_bad_one_fails_alone(tmp_path) -> None:
    async def run() -> list[object]:
        store = Store(f"sqlite:///{tmp_path}/k.db")
        store.migrate()
        store.start()
        try:
            await store.write(queries.insert_table(row("t1")))
            jobs = [
                store.write(queries.append_move("t1", 0, 0, "dive 1")),
                store.write(queries.append_move("t1", 0, 1, "dive 2")),  # the same index: refused
                store.write(queries.append_move("t1", 1, 2, "dive 3")),
            ]
            outcome = await asyncio.gather(*jobs, return_exceptions=True)
            outcome.append(store.read_now(queries.load_tables(ids=("t1",)))[0].moves)
            return outcome
        finally:
            store.close()

    first, second, third, moves = asyncio.run(run())
    assert first is None and third is None and isinstance(second, Exception)
    assert moves == [(0, "dive 1"), (2, "dive 3")]


def test_a_new_hub_restores_unfinished_tables_by_replaying_their_records(tmp_path) -> None:
    async def play() -> tuple[str, dict[str, object]]:
        hub = Hub(config(tmp_path))
        await hub.start()
        table, _ = await hub.create({"game": "mauw", "seats": ["human"] * 4})
        table.row.status = "playing"  # (as if every seat were claimed)
        rng = random.Random(3)
        for _ in range(25):
            seat = min(table.state.to_act())
            await table.submit(seat, rng.choice([str(m) for m in table.state.legal_moves(seat)]))
        record = table.state.record()
        await hub.close()
        return table.id, record

    async def restore(table_id: str) -> dict[str, object]:
        hub = Hub(config(tmp_path))
        await hub.start()
        try:
            return hub.tables[table_id].state.record()
        finally:
            await hub.close()

    table_id, record = asyncio.run(play())
    assert len(record["moves"]) == 25  # type: ignore[arg-type]
    assert asyncio.run(restore(table_id)) == record


@pytest.mark.parametrize("url", ["postgresql://kiti@h/db", "postgres://kiti@h/db"])
def test_postgresql_urls_use_psycopg_3(url) -> None:
    from kiti.server.store import engine_url

    assert engine_url(url) == "postgresql+psycopg://kiti@h/db"
