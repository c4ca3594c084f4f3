"""What the runtime needs from its host: a clock and the database's threads.

Both are protocols, so that the runtime never imports the server that provides them
(``baccarat.server.clock.SystemClock`` and ``baccarat.server.store_threads.StoreRunner``
satisfy them) and a test can hand in its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from sqlalchemy import Connection

__all__ = ["Clock", "Fence", "Store"]

T = TypeVar("T")

#: Runs first in every write transaction of a dealer; raises ``FencedError`` once the
#: dealer may no longer write (``baccarat.store.leases.fence``).
Fence = Callable[[Connection], None]


class Clock(Protocol):
    """Milliseconds since the Unix epoch, and a way to wait."""

    def now_ms(self) -> int: ...

    async def sleep(self, seconds: float) -> None: ...


class Store(Protocol):
    """Transactions run off the event loop: one writer, several readers."""

    async def write(self, fn: Callable[[Connection], T]) -> T: ...

    async def read(self, fn: Callable[[Connection], T]) -> T: ...
