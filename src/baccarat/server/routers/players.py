"""``/api/players`` and ``/api/me``: guest players with the demo credit."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import Connection

from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.models import Me, PlayerCreated
from baccarat.server.routers.responses import errors
from baccarat.store.clock import db_now
from baccarat.store.players import create_player, new_token, player_balance

router = APIRouter(tags=["players"])


@router.post("/api/players", status_code=201)
async def new_player(service: ServiceDep) -> PlayerCreated:
    """A guest player holding the demo credit. Keep the token: it is shown only once."""
    token, credit = new_token(), service.config.demo_credit

    def run(c: Connection) -> str:
        return create_player(c, token, credit, db_now(c))

    player_id = await service.runner.write(run)
    service.tokens.remember(token, player_id)
    return PlayerCreated(id=player_id, token=token, balance=credit)


@router.get("/api/me", responses=errors(401))
async def me(player: CurrentPlayer, service: ServiceDep) -> Me:
    """The caller's id and balance (money not staked)."""
    balance = await service.runner.read(lambda c: player_balance(c, player))
    return Me(id=player, balance=balance)
