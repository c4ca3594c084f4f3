"""FastAPI dependencies and the parameters several routers share: the service, the player
(and session) behind a bearer token, the player actions, ids in paths, Idempotency-Key."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.actions import Accounts, Cashier, PlayerControls
from baccarat.server.actions.admin_staff import StaffAccounts
from baccarat.server.errors import BAD_TOKEN, NO_TOKEN, ApiError, refused
from baccarat.server.models import KEY_PATTERN, PRINTABLE, TABLE_ID_CHARS
from baccarat.server.service import Service
from baccarat.store.sessions import LiveSession
from baccarat.store.staff import StaffSession

__all__ = [
    "ACT",
    "ADMIN",
    "READ",
    "AccountsDep",
    "Bettor",
    "CashierDep",
    "ControlsDep",
    "CurrentPlayer",
    "CurrentToken",
    "OptionalKey",
    "OptionalPlayer",
    "PassivePlayer",
    "PassiveSession",
    "ServiceDep",
    "ShoeId",
    "Staff",
    "StaffAccountsDep",
    "StaffActor",
    "StaffAdmin",
    "StaffAny",
    "StaffReader",
    "TableId",
]

_bearer = HTTPBearer(auto_error=False, description="The token of POST /api/players.")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]

#: A table id in a path, e.g. ``standard``.
TableId = Annotated[
    str,
    Path(max_length=TABLE_ID_CHARS, pattern=PRINTABLE, description="A table id, e.g. 'standard'."),
]
#: A shoe id in a path.
ShoeId = Annotated[str, Path(max_length=64, pattern=PRINTABLE)]
#: An optional ``Idempotency-Key`` header (the cashier, undo).
OptionalKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=KEY_PATTERN,
        description="Optional: a fresh random string per request; resend it to retry safely.",
    ),
]


def _unauthorized(message: str) -> ApiError:
    """The 401 of a request without a token, or with one that opens nothing."""
    return refused(Refusal(RefusalCode.UNAUTHORIZED, message))


async def _service(request: Request) -> Service:
    # async on purpose: FastAPI runs a plain ``def`` dependency in a worker thread.
    service: Service = request.app.state.service
    return service


ServiceDep = Annotated[Service, Depends(_service)]


async def _accounts(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def _controls(request: Request) -> PlayerControls:
    controls: PlayerControls = request.app.state.controls
    return controls


async def _cashier(request: Request) -> Cashier:
    cashier: Cashier = request.app.state.cashier
    return cashier


AccountsDep = Annotated[Accounts, Depends(_accounts)]
ControlsDep = Annotated[PlayerControls, Depends(_controls)]
CashierDep = Annotated[Cashier, Depends(_cashier)]


async def optional_player(service: ServiceDep, credentials: Credentials) -> str | None:
    """The caller's player id, ``None`` without a token; a 401 for a token nobody holds."""
    if credentials is None:
        return None
    player = await service.tokens.player(credentials.credentials)
    if player is None:
        raise _unauthorized(BAD_TOKEN)
    return player


async def current_player(
    player: Annotated[str | None, Depends(optional_player)],
) -> str:
    """The caller's player id; a 401 without a token."""
    if player is None:
        raise _unauthorized(NO_TOKEN)
    return player


CurrentPlayer = Annotated[str, Depends(current_player)]
OptionalPlayer = Annotated[str | None, Depends(optional_player)]


async def current_token(_player: CurrentPlayer, credentials: Credentials) -> str:
    """The caller's bearer token, once ``CurrentPlayer`` has found it live."""
    assert credentials is not None  # current_player has checked it
    return credentials.credentials


CurrentToken = Annotated[str, Depends(current_token)]


async def passive_session(service: ServiceDep, credentials: Credentials) -> LiveSession:
    """The caller's live session, for a request a page makes by itself (a poll, a feed
    ticket): it is not a use, so it does not keep the session from idling out. A 401
    without a live token."""
    if credentials is None:
        raise _unauthorized(NO_TOKEN)
    session = await service.tokens.session(credentials.credentials, touch=False)
    if session is None:
        raise _unauthorized(BAD_TOKEN)
    return session


PassiveSession = Annotated[LiveSession, Depends(passive_session)]


async def passive_player(session: PassiveSession) -> str:
    """The player of ``passive_session``."""
    return session.player_id


PassivePlayer = Annotated[str, Depends(passive_player)]


async def bettor(service: ServiceDep, credentials: Credentials) -> tuple[str, str]:
    """The caller's player id and session hash, for a bet (``TokenBook.bettor``: the bet queue
    checks the session live in the bet's transaction). A 401 without a live token."""
    if credentials is None:
        raise _unauthorized(NO_TOKEN)
    found = await service.tokens.bettor(credentials.credentials)
    if found is None:
        raise _unauthorized(BAD_TOKEN)
    return found


Bettor = Annotated[tuple[str, str], Depends(bettor)]


# Staff (``/api/admin``): a staff token, in ``staff_sessions``, never a player's.

#: Who may read everything; who may act on tables, rounds and players; who manages staff.
READ = frozenset({"auditor", "operator", "admin"})
ACT = frozenset({"operator", "admin"})
ADMIN = frozenset({"admin"})


async def _staff_accounts(request: Request) -> StaffAccounts:
    staff: StaffAccounts = request.app.state.staff
    return staff


StaffAccountsDep = Annotated[StaffAccounts, Depends(_staff_accounts)]


class _StaffCheck:
    """The staff member behind the bearer token, if their role is one of ``roles``: 401
    without a live staff token, 403 ``staff_only`` for a player's token, 403
    ``role_forbidden`` for another role. Checked on the server for every admin route."""

    def __init__(self, roles: frozenset[str]) -> None:
        self.roles = roles

    async def __call__(self, staff: StaffAccountsDep, credentials: Credentials) -> StaffSession:
        if credentials is None:
            raise _unauthorized(NO_TOKEN)
        token = credentials.credentials
        session = await staff.session(token)
        if session is None:
            if await staff.is_player_token(token):
                message = "a player's token opens no admin route: log in at /api/admin/login"
                raise refused(Refusal(RefusalCode.STAFF_ONLY, message))
            raise _unauthorized(BAD_TOKEN)
        if session.role not in self.roles:
            allowed = ", ".join(sorted(self.roles))
            message = f"the role {session.role!r} may not do this (allowed: {allowed})"
            raise refused(Refusal(RefusalCode.ROLE_FORBIDDEN, message))
        return session


def Staff(roles: frozenset[str]) -> Any:  # noqa: N802  (a dependency, named like a type)
    """The one staff dependency: ``Annotated[StaffSession, Staff(READ)]``."""
    return Depends(_StaffCheck(roles))


#: Any member of staff, a studio's dealer included: their own session (who am I, log out).
StaffAny = Annotated[StaffSession, Staff(READ | {"dealer"})]
StaffReader = Annotated[StaffSession, Staff(READ)]
StaffActor = Annotated[StaffSession, Staff(ACT)]
StaffAdmin = Annotated[StaffSession, Staff(ADMIN)]
