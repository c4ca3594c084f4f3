"""The back office's view of the operators' wallets: the operators with their outbox counts,
the outbox by state, a period's reconciliation (``store.reconcile``), and sending a failed
credit or rollback again.

A retry puts the failed row back in the queue, due at once (the database's clock, as the
outbox sender reads it), with its attempts kept (so it shows as retrying) and its last error
until the next answer replaces it; the audit record is written in the same transaction, and
this node's sender is woken. The wallet answers a row sent again as it answers any: the same
``transaction_id`` with the same body gives its first answer, so a retry never moves money
twice.
"""

from __future__ import annotations

from sqlalchemy import Connection, update

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_operator_models import (
    OperatorList,
    OutboxPage,
    ReconciliationView,
    WalletCallView,
    call_view,
    operator_view,
    reconciliation_view,
)
from baccarat.server.clock import Clock
from baccarat.server.service import Service
from baccarat.store.clock import db_now
from baccarat.store.operators import find_operator, list_operators
from baccarat.store.outbox_view import operator_call, outbox_counts, outbox_rows
from baccarat.store.reconcile import reconcile
from baccarat.store.schema import wallet_transactions
from baccarat.store.staff import StaffSession, audit_staff

__all__ = ["OperatorDesk"]


def _unknown(operator_id: str) -> Refusal:
    return Refusal(RefusalCode.OPERATOR_NOT_FOUND, f"there is no operator {operator_id!r}")


class OperatorDesk:
    """The operators' wallets as staff see them, on the server's clock ``clock``."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def operators(self) -> OperatorList:
        """Every operator, with its outbox counts per state."""

        def run(c: Connection) -> OperatorList:
            counts = outbox_counts(c)
            return OperatorList(
                operators=[operator_view(o, counts.get(o.id)) for o in list_operators(c)]
            )

        return await self.service.runner.read(run)

    async def outbox(
        self, operator_id: str, state: str | None, limit: int, after: tuple[int, str] | None
    ) -> OutboxPage | Refusal:
        """The operator's credits and rollbacks in ``state`` (all three outstanding states
        with ``None``), oldest first, a page of ``limit`` after the cursor ``after``."""

        def run(c: Connection) -> OutboxPage | Refusal:
            operator = find_operator(c, operator_id)
            if operator is None:
                return _unknown(operator_id)
            rows = outbox_rows(c, operator_id, state, limit=limit, after=after)
            last = rows[-1] if len(rows) == limit else None
            return OutboxPage(
                operator_id=operator_id,
                currency=operator.currency,
                state=state,
                rows=[call_view(row) for row in rows],
                next_after=None if last is None else f"{last.created_at}:{last.id}",
            )

        return await self.service.runner.read(run)

    async def reconciliation(
        self, operator_id: str, since_ms: int, until_ms: int, limit: int
    ) -> ReconciliationView | Refusal:
        """The operator's calls of ``[since_ms, until_ms)``, as of the database's clock."""

        def run(c: Connection) -> ReconciliationView | Refusal:
            found = reconcile(
                c, operator_id, since_ms=since_ms, until_ms=until_ms, now_ms=db_now(c)
            )
            return _unknown(operator_id) if found is None else reconciliation_view(found, limit)

        return await self.service.runner.read(run)

    async def retry(
        self, session: StaffSession, operator_id: str, call_id: str, reason: str
    ) -> WalletCallView | Refusal:
        """Send a failed credit or rollback again (audited)."""
        now = self.clock.now_ms()

        def run(c: Connection) -> WalletCallView | Refusal:
            if find_operator(c, operator_id) is None:
                return _unknown(operator_id)
            call = operator_call(c, operator_id, call_id)
            if call is None or call.kind == "debit":
                message = f"operator {operator_id!r} has no credit or rollback {call_id!r}"
                return Refusal(RefusalCode.WALLET_CALL_NOT_FOUND, message)
            if call.state != "failed":
                message = f"the {call.kind} is {call.state}, not failed: it is not sent again"
                return Refusal(RefusalCode.OUTBOX_NOT_FAILED, message)
            at = db_now(c)
            w = wallet_transactions
            c.execute(
                update(w)
                .where(w.c.id == call_id, w.c.state == "failed")
                .values(state="queued", next_attempt_at=at, updated_at=at)
            )
            details = {
                "operator": operator_id,
                "transaction": call_id,
                "kind": call.kind,
                "reference": call.reference_id,
                "player": call.player_id,
                "amount": call.amount,
                "currency": call.currency,
                "attempts": call.attempts,
                "last_error": call.last_error,
            }
            audit_staff(c, now, session, "wallet_retry", reason, details)
            again = operator_call(c, operator_id, call_id)
            assert again is not None
            return call_view(again)

        found = await self.service.runner.write(run)
        if not isinstance(found, Refusal) and self.service.outbox is not None:
            self.service.outbox.wake()
        return found
