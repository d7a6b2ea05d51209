"""Run one task per item, here or on a Ray cluster, and get the results back in item order.

:func:`run_ordered` is the one place the simulations (``kiti balance``, ``kiti tournament``)
farm work out.  Whatever the backend, the results come back in the order of the items, so a
run's figures and files depend only on its seed, never on the backend, the number of jobs or
which worker finished first.

* ``local``: ``jobs=1`` (or a single item) runs every task in this process; otherwise a
  process pool (``fork`` where the platform has it) takes one item at a time, and results that
  finish early wait in a buffer until every item before them is done.
* ``ray``: ``ray.init(address=address)``: ``None`` starts a local Ray instance (``jobs`` CPUs
  when given), ``"auto"`` joins the cluster this machine belongs to, ``"ray://host:10001"`` a
  remote one (docs/balance.md).  If Ray is already initialised in this process (a test, a
  notebook) that session is used and left running.  Each item is one remote task; at most
  ``jobs`` (default: twice the cluster's CPUs) are in flight at once.

``task`` must be a top-level function (pickled by name), and every machine of a cluster must
have Kiti installed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from ..core.errors import KitiError, quoted

A = TypeVar("A")
R = TypeVar("R")

#: The backends :func:`run_ordered` knows.
BACKENDS = ("local", "ray")

RAY_MISSING = "the ray backend needs Ray: pip install 'kiti[ray]'"


class RunnerError(KitiError, ValueError):
    """A backend that cannot run as asked (unknown, missing, unreachable)."""


def run_ordered(
    task: Callable[[A], R],
    items: Sequence[A],
    *,
    backend: str = "local",
    jobs: int | None = None,
    address: str | None = None,
) -> Iterator[R]:
    """Yield ``task(item)`` for every item, in item order (see the module docstring)."""
    check_backend(backend, address, jobs)
    if backend == "ray":
        return _ray(task, items, jobs, address)
    return _local(task, items, jobs or os.cpu_count() or 1)


def check_backend(backend: str, address: str | None = None, jobs: int | None = None) -> None:
    """A clear :class:`RunnerError` for a backend, address or job count :func:`run_ordered`
    cannot use (callers ask it before any game is played)."""
    if backend not in BACKENDS:
        raise RunnerError(f"unknown backend {quoted(backend)} (known backends: {', '.join(BACKENDS)})")
    if jobs is not None and jobs < 1:
        raise RunnerError(f"jobs must be at least 1, not {quoted(jobs)}")
    if backend == "local" and jobs is not None and jobs > local_jobs_limit():
        raise RunnerError(
            f"jobs must be at most {local_jobs_limit()} on this machine, not {jobs}: a process "
            "per core plays as fast as more (with --backend ray, jobs are games in flight)"
        )
    if address is not None and backend != "ray":
        raise RunnerError("--address is for --backend ray only")


def local_jobs_limit() -> int:
    """The most worker processes the local pool starts: 4 a core, and at least 64 (beyond,
    the processes would only share the cores, or fail to start at all)."""
    return max(64, 4 * (os.cpu_count() or 1))


def _call(job: tuple[int, Callable[[Any], Any], Any]) -> tuple[int, Any]:
    index, task, item = job
    return index, task(item)


def _in_order(done: Iterator[tuple[int, R]]) -> Iterator[R]:
    """Yield results tagged with their index in index order, holding back early ones."""
    waiting: dict[int, R] = {}
    following = 0
    for index, result in done:
        waiting[index] = result
        while following in waiting:
            yield waiting.pop(following)
            following += 1


def _local(task: Callable[[A], R], items: Sequence[A], jobs: int) -> Iterator[R]:
    if jobs <= 1 or len(items) <= 1:
        for item in items:
            yield task(item)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    jobs_list = [(i, task, item) for i, item in enumerate(items)]
    with ctx.Pool(min(jobs, len(items))) as pool:
        yield from _in_order(pool.imap_unordered(_call, jobs_list, chunksize=1))


def _ray(task: Callable[[A], R], items: Sequence[A], jobs: int | None, address: str | None) -> Iterator[R]:
    ray = _import_ray()
    started = _ray_start(ray, address, jobs)
    try:
        remote = ray.remote(_call)
        limit = jobs or max(1, 2 * int(ray.cluster_resources().get("CPU", 1)))
        pending: list[Any] = []
        submitted = 0

        def done() -> Iterator[tuple[int, Any]]:
            nonlocal submitted, pending
            while submitted < len(items) or pending:
                while submitted < len(items) and len(pending) < limit:
                    pending.append(remote.remote((submitted, task, items[submitted])))
                    submitted += 1
                ready, pending = ray.wait(pending, num_returns=1)
                yield ray.get(ready[0])

        try:
            yield from _in_order(done())
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)
    finally:
        if started:
            ray.shutdown()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise RunnerError(RAY_MISSING) from None
    return ray


def _ray_start(ray: Any, address: str | None, jobs: int | None) -> bool:
    """Initialise Ray unless this process already has; True when this call started it."""
    if ray.is_initialized():
        return False
    import logging

    kwargs: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False}
    if address is None:
        kwargs.update(include_dashboard=False, num_cpus=jobs)
    try:
        ray.init(address=address, **kwargs)
    except (ConnectionError, ValueError, RuntimeError) as exc:
        where = "a local instance" if address is None else quoted(address)
        raise RunnerError(f"cannot start Ray on {where}: {str(exc)[:200]}") from None
    return True
