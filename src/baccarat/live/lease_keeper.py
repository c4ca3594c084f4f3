"""Which tables this node deals: take free leases up to its share, renew them, let them go.

Every ``lease_ms / 4`` the keeper renews the leases it holds (``baccarat.store.leases``) and,
while it holds fewer than its share (the tables divided by the nodes up, rounded up), takes
a free or expired one and starts its dealer. A table left free for a whole lease more (its
node died while every other node had its share) is taken by any node: no table stays
undealt. Holding more than its share (a node joined), a node hands one over at the end of
its round. A dealer publishes only while its lease is valid by
this node's own monotonic clock (renewed at least ``SAFETY`` of a lease ago), and writes only
under its epoch (the store's fence): a node that was paused past its lease says and writes
nothing more, and stops that dealer.

The renewals run on a thread of their own, off the event loop and off the writer thread:
neither a queue of bets nor a burst of sends to thousands of clients (which can hold the
event loop for a second) makes a lease lapse while the node is alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from sqlalchemy import Connection, text

from baccarat.live.cancelling import stop_if_cancelled
from baccarat.live.commands import ChangeDealer
from baccarat.live.dealer import Dealer
from baccarat.store import Database
from baccarat.store.leases import FencedError, acquire, release, renew

__all__ = ["SAFETY", "Held", "LeaseChange", "LeaseKeeper"]

#: The share of a lease a node trusts its own clock for (the database's clock decides).
SAFETY = 0.75

T = TypeVar("T")
log = logging.getLogger("baccarat.live")
#: Told each change of a lease: the table, the change (``taken``, ``fenced``, ``dropped``,
#: ``handed_over``) and whether this node holds the table now (the server's metrics).
LeaseChange = Callable[[str, str, bool], None]


@dataclass(eq=False)
class Held:
    """A lease this node holds: its epoch, until when it may act, its dealer."""

    table_id: str
    epoch: int
    #: ``time.monotonic()`` past which this node no longer acts for the table.
    valid_until: float
    dealer: Dealer | None = None
    task: asyncio.Task[None] | None = None
    handing_over: bool = field(default=False)
    #: Set by the renewing thread when a renewal found the lease no longer ours.
    lost: bool = False

    def valid(self) -> bool:
        return time.monotonic() < self.valid_until

    def check(self) -> None:
        """Raise ``FencedError`` once this node may no longer act for the table."""
        if not self.valid():
            raise FencedError(
                f"table {self.table_id!r}: the lease of epoch {self.epoch} has lapsed"
            )


class LeaseKeeper:
    """Takes, renews and gives up this node's leases; ``start_dealer`` makes a table's dealer."""

    def __init__(
        self,
        database: Database,
        node_id: str,
        tables: list[str],
        lease_ms: int,
        *,
        nodes_up: Callable[[], int],
        start_dealer: Callable[[Held], asyncio.Task[None]],
        on_change: LeaseChange | None = None,
    ) -> None:
        self.database = database
        self.node_id = node_id
        self.tables = tables
        self.lease_ms = lease_ms
        self.nodes_up = nodes_up
        self.start_dealer = start_dealer
        self.on_change = on_change
        self.held: dict[str, Held] = {}
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="baccarat-leases")
        self._stopping = False
        self._renewer: threading.Thread | None = None
        self._renewer_stop = threading.Event()

    @property
    def every_s(self) -> float:
        return self.lease_ms / 4000

    def share(self) -> int:
        """How many tables this node should deal: the tables over the nodes up, rounded up."""
        return math.ceil(len(self.tables) / max(1, self.nodes_up()))

    async def _db(self, fn: Callable[[Connection], T]) -> T:
        def run() -> T:
            with self.database.write() as connection:
                if connection.dialect.name == "postgresql":
                    # A stalled holder's lock must not stall the keeper past a beat.
                    connection.execute(text("SET LOCAL lock_timeout = 1000"))
                return fn(connection)

        return await asyncio.get_running_loop().run_in_executor(self._thread, run)

    def _renew_all(self) -> None:
        """Renew every lease held, for ever (the renewing thread)."""
        while not self._renewer_stop.wait(self.every_s):
            for held in list(self.held.values()):
                if held.lost:
                    continue
                started = time.monotonic()
                try:
                    with self.database.write() as connection:
                        if connection.dialect.name == "postgresql":
                            connection.execute(text("SET LOCAL lock_timeout = 1000"))
                        ours = renew(
                            connection, held.table_id, self.node_id, held.epoch, self.lease_ms
                        )
                except Exception as error:  # the database away: the lease lapses by itself
                    log.warning("renewing the lease of %s failed: %s", held.table_id, error)
                    continue
                if ours:
                    held.valid_until = started + self.lease_ms * SAFETY / 1000
                else:
                    held.lost = True

    async def run(self) -> None:
        """Keep the leases until ``stop``."""
        if self._renewer is None:
            self._renewer = threading.Thread(
                target=self._renew_all, name="baccarat-lease-renewer", daemon=True
            )
            self._renewer.start()
        while not self._stopping:
            try:
                await self.beat()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database away: the leases lapse by themselves
                stop_if_cancelled()
                log.warning("keeping the table leases failed: %s", error)
            await asyncio.sleep(self.every_s)

    async def beat(self) -> None:
        """Renew what is held, drop what was lost, take free tables up to the share."""
        if self._stopping:
            return
        for held in list(self.held.values()):
            if held.task is not None and held.task.done():  # handed over, or fenced off
                if held.dealer is not None and held.dealer.fenced is not None:
                    self._fenced_off(held, held.dealer.fenced)
                await self._forget(held, give_up=True)
                continue
            if held.lost:  # the renewing thread found it taken over or lapsed
                self._fenced_off(held, "the lease was lost")
                await self._forget(held, give_up=False)
        share = self.share()
        if len(self.held) > share and not any(h.handing_over for h in self.held.values()):
            # Hand one over at the end of its round; a node under its share takes it.
            surplus = max(self.held.values(), key=lambda h: _rank(h.table_id, self.node_id))
            surplus.handing_over = True
            if surplus.dealer is not None:
                surplus.dealer.send(ChangeDealer())
        for table_id in self._order():
            if table_id in self.held or self._stopping:
                continue
            # Past its share a node still takes a table nobody has taken for a whole lease
            # (the nodes under their share had the first chance): no table stays undealt.
            unheld_ms = 0 if len(self.held) < share else self.lease_ms
            started = time.monotonic()
            epoch_or_none = await self._db(
                partial(
                    acquire,
                    table_id=table_id,
                    node_id=self.node_id,
                    lease_ms=self.lease_ms,
                    unheld_ms=unheld_ms,
                )
            )
            if epoch_or_none is None:
                continue
            if self._stopping:  # stopped while taking it: give it straight back
                give = partial(
                    release, table_id=table_id, node_id=self.node_id, epoch=epoch_or_none
                )
                await self._db(give)
                continue
            held = Held(table_id, epoch_or_none, started + self.lease_ms * SAFETY / 1000)
            self.held[table_id] = held
            log.warning(
                "baccarat-node: %s deals %s (epoch %d)", self.node_id, table_id, epoch_or_none
            )
            held.task = self.start_dealer(held)
            self._count(table_id, "taken")

    def _count(self, table_id: str, change: str) -> None:
        if self.on_change is not None:
            self.on_change(table_id, change, table_id in self.held)

    def _fenced_off(self, held: Held, reason: str) -> None:
        self._count(held.table_id, "fenced")
        log.warning(
            "baccarat-node: %s fenced off %s (epoch %d): %s",
            self.node_id,
            held.table_id,
            held.epoch,
            reason,
        )

    def _order(self) -> list[str]:
        """The tables in this node's own order of preference (so nodes starting together
        spread over the tables instead of racing for the same one)."""
        return sorted(self.tables, key=lambda table_id: _rank(table_id, self.node_id))

    async def _forget(self, held: Held, *, give_up: bool) -> None:
        self.held.pop(held.table_id, None)
        self._count(held.table_id, "handed_over" if held.handing_over else "dropped")
        if held.task is not None and not held.task.done():
            held.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await held.task
        if give_up:
            giving = partial(
                release, table_id=held.table_id, node_id=self.node_id, epoch=held.epoch
            )
            with contextlib.suppress(Exception):
                await self._db(giving)

    def dealing(self) -> list[str]:
        """The tables this node deals now."""
        return sorted(t for t, held in self.held.items() if held.valid())

    async def stop(self) -> None:
        """Stop every dealer and give the leases up, so another node takes over at once."""
        self._stopping = True
        self._renewer_stop.set()
        if self._renewer is not None:
            await asyncio.to_thread(self._renewer.join, 5)
        for held in list(self.held.values()):
            await self._forget(held, give_up=True)
        self._thread.shutdown(wait=True)


def _rank(table_id: str, node_id: str) -> int:
    return zlib.crc32(f"{node_id}/{table_id}".encode())
