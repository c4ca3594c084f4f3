"""Running store functions from the event loop: one writer thread, a few reader threads.

All writes of this process go through one thread, in order: SQLite allows one writer
anyway, and it makes the bet batches and the dealer's transactions a simple queue.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import Connection

from baccarat.store import Database

__all__ = ["StoreRunner"]

T = TypeVar("T")


class StoreRunner:
    """Run ``fn(connection)`` in a write or a read transaction, off the event loop."""

    def __init__(self, database: Database, readers: int = 4) -> None:
        self.database = database
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="baccarat-writer")
        self._readers = ThreadPoolExecutor(readers, thread_name_prefix="baccarat-reader")

    def _write(self, fn: Callable[[Connection], T]) -> T:
        with self.database.write() as connection:
            return fn(connection)

    def _read(self, fn: Callable[[Connection], T]) -> T:
        with self.database.read() as connection:
            return fn(connection)

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` in a write transaction, committed when it returns."""
        return await asyncio.get_running_loop().run_in_executor(self._writer, self._write, fn)

    async def read(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` in a read transaction."""
        return await asyncio.get_running_loop().run_in_executor(self._readers, self._read, fn)

    def close(self) -> None:
        self._writer.shutdown(wait=True, cancel_futures=True)
        self._readers.shutdown(wait=True, cancel_futures=True)
        self.database.dispose()
