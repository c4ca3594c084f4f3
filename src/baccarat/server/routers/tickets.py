"""``POST /api/ws-tickets``: a single-use ticket that opens the WebSocket feed as a player.

A browser cannot send headers with a WebSocket, and a token in a URL ends up in logs and
histories: the page asks for a ticket (with its bearer token, in a header) and connects
with ``?ticket=``. A ticket is 128 random bits, stored hashed, good once, for seconds.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from baccarat.server.clock import iso_utc
from baccarat.server.deps import ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.guard import RATE_LIMITED, GuardDep
from baccarat.server.routers.responses import errors
from baccarat.store.sessions import issue_ticket

__all__ = ["TICKET_TTL_MS", "router"]

router = APIRouter(tags=["players"])

#: How long a ticket opens the feed: enough to connect, too short to be worth stealing.
TICKET_TTL_MS = 30_000

_bearer = HTTPBearer(auto_error=False, description="The token of POST /api/players.")


class Ticket(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ticket: str = Field(description="Connect to /ws/tables/{id}?ticket=...; works once.")
    expires_at: str = Field(description="UTC; the ticket is refused from then on.")


@router.post("/api/ws-tickets", status_code=201, responses={**errors(401), **RATE_LIMITED})
async def new_ticket(
    service: ServiceDep,
    guard: GuardDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Ticket:
    """A ticket for the caller's WebSocket feed. Asking for one is not activity: a page
    that reconnects its feed does not keep an idle session alive."""
    if credentials is None:
        raise ApiError(401, "unauthorized", "send 'Authorization: Bearer <token>'")
    session = await service.tokens.session(credentials.credentials, touch=False)
    if session is None:
        raise ApiError(401, "unauthorized", "unknown or expired token")
    now = service.tokens.now_ms()
    hashed = session.token_hash
    await guard.limit("tickets_per_session", hashed)  # each ticket is a durable write
    ticket = await service.runner.write(lambda c: issue_ticket(c, hashed, now, TICKET_TTL_MS))
    return Ticket(ticket=ticket, expires_at=iso_utc(now + TICKET_TTL_MS))
