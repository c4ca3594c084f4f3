"""``/api/accounts`` and ``/api/sessions``: registration, login (expiring tokens), logout.

Guests stay as they were (``POST /api/players``). A registered player logs in with a
username and a password (argon2id, checked off the event loop) and gets a bearer token that
expires; the answer tells when the previous login was. Every login, failed login and logout
is written to the audit log in the same transaction. A login during a break is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Connection, update

from baccarat.passwords import (
    PasswordError,
    check_password,
    dummy_verify,
    hash_password,
    needs_rehash,
    verify_password,
)
from baccarat.responsible import PlayerState, Refusal, Session, may_play
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.feedsessions import end_feeds
from baccarat.server.guard import RATE_LIMITED, GuardDep, client_address
from baccarat.server.models import PRINTABLE, ErrorBody
from baccarat.store.accounts import (
    UsernameTakenError,
    end_sessions,
    find_login,
    normalize_username,
    open_session,
    register,
)
from baccarat.store.audit_log import append_audit
from baccarat.store.players import player_balance, token_hash
from baccarat.store.responsible import Controls, load_controls, save_controls
from baccarat.store.schema import logins

__all__ = ["REFUSAL_STATUS", "AccountPolicy", "documented", "policy_of", "refused", "router"]

router = APIRouter(tags=["accounts"])

#: The HTTP status of each responsible-gaming refusal code.
REFUSAL_STATUS = {
    "self_excluded": 403,
    "time_out": 403,
    "session_limit": 403,
    "limit_exceeded": 403,
    "reality_check_due": 409,
}

#: How long a login's token lives unless the app factory is told otherwise: 12 hours.
DEFAULT_SESSION_TTL_MS = 12 * 3600 * 1000


@dataclass(frozen=True, slots=True)
class AccountPolicy:
    """What the account routes need besides the service: their clock and the token lifetime."""

    clock: Clock
    session_ttl_ms: int = DEFAULT_SESSION_TTL_MS


async def _policy(request: Request) -> AccountPolicy:
    policy: AccountPolicy = request.app.state.accounts
    return policy


PolicyDep = Annotated[AccountPolicy, Depends(_policy)]


def policy_of(request: Request) -> AccountPolicy:
    """The app's ``AccountPolicy`` (set by the app factory)."""
    policy: AccountPolicy = request.app.state.accounts
    return policy


def refused(refusal: Refusal) -> ApiError:
    """A policy refusal as the API error the player sees."""
    return ApiError(
        REFUSAL_STATUS.get(refusal.code.value, 403), refusal.code.value, refusal.message
    )


_TEXT = {
    401: "No token, a token nobody holds, or a wrong username or password.",
    403: "Refused by responsible gaming (a break, the session time limit or a limit), or a"
    " guest's demo money at the cashier.",
    404: "No such resource.",
    409: "A reality check is due, the name is taken, or the state does not allow it.",
    422: "The request is invalid, or refused by a rule (limits, breaks, session, balance).",
}


def documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for these error statuses, all with the error body."""
    return {status: {"model": ErrorBody, "description": _TEXT[status]} for status in statuses}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Model):
    username: str = Field(min_length=1, max_length=64, pattern=PRINTABLE)
    password: str = Field(min_length=1, max_length=1000)


class Registered(_Model):
    id: str
    username: str
    balance: int = Field(description="Minor units; deposit through POST /api/me/deposits.")


class LoggedIn(_Model):
    token: str = Field(description="Bearer token of this session; shown only once.")
    player_id: str
    username: str
    expires_at: str = Field(description="UTC; the token is refused from then on.")
    previous_login_at: str | None = Field(description="UTC; null at the first login.")
    balance: int
    session: dict[str, Any] = Field(description="The responsible-gaming session just started.")


@router.post("/api/accounts", status_code=201, responses={**documented(409, 422), **RATE_LIMITED})
async def create_account(
    body: Credentials, service: ServiceDep, policy: PolicyDep, guard: GuardDep, request: Request
) -> Registered:
    """Register a player: a username (3-32 of a-z, 0-9, '.', '_', '-') and a password."""
    await guard.limit("accounts_per_address", client_address(request))
    try:
        name = normalize_username(body.username)
        check_password(body.password, username=name)
    except (ValueError, PasswordError) as error:
        raise ApiError(422, "invalid_account", str(error)) from None
    stored = await guard.hash(hash_password, body.password)
    now = policy.clock.now_ms()

    def run(c: Connection) -> str:
        player_id = register(c, name, stored, now)
        append_audit(c, now, f"player:{player_id}", "register", {"username": name})
        return player_id

    try:
        player_id = await service.runner.write(run)
    except UsernameTakenError as error:
        raise ApiError(409, "username_taken", str(error)) from None
    return Registered(id=player_id, username=name, balance=0)


@router.post(
    "/api/sessions", status_code=201, responses={**documented(401, 403, 422), **RATE_LIMITED}
)
async def login(
    body: Credentials, service: ServiceDep, policy: PolicyDep, guard: GuardDep, request: Request
) -> LoggedIn:
    """Log in: a fresh token that expires, and the time of the previous login. Attempts are
    rate-limited by client address and by username (429 with ``Retry-After``)."""
    # Before any database read or hash: a refused attempt costs one counter lookup.
    await guard.admit_login(request, body.username)
    found = await service.runner.read(lambda c: find_login(c, body.username))
    if found is None:
        await guard.hash(dummy_verify, body.password)
        good = False
    else:
        good = await guard.hash(verify_password, found.password_hash, body.password)
    now = policy.clock.now_ms()
    if found is None or not good:
        details = await guard.failed_login_details(body.username)
        if details is not None:
            await service.runner.write(
                lambda c: append_audit(c, now, "anonymous", "login_failed", details)
            )
        raise ApiError(401, "bad_credentials", "wrong username or password")
    await guard.login_succeeded(request, body.username)
    login_row = found
    # A hash made with older parameters is replaced at the next good login.
    rehashed = None
    if needs_rehash(found.password_hash):
        rehashed = await guard.hash(hash_password, body.password)

    def run(c: Connection) -> tuple[str, int, Session] | Refusal:
        pid = login_row.player_id
        controls = load_controls(c, [pid], lock=True).get(pid, Controls())
        moment = from_epoch_ms(now)
        refusal = may_play(PlayerState(breaks=controls.breaks), moment)
        if refusal is not None:
            # Committed with the refusal: an attempt to play during a break is on record.
            details = {"code": refusal.code.value}
            append_audit(c, now, f"player:{pid}", "login_refused", details)
            return refusal
        token, expires = open_session(c, pid, now, policy.session_ttl_ms)
        running = controls.session
        # A second login (another device) joins the running session: logging in again must
        # not restart the session clock. A session past its time limit is replaced.
        if running is not None and not running.limit_reached(moment):
            session = running
        else:
            session = Session.start(moment, controls.session_settings)
        save_controls(c, pid, replace(controls, session=session), now)
        if rehashed is not None:
            c.execute(
                update(logins).where(logins.c.player_id == pid).values(password_hash=rehashed)
            )
        append_audit(c, now, f"player:{pid}", "login", {"expires_at": iso_utc(expires)})
        return token, expires, session

    outcome = await service.runner.write(run)
    if isinstance(outcome, Refusal):
        raise refused(outcome)
    token, expires, session = outcome
    service.tokens.know(token, login_row.player_id)
    balance = await service.runner.read(lambda c: player_balance(c, login_row.player_id))
    previous = login_row.last_login_at
    return LoggedIn(
        token=token,
        player_id=login_row.player_id,
        username=login_row.username,
        expires_at=iso_utc(expires),
        previous_login_at=None if previous is None else iso_utc(previous),
        balance=balance,
        session=session.to_json(),
    )


_bearer = HTTPBearer(auto_error=False)


@router.delete("/api/sessions/current", status_code=204, responses=documented(401, 409))
async def logout(
    player: CurrentPlayer,
    service: ServiceDep,
    policy: PolicyDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """End this session (a login's or a guest's): its token is refused from now on, and its
    live feeds are closed."""
    assert credentials is not None  # CurrentPlayer has checked it
    token = credentials.credentials
    now = policy.clock.now_ms()

    def run(c: Connection) -> int:
        ended = end_sessions(c, player, now, token=token)
        if ended:
            controls = load_controls(c, [player], lock=True).get(player, Controls())
            save_controls(c, player, replace(controls, session=None), now)
            append_audit(c, now, f"player:{player}", "logout", {})
        return ended

    if not await service.runner.write(run):
        raise ApiError(409, "not_a_session", "the session has ended already")
    end_feeds(service, player, token_hash(token))
