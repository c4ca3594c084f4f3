"""``/api/admin/reports``: turnover, GGR, hold, theoretical hold and z by table, day and bet."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.actions.admin_reports import report_csv
from baccarat.server.admin_deps import DesksDep, admin_errors
from baccarat.server.admin_models import ReportView
from baccarat.server.deps import StaffReader
from baccarat.server.errors import refused
from baccarat.server.models import PRINTABLE

__all__ = ["router"]

router = APIRouter(tags=["admin"])

#: The longest span of one report.
MAX_DAYS = 366


@router.get(
    "/api/admin/reports",
    response_model=ReportView,
    responses={
        **admin_errors(422),
        200: {"content": {"text/csv": {}}, "description": "JSON, or CSV with format=csv."},
    },
)
async def report(
    _session: StaffReader,
    desks: DesksDep,
    since: Annotated[date | None, Query(description="First UTC day (default: 6 days ago).")] = None,
    until: Annotated[date | None, Query(description="Last UTC day (default: today).")] = None,
    table_id: Annotated[str | None, Query(max_length=64, pattern=PRINTABLE)] = None,
    money: Literal["real", "demo", "all"] = "real",
    format: Literal["json", "csv"] = "json",
) -> ReportView | Response:
    """Per table, UTC day and bet; ``all`` rows sum a table's day. ``money``: real money,
    guests' demo money, or both."""
    last = until or desks.reports.today()
    first = since or last - timedelta(days=6)
    if first > last or (last - first).days >= MAX_DAYS:
        message = f"since..until must be 1 to {MAX_DAYS} days"
        raise refused(Refusal(RefusalCode.INVALID_REQUEST, message))
    view = await desks.reports.report(first, last, table_id, money)
    if format == "csv":
        name = f"report-{first.isoformat()}-{last.isoformat()}.csv"
        return Response(
            report_csv(view),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
    return view
