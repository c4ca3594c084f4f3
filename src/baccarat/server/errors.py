"""API errors: every refusal is ``{"error": {"code": ..., "message": ...}}`` with a 4xx (or a
503) status, and a refusal with values (which limit, which bound, until when) adds them as
``details``.

Every code is a ``RefusalCode`` (``baccarat.refusals``) and ``REFUSAL_STATUS`` is the one table
from a code to its HTTP status. The actions return a ``Refusal`` as a value; a router or a
dependency turns it into the answer here, with ``refused`` (an ``ApiError`` to raise) or
``answer`` (the value, or its refusal raised). Validation errors of FastAPI, Starlette's HTTP
errors and a failed database are answered with the same body, so a client reads one error
format everywhere.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from baccarat.refusals import Refusal, RefusalCode

__all__ = [
    "BAD_TOKEN",
    "NO_TOKEN",
    "REFUSAL_STATUS",
    "ApiError",
    "answer",
    "database_unavailable",
    "error_body",
    "error_response",
    "install_error_handlers",
    "refused",
    "status_of",
]

log = logging.getLogger("baccarat.server")

T = TypeVar("T")

#: The 401 messages of a request without a token, and of a token that opens nothing.
NO_TOKEN = "send 'Authorization: Bearer <token>'"
BAD_TOKEN = "unknown or expired token"

_C = RefusalCode

#: The HTTP status of every refusal code.
REFUSAL_STATUS: Mapping[RefusalCode, int] = MappingProxyType(
    {
        # A request that is not what the route takes, or a rule of the table or the cashier.
        **dict.fromkeys(
            (
                _C.EMPTY,
                _C.UNKNOWN_BET,
                _C.NOT_OFFERED,
                _C.BAD_STAKE,
                _C.BELOW_MINIMUM,
                _C.ABOVE_MAXIMUM,
                _C.INSUFFICIENT_FUNDS,
                _C.NOTHING_TO_REPEAT,
                _C.NOTHING_TO_UNDO,
                _C.KEY_REUSED,
                _C.INVALID_ACCOUNT,
                _C.INVALID_LIMIT,
                _C.INVALID_BREAK,
                _C.INVALID_SESSION_SETTINGS,
                _C.ABOVE_OPERATOR_LIMIT,
                _C.INVALID_AMOUNT,
                _C.DEPOSIT_TOO_LARGE,
                _C.BALANCE_LIMIT,
                _C.INSUFFICIENT_BALANCE,
                _C.INVALID_LIMITS,
                _C.INVALID_REQUEST,
            ),
            422,
        ),
        # Nobody the server knows, or the wrong password.
        **dict.fromkeys(
            (_C.UNAUTHORIZED, _C.BAD_CREDENTIALS, _C.INVALID_SIGNATURE, _C.LAUNCH_EXPIRED), 401
        ),
        # Someone known, who may not do this: the policy, an operator, a role, demo money.
        **dict.fromkeys(
            (
                _C.LIMIT_EXCEEDED,
                _C.TIME_OUT,
                _C.SELF_EXCLUDED,
                _C.SESSION_LIMIT,
                _C.GUESTS_DISABLED,
                _C.DEVICE_LOCKED,
                _C.DEMO_ACCOUNT,
                _C.STAFF_ONLY,
                _C.ROLE_FORBIDDEN,
                _C.ACCOUNT_LOCKED,
                _C.ACCOUNT_CLOSED,
                _C.DEVICE_FORBIDDEN,
                _C.NOT_YOUR_SQUEEZE,
                # An operator's wallet said no (``status_of``: 402 for its insufficient funds).
                _C.WALLET_REFUSED,
                # The cashier of a player whose money an operator holds.
                _C.OPERATOR_PLAYER,
            ),
            403,
        ),
        **dict.fromkeys(
            (
                _C.TABLE_NOT_FOUND,
                _C.ROUND_NOT_FOUND,
                _C.SHOE_NOT_FOUND,
                _C.RULESET_NOT_FOUND,
                _C.PLAYER_NOT_FOUND,
                _C.STAFF_NOT_FOUND,
                _C.SHIFT_NOT_FOUND,
                _C.OPERATOR_NOT_FOUND,
                _C.WALLET_CALL_NOT_FOUND,
                _C.NOT_FOUND,
                _C.NOT_A_STUDIO,
            ),
            404,
        ),
        # The state of something does not allow it now. A reality check is a state to leave
        # (acknowledge it), not a prohibition.
        **dict.fromkeys(
            (
                _C.BETTING_CLOSED,
                _C.REALITY_CHECK_DUE,
                _C.USERNAME_TAKEN,
                _C.NOT_A_SESSION,
                _C.NO_REALITY_CHECK,
                _C.SHOE_IN_PLAY,
                _C.CLIENT_SEED_FIXED,
                _C.ROUND_FINISHED,
                _C.ROUND_DEALT,
                _C.PLAYER_LOCKED,
                _C.PLAYER_ACTIVE,
                _C.PLAYER_CLOSED,
                _C.NO_OPERATOR_LIMIT,
                _C.OWN_ACCOUNT,
                _C.STAFF_DISABLED,
                _C.AUDIT_LOG_EMPTY,
                _C.SHIFT_OPEN,
                _C.SHIFT_CLOSED,
                _C.OUTBOX_NOT_FAILED,
                _C.NO_SHOE,
                _C.TABLE_HALTED,
                _C.MISSCAN_PENDING,
                _C.NOT_NOW,
                _C.REPLAYED_REQUEST,
                _C.LAUNCH_USED,
            ),
            409,
        ),
        # Not the request's fault: try again.
        **dict.fromkeys(
            (_C.TABLE_STARTING, _C.STARTING, _C.DATABASE_UNAVAILABLE, _C.WALLET_UNAVAILABLE), 503
        ),
        _C.BAD_REQUEST: 400,
        _C.METHOD_NOT_ALLOWED: 405,
        _C.PAYLOAD_TOO_LARGE: 413,
        _C.RATE_LIMITED: 429,
    }
)


def status_of(refusal: Refusal) -> int:
    """The HTTP status of a refusal: its code's, but 402 (Payment Required) for a wallet's
    refusal whose own code is ``insufficient_funds``.

    >>> status_of(Refusal(RefusalCode.WALLET_REFUSED, "no", kind="insufficient_funds"))
    402
    >>> status_of(Refusal(RefusalCode.WALLET_REFUSED, "no", kind="player_blocked"))
    403
    """
    if refusal.code is RefusalCode.WALLET_REFUSED and refusal.kind == "insufficient_funds":
        return 402
    return REFUSAL_STATUS[refusal.code]


class ApiError(Exception):
    """A refusal on its way to the client: its code's status, the error body and any headers.

    Made by ``refused`` (or ``answer``); ``RateLimitedError`` adds its ``Retry-After``.
    """

    def __init__(self, refusal: Refusal, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal
        self.status = status_of(refusal)
        self.code = refusal.code.value
        self.message = refusal.message
        self.headers = None if headers is None else dict(headers)
        #: The refusal's values (``Refusal.details``), only those present; none: no ``details``.
        self.details = refusal.details() or None


def refused(refusal: Refusal, headers: Mapping[str, str] | None = None) -> ApiError:
    """A refusal as the API error the client sees, with its code's status.

    >>> error = refused(Refusal(RefusalCode.BETTING_CLOSED, "betting on round 7 is closed"))
    >>> error.status, error.code, error.message
    (409, 'betting_closed', 'betting on round 7 is closed')
    >>> set(REFUSAL_STATUS) == set(RefusalCode)
    True
    >>> refused(Refusal(RefusalCode.DEPOSIT_TOO_LARGE, "too much", limit=500_000)).details
    {'limit': 500000}
    """
    return ApiError(refusal, headers)


def answer(outcome: T | Refusal) -> T:
    """What an action returned, or its refusal raised as the API error (a router's one line).

    >>> answer(7)
    7
    >>> answer(Refusal(RefusalCode.SHOE_NOT_FOUND, "there is no shoe 'x'"))
    Traceback (most recent call last):
    ...
    baccarat.server.errors.ApiError: there is no shoe 'x'
    """
    if isinstance(outcome, Refusal):
        raise refused(outcome)
    return outcome


def error_body(
    code: RefusalCode, message: str, details: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """The one error body; ``details`` only when the refusal has values to give. A code that
    is not in the catalogue is refused here (``ValueError``): no free-form code gets out.

    >>> error_body(RefusalCode.BALANCE_LIMIT, "too much", {"limit": 100_000, "left": 0})
    {'error': {'code': 'balance_limit', 'message': 'too much', 'details': {'limit': 100000, 'left': 0}}}
    >>> error_body(RefusalCode.NOT_FOUND, "Not Found")
    {'error': {'code': 'not_found', 'message': 'Not Found'}}
    """
    error: dict[str, Any] = {"code": RefusalCode(code).value, "message": message}
    if details:
        error["details"] = dict(details)
    return {"error": error}


def error_response(error: ApiError) -> JSONResponse:
    """The answer to an ``ApiError``: its status, the one error body and its headers."""
    return JSONResponse(
        error_body(error.refusal.code, error.message, error.details),
        status_code=error.status,
        headers=error.headers,
    )


def _answer_with(
    code: RefusalCode, message: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        error_body(code, message), status_code=REFUSAL_STATUS[code], headers=headers
    )


def database_unavailable(error: SQLAlchemyError) -> JSONResponse:
    """The answer when the database failed a request: a 503 to retry, one log line."""
    log.error("database error: %s", error)
    return _answer_with(RefusalCode.DATABASE_UNAVAILABLE, "the database did not answer; try again")


#: The code of each status Starlette and FastAPI raise themselves (routing, static files,
#: reading a body); any other 4xx is a request the HTTP layer could not read.
_HTTP_CODES: Mapping[int, RefusalCode] = MappingProxyType(
    {
        400: RefusalCode.BAD_REQUEST,
        401: RefusalCode.UNAUTHORIZED,
        404: RefusalCode.NOT_FOUND,
        405: RefusalCode.METHOD_NOT_ALLOWED,
        422: RefusalCode.INVALID_REQUEST,
    }
)


#: What FastAPI says (as a 400) when it cannot decode a request body at all.
_UNREADABLE_BODY = "There was an error parsing the body"


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
    return f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg", "invalid"))


def install_error_handlers(app: FastAPI) -> None:
    """Route every error through the one error body."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        return error_response(error)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        details = error.errors()
        message = "; ".join(_describe(dict(item)) for item in details[:3]) or "invalid request"
        return _answer_with(RefusalCode.INVALID_REQUEST, message)

    @app.exception_handler(SQLAlchemyError)
    async def _database(_request: Request, error: SQLAlchemyError) -> JSONResponse:
        return database_unavailable(error)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 400 and error.detail == _UNREADABLE_BODY:
            # A body that is not even text is invalid like any other bad body: one code, 422.
            return _answer_with(RefusalCode.INVALID_REQUEST, "the body is not valid JSON")
        code = _HTTP_CODES.get(error.status_code, RefusalCode.BAD_REQUEST)
        headers = dict(getattr(error, "headers", None) or {})
        if code is RefusalCode.METHOD_NOT_ALLOWED:
            # Starlette names only the first route of the path; a path may have several.
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return _answer_with(code, str(error.detail), headers)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (routers nest, so ask each by method)."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] is Match.FULL for route in request.app.routes):
            allowed.append(method)
    return allowed
