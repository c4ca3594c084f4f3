"""``/api/me/session``, ``/api/me/session-settings`` and the reality check.

A login starts a session with the player's settings (a guest's starts when it first saves
settings). When the session's time limit is reached, bets already accepted settle and new
bets are refused; when a reality check falls due, new bets are refused until
``POST /api/me/reality-check/ack``. ``GET /api/me/session`` is what a client polls for the
session clock and the reality-check dialog (time played, net result, the event itself).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy import Connection

from baccarat.responsible import RealityCheck, Session, SessionError, SessionSettings
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.clock import Clock
from baccarat.server.deps import CurrentPlayer, PassivePlayer, ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.routers.accounts import PolicyDep, documented
from baccarat.server.routers.controls import update_controls
from baccarat.server.service import Service
from baccarat.store.responsible import Controls, load_activity, load_controls

__all__ = ["due_reality_checks", "push_reality_checks", "router", "session_view"]

router = APIRouter(tags=["responsible gaming"])
log = logging.getLogger("baccarat.server")

_DAY_S = 24 * 3600


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionSettingsBody(_Model):
    time_limit_s: StrictInt | None = Field(
        ge=300, le=_DAY_S, description="Session time limit in seconds (5 min to 24 h), or null."
    )
    reality_check_every_s: StrictInt | None = Field(
        ge=300, le=_DAY_S, description="Reality-check interval in seconds (5 min to 24 h), or null."
    )


def session_view(controls: Controls, c: Connection, player: str, now: datetime) -> dict[str, Any]:
    """The session as a client shows it: clock, limit, the reality check if due."""
    session = controls.session
    body: dict[str, Any] = {"settings": controls.session_settings.to_json(), "session": None}
    if session is None:
        return {**body, "reality_check_due": False, "reality_check": None}
    activity = load_activity(c, [player], now)[player]
    check = session.reality_check(activity, now)
    ends_at = session.ends_at
    return {
        **body,
        "session": session.to_json(),
        "session_ends_at": None if ends_at is None else ends_at.isoformat(),
        "time_played_s": session.time_played(now) // timedelta(seconds=1),
        "net_result": activity.net_result(session.started_at),
        "limit_reached": session.limit_reached(now),
        "may_end": session.may_end(now, activity),
        "reality_check_due": check is not None,
        "reality_check": None if check is None else check.to_json(),
    }


@router.get("/api/me/session", responses=documented(401))
async def get_session(
    player: PassivePlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """The running session: time played, net result, time limit, and a due reality check.
    The page polls it: reading it does not keep the sign-in from idling out."""
    now = from_epoch_ms(policy.clock.now_ms())

    def run(c: Connection) -> dict[str, Any]:
        controls = load_controls(c, [player]).get(player, Controls())
        return session_view(controls, c, player, now)

    return await service.runner.read(run)


@router.get("/api/me/session-settings", responses=documented(401))
async def get_session_settings(player: CurrentPlayer, service: ServiceDep) -> dict[str, Any]:
    """The player's standing session settings."""
    controls = await service.runner.read(
        lambda c: load_controls(c, [player]).get(player, Controls())
    )
    return controls.session_settings.to_json()


@router.put("/api/me/session-settings", responses=documented(401, 422))
async def put_session_settings(
    body: SessionSettingsBody, player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """Save the settings. A stricter time limit and any reality-check interval apply to the
    running session at once; a looser time limit waits for the next session."""
    now_ms = policy.clock.now_ms()
    try:
        settings = SessionSettings.from_json(body.model_dump())
    except SessionError as error:
        raise ApiError(422, "invalid_session_settings", str(error)) from None

    def change(controls: Controls, now: datetime) -> tuple[Controls, str, dict[str, Any], None]:
        running = controls.session
        session = Session.start(now, settings) if running is None else running.apply(settings)
        updated = replace(controls, session_settings=settings, session=session)
        return updated, "session_settings", settings.to_json(), None

    def run(c: Connection) -> dict[str, Any]:
        update_controls(c, player, now_ms, change)
        controls = load_controls(c, [player])[player]
        return session_view(controls, c, player, from_epoch_ms(now_ms))

    return await service.runner.write(run)


@router.post("/api/me/reality-check/ack", responses=documented(401, 409))
async def acknowledge_reality_check(
    player: CurrentPlayer, service: ServiceDep, policy: PolicyDep
) -> dict[str, Any]:
    """Acknowledge the due reality check: betting opens again; the next is an interval away."""
    now_ms = policy.clock.now_ms()

    def change(controls: Controls, now: datetime) -> tuple[Controls, str, dict[str, Any], None]:
        if controls.session is None:
            raise SessionError("there is no running session")
        session = controls.session.acknowledge(now)
        return replace(controls, session=session), "reality_check_ack", {}, None

    def run(c: Connection) -> dict[str, Any]:
        update_controls(c, player, now_ms, change)
        controls = load_controls(c, [player])[player]
        return session_view(controls, c, player, from_epoch_ms(now_ms))

    try:
        return await service.runner.write(run)
    except SessionError as error:
        raise ApiError(409, "no_reality_check", str(error)) from None


def due_reality_checks(
    c: Connection, players: Iterable[str], now: datetime
) -> dict[str, tuple[str, RealityCheck]]:
    """The players whose reality check is due: when it fell due (a key) and the event."""
    controls = load_controls(c, players)
    due = {
        p: ctl.session
        for p, ctl in controls.items()
        if ctl.session is not None and ctl.session.reality_check_due(now)
    }
    if not due:
        return {}
    activity = load_activity(c, due, now)
    found = {}
    for player, session in due.items():
        check = session.reality_check(activity[player], now)
        if check is not None and session.reality_check_due_at is not None:
            found[player] = (session.reality_check_due_at.isoformat(), check)
    return found


async def push_reality_checks(service: Service, clock: Clock, every_s: float = 1.0) -> None:
    """Send each connected player its due reality check, once, as a private WebSocket event.

    The event (``{"type": "reality_check", ...}``) goes only to that player's connections; it
    carries no ``seq``, since it is not part of the table's public sequence.
    """
    sent: dict[str, str] = {}
    while True:
        await asyncio.sleep(every_s)
        try:
            clients = [
                (live.id, client)
                for live in service.tables.values()
                for client in list(live.clients)
                if client.player_id is not None
            ]
            players = {client.player_id for _, client in clients if client.player_id}
            if not players:
                continue
            now = from_epoch_ms(clock.now_ms())
            due = await service.runner.read(partial(due_reality_checks, players=players, now=now))
            for player, (key, check) in due.items():
                if sent.get(player) == key:
                    continue
                sent[player] = key
                for table_id, client in clients:
                    if client.player_id == player:
                        client.send(json.dumps({**check.to_json(), "table_id": table_id}))
        except asyncio.CancelledError:
            raise
        except Exception:  # a database hiccup must not stop the pusher; the next tick retries
            log.exception("pushing reality checks failed")
