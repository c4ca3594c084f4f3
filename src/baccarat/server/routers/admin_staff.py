"""``/api/admin/staff``: members of staff (admins create and disable them)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from baccarat.server.admin_deps import admin_errors
from baccarat.server.admin_models import ReasonBody, StaffCreate, StaffList, StaffMemberView
from baccarat.server.deps import StaffAccountsDep, StaffAdmin, StaffReader
from baccarat.server.errors import answer

__all__ = ["router"]

router = APIRouter(tags=["admin"])

StaffName = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9._-]+$")]


@router.get("/api/admin/staff", responses=admin_errors())
async def list_staff(_session: StaffReader, staff: StaffAccountsDep) -> StaffList:
    """Every member of staff and their role."""
    return await staff.staff()


@router.post("/api/admin/staff", status_code=201, responses=admin_errors(409, 422))
async def create_staff(
    body: StaffCreate, session: StaffAdmin, staff: StaffAccountsDep
) -> StaffMemberView:
    """Create a member of staff (admins only)."""
    created = await staff.create(session, body.username, body.role, body.password, body.reason)
    return answer(created)


@router.post("/api/admin/staff/{username}/disable", responses=admin_errors(404, 409, 422))
async def disable_staff(
    username: StaffName, body: ReasonBody, session: StaffAdmin, staff: StaffAccountsDep
) -> StaffMemberView:
    """Disable a member of staff: their sessions end and they cannot log in (admins only)."""
    return answer(await staff.disable(session, username, body.reason))
