"""``/api/me/session``, ``/api/me/session-settings`` and the reality check.

A login starts a session with the player's settings (a guest's starts when it first saves
settings). When the session's time limit is reached, bets already accepted settle and new
bets are refused; when a reality check falls due, new bets are refused until
``POST /api/me/reality-check/ack``. ``GET /api/me/session`` is what a client polls for the
session clock and the reality-check dialog (time played, net result, the event itself).
The transactions are ``baccarat.server.actions.controls``.
"""

from __future__ import annotations

from fastapi import APIRouter

from baccarat.server.deps import ControlsDep, CurrentPlayer, PassivePlayer
from baccarat.server.errors import answer
from baccarat.server.models import SessionSettingsBody, SessionSettingsModel, SessionView
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["responsible gaming"])


@router.get("/api/me/session", responses=errors(401), response_model_exclude_unset=True)
async def get_session(player: PassivePlayer, controls: ControlsDep) -> SessionView:
    """The running session: time played, net result, time limit, and a due reality check.
    The page polls it: reading it does not keep the sign-in from idling out."""
    return await controls.session(player)


@router.get("/api/me/session-settings", responses=errors(401))
async def get_session_settings(
    player: CurrentPlayer, controls: ControlsDep
) -> SessionSettingsModel:
    """The player's standing session settings."""
    return await controls.session_settings(player)


@router.put(
    "/api/me/session-settings", responses=errors(401, 422), response_model_exclude_unset=True
)
async def put_session_settings(
    body: SessionSettingsBody, player: CurrentPlayer, controls: ControlsDep
) -> SessionView:
    """Save the settings. A stricter time limit and any reality-check interval apply to the
    running session at once; a looser time limit waits for the next session."""
    return answer(await controls.save_session_settings(player, body.model_dump()))


@router.post(
    "/api/me/reality-check/ack", responses=errors(401, 409), response_model_exclude_unset=True
)
async def acknowledge_reality_check(player: CurrentPlayer, controls: ControlsDep) -> SessionView:
    """Acknowledge the due reality check: betting opens again; the next is an interval away."""
    return answer(await controls.acknowledge_reality_check(player))
