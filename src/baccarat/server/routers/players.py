"""``/api/players``, ``/api/me`` and ``/api/config``: guest players with demo money.

A guest is given the demo credit from the ``demo-bank`` account; its balance is demo money
(``"demo": true``). An operator may turn guests off (``baccarat serve --guests off``): then
``POST /api/players`` answers ``403 guests_disabled`` and ``GET /api/config`` tells the page.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection

from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.guard import RATE_LIMITED, GuardDep, client_address
from baccarat.server.models import ErrorBody, Me, PlayerCreated
from baccarat.server.routers.responses import errors
from baccarat.store.clock import db_now
from baccarat.store.players import create_player, is_demo, new_token, player_balance
from baccarat.store.sessions import open_session

router = APIRouter(tags=["players"])

#: The error code of ``POST /api/players`` while guests are off.
GUESTS_DISABLED = "guests_disabled"


class ClientConfig(BaseModel):
    """What the page needs to know of the server's configuration."""

    model_config = ConfigDict(extra="forbid")
    guests: bool = Field(description="Whether visitors may play as guests (demo money).")
    demo_credit: int = Field(description="A new guest's demo credit, in minor units.")


@router.get("/api/config")
async def client_config(service: ServiceDep) -> ClientConfig:
    """Whether guests may play, and their demo credit."""
    config = service.config
    return ClientConfig(guests=config.guests, demo_credit=config.demo_credit)


@router.post(
    "/api/players",
    status_code=201,
    responses={
        403: {"model": ErrorBody, "description": "Guests are turned off here."},
        **RATE_LIMITED,
    },
)
async def new_player(service: ServiceDep, guard: GuardDep, request: Request) -> PlayerCreated:
    """A guest player holding the demo credit in demo money. Keep the token: it is shown
    only once."""
    if not service.config.guests:
        raise ApiError(403, GUESTS_DISABLED, "this table service does not offer demo play")
    await guard.limit("guests_per_address", client_address(request))
    credit, lifetime = service.config.demo_credit, service.config.guest_lifetime_ms
    now = service.tokens.now_ms()

    def run(c: Connection) -> tuple[str, str]:
        # The player's own token hash is of a secret never shown; the guest's token is a
        # session that expires (``baccarat.store.sessions``), like a login's.
        player_id = create_player(c, new_token(), credit, db_now(c), demo=True)
        token, _ = open_session(c, player_id, now, lifetime)
        return player_id, token

    player_id, token = await service.runner.write(run)
    service.tokens.know(token, player_id)
    return PlayerCreated(id=player_id, token=token, balance=credit, demo=True)


@router.get("/api/me", responses=errors(401))
async def me(player: CurrentPlayer, service: ServiceDep) -> Me:
    """The caller's id and balance (money not staked), and whether it is demo money."""

    def run(c: Connection) -> tuple[int, bool]:
        return player_balance(c, player), is_demo(c, player)

    balance, demo = await service.runner.read(run)
    return Me(id=player, balance=balance, demo=demo)
