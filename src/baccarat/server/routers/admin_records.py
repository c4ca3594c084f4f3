"""``/api/admin/shoes`` and ``/api/admin/audit``: shoe records with their verification;
the audit log (browse, verify, export an anchor)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from baccarat.server.admin_deps import DesksDep, Limit, admin_errors
from baccarat.server.admin_models import (
    AuditAnchorView,
    AuditPage,
    AuditVerifyView,
    ShoeAdminView,
    ShoeList,
)
from baccarat.server.deps import ShoeId, StaffReader
from baccarat.server.errors import answer
from baccarat.server.models import PRINTABLE

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


@router.get("/api/admin/audit", responses=admin_errors(422))
async def browse_audit(
    _session: StaffReader,
    desks: DesksDep,
    after_seq: Annotated[int, Query(ge=0, le=2**62)] = 0,
    limit: Limit = 100,
    actor: Annotated[str | None, Query(max_length=100, pattern=PRINTABLE)] = None,
    action: Annotated[str | None, Query(max_length=40, pattern=PRINTABLE)] = None,
) -> AuditPage:
    """Audit records in order, from ``after_seq``; ``actor`` matches its start."""
    return await desks.records.audit(after_seq, limit, actor, action)


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
