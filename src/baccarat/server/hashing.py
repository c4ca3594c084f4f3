"""Password hashing off the event loop, in a bounded pool of low-priority threads.

argon2id is made to be slow (about 20 ms of one core and 19 MiB per hash). Run on the
event loop it would stall every table; run in asyncio's default pool (several threads) a
flood of logins would take every core from the event loop and the database writer, and bets
would wait. So hashes run in a few threads of their own (half the cores by default), each
lowered in CPU priority where the system allows it (Linux ``nice`` per thread) and resting
after each hash so that it uses at most ``cpu_share`` of a core (a quarter by default: about
ten logins a second per thread); at most ``max_waiting`` hashes may wait, past that a login
is refused with 429. A flood of logins then makes logins slow, never the tables.

The pool is shared fairly: one client address (an IPv6 /64) may have at most
``per_address`` hashes waiting, so a few addresses cannot fill it; and one more thread, with a
queue of its own, is kept for known devices and staff (``baccarat.server.devices``), so no
flood of unknown ones delays them.

>>> import asyncio
>>> pool = PasswordPool(workers=1, max_waiting=4)
>>> asyncio.run(pool.run(len, "secret")), asyncio.run(pool.run(len, "known", known=True))
(6, 5)
>>> pool.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from baccarat.server.ratelimit import RateLimitedError

__all__ = ["PasswordPool", "default_workers"]

T = TypeVar("T")

#: How much lower the hashing threads run than the rest of the server (``nice`` steps).
NICENESS = 10


def default_workers() -> int:
    """Half the cores, at least one: the other half stays free for tables and the database."""
    return max(1, (os.cpu_count() or 2) // 2)


def _lower_priority() -> None:
    # On Linux a thread is scheduled on its own: PRIO_PROCESS with a thread id renices it.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), NICENESS)


class PasswordPool:
    """Run password hashes and checks in ``workers`` threads; refuse past ``max_waiting``."""

    def __init__(
        self,
        workers: int | None = None,
        max_waiting: int = 64,
        cpu_share: float = 0.25,
        per_address: int = 4,
    ) -> None:
        if not 0 < cpu_share <= 1:
            raise ValueError(f"a CPU share is within (0, 1], not {cpu_share}")
        self.workers = workers or default_workers()
        self.max_waiting = max_waiting
        self.cpu_share = cpu_share
        self.per_address = per_address
        self._executor = ThreadPoolExecutor(
            self.workers, thread_name_prefix="baccarat-argon2", initializer=_lower_priority
        )
        self._known = ThreadPoolExecutor(
            1, thread_name_prefix="baccarat-argon2-known", initializer=_lower_priority
        )
        self._waiting = 0
        self._known_waiting = 0
        self._by_address: Counter[str] = Counter()

    @property
    def waiting(self) -> int:
        """Hashes queued or running now."""
        return self._waiting

    async def run(
        self, fn: Callable[..., T], *args: object, known: bool = False, address: str = ""
    ) -> T:
        """``fn(*args)`` in the pool (``known``: in the lane of known devices and staff);
        ``RateLimitedError`` (429) if too many are waiting, or too many from ``address``."""
        loop = asyncio.get_running_loop()
        job = functools.partial(self._paced, fn, *args)
        if known:
            if self._known_waiting >= self.max_waiting:
                raise RateLimitedError(1, "logins at once")
            self._known_waiting += 1
            try:
                return await loop.run_in_executor(self._known, job)
            finally:
                self._known_waiting -= 1
        if self._waiting >= self.max_waiting:
            raise RateLimitedError(1, "logins at once")
        if address and self._by_address[address] >= self.per_address:
            raise RateLimitedError(1, "logins at once from this address")
        self._waiting += 1
        self._by_address[address] += 1
        try:
            return await loop.run_in_executor(self._executor, job)
        finally:
            self._waiting -= 1
            self._by_address[address] -= 1
            if self._by_address[address] <= 0:
                del self._by_address[address]

    def _paced(self, fn: Callable[..., T], *args: object) -> T:
        began = time.thread_time()
        try:
            return fn(*args)
        finally:
            # Rest in proportion to the CPU just used: the thread's share stays bounded.
            used = time.thread_time() - began
            time.sleep(used * (1 / self.cpu_share - 1))

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
        self._known.shutdown(wait=False, cancel_futures=True)
