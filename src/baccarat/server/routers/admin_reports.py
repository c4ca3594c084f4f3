"""``/api/admin/reports``: turnover, GGR, hold, theoretical hold and z by table, day (or hour)
and bet; ``/api/admin/reports/players``: per player; ``/api/admin/reports/top``: the top
winners and losers of real money."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.actions.admin_reports import player_report_csv, report_csv
from baccarat.server.admin_deps import DesksDep, PlayerId, admin_errors
from baccarat.server.admin_models import ReportView
from baccarat.server.admin_shift_models import PlayerReportView, TopPlayersView
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
    granularity: Literal["day", "hour"] = "day",
    format: Literal["json", "csv"] = "json",
) -> ReportView | Response:
    """Per table, UTC day (or hour) and bet; ``all`` rows sum a table's day (or hour).
    ``money``: real money, guests' demo money, or both."""
    first, last = _period(desks, since, until)
    view = await desks.reports.report(first, last, table_id, money, granularity)
    if format == "csv":
        return _csv(report_csv(view), f"report-{first.isoformat()}-{last.isoformat()}.csv")
    return view


@router.get(
    "/api/admin/reports/players",
    response_model=PlayerReportView,
    responses={
        **admin_errors(422),
        200: {"content": {"text/csv": {}}, "description": "JSON, or CSV with format=csv."},
    },
)
async def player_report(
    _session: StaffReader,
    desks: DesksDep,
    since: Annotated[date | None, Query(description="First UTC day (default: 6 days ago).")] = None,
    until: Annotated[date | None, Query(description="Last UTC day (default: today).")] = None,
    player_id: Annotated[PlayerId | None, Query()] = None,
    money: Literal["real", "demo", "all"] = "real",
    format: Literal["json", "csv"] = "json",
) -> PlayerReportView | Response:
    """Per player (or one, ``player_id``): rounds, bets, stakes, returns, result and the last
    settled bet of the period, the largest result first."""
    first, last = _period(desks, since, until)
    view = await desks.reports.players(first, last, money, player_id)
    if format == "csv":
        return _csv(player_report_csv(view), f"players-{first.isoformat()}-{last.isoformat()}.csv")
    return view


@router.get("/api/admin/reports/top", responses=admin_errors(422))
async def top_players(
    _session: StaffReader,
    desks: DesksDep,
    since: Annotated[date | None, Query(description="First UTC day (default: 6 days ago).")] = None,
    until: Annotated[date | None, Query(description="Last UTC day (default: today).")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
) -> TopPlayersView:
    """The players who won and who lost most real money over the period."""
    first, last = _period(desks, since, until)
    return await desks.reports.top(first, last, limit)


def _period(desks: DesksDep, since: date | None, until: date | None) -> tuple[date, date]:
    last = until or desks.reports.today()
    first = since or last - timedelta(days=6)
    if first > last or (last - first).days >= MAX_DAYS:
        message = f"since..until must be 1 to {MAX_DAYS} days"
        raise refused(Refusal(RefusalCode.INVALID_REQUEST, message))
    return first, last


def _csv(text: str, name: str) -> Response:
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
