"""``/api/tables``: rules, limits, pay tables, the round in play, revealed cards, roads, shoe."""

from __future__ import annotations

from fastapi import APIRouter

from baccarat.server.deps import ServiceDep, TableId
from baccarat.server.models import TableView
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["tables"])


@router.get("/api/tables")
async def list_tables(service: ServiceDep) -> list[TableView]:
    """Every table of this server."""
    return [
        TableView.model_validate(mirror.snapshot())
        for mirror in service.tables.values()
        if mirror.ready.is_set()
    ]


@router.get("/api/tables/{table_id}", responses=errors(404, 422))
async def get_table(table_id: TableId, service: ServiceDep) -> TableView:
    """One table as a newcomer sees it (the same object as the feed's snapshot)."""
    return TableView.model_validate(service.table(table_id).snapshot())
