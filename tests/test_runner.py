"""kiti.sim.runner: results in item order, the same on every backend; clear errors."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator

import pytest

from kiti.core.errors import KitiError
from kiti.sim.runner import BACKENDS, run_ordered

# Uneven work (the first item takes ~0.1 s, the others far less), so that a pool's workers
# finish out of order.
ITEMS = [100_000, 10, 30_000, 5, 20_000, 1, 1500, 7]


def digits(results: Iterator[int]) -> list[int]:
    """The results' sizes (a failure then prints short numbers, not 400,000-digit ones)."""
    return [n.bit_length() for n in results]


@pytest.fixture(scope="module")
def ray_session() -> Iterator[object]:
    """A local Ray instance of two CPUs, started for this module (the runner uses it as is)."""
    ray = pytest.importorskip("ray", reason="the ray backend's tests need: pip install 'kiti[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_local_pool_gives_the_results_in_item_order() -> None:
    expected = [math.factorial(n).bit_length() for n in ITEMS]
    assert digits(run_ordered(math.factorial, ITEMS, jobs=1)) == expected
    assert digits(run_ordered(math.factorial, ITEMS, jobs=2)) == expected


def test_ray_gives_the_local_results_in_item_order(ray_session: object) -> None:
    expected = digits(run_ordered(math.factorial, ITEMS, jobs=1))
    assert digits(run_ordered(math.factorial, ITEMS, backend="ray")) == expected
    # One task in flight at a time, and an empty run.
    assert digits(run_ordered(math.factorial, ITEMS, backend="ray", jobs=1)) == expected
    assert list(run_ordered(math.factorial, [], backend="ray")) == []


def test_balance_games_csv_is_the_same_byte_for_byte_on_ray(ray_session: object) -> None:
    from kiti.core.registry import get_game
    from kiti.sim.balance import BalanceConfig, parse_grid, plan_balance, run_balance
    from kiti.sim.balance_report import games_csv

    grid = parse_grid(["no_fighting=false,true"], get_game("miaui"))

    def csv_on(backend: str, jobs: int) -> str:
        config = BalanceConfig(
            "miaui", ["heuristic", "random"], [3], grid, games=3, seed=4, jobs=jobs, backend=backend
        )
        plan = plan_balance(config)
        return games_csv(plan, run_balance(plan))

    local = csv_on("local", 1)
    assert local.count("\n") == 1 + 2 * 3 * 3  # a header, 2 cells x 3 games x 3 seats
    assert csv_on("ray", 2) == local


def test_unknown_backend_and_bad_jobs_are_named() -> None:
    with pytest.raises(KitiError, match=r"unknown backend 'dask' \(known backends: local, ray\)"):
        run_ordered(math.factorial, ITEMS, backend="dask")
    with pytest.raises(KitiError, match="jobs must be at least 1, not 0"):
        run_ordered(math.factorial, ITEMS, jobs=0)
    assert BACKENDS == ("local", "ray")


def test_missing_ray_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    with pytest.raises(KitiError, match=r"pip install 'kiti\[ray\]'"):
        list(run_ordered(math.factorial, ITEMS, backend="ray"))
