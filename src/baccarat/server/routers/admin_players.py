"""``/api/admin/players``: search, balance, history, responsible-gaming state; lock, unlock,
close; operator limits."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from baccarat.server.admin_deps import DesksDep, Limit, PlayerId, admin_errors
from baccarat.server.admin_models import (
    CapRequest,
    CapsView,
    PlayerDetail,
    PlayerList,
    PlayerSummary,
    ReasonBody,
)
from baccarat.server.deps import StaffActor, StaffReader
from baccarat.server.errors import answer
from baccarat.server.models import PRINTABLE, HistoryPage

__all__ = ["router"]

router = APIRouter(tags=["admin"])


@router.get("/api/admin/players", responses=admin_errors(422))
async def search_players(
    _session: StaffReader,
    desks: DesksDep,
    q: Annotated[str, Query(min_length=1, max_length=40, pattern=PRINTABLE)],
    limit: Limit = 50,
) -> PlayerList:
    """Players whose id starts with ``q`` or whose username contains it."""
    return await desks.players.search(q, limit)


@router.get("/api/admin/players/{player_id}", responses=admin_errors(404, 422))
async def get_player(player_id: PlayerId, _session: StaffReader, desks: DesksDep) -> PlayerDetail:
    """Balance, status, own limits, operator limits, breaks and the running session."""
    return answer(await desks.players.detail(player_id))


@router.get("/api/admin/players/{player_id}/history", responses=admin_errors(404, 422))
async def player_history(
    player_id: PlayerId,
    _session: StaffReader,
    desks: DesksDep,
    page: Annotated[int, Query(ge=1, le=100_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> HistoryPage:
    """The player's rounds, newest first, as the player's own history shows them."""
    return answer(await desks.players.history(player_id, page, per_page))


@router.post("/api/admin/players/{player_id}/lock", responses=admin_errors(404, 409, 422))
async def lock_player(
    player_id: PlayerId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> PlayerSummary:
    """Lock the account: every session ends at once and logins are refused."""
    return answer(await desks.players.set_state(session, player_id, "locked", body.reason))


@router.post("/api/admin/players/{player_id}/unlock", responses=admin_errors(404, 409, 422))
async def unlock_player(
    player_id: PlayerId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> PlayerSummary:
    """Unlock the account (not a closed one)."""
    return answer(await desks.players.set_state(session, player_id, "active", body.reason))


@router.post("/api/admin/players/{player_id}/close", responses=admin_errors(404, 409, 422))
async def close_player(
    player_id: PlayerId, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> PlayerSummary:
    """Close the account for good (its money stays in the ledger)."""
    return answer(await desks.players.set_state(session, player_id, "closed", body.reason))


@router.put("/api/admin/players/{player_id}/operator-limits", responses=admin_errors(404, 409, 422))
async def set_operator_limit(
    player_id: PlayerId, body: CapRequest, session: StaffActor, desks: DesksDep
) -> CapsView:
    """Cap one of the player's limits (the player may lower it, never raise it past the
    cap); ``amount: null`` removes the cap."""
    return answer(await desks.players.set_cap(session, player_id, body))
