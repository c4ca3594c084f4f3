"""``/api/me/limits`` and ``/api/me/breaks``: a player's limits and breaks.

A decrease (or a first limit) applies at once; an increase or a removal waits 24 hours and
then needs ``POST /api/me/limits/{kind}/{period}/confirm``. A break (time-out or
self-exclusion) starts at once, ends every session of the player, and can be extended but
never shortened. Every change is written to the audit log in the transaction that makes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar

from fastapi import APIRouter
from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import Connection

from baccarat.responsible import (
    BreakError,
    BreakKind,
    Change,
    LimitError,
    LimitKind,
    Period,
    allowed_range,
    cancel_pending,
    confirm,
    request_change,
    take_break,
    usage,
)
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.feedsessions import end_feeds
from baccarat.server.models import MAX_INT
from baccarat.server.routers.accounts import PolicyDep, documented
from baccarat.store.accounts import end_sessions
from baccarat.store.audit_log import append_audit
from baccarat.store.players import is_demo
from baccarat.store.responsible import Controls, load_activity, load_controls, save_controls

__all__ = ["router", "update_controls"]

router = APIRouter(tags=["responsible gaming"])
T = TypeVar("T")


def update_controls(
    c: Connection,
    player: str,
    now_ms: int,
    change: Callable[[Controls, datetime], tuple[Controls, str, dict[str, Any], T]],
) -> T:
    """Load the player's controls under lock, change them, save them and audit the change.

    ``change`` returns the new controls, the audit action, its details and the result;
    it raises to change nothing.
    """
    controls = load_controls(c, [player], lock=True).get(player, Controls())
    updated, action, details, result = change(controls, from_epoch_ms(now_ms))
    save_controls(c, player, updated, now_ms)
    append_audit(c, now_ms, f"player:{player}", action, details)
    return result


def limits_view(controls: Controls, c: Connection, player: str, now: datetime) -> dict[str, Any]:
    """The limits, the pending increases and each limit's use in its window."""
    activity = load_activity(c, [player], now)[player]
    used = [
        {
            "kind": u.kind.value,
            "period": u.period.value,
            "limit": u.limit,
            "used": u.used,
            "left": u.left,
        }
        for u in usage(controls.limits, activity, now)
    ]
    pending = controls.limits.to_json()["pending"]
    for item in pending:
        increase = controls.limits.pending_for(LimitKind(item["kind"]), Period(item["period"]))
        assert increase is not None
        item["confirmable_at"] = increase.confirmable_at.isoformat()
    return {"limits": controls.limits.to_json()["limits"], "pending": pending, "usage": used}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class LimitRequest(_Model):
    kind: LimitKind
    period: Period
    amount: StrictInt | None = Field(
        ge=1, le=MAX_INT, description="Minor units; null removes the limit (after 24 h)."
    )


class BreakRequest(_Model):
    kind: BreakKind
    until: AwareDatetime = Field(description="When the break ends (with a UTC offset).")


@router.get("/api/me/limits", responses=documented(401))
async def get_limits(
    player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """The player's limits, pending increases (and when each may be confirmed), and use."""
    now = from_epoch_ms(policy.clock.now_ms())

    def run(c: Connection) -> dict[str, Any]:
        controls = load_controls(c, [player]).get(player, Controls())
        return limits_view(controls, c, player, now)

    return await service.runner.read(run)


async def _limit_change(
    service: ServiceDep,
    player: str,
    now_ms: int,
    operate: Callable[[Controls, datetime], tuple[Any, Change]],
) -> dict[str, Any]:
    def change(controls: Controls, now: datetime) -> tuple[Controls, str, dict[str, Any], Change]:
        limits, made = operate(controls, now)
        return replace(controls, limits=limits), "limit_change", made.to_json(), made

    def run(c: Connection) -> dict[str, Any]:
        made = update_controls(c, player, now_ms, change)
        controls = load_controls(c, [player])[player]
        view = limits_view(controls, c, player, from_epoch_ms(now_ms))
        return {"change": {**made.to_json(), "message": made.message}, **view}

    try:
        return await service.runner.write(run)
    except LimitError as error:
        raise ApiError(422, "invalid_limit", str(error)) from None


@router.put("/api/me/limits", responses=documented(401, 422))
async def put_limit(
    body: LimitRequest, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """Set, lower, raise or remove one limit. Raising or removing waits 24 h, then confirm."""
    return await _limit_change(
        service,
        player,
        policy.clock.now_ms(),
        lambda controls, now: request_change(
            controls.limits, body.kind, body.period, body.amount, now
        ),
    )


@router.post("/api/me/limits/{kind}/{period}/confirm", responses=documented(401, 422))
async def confirm_limit(
    kind: LimitKind, period: Period, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """Apply a pending increase, 24 hours or more after it was asked for."""
    return await _limit_change(
        service,
        player,
        policy.clock.now_ms(),
        lambda controls, now: confirm(controls.limits, kind, period, now),
    )


@router.delete("/api/me/limits/{kind}/{period}/pending", responses=documented(401, 422))
async def cancel_limit(
    kind: LimitKind, period: Period, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """Drop a pending increase; the current limit stays."""
    return await _limit_change(
        service,
        player,
        policy.clock.now_ms(),
        lambda controls, now: cancel_pending(controls.limits, kind, period, now),
    )


def breaks_view(controls: Controls, now: datetime) -> dict[str, Any]:
    """The breaks taken, the one in force, and the ends a new break may have."""
    blocking = controls.breaks.blocking(now)
    ranges = {}
    for kind in BreakKind:
        earliest, latest = allowed_range(kind, now)
        ranges[kind.value] = {"earliest": earliest.isoformat(), "latest": latest.isoformat()}
    return {
        **controls.breaks.to_json(),
        "in_force": None if blocking is None else blocking.to_json(),
        "allowed": ranges,
    }


@router.get("/api/me/breaks", responses=documented(401))
async def get_breaks(
    player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """The player's breaks and the allowed range of a new one."""
    now = from_epoch_ms(policy.clock.now_ms())
    controls = await service.runner.read(
        lambda c: load_controls(c, [player]).get(player, Controls())
    )
    return breaks_view(controls, now)


@router.post("/api/me/breaks", status_code=201, responses=documented(401, 422))
async def post_break(
    body: BreakRequest, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """Take (or extend) a time-out (24 h to 6 weeks) or a self-exclusion (6 months to
    5 years). It starts now and ends every session of the player at once."""
    now_ms = policy.clock.now_ms()

    def change(controls: Controls, now: datetime) -> tuple[Controls, str, dict[str, Any], Controls]:
        breaks, taken = take_break(controls.breaks, body.kind, body.until, now)
        updated = replace(controls, breaks=breaks, session=None)
        return updated, "break", taken.to_json(), updated

    def run(c: Connection) -> dict[str, Any]:
        updated = update_controls(c, player, now_ms, change)
        # A guest keeps its token: it sees (and may lengthen) its break, and plays no more.
        ended = 0 if is_demo(c, player) else end_sessions(c, player, now_ms)
        return {**breaks_view(updated, from_epoch_ms(now_ms)), "sessions_ended": ended}

    try:
        view = await service.runner.write(run)
    except BreakError as error:
        raise ApiError(422, "invalid_break", str(error)) from None
    end_feeds(service, player)
    return view
