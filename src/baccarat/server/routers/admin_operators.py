"""``/api/admin/operators``: the operators (provider mode) with their outbox counts, an
operator's outbox by state, a period's reconciliation of its wallet calls, and a failed credit
or rollback sent again (admins only, audited)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.actions.admin_operators import OperatorDesk
from baccarat.server.admin_deps import admin_errors
from baccarat.server.admin_models import ReasonBody
from baccarat.server.admin_operator_models import (
    WHEN,
    OperatorList,
    OutboxPage,
    ReconciliationView,
    WalletCallView,
    instant_ms,
)
from baccarat.server.deps import StaffAdmin, StaffReader
from baccarat.server.errors import answer, refused

__all__ = ["MAX_DAYS", "router"]

router = APIRouter(tags=["admin"])

#: The longest period of one reconciliation.
MAX_DAYS = 31
_DAY_MS = 86_400_000


async def _desk(request: Request) -> OperatorDesk:
    desk: OperatorDesk = request.app.state.operator_desk
    return desk


OperatorDeskDep = Annotated[OperatorDesk, Depends(_desk)]
OperatorId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9._-]+$")]
CallId = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[0-9a-f]+$")]
When = Annotated[
    str | None,
    Query(
        max_length=40,
        pattern=WHEN,
        description="A UTC day (its start) or an ISO 8601 time (UTC unless it has an offset).",
    ),
]


def _invalid(message: str) -> Exception:
    return refused(Refusal(RefusalCode.INVALID_REQUEST, message))


@router.get("/api/admin/operators", responses=admin_errors(422))
async def list_operators(_session: StaffReader, desk: OperatorDeskDep) -> OperatorList:
    """Every operator, with its credits and rollbacks per state (queued, retrying, failed,
    done)."""
    return await desk.operators()


@router.get("/api/admin/operators/{operator_id}/outbox", responses=admin_errors(404, 422))
async def operator_outbox(
    operator_id: OperatorId,
    _session: StaffReader,
    desk: OperatorDeskDep,
    state: Literal["queued", "retrying", "failed"] | None = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    after: Annotated[str | None, Query(max_length=60, pattern=r"^\d{1,16}:[0-9a-f]{1,40}$")] = None,
) -> OutboxPage:
    """The operator's credits and rollbacks still to send or refused for good, oldest first
    (``state``: one of them); the next page is ``after=next_after``."""
    cursor = None
    if after is not None:
        at, _, last = after.partition(":")
        cursor = (int(at), last)
    return answer(await desk.outbox(operator_id, state, limit, cursor))


@router.get("/api/admin/operators/{operator_id}/reconciliation", responses=admin_errors(404, 422))
async def reconciliation(
    operator_id: OperatorId,
    _session: StaffReader,
    desk: OperatorDeskDep,
    since: When = None,
    until: When = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> ReconciliationView:
    """Every debit of ``[since, until)`` with the credit or rollback that ended it, the
    orphans, totals per round and player, and the ledger's check (default: the last 24 hours;
    at most 31 days). Lists hold their first ``limit`` items."""
    try:
        last = desk.clock.now_ms() if until is None else instant_ms(until)
        first = last - _DAY_MS if since is None else instant_ms(since)
    except ValueError as error:
        raise _invalid(str(error)) from None
    if first >= last:
        raise _invalid("since must be before until")
    if last - first > MAX_DAYS * _DAY_MS:
        raise _invalid(f"a reconciliation covers at most {MAX_DAYS} days")
    return answer(await desk.reconciliation(operator_id, first, last, limit))


@router.post(
    "/api/admin/operators/{operator_id}/outbox/{call_id}/retry",
    responses=admin_errors(404, 409, 422),
)
async def retry_outbox(
    operator_id: OperatorId,
    call_id: CallId,
    body: ReasonBody,
    session: StaffAdmin,
    desk: OperatorDeskDep,
) -> WalletCallView:
    """Send a failed credit or rollback again: queued, due now (409 ``outbox_not_failed`` for
    one that has not failed)."""
    return answer(await desk.retry(session, operator_id, call_id, body.reason))
