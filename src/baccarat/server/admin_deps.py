"""The admin API's shared parameters: the staff desks (built once by the app factory), ids
in paths, page sizes, and the error responses admin routes document. Who may call a route
is ``deps.Staff`` (``READ``, ``ACT``, ``ADMIN``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Path, Query, Request

from baccarat.server.actions.admin_players import PlayerDesk
from baccarat.server.actions.admin_records import RecordDesk
from baccarat.server.actions.admin_reports import ReportDesk
from baccarat.server.actions.admin_rounds import RoundDesk
from baccarat.server.actions.admin_tables import TableDesk
from baccarat.server.models import MAX_ID, ErrorBody

__all__ = ["Desks", "DesksDep", "Limit", "PlayerId", "RoundPath", "admin_errors"]


@dataclass(frozen=True, slots=True)
class Desks:
    """What staff do, one desk per resource."""

    tables: TableDesk
    rounds: RoundDesk
    players: PlayerDesk
    records: RecordDesk
    reports: ReportDesk


async def _desks(request: Request) -> Desks:
    desks: Desks = request.app.state.desks
    return desks


DesksDep = Annotated[Desks, Depends(_desks)]

#: A player id in a path: 32 hex digits.
PlayerId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[0-9a-f]+$")]
#: A round id in a path, in the range of its column.
RoundPath = Annotated[int, Path(ge=1, le=MAX_ID)]
#: How many items a page holds.
Limit = Annotated[int, Query(ge=1, le=200)]

_TEXT = {
    401: "No staff token, or one that is over (log in at /api/admin/login).",
    403: "A player's token (staff_only), or a role that may not do this (role_forbidden).",
    404: "No such table, round, player, shoe, member of staff or rule set.",
    409: "The state does not allow it (a finished or dealt round, a closed account...).",
    422: "The request is invalid (every change needs a reason).",
}


def admin_errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of an admin route: 401 and 403 always, and ``statuses``.

    >>> sorted(admin_errors(404))
    [401, 403, 404]
    """
    wanted = sorted({401, 403, *statuses})
    return {status: {"model": ErrorBody, "description": _TEXT[status]} for status in wanted}
