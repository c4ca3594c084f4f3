"""``/api/admin/shifts`` and ``/api/admin/monitor``: open a shift, hand it over with its
report (JSON or CSV); the money side of a table's live monitor."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from baccarat.server.actions.admin_shifts import ShiftDesk, shift_csv
from baccarat.server.admin_deps import admin_errors
from baccarat.server.admin_shift_models import (
    HandOver,
    MonitorView,
    ShiftList,
    ShiftOpen,
    ShiftView,
)
from baccarat.server.deps import StaffActor, StaffReader, TableId
from baccarat.server.errors import answer
from baccarat.server.models import MAX_ID

__all__ = ["router"]

router = APIRouter(tags=["admin"])


async def _desk(request: Request) -> ShiftDesk:
    desk: ShiftDesk = request.app.state.shifts
    return desk


ShiftDeskDep = Annotated[ShiftDesk, Depends(_desk)]
ShiftId = Annotated[int, Path(ge=1, le=MAX_ID)]


@router.get("/api/admin/shifts", responses=admin_errors(422))
async def list_shifts(
    _session: StaffReader,
    desk: ShiftDeskDep,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> ShiftList:
    """The open shift with its figures so far, and the newest shifts with their reports."""
    return await desk.shifts(limit)


@router.post("/api/admin/shifts", status_code=201, responses=admin_errors(409, 422))
async def open_shift(body: ShiftOpen, session: StaffActor, desk: ShiftDeskDep) -> ShiftView:
    """Open a shift managed by the caller (409 ``shift_open`` while another is open)."""
    return answer(await desk.open(session, body.note))


@router.get(
    "/api/admin/shifts/{shift_id}",
    response_model=ShiftView,
    responses={
        **admin_errors(404, 422),
        200: {"content": {"text/csv": {}}, "description": "JSON, or CSV with format=csv."},
    },
)
async def get_shift(
    shift_id: ShiftId,
    _session: StaffReader,
    desk: ShiftDeskDep,
    format: Literal["json", "csv"] = "json",
) -> ShiftView | Response:
    """A shift's report: stored at its hand-over, or its figures so far while open."""
    view = answer(await desk.shift(shift_id))
    if format == "csv":
        return Response(
            shift_csv(view),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="shift-{view.id}.csv"'},
        )
    return view


@router.post("/api/admin/shifts/{shift_id}/hand-over", responses=admin_errors(404, 409, 422))
async def hand_over(
    shift_id: ShiftId, body: HandOver, session: StaffActor, desk: ShiftDeskDep
) -> ShiftView:
    """Close the open shift with an optional note; its report is written and answered."""
    return answer(await desk.hand_over(session, shift_id, body.note))


@router.get("/api/admin/monitor/{table_id}", responses=admin_errors(404, 422))
async def monitor(table_id: TableId, _session: StaffReader, desk: ShiftDeskDep) -> MonitorView:
    """Real stakes per spot on the round the table shows, the newest settled round's
    result, and the table's figures for the open shift (cards come from the public feed)."""
    return answer(await desk.monitor(table_id))
