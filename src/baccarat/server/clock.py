"""The server's clock, injected so that tests and replays can drive time.

One ``Clock`` paces the tables (betting windows, reveals, results) and times sessions,
responsible gaming and presence. ``SystemClock`` is the wall clock; ``VirtualClock`` stands
still until it is advanced (``baccarat serve --virtual-clock on``, for tests only), and then
the database's clock (``baccarat.store.clock.db_now``) reads it too.

>>> clock = SystemClock()
>>> clock.now_ms() > 1_700_000_000_000
True
>>> iso_utc(0), iso_utc(1_718_000_000_123)
('1970-01-01T00:00:00.000Z', '2024-06-10T06:13:20.123Z')
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from datetime import UTC, datetime
from typing import Protocol

__all__ = ["Clock", "SystemClock", "VirtualClock", "iso_utc"]


class Clock(Protocol):
    """Milliseconds since the Unix epoch, and a way to wait."""

    def now_ms(self) -> int: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The operating system's wall clock and ``asyncio.sleep``."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class VirtualClock:
    """A clock that stands still until ``advance`` moves it: time passes only when a test says.

    ``sleep`` waits until the clock reaches its deadline (now + the seconds, rounded up to the
    millisecond); ``advance`` moves the clock and wakes the sleepers whose deadline it passed,
    in the order of their deadlines. Only the event loop's thread may sleep or advance;
    ``now_ms`` may be read from any thread (the database's threads read it).

    >>> clock = VirtualClock(start_ms=1_000)
    >>> async def two_sleepers() -> list[tuple[str, int]]:
    ...     woken: list[tuple[str, int]] = []
    ...     async def sleeper(name: str, seconds: float) -> None:
    ...         await clock.sleep(seconds)
    ...         woken.append((name, clock.now_ms()))
    ...     tasks = [asyncio.create_task(sleeper("late", 2.0)), asyncio.create_task(sleeper("soon", 0.5))]
    ...     await asyncio.sleep(0)
    ...     clock.advance(499)
    ...     await asyncio.sleep(0)
    ...     assert woken == [] and clock.sleeping == 2 and clock.next_deadline == 1_500
    ...     clock.advance(5_000)
    ...     await asyncio.gather(*tasks)
    ...     return woken
    >>> asyncio.run(two_sleepers())
    [('soon', 6499), ('late', 6499)]
    >>> clock.now_ms(), clock.sleeping, clock.next_deadline
    (6499, 0, None)
    """

    def __init__(self, start_ms: int | None = None) -> None:
        self._now = SystemClock().now_ms() if start_ms is None else start_ms
        # (deadline, order of sleeping, future): a heap, earliest deadline first.
        self._sleepers: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now_ms(self) -> int:
        return self._now

    async def sleep(self, seconds: float) -> None:
        deadline = self._now + max(0, math.ceil(seconds * 1000))
        if deadline <= self._now:
            await asyncio.sleep(0)  # a zero wait still lets the others run, as asyncio's does
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (deadline, next(self._order), woken))
        await woken

    def advance(self, ms: int) -> int:
        """Move the clock ``ms`` ahead, waking every sleeper whose deadline it reaches (the
        earliest first); the new time."""
        if ms < 0:
            raise ValueError(f"a clock cannot go back ({ms} ms)")
        target = self._now + ms
        while self._sleepers and self._sleepers[0][0] <= target:
            deadline, _, woken = heapq.heappop(self._sleepers)
            self._now = max(self._now, deadline)
            if not woken.done():  # a sleep cancelled meanwhile is simply dropped
                woken.set_result(None)
        self._now = target
        return target

    @property
    def sleeping(self) -> int:
        """How many sleeps wait for the clock now."""
        return sum(1 for _, _, woken in self._sleepers if not woken.done())

    @property
    def next_deadline(self) -> int | None:
        """The earliest time a sleep waits for (``None``: nobody sleeps)."""
        pending = [deadline for deadline, _, woken in self._sleepers if not woken.done()]
        return min(pending, default=None)


def iso_utc(ms: int) -> str:
    """An instant in ms as ISO-8601 UTC with milliseconds and a ``Z``."""
    moment = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
