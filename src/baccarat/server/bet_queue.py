"""The bet queue: group commit of bet requests.

Requests wait in a queue; the bet queue takes everything waiting (up to ``max_batch``) and runs
it as one database transaction in the writer thread. One durable commit acknowledges the
whole batch, so the commit's fsync is paid once per batch, not once per bet. A request is
answered only after the commit that holds it.

If a batch fails as a whole (a database error), each of its requests is retried alone, so
one bad request cannot sink the others: only the request that fails alone gets the error.
Requests are validated before they are queued (ids in range, printable strings) and the
store refuses an order for a round past the id column before any query, so this is the
second line of defence.

Every write to the bets of this process goes through its queue: place, rebet, double, undo
and undo_last alike, so each batch runs its requests in the order they came. It is not the
only writer: every node of a cluster and every worker of ``serve --workers N`` has a queue of
its own on the same database. So the queue remembers no stakes and no limits: each batch reads
them under its locks (``store.placement``), and checks each bet against the rule set stored
with the round's shoe. What it keeps is those rule sets, by shoe id (``ShoeRules``): a shoe's
rule set never changes.

An order that names its session (``BetOrder.session_hash``) is placed only if that session
is live in the batch's own transaction (``store.sessions.confirm_sessions``): the HTTP layer
remembers who holds a token, the bet queue makes sure the session has not ended since.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import RuleSet
from baccarat.server.auth import TokenBook
from baccarat.server.store_threads import StoreRunner
from baccarat.store.placement import place_batch
from baccarat.store.sessions import confirm_sessions
from baccarat.store.shoe_rules import ShoeRules
from baccarat.store.stakes_cache import StakesCache
from baccarat.table import BetOrder, BetReceipt

__all__ = ["BetQueue"]

#: The refusal of an order whose session ended before its batch was committed.
_SESSION_ENDED = Refusal(RefusalCode.UNAUTHORIZED, "unknown or expired token")

log = logging.getLogger("baccarat.server")


@dataclass
class _Pending:
    order: BetOrder
    future: asyncio.Future[BetReceipt | Refusal]


class BetQueue:
    """Queue bet orders and commit them in batches."""

    def __init__(
        self,
        runner: StoreRunner,
        rulesets: Callable[[], Mapping[str, RuleSet]] | None = None,
        *,
        sessions: TokenBook | None = None,
        max_batch: int = 512,
        on_batch: Callable[[int], None] | None = None,
    ) -> None:
        # ``rulesets`` (what this process was told the tables play) is accepted and not used:
        # a bet is checked against the rule set stored with its round's shoe.
        del rulesets
        self.runner = runner
        self.sessions = sessions
        self.max_batch = max_batch
        self.on_batch = on_batch
        self._queue: list[_Pending] = []
        #: The rule set of each shoe bet on so far; used only in the writer thread.
        self._rules = ShoeRules()
        #: The stakes its players held as this queue last wrote or read them, each good while
        #: the player's account version is unchanged; staged in the writer thread, kept here
        #: once the batch has committed (batches run one after another).
        self._stakes = StakesCache()
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="bet-queue")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def submit(self, order: BetOrder) -> BetReceipt | Refusal:
        """Queue an order; returns once it is committed (or refused)."""
        future: asyncio.Future[BetReceipt | Refusal] = asyncio.get_running_loop().create_future()
        self._queue.append(_Pending(order, future))
        self._ready.set()
        return await future

    async def _run(self) -> None:
        while True:
            await self._ready.wait()
            batch = self._queue[: self.max_batch]
            del self._queue[: self.max_batch]
            if not self._queue:
                self._ready.clear()
            if batch:
                await self._commit(batch)

    async def _commit(self, batch: list[_Pending]) -> None:
        now = self._now()
        orders = [item.order for item in batch]
        try:
            results = await self.runner.write(lambda c: self._place(c, orders, now))
        except Exception as error:
            self._stakes.discard()
            log.warning(
                "a bet batch of %d failed (%s); retrying its requests one by one",
                len(batch),
                _first_line(error),
            )
            for item in batch:
                await self._commit_one(item, now)
            return
        self._stakes.commit()
        if self.on_batch is not None:
            self.on_batch(len(batch))
        for item, result in zip(batch, results, strict=True):
            if not item.future.done():
                item.future.set_result(result)

    def _now(self) -> int:
        return self.sessions.now_ms() if self.sessions is not None else 0

    def _place(
        self, connection: Connection, orders: list[BetOrder], now: int
    ) -> list[BetReceipt | Refusal]:
        """``place_batch`` for the orders whose session is live now; the others refused.

        It runs in the writer thread, the one user of ``_rules``.
        """
        hashes = {o.session_hash for o in orders if o.session_hash is not None}
        live: set[str] = set()
        if hashes and self.sessions is not None:
            book = self.sessions
            live = confirm_sessions(connection, hashes, now, book.idle_ms, book.touch_ms)
        admitted = [o for o in orders if o.session_hash is None or o.session_hash in live]
        # The policy's now is the sessions' clock; without sessions, the database's.
        policy_now = None if self.sessions is None else now
        placed = iter(
            place_batch(
                connection,
                admitted,
                rules=self._rules,
                stakes=self._stakes,
                policy_now_ms=policy_now,
            )
        )
        return [
            next(placed) if o.session_hash is None or o.session_hash in live else _SESSION_ENDED
            for o in orders
        ]

    async def _commit_one(self, item: _Pending, now: int) -> None:
        try:
            [result] = await self.runner.write(lambda c: self._place(c, [item.order], now))
        except Exception as error:
            self._stakes.discard()
            log.warning("a bet request failed alone: %s", _first_line(error))
            if not item.future.done():
                item.future.set_exception(error)
            return
        self._stakes.commit()
        if not item.future.done():
            item.future.set_result(result)


def _first_line(error: BaseException) -> str:
    """The error in one line (no traceback in the log for a request's failure)."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0] if text else ''}"
