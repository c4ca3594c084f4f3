"""A simulation's unit of work: batches of shoes, their integer tallies, and threads to run them.

A run of ``shoes`` shoes is cut into batches of :data:`BATCH_SHOES` shoes. Batch ``i``
is shuffled from its own seed, ``numpy.random.SeedSequence(seed).spawn(...)[i]``, so its
result depends only on the seed and ``i``; all tallies are integers (counts, and nets
scaled to whole numbers), so the totals are the same whatever runs the batches — one
thread, several (``run_on_threads``: the kernel releases the GIL) or a Dask cluster
(``baccarat.analysis.simulate.cluster``) — and in whatever order they finish.

>>> Tally.empty(1).shoes, batch_state(5, 0).dtype
(0, dtype('uint64'))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from threading import Event
from typing import Any

import numpy as np

from baccarat.analysis.simulate import keys, native

__all__ = [
    "BATCH_SHOES",
    "PATH_SHOES",
    "Job",
    "Progress",
    "SimulationError",
    "Tally",
    "Totals",
    "batch_state",
    "chunks",
    "run_chunk",
    "run_on_threads",
]

#: Shoes per batch: the unit of seeding, of parallel work and of what an interruption keeps.
BATCH_SHOES = 1000
#: Shoes whose nets are kept in order, for bankroll paths (the rest only as a histogram).
PATH_SHOES = 10_000

Array = np.ndarray[Any, Any]
#: Called with (shoes done, shoes in the run) as batches complete.
Progress = Callable[[int, int], None]


class SimulationError(ValueError):
    """A simulation that cannot run as asked."""


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to run batches: plain numbers and arrays (it pickles)."""

    seed: int
    shoes: int
    decks: int
    burn: bool
    cut_card_from_end: int
    finish: bool
    #: Per strategy: net by key (times ``scales``), event by key, tag by card code, counts or
    #: not, threshold numerator and denominator (the kernel's ``strategies``).
    strategies: tuple[Array, Array, Array, Array, Array, Array]
    batch_shoes: int = BATCH_SHOES

    @property
    def batches(self) -> int:
        return -(-self.shoes // self.batch_shoes)

    def batch_size(self, index: int) -> int:
        """Shoes in batch ``index`` (the last one may be short)."""
        return min(self.batch_shoes, self.shoes - index * self.batch_shoes)


@dataclass(frozen=True)
class Tally:
    """What some consecutive batches dealt: integer counts only, so tallies add up exactly."""

    shoes: int
    coups: int
    #: Coups by key (``baccarat.analysis.simulate.keys``): every bet's events follow from these.
    key_counts: Array
    #: ``[strategy, true count bin, event]``: coups seen at each true count (counting only).
    tc_events: Array
    #: ``[strategy, event]``: events of the coups a counting strategy bet on.
    bet_events: Array
    #: Per strategy: each distinct net of a whole shoe (in 1/scale units, ascending) and how
    #: many shoes ended on it.
    shoe_nets: tuple[tuple[Array, Array], ...]
    #: ``[strategy, shoe]``: the nets of the first :data:`PATH_SHOES` shoes, in order.
    first_shoes: Array

    @classmethod
    def merge(cls, tallies: Sequence[Tally]) -> Tally:
        """The tallies together; shoes keep the order given."""
        strategies = len(tallies[0].shoe_nets)
        return cls(
            sum(t.shoes for t in tallies),
            sum(t.coups for t in tallies),
            _added([t.key_counts for t in tallies]),
            _added([t.tc_events for t in tallies]),
            _added([t.bet_events for t in tallies]),
            tuple(_histogram([t.shoe_nets[s] for t in tallies]) for s in range(strategies)),
            np.concatenate([t.first_shoes for t in tallies], axis=1)[:, :PATH_SHOES],
        )

    @classmethod
    def empty(cls, strategies: int) -> Tally:
        none = np.zeros(0, dtype=np.int64)
        return cls(
            0,
            0,
            np.zeros(keys.N_KEYS, dtype=np.int64),
            np.zeros((strategies, keys.N_TC_BINS, keys.MAX_EVENTS), dtype=np.int64),
            np.zeros((strategies, keys.MAX_EVENTS), dtype=np.int64),
            tuple((none, none) for _ in range(strategies)),
            np.zeros((strategies, 0), dtype=np.int64),
        )


class Totals:
    """Tallies added up as tasks complete, in any order: only the first shoes need theirs."""

    def __init__(self, strategies: int) -> None:
        self.total = Tally.empty(strategies)
        self.firsts: dict[int, Array] = {}

    def add(self, first: int, tally: Tally) -> None:
        """Add the tally of the batches from ``first`` on."""
        self.total = Tally.merge([self.total, tally])
        if tally.first_shoes.shape[1]:
            self.firsts[first] = tally.first_shoes

    @property
    def shoes(self) -> int:
        return self.total.shoes

    def tally(self) -> Tally:
        """Everything added; the first shoes in batch order."""
        firsts = [self.firsts[first] for first in sorted(self.firsts)]
        if not firsts:
            return self.total
        ordered = np.concatenate(firsts, axis=1)[:, :PATH_SHOES]
        return dataclasses.replace(self.total, first_shoes=ordered)


def _added(arrays: Sequence[Array]) -> Array:
    total = arrays[0].copy()
    for array in arrays[1:]:
        total += array
    return total


def _histogram(parts: Sequence[tuple[Array, Array]]) -> tuple[Array, Array]:
    """Histograms (values, counts) added together."""
    values, where = np.unique(np.concatenate([v for v, _ in parts]), return_inverse=True)
    counts = np.zeros(values.size, dtype=np.int64)
    np.add.at(counts, where, np.concatenate([c for _, c in parts]))
    return values, counts


def batch_state(seed: int, index: int) -> Array:
    """The xoshiro256** state of batch ``index``: ``SeedSequence(seed).spawn(n)[index]``'s.

    >>> import numpy as np
    >>> child = np.random.SeedSequence(5).spawn(3)[2]
    >>> bool((batch_state(5, 2) == child.generate_state(4, np.uint64)).all())
    True
    """
    state = np.random.SeedSequence(seed, spawn_key=(index,)).generate_state(4, np.uint64)
    if not state.any():  # xoshiro's one forbidden state; 2**-256 away, but never say never
        state[0] = 1
    return state


def run_chunk(job: Job, first: int, count: int) -> Tally:
    """Run batches ``first .. first + count - 1`` of ``job`` (a pure function of its inputs)."""
    strategies = job.strategies[0].shape[0]
    key_counts = np.zeros(keys.N_KEYS, dtype=np.int64)
    tc_events = np.zeros((strategies, keys.N_TC_BINS, keys.MAX_EVENTS), dtype=np.int64)
    bet_events = np.zeros((strategies, keys.MAX_EVENTS), dtype=np.int64)
    nets = []
    coups = 0
    for index in range(first, first + count):
        batch_nets = np.zeros((strategies, job.batch_size(index)), dtype=np.int64)
        coups += native.run_batch(
            batch_state(job.seed, index),
            batch_nets.shape[1],
            job.decks,
            job.burn,
            job.cut_card_from_end,
            job.finish,
            job.strategies,
            key_counts,
            batch_nets,
            tc_events,
            bet_events,
        )
        nets.append(batch_nets)
    shoe_nets = np.concatenate(nets, axis=1)
    # Only the run's first PATH_SHOES shoes are kept in order.
    keep = max(0, PATH_SHOES - first * job.batch_shoes)
    return Tally(
        shoe_nets.shape[1],
        coups,
        key_counts,
        tc_events,
        bet_events,
        tuple(np.unique(row, return_counts=True) for row in shoe_nets),
        shoe_nets[:, :keep].copy(),
    )


def chunks(job: Job, parallel: int) -> list[tuple[int, int]]:
    """Consecutive batches grouped into tasks: few enough to keep overheads small, enough
    to keep ``parallel`` workers busy and to report progress."""
    size = max(1, min(32, job.batches // (8 * max(parallel, 1))))
    return [(first, min(size, job.batches - first)) for first in range(0, job.batches, size)]


def run_on_threads(
    job: Job,
    workers: int,
    totals: Totals,
    on_progress: Progress | None = None,
    stop: Event | None = None,
) -> bool:
    """Run every batch of ``job`` on a pool of threads, adding each task's tally to ``totals``.

    Returns whether a Ctrl-C (or ``stop``, set by a caller's signal handler) stopped the run;
    the batches complete by then are kept.
    """
    interrupted = False
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="simulate") as pool:
        running: dict[Future[Tally], int] = {}
        queue = iter(chunks(job, workers))
        try:
            while True:
                if stop is not None and stop.is_set():
                    # Raised here, between two steps, rather than by the signal wherever the
                    # main thread was: a KeyboardInterrupt inside a library's lock handling
                    # (the progress bar's, the futures') can leave a lock held and hang the exit.
                    raise KeyboardInterrupt
                # A bounded window of tasks in flight: memory stays small however long the run.
                for first, count in queue:
                    running[pool.submit(run_chunk, job, first, count)] = first
                    if len(running) >= 2 * workers:
                        break
                if not running:
                    break
                finished, _ = wait(running, timeout=0.25, return_when=FIRST_COMPLETED)
                for future in finished:
                    totals.add(running.pop(future), future.result())
                    if on_progress is not None:
                        on_progress(totals.shoes, job.shoes)
        except KeyboardInterrupt:
            interrupted = True
            for future in running:
                future.cancel()
            # Tasks already running finish in milliseconds; keep them, they are complete.
            for future, first in running.items():
                if not future.cancelled():
                    totals.add(first, future.result())
    return interrupted
