"""Garbage collection at quiet moments, not in the middle of a betting window.

With a thousand WebSocket clients the process holds hundreds of thousands of objects, and a
full collection of CPython's cyclic garbage collector stops everything for about a tenth of
a second: long enough to hold up every bet in flight. So the service freezes the objects it
has (``gc.freeze``: the automatic collections skip them) and, every ``every_s`` seconds, at a
moment when no table is open for bets, thaws, collects and freezes again. If no such moment
comes for ``at_most_s`` seconds, it collects anyway. Meanwhile the automatic full
collections are made rare (``AUTOMATIC_FULL_AFTER``); the young generations still run.

After each collection the C allocator is asked to give its free pages back to the system
(glibc's ``malloc_trim``): thousands of clients leaving free their buffers, and without it
the process would keep that memory for the next crowd that may never come. So a crowd that
has left (``DEPARTED`` clients and a quarter of the most there were, and nobody came or went
for ``SETTLED_S``) is a reason to collect at once, quiet or not: those who stay are fewer,
and so is the pause.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable
from functools import cache

from baccarat.server.clock import Clock

__all__ = [
    "AUTOMATIC_FULL_AFTER",
    "DEPARTED",
    "SETTLED_S",
    "QuietCollector",
    "collect_and_freeze",
    "give_memory_back",
]

#: Young collections between two automatic full ones (CPython's default is 10).
AUTOMATIC_FULL_AFTER = 1_000
#: Clients gone since the last collection that make one due at once.
DEPARTED = 1_000
#: How long the count of clients must stay the same for a crowd to have left.
SETTLED_S = 1.0


def collect_and_freeze() -> float:
    """One full collection, then everything left is frozen, and the free memory goes back
    to the system; returns the pause in seconds."""
    started = time.perf_counter()
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    give_memory_back()
    return time.perf_counter() - started


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc: nothing to ask
        return None
    return trim


def give_memory_back() -> bool:
    """Ask the C allocator to return its free pages to the system (glibc only)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


class QuietCollector:
    """Collect when ``quiet()`` says nobody is betting, at most every ``every_s`` seconds,
    or as soon as a crowd of the ``clients()`` has left."""

    def __init__(
        self,
        quiet: Callable[[], bool],
        clock: Clock,
        *,
        clients: Callable[[], int] = lambda: 0,
        every_s: float = 30.0,
        at_most_s: float = 120.0,
        on_pause: Callable[[float], None] | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.quiet = quiet
        self.clients = clients
        self.clock = clock
        self.every_s = every_s
        self.at_most_s = at_most_s
        self.on_pause = on_pause
        #: Real seconds: what a collection holds up is the process, whatever the table's clock.
        self.monotonic = monotonic
        self.last = monotonic()
        #: The most clients there were since the last collection.
        self.peak = 0
        self._count, self._count_since = 0, self.last
        self._thresholds: tuple[int, int, int] | None = None

    def install(self) -> None:
        """Collect and freeze what exists, and make automatic full collections rare."""
        self._thresholds = gc.get_threshold()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, AUTOMATIC_FULL_AFTER)
        self.collect()

    def uninstall(self) -> None:
        """Give the process back its thresholds and unfrozen objects."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None
        gc.unfreeze()

    def due(self, now: float) -> bool:
        """Whether to collect at monotonic time ``now``."""
        waited = now - self.last
        if waited >= self.at_most_s or (waited >= self.every_s and self.quiet()):
            return True
        clients = self.clients()
        if clients != self._count:
            self._count, self._count_since = clients, now
        self.peak = max(self.peak, clients)
        gone = self.peak - clients
        left = gone >= DEPARTED and 4 * gone >= self.peak
        return left and now - self._count_since >= SETTLED_S

    def collect(self) -> None:
        pause = collect_and_freeze()
        self.last = self.monotonic()
        self.peak = self.clients()
        if self.on_pause is not None:
            self.on_pause(pause)

    async def run(self) -> None:
        while True:
            await self.clock.sleep(0.25)
            if self.due(self.monotonic()):
                self.collect()
