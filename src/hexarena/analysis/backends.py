"""Where games run: a local process pool or a Ray cluster.

``run_tasks(tasks, backend, ...)`` yields each game's result as it finishes
(in any order); callers sort by index, so results never depend on the worker
count or the finishing order.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

from ..extras import needs
from .selfplay import GameResult, GameTask, play_task

BACKENDS = ("local", "ray")


def default_workers() -> int:
    return os.cpu_count() or 1


def run_tasks(tasks: Sequence[GameTask], backend: str = "local", workers: int | None = None,
              address: str | None = None) -> Iterator[GameResult]:
    """Play ``tasks``; yield their results as they finish."""
    if backend == "local":
        yield from _run_local(tasks, workers or default_workers())
    elif backend == "ray":
        yield from _run_ray(tasks, address, workers)
    else:
        raise ValueError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")


def _run_local(tasks: Sequence[GameTask], workers: int) -> Iterator[GameResult]:
    if workers == 1 or len(tasks) <= 1:
        for task in tasks:
            yield play_task(task)
        return
    # spawn: fresh interpreters (no threads or numba state inherited from this one)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
        pending = {pool.submit(play_task, task) for task in tasks}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        finally:
            for future in pending:
                future.cancel()


def _run_ray(tasks: Sequence[GameTask], address: str | None, workers: int | None) -> Iterator[GameResult]:
    with needs("cluster", "the ray backend"):
        import ray
    started_here = not ray.is_initialized()
    if started_here:
        if address is None:  # a local Ray instance
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:  # a running cluster: it has its own resources
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(num_cpus=1)(play_task)
    try:
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()
