"""The outbox sender: every credit and rollback is sent until the wallet answers definitely.

One sender runs on each node (started with the service). It looks for due rows of
``wallet_transactions`` (a cheap read a few times a second), claims a batch in a short
transaction that leases them (``store.wallet_calls.claim_due``: other nodes skip them; a node
that dies mid-send leaves them to the next once the lease ends), and sends each in a task of its
own. An operator has at most ``per_operator`` sends in flight here, and its further rows are
not even claimed meanwhile: a slow wallet delays only its own operator's credits. A disabled
operator's rows are sent all the same: disabling stops new stakes, never the money owed.

Each answer is recorded at once: the wallet's yes is ``done`` (a credit's new balance is then
told to the player's page, ``balance``), a definite no is ``failed`` for a person to look at
(but a rollback of a debit the wallet never saw, ``reference_not_found``, is ``done``: nothing to
give back), and no definite answer is tried again after a backoff (1 s doubling to 60 s,
jittered). The wallet's idempotency makes a resend harmless: the same ``transaction_id`` moves
nothing twice.

The sender also sweeps, at start and every ``sweep_s``, the debits left ``pending`` past their
operator's timeout (a crash between a debit's send and its answer) into ``unknown`` with their
rollback queued. It paces itself on the machine's clock (``poll_s``), never the service's
virtual one; what is due is decided by the database's clock (``db_now``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from functools import partial

from sqlalchemy import Connection

from baccarat.live.cancelling import stop_if_cancelled
from baccarat.server.store_threads import StoreRunner
from baccarat.store.clock import db_now
from baccarat.store.wallet_calls import PENDING_GRACE_MS, stale_count, sweep_pending
from baccarat.store.wallet_outbox import OutboxItem, SendResult, claim_due, due_count, record_send
from baccarat.wallet.client import WalletClient, WalletEndpoint
from baccarat.wallet.contract import Ok, Outcome, Refused, credit_body, rollback_body

__all__ = ["OutboxSender", "judge"]

log = logging.getLogger("baccarat.server")

#: The wallet's answers to a rollback that end it as well as a yes: it never took the money.
_ROLLBACK_DONE = frozenset({"reference_not_found"})


def judge(kind: str, outcome: Outcome) -> SendResult:
    """What a send's outcome makes of its row.

    >>> judge("credit", Ok(10, "w1", "{}")), judge("credit", Refused("bad_request", "", "{}"))
    ('done', 'failed')
    >>> judge("rollback", Refused("reference_not_found", "", "{}"))
    'done'
    """
    if isinstance(outcome, Ok):
        return "done"
    if isinstance(outcome, Refused):
        return "done" if kind == "rollback" and outcome.code in _ROLLBACK_DONE else "failed"
    return "retry"


def _body(item: OutboxItem) -> dict[str, object]:
    """The call's body (a credit's or a rollback's): the ids, the operator's id of the player."""
    if item.kind == "credit":
        return dict(
            credit_body(
                transaction_id=item.id,
                reference_id=item.reference_id,
                player_id=item.external_id,
                round_id=item.round_id if item.round_id is not None else "",
                table_id=item.table_id or "",
                amount=item.amount,
                currency=item.currency,
                round_closed=item.round_closed,
            )
        )
    return dict(
        rollback_body(
            transaction_id=item.id,
            reference_id=item.reference_id,
            player_id=item.external_id,
            round_id=item.round_id if item.round_id is not None else "",
            table_id=item.table_id or "",
            amount=item.amount,
            currency=item.currency,
        )
    )


class OutboxSender:
    """Send the outbox of one node; ``run`` until cancelled (``step`` and ``drain`` for tests)."""

    def __init__(
        self,
        runner: StoreRunner,
        wallet: WalletClient,
        endpoint: Callable[[str], Awaitable[WalletEndpoint | None]],
        *,
        notify: Callable[[str, int, str], None] | None = None,
        rand: Callable[[], float] = random.random,
        per_operator: int = 8,
        batch: int = 64,
        lease_ms: int = 60_000,
        poll_s: float = 0.2,
        sweep_s: float = 5.0,
        sweep_grace_ms: int = PENDING_GRACE_MS,
    ) -> None:
        """``endpoint``: an operator's wallet for its credits and rollbacks, disabled or not
        (``ProviderBets.payout_endpoint``; ``None``: an unknown operator, its rows wait);
        ``notify(player_id, balance, currency)``: a credit landed; ``rand``: the jitter's
        random source, in [0, 1)."""
        self.runner = runner
        self.wallet = wallet
        self.endpoint = endpoint
        self.notify = notify
        self.rand = rand
        self.per_operator = per_operator
        self.batch = batch
        self.lease_ms = lease_ms
        self.poll_s = poll_s
        self.sweep_s = sweep_s
        self.sweep_grace_ms = sweep_grace_ms
        self._in_flight: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()

    def wake(self) -> None:
        """Look for due rows now rather than at the next poll."""
        self._wake.set()

    async def run(self) -> None:
        swept_at = -float("inf")
        try:
            while True:
                try:
                    if time.monotonic() - swept_at >= self.sweep_s:
                        await self.sweep()
                        swept_at = time.monotonic()
                    await self.step()
                except Exception as error:  # the database away: the next poll tries again
                    stop_if_cancelled()
                    log.warning("the outbox sender failed a step: %s", _first_line(error))
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll_s)
        finally:
            for task in list(self._tasks):
                task.cancel()

    async def sweep(self) -> list[str]:
        """Roll back the debits left pending past their timeout; their ids."""
        grace = self.sweep_grace_ms
        if not await self.runner.read(lambda c: stale_count(c, db_now(c), grace)):
            return []
        swept = await self.runner.write(lambda c: sweep_pending(c, db_now(c), grace))
        if swept:
            log.warning("%d debit(s) left pending were rolled back", len(swept))
        return swept

    async def step(self) -> int:
        """Claim what is due (for operators with room) and start sending it; how many."""
        if not await self.runner.read(lambda c: due_count(c, db_now(c))):
            return 0
        items = await self.runner.write(partial(self._claim, busy=dict(self._in_flight)))
        for item in items:
            self._in_flight[item.operator_id] = self._in_flight.get(item.operator_id, 0) + 1
            task = asyncio.create_task(self._send(item), name=f"outbox-{item.id[:8]}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return len(items)

    def _claim(self, connection: Connection, busy: dict[str, int]) -> list[OutboxItem]:
        return claim_due(
            connection,
            db_now(connection),
            limit=self.batch,
            lease_ms=self.lease_ms,
            per_operator=self.per_operator,
            busy=busy,
        )

    async def drain(self) -> None:
        """Wait for every send started so far (a test's step)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _send(self, item: OutboxItem) -> None:
        try:
            endpoint = await self.endpoint(item.operator_id)
            if endpoint is None:
                await self._record(item, "retry", None, "the operator is unknown")
                return
            outcome = await self.wallet.call(endpoint, item.kind, _body(item))
            result = judge(item.kind, outcome)
            if isinstance(outcome, Ok | Refused):
                error = None if isinstance(outcome, Ok) else f"{outcome.code}: {outcome.message}"
                recorded = await self._record(item, result, outcome.answer, error)
            else:
                recorded = await self._record(item, "retry", None, outcome.reason)
            if recorded and isinstance(outcome, Ok) and item.kind == "credit" and self.notify:
                self.notify(item.player_id, outcome.balance, item.currency)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # recording failed: the lease ends and the row is sent again
            log.warning("the outbox could not record %s: %s", item.id, _first_line(error))
        finally:
            self._in_flight[item.operator_id] -= 1
            if self._in_flight[item.operator_id] <= 0:
                del self._in_flight[item.operator_id]
            self._wake.set()  # room for this operator again

    async def _record(
        self, item: OutboxItem, result: SendResult, answer: str | None, error: str | None
    ) -> bool:
        fraction = self.rand()

        def write(c: Connection) -> bool:
            return record_send(
                c, item, result, db_now(c), answer=answer, error=error, fraction=fraction
            )

        if result == "failed":
            log.error("the wallet refused %s %s for good: %s", item.kind, item.id, error)
        return await self.runner.write(write)


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0] if text else ''}"
