"""The server's clock, injected so that tests and replays can drive time.

>>> clock = SystemClock()
>>> clock.now_ms() > 1_700_000_000_000
True
>>> iso_utc(0), iso_utc(1_718_000_000_123)
('1970-01-01T00:00:00.000Z', '2024-06-10T06:13:20.123Z')
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import Protocol

__all__ = ["Clock", "SystemClock", "iso_utc"]


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


def iso_utc(ms: int) -> str:
    """An instant in ms as ISO-8601 UTC with milliseconds and a ``Z``."""
    moment = datetime.fromtimestamp(ms / 1000, tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms % 1000:03d}Z"
