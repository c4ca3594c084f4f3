"""``POST /api/ws-tickets``: a single-use ticket that opens the WebSocket feed as a player.

A browser cannot send headers with a WebSocket, and a token in a URL ends up in logs and
histories: the page asks for a ticket (with its bearer token, in a header) and connects
with ``?ticket=``. A ticket is 128 random bits, stored hashed, good once, for seconds.
"""

from __future__ import annotations

from fastapi import APIRouter

from baccarat.server.deps import AccountsDep, PassiveSession
from baccarat.server.guard import RATE_LIMITED, GuardDep
from baccarat.server.models import Ticket
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["players"])


@router.post("/api/ws-tickets", status_code=201, responses={**errors(401), **RATE_LIMITED})
async def new_ticket(session: PassiveSession, accounts: AccountsDep, guard: GuardDep) -> Ticket:
    """A ticket for the caller's WebSocket feed. Asking for one is not activity: a page
    that reconnects its feed does not keep an idle session alive."""
    await guard.limit("tickets_per_session", session.token_hash)  # each is a durable write
    return await accounts.ticket(session)
