"""``/api/admin/tables``: open, pause and close tables; end the shoe in play; change the next
shoe's rule set, limits, timings and dealing mode, or the limits from the next round; who
watches and who bets; the integrity monitor's view."""

from __future__ import annotations

from fastapi import APIRouter

from baccarat.rulesets import BUILTIN_RULESETS
from baccarat.server.admin_deps import DesksDep, admin_errors
from baccarat.server.admin_models import (
    IntegrityView,
    ReasonBody,
    TableAudience,
    TableChange,
    TableControlView,
    TableLimitsChange,
    TableList,
)
from baccarat.server.deps import StaffActor, StaffReader, TableId
from baccarat.server.errors import answer

__all__ = ["router"]

router = APIRouter(tags=["admin"])


@router.get("/api/admin/tables", responses=admin_errors())
async def list_tables(_session: StaffReader, desks: DesksDep) -> TableList:
    """Every table: open, paused or closed, the round in play, what waits for the next shoe."""
    return TableList(tables=await desks.tables.tables(), rulesets=list(BUILTIN_RULESETS))


@router.get("/api/admin/tables/{table_id}", responses=admin_errors(404, 422))
async def get_table(table_id: TableId, _session: StaffReader, desks: DesksDep) -> TableControlView:
    """One table's controls."""
    return answer(await desks.tables.table(table_id))


@router.post("/api/admin/tables/{table_id}/open", responses=admin_errors(404, 422))
async def open_table(
    table_id: TableId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> TableControlView:
    """Let rounds open again."""
    return answer(await desks.tables.set_status(session, table_id, "open", body.reason))


@router.post("/api/admin/tables/{table_id}/pause", responses=admin_errors(404, 422))
async def pause_table(
    table_id: TableId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> TableControlView:
    """No new round opens once the round in play has settled."""
    return answer(await desks.tables.set_status(session, table_id, "paused", body.reason))


@router.post("/api/admin/tables/{table_id}/close", responses=admin_errors(404, 422))
async def close_table(
    table_id: TableId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> TableControlView:
    """Take the table out of service: like a pause, until it is opened again."""
    return answer(await desks.tables.set_status(session, table_id, "closed", body.reason))


@router.post("/api/admin/tables/{table_id}/new-shoe", responses=admin_errors(404, 422))
async def new_shoe(
    table_id: TableId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> TableControlView:
    """End the shoe in play after its round in play (its server seed is published); the next
    round opens a new shoe, with any change waiting for it."""
    return answer(await desks.tables.new_shoe(session, table_id, body.reason))


@router.put("/api/admin/tables/{table_id}/next-shoe", responses=admin_errors(404, 422))
async def change_next_shoe(
    table_id: TableId, body: TableChange, session: StaffActor, desks: DesksDep
) -> TableControlView:
    """Change the rule set, limits, timings or dealing mode: they apply from the next shoe."""
    return answer(await desks.tables.change(session, table_id, body))


@router.put("/api/admin/tables/{table_id}/limits", responses=admin_errors(404, 422))
async def change_limits(
    table_id: TableId, body: TableLimitsChange, session: StaffActor, desks: DesksDep
) -> TableControlView:
    """The table's minimum and maximum stake (each bet's moved with them, or its own maximum)
    from the next round that opens: the round in play keeps the limits its bets were placed
    under."""
    return answer(await desks.tables.set_limits(session, table_id, body))


@router.get("/api/admin/tables/{table_id}/audience", responses=admin_errors(404, 422))
async def table_audience(
    table_id: TableId, _session: StaffReader, desks: DesksDep
) -> TableAudience:
    """How many watch, and each bettor's stakes on the round in play."""
    return answer(await desks.tables.audience(table_id))


@router.get("/api/admin/tables/{table_id}/integrity", responses=admin_errors(404, 422))
async def table_integrity(
    table_id: TableId, _session: StaffReader, desks: DesksDep
) -> IntegrityView:
    """Outcome frequencies against the exact probabilities (per shoe and cumulative), each
    player's advantage-play score on the side bets, and the alerts (``docs/integrity.md``)."""
    return answer(await desks.tables.integrity(table_id))
