"""``/api/admin/login``, ``/api/admin/logout``, ``/api/admin/me``: staff sessions.

A staff token comes only from here and opens only ``/api/admin`` routes. Login attempts
count against the same rate limits as players' (by address and by ``staff:<username>``), and
a device token of an earlier login lets a member's own device past the username's counts.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from baccarat.server.admin_deps import admin_errors
from baccarat.server.admin_models import StaffLoggedIn, StaffLogin, StaffMe
from baccarat.server.deps import StaffAccountsDep, StaffAny
from baccarat.server.devices import is_known, issue
from baccarat.server.errors import answer
from baccarat.server.guard import RATE_LIMITED, GuardDep

__all__ = ["router"]

router = APIRouter(tags=["admin"])


@router.post(
    "/api/admin/login",
    status_code=201,
    responses={**admin_errors(422), **RATE_LIMITED},
    openapi_extra={"security": [{}]},
)
async def staff_login(
    body: StaffLogin, staff: StaffAccountsDep, guard: GuardDep, request: Request
) -> StaffLoggedIn:
    """Log a member of staff in: a staff token (8 hours at most, idles out like a player's)."""
    name = f"staff:{body.username}"
    key = await staff.service.device_key()
    known = is_known(key, name, body.device)
    # Staff hash in the pool's kept lane; only a known device skips the username's counts.
    await guard.admit_login(request, name, known=known, staff=True)
    logged_in = answer(await staff.log_in(body.username, body.password, issue(key, name)))
    await guard.login_succeeded(request, name)
    return logged_in


@router.post("/api/admin/logout", status_code=204, responses=admin_errors())
async def staff_logout(session: StaffAny, staff: StaffAccountsDep) -> None:
    """End this staff session."""
    await staff.log_out(session)


@router.get("/api/admin/me", responses=admin_errors())
async def staff_me(session: StaffAny) -> StaffMe:
    """Who this token belongs to, and their role."""
    return StaffMe(username=session.username, role=session.role)
