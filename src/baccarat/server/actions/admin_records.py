"""Auditors' reads of the records: shoes with their verification, and the audit log (browse
oldest or newest first, filtered by who, what and when; export as CSV; verify the chain;
export an anchor to keep outside the database)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any, Literal

from sqlalchemy import Connection

from baccarat.audit import Anchor
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_models import (
    AuditAnchorView,
    AuditPage,
    AuditRecordView,
    AuditVerifyView,
    ShoeAdminView,
    ShoeList,
)
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.service import Service
from baccarat.store.admin_reads import find_shoes
from baccarat.store.audit_log import (
    AuditFilter,
    audit_head,
    count_audit,
    find_audit,
    verify_audit_log,
)
from baccarat.store.records import shoe_record
from baccarat.store.shoes import ShoeRow, get_shoe
from baccarat.verify import verify_record

__all__ = ["AUDIT_CSV_COLUMNS", "AUDIT_CSV_LIMIT", "RecordDesk"]

#: The most records one CSV export holds: a longer span is asked for in parts.
AUDIT_CSV_LIMIT = 50_000
#: The columns of the CSV export: every stored field, ``details`` as its JSON text.
AUDIT_CSV_COLUMNS = ("seq", "time", "actor", "action", "details", "prev_hash", "hash")


def _shoe(c: Connection, shoe: ShoeRow) -> ShoeAdminView:
    failures: list[str] = []
    if not shoe.ended:
        verification = "in_play"
    else:
        report = verify_record(shoe_record(c, shoe))
        failures = [str(failure) for failure in report.failures]
        verification = "verified" if report.ok else "failed"
    ended = shoe.ended_at
    return ShoeAdminView.model_validate(
        {
            "id": shoe.id,
            "table_id": shoe.table_id,
            "number": shoe.number,
            "status": shoe.status,
            "decks": shoe.decks,
            "commitment": shoe.commitment,
            "client_seed": shoe.client_seed,
            "digest": shoe.digest if shoe.ended else None,
            "started_at": iso_utc(shoe.started_at),
            "ended_at": None if ended is None else iso_utc(ended),
            "verification": verification,
            "failures": failures,
        }
    )


def _record(row: dict[str, Any]) -> AuditRecordView:
    return AuditRecordView.model_validate({**row, "details": json.loads(row["details"])})


class RecordDesk:
    """Shoes and the audit log, read by staff."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def shoes(self, table_id: str | None, limit: int) -> ShoeList:
        """The newest shoes, each ended one checked by ``baccarat.verify``."""

        def run(c: Connection) -> list[ShoeAdminView]:
            found = (get_shoe(c, shoe_id) for shoe_id in find_shoes(c, table_id, limit))
            return [_shoe(c, shoe) for shoe in found if shoe is not None]

        return ShoeList(shoes=await self.service.runner.read(run))

    async def shoe(self, shoe_id: str) -> ShoeAdminView | Refusal:
        def run(c: Connection) -> ShoeAdminView | None:
            shoe = get_shoe(c, shoe_id)
            return None if shoe is None else _shoe(c, shoe)

        found = await self.service.runner.read(run)
        if found is None:
            return Refusal(RefusalCode.SHOE_NOT_FOUND, f"there is no shoe {shoe_id!r}")
        return found

    async def audit(
        self, which: AuditFilter, order: Literal["asc", "desc"], limit: int
    ) -> AuditPage:
        """A page of the records ``which`` names: oldest first from ``after_seq``, or newest
        first before ``before_seq``."""
        rows = await self.service.runner.read(
            lambda c: find_audit(c, which, order=order, limit=limit)
        )
        edge = int(rows[-1]["seq"]) if len(rows) == limit else None
        return AuditPage(
            records=[_record(row) for row in rows],
            next_after=edge if order == "asc" else None,
            next_before=edge if order == "desc" else None,
        )

    async def audit_csv(self, which: AuditFilter, order: Literal["asc", "desc"]) -> str | Refusal:
        """Every record ``which`` names, in ``order``, as CSV with a header (refused past
        ``AUDIT_CSV_LIMIT`` records)."""

        def run(c: Connection) -> list[dict[str, Any]] | None:
            if count_audit(c, which) > AUDIT_CSV_LIMIT:
                return None
            return find_audit(c, which, order=order)

        rows = await self.service.runner.read(run)
        if rows is None:
            message = f"more than {AUDIT_CSV_LIMIT} records: export a shorter span of time"
            return Refusal(RefusalCode.INVALID_REQUEST, message)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(AUDIT_CSV_COLUMNS)
        for row in rows:
            writer.writerow([row[name] for name in AUDIT_CSV_COLUMNS])
        return out.getvalue()

    async def verify(self, anchor: str | None) -> AuditVerifyView:
        """Recompute every record's hash and link (and, given one, that a record still
        hashes to ``anchor``)."""

        def run(c: Connection) -> tuple[int, list[Any]]:
            head = audit_head(c)
            return (0 if head is None else head[0]), verify_audit_log(c, anchor)

        records, problems = await self.service.runner.read(run)
        return AuditVerifyView.model_validate(
            {
                "ok": not problems,
                "records": records,
                "problems": [
                    {"seq": p.seq, "kind": p.kind, "message": p.message} for p in problems
                ],
            }
        )

    async def anchor(self) -> AuditAnchorView | Refusal:
        """The chain's head now, as an anchor line to keep outside the database."""
        now = self.clock.now_ms()

        head = await self.service.runner.read(audit_head)
        if head is None:
            return Refusal(RefusalCode.AUDIT_LOG_EMPTY, "the audit log has no record to anchor yet")
        anchor = Anchor(head[0], head[1], now)
        return AuditAnchorView(seq=anchor.seq, head=anchor.head, at=anchor.at, line=anchor.line())
