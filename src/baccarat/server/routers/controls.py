"""``/api/me/limits`` and ``/api/me/breaks``: a player's limits and breaks.

A decrease (or a first limit) applies at once; an increase or a removal waits 24 hours and
then needs ``POST /api/me/limits/{kind}/{period}/confirm``. A break (time-out or
self-exclusion) starts at once, ends every session of the player, and can be extended but
never shortened. The transactions, each audited, are ``baccarat.server.actions.controls``.
"""

from __future__ import annotations

from fastapi import APIRouter

from baccarat.responsible import LimitKind, Period
from baccarat.server.deps import ControlsDep, CurrentPlayer
from baccarat.server.errors import answer
from baccarat.server.models import (
    BreakRequest,
    BreaksView,
    BreakTaken,
    LimitChanged,
    LimitRequest,
    LimitsView,
)
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["responsible gaming"])


@router.get("/api/me/limits", responses=errors(401))
async def get_limits(player: CurrentPlayer, controls: ControlsDep) -> LimitsView:
    """The player's limits, pending increases (and when each may be confirmed), and use."""
    return await controls.limits(player)


# A change's ``confirmable_at`` is there only for a pending increase.
@router.put("/api/me/limits", responses=errors(401, 422), response_model_exclude_unset=True)
async def put_limit(
    body: LimitRequest, player: CurrentPlayer, controls: ControlsDep
) -> LimitChanged:
    """Set, lower, raise or remove one limit. Raising or removing waits 24 h, then confirm."""
    return answer(await controls.change_limit(player, body.kind, body.period, body.amount))


@router.post(
    "/api/me/limits/{kind}/{period}/confirm",
    responses=errors(401, 422),
    response_model_exclude_unset=True,
)
async def confirm_limit(
    kind: LimitKind, period: Period, player: CurrentPlayer, controls: ControlsDep
) -> LimitChanged:
    """Apply a pending increase, 24 hours or more after it was asked for."""
    return answer(await controls.confirm_limit(player, kind, period))


@router.delete(
    "/api/me/limits/{kind}/{period}/pending",
    responses=errors(401, 422),
    response_model_exclude_unset=True,
)
async def cancel_limit(
    kind: LimitKind, period: Period, player: CurrentPlayer, controls: ControlsDep
) -> LimitChanged:
    """Drop a pending increase; the current limit stays."""
    return answer(await controls.cancel_limit(player, kind, period))


@router.get("/api/me/breaks", responses=errors(401))
async def get_breaks(player: CurrentPlayer, controls: ControlsDep) -> BreaksView:
    """The player's breaks and the allowed range of a new one."""
    return await controls.breaks(player)


@router.post("/api/me/breaks", status_code=201, responses=errors(401, 422))
async def post_break(
    body: BreakRequest, player: CurrentPlayer, controls: ControlsDep
) -> BreakTaken:
    """Take (or extend) a time-out (24 h to 6 weeks) or a self-exclusion (6 months to
    5 years). It starts now and ends every session of the player at once."""
    return answer(await controls.take_break(player, body.kind, body.until))
