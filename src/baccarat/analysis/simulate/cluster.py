"""Run a simulation's batches on a Dask distributed cluster (the ``baccarat[cluster]`` extra).

The tasks are the same pure function as on local threads
(:func:`baccarat.analysis.simulate.batches.run_chunk`), given the same batch numbers, so a
cluster run gives the same totals as a local one for the same seed. Workers need
``baccarat`` installed (the job itself is only numbers and arrays).
"""

from __future__ import annotations

import uuid
from threading import Event
from typing import Any

from baccarat.analysis.simulate.batches import (
    Job,
    Progress,
    SimulationError,
    Tally,
    Totals,
    chunks,
    run_chunk,
)

__all__ = ["run_on_cluster"]


def _connect(address: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise SimulationError(
            "running on a cluster needs dask.distributed: pip install 'baccarat[cluster]'"
        ) from None
    try:
        client: Any = distributed.Client
        return client(address, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {error}") from None


def run_on_cluster(
    job: Job,
    address: str,
    totals: Totals,
    on_progress: Progress | None = None,
    stop: Event | None = None,
) -> bool:
    """Run every batch of ``job`` on the cluster whose scheduler is at ``address``.

    Adds each task's tally to ``totals``; returns whether a Ctrl-C stopped the run (the
    tasks not finished are then cancelled; the finished ones are kept).
    """
    from distributed import as_completed as completed

    as_completed: Any = completed
    interrupted = False
    with _connect(address) as client:
        threads = sum(client.nthreads().values()) or 1
        shared = client.scatter(job, broadcast=True)
        run = uuid.uuid4().hex[:12]
        futures = {
            client.submit(run_chunk, shared, first, count, key=f"simulate-{run}-{first}"): first
            for first, count in chunks(job, threads)
        }
        added: set[int] = set()
        try:
            for future in as_completed(list(futures), loop=client.loop):
                totals.add(futures[future], _result(future))
                added.add(futures[future])
                future.release()
                if on_progress is not None:
                    on_progress(totals.shoes, job.shoes)
                if stop is not None and stop.is_set():
                    raise KeyboardInterrupt  # as run_on_threads: at a step, not mid-library
        except KeyboardInterrupt:
            interrupted = True
            client.cancel([future for future in futures if not future.done()])
            for future, first in futures.items():
                if first not in added and future.status == "finished":
                    totals.add(first, _result(future))
    return interrupted


def _result(future: Any) -> Tally:
    try:
        tally: Tally = future.result()
    except Exception as error:  # a worker's failure, whatever it was, ends the run cleanly
        raise SimulationError(f"a cluster task failed: {type(error).__name__}: {error}") from None
    return tally
