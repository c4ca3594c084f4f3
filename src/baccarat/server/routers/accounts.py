"""``/api/accounts`` and ``/api/sessions``: registration, login (expiring tokens), logout.

Guests stay as they were (``POST /api/players``). The transactions are
``baccarat.server.actions.accounts``; this router adds the rate limits by client address
and username, which count before any database read or hash.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from baccarat.server.deps import AccountsDep, CurrentPlayer, CurrentToken
from baccarat.server.devices import is_known, issue
from baccarat.server.errors import answer
from baccarat.server.guard import RATE_LIMITED, GuardDep, client_address
from baccarat.server.models import Credentials, LoggedIn, LoginCredentials, Registered
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["accounts"])


@router.post("/api/accounts", status_code=201, responses={**errors(409, 422), **RATE_LIMITED})
async def create_account(
    body: Credentials, accounts: AccountsDep, guard: GuardDep, request: Request
) -> Registered:
    """Register a player: a username (3-32 of a-z, 0-9, '.', '_', '-') and a password."""
    await guard.limit("accounts_per_address", client_address(request))
    return answer(await accounts.register(body.username, body.password))


@router.post("/api/sessions", status_code=201, responses={**errors(401, 403, 422), **RATE_LIMITED})
async def login(
    body: LoginCredentials, accounts: AccountsDep, guard: GuardDep, request: Request
) -> LoggedIn:
    """Log in: a fresh token that expires, the time of the previous login, and a device token
    to send with the next login from this device. Attempts are rate-limited by client address
    and by username (429 with ``Retry-After``), but a device that sends its device token is
    counted by address only: guesses from elsewhere cannot lock it out. A login during a
    break is refused (403)."""
    key = await accounts.service.device_key()
    known = is_known(key, body.username, body.device)
    # Before any player's row is read or a hash made: a refused attempt costs a counter lookup.
    await guard.admit_login(request, body.username, known=known)
    found = answer(await accounts.verify(body.username, body.password))
    await guard.login_succeeded(request, body.username)
    return answer(await accounts.log_in(found, body.password, issue(key, found.username)))


@router.delete("/api/sessions/current", status_code=204, responses=errors(401, 409))
async def logout(player: CurrentPlayer, token: CurrentToken, accounts: AccountsDep) -> None:
    """End this session (a login's or a guest's): its token is refused from now on, and its
    live feeds are closed."""
    answer(await accounts.log_out(player, token))
