"""FastAPI dependencies: the service, and the player behind a bearer token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from baccarat.server.errors import ApiError
from baccarat.server.service import Service

__all__ = [
    "Bettor",
    "CurrentPlayer",
    "OptionalPlayer",
    "PassivePlayer",
    "ServiceDep",
    "get_service",
]

_bearer = HTTPBearer(auto_error=False, description="The token of POST /api/players.")


async def get_service(request: Request) -> Service:
    # async on purpose: FastAPI runs a plain ``def`` dependency in a worker thread.
    service: Service = request.app.state.service
    return service


ServiceDep = Annotated[Service, Depends(get_service)]


async def optional_player(
    service: ServiceDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The caller's player id, ``None`` without a token; a 401 for a token nobody holds."""
    if credentials is None:
        return None
    player = await service.tokens.player(credentials.credentials)
    if player is None:
        raise ApiError(401, "unauthorized", "unknown or expired token")
    return player


async def current_player(
    player: Annotated[str | None, Depends(optional_player)],
) -> str:
    """The caller's player id; a 401 without a token."""
    if player is None:
        raise ApiError(401, "unauthorized", "send 'Authorization: Bearer <token>'")
    return player


CurrentPlayer = Annotated[str, Depends(current_player)]


async def passive_player(
    service: ServiceDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The caller's player id, for a request a page makes by itself (a poll): it is not a
    use, so it does not keep the session from idling out. A 401 without a live token."""
    if credentials is None:
        raise ApiError(401, "unauthorized", "send 'Authorization: Bearer <token>'")
    player = await service.tokens.player(credentials.credentials, touch=False)
    if player is None:
        raise ApiError(401, "unauthorized", "unknown or expired token")
    return player


PassivePlayer = Annotated[str, Depends(passive_player)]
OptionalPlayer = Annotated[str | None, Depends(optional_player)]


async def bettor(
    service: ServiceDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> tuple[str, str]:
    """The caller's player id and session hash, for a bet (``TokenBook.bettor``: the bet queue
    checks the session live in the bet's transaction). A 401 without a live token."""
    if credentials is None:
        raise ApiError(401, "unauthorized", "send 'Authorization: Bearer <token>'")
    found = await service.tokens.bettor(credentials.credentials)
    if found is None:
        raise ApiError(401, "unauthorized", "unknown or expired token")
    return found


Bettor = Annotated[tuple[str, str], Depends(bettor)]
