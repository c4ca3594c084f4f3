"""``/api/admin/shoes`` and ``/api/admin/audit``: shoe records with their verification;
the audit log (browse, filter, export as CSV, verify, export an anchor)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from baccarat.audit import audit_time
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_deps import DesksDep, Limit, admin_errors
from baccarat.server.admin_models import (
    AuditAnchorView,
    AuditPage,
    AuditVerifyView,
    ShoeAdminView,
    ShoeList,
)
from baccarat.server.deps import ShoeId, StaffReader
from baccarat.server.errors import answer, refused
from baccarat.server.models import PRINTABLE
from baccarat.store.audit_log import AuditFilter

__all__ = ["router"]

router = APIRouter(tags=["admin"])


@router.get("/api/admin/shoes", responses=admin_errors(422))
async def list_shoes(
    _session: StaffReader,
    desks: DesksDep,
    table_id: Annotated[str | None, Query(max_length=64, pattern=PRINTABLE)] = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 20,
) -> ShoeList:
    """The newest shoes, each ended one verified (``baccarat.verify``)."""
    return await desks.records.shoes(table_id, limit)


@router.get("/api/admin/shoes/{shoe_id}", responses=admin_errors(404, 422))
async def get_shoe(shoe_id: ShoeId, _session: StaffReader, desks: DesksDep) -> ShoeAdminView:
    """One shoe and its verification."""
    return answer(await desks.records.shoe(shoe_id))


#: A UTC day (``2026-01-31``) or an instant with its offset (``2026-01-31T08:00:00Z``).
_WHEN = r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$"
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
When = Annotated[
    str | None,
    Query(
        max_length=40,
        pattern=_WHEN,
        description="A UTC day (YYYY-MM-DD) or an ISO 8601 instant with its offset.",
    ),
]


def _instant(text: str, *, end_of_day: bool) -> str:
    """The audit log's time text of ``text``; a day is its start (its end, ``end_of_day``:
    the day is included whole). ``ValueError`` for a day or time that does not exist."""
    if _DAY.match(text):
        day = date.fromisoformat(text)
        if end_of_day:
            day += timedelta(days=1)
        return audit_time(datetime(day.year, day.month, day.day, tzinfo=UTC))
    return audit_time(datetime.fromisoformat(text))


def _window(since: str | None, until: str | None) -> tuple[str | None, str | None]:
    try:
        first = None if since is None else _instant(since, end_of_day=False)
        last = None if until is None else _instant(until, end_of_day=True)
    except ValueError as error:
        raise refused(Refusal(RefusalCode.INVALID_REQUEST, f"not a date: {error}")) from None
    if first is not None and last is not None and first >= last:
        raise refused(Refusal(RefusalCode.INVALID_REQUEST, "since must be before until"))
    return first, last


@router.get(
    "/api/admin/audit",
    response_model=AuditPage,
    responses={
        **admin_errors(422),
        200: {"content": {"text/csv": {}}, "description": "JSON, or CSV with format=csv."},
    },
)
async def browse_audit(
    _session: StaffReader,
    desks: DesksDep,
    after_seq: Annotated[int, Query(ge=0, le=2**62)] = 0,
    before_seq: Annotated[int | None, Query(ge=1, le=2**62)] = None,
    order: Literal["asc", "desc"] = "asc",
    limit: Limit = 100,
    actor: Annotated[str | None, Query(max_length=100, pattern=PRINTABLE)] = None,
    action: Annotated[str | None, Query(max_length=40, pattern=PRINTABLE)] = None,
    since: When = None,
    until: When = None,
    format: Literal["json", "csv"] = "json",
) -> AuditPage | Response:
    """Audit records oldest first from ``after_seq`` (``order=asc``), or newest first before
    ``before_seq`` (``order=desc``); ``actor`` matches its start, ``action`` exactly, ``since``
    and ``until`` the record's time (a day ``until`` is included whole). ``format=csv``: every
    record the filters name (not one page), in the same order."""
    first, last = _window(since, until)
    which = AuditFilter(actor, action, first, last, after_seq, before_seq)
    if format == "csv":
        text = answer(await desks.records.audit_csv(which, order))
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": 'attachment; filename="audit.csv"'},
        )
    return await desks.records.audit(which, order, limit)


@router.get("/api/admin/audit/verify", responses=admin_errors(422))
async def verify_audit(
    _session: StaffReader,
    desks: DesksDep,
    anchor: Annotated[str | None, Query(pattern=r"^[0-9a-f]{64}$")] = None,
) -> AuditVerifyView:
    """Check every record's hash and link (and that one still hashes to ``anchor``)."""
    return await desks.records.verify(anchor)


@router.get("/api/admin/audit/anchor", responses=admin_errors(409))
async def audit_anchor(_session: StaffReader, desks: DesksDep) -> AuditAnchorView:
    """The chain's head now: keep the line outside the database, check later with
    ``baccarat audit verify --anchor``."""
    return answer(await desks.records.anchor())
