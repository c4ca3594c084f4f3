"""API errors: every refusal is ``{"error": {"code": ..., "message": ...}}`` with a 4xx status,
and a refusal with values (which limit, which bound, until when) adds them as ``details``.

A handler raises ``ApiError``; validation errors of FastAPI and Starlette's HTTP errors are
reshaped to the same body, so a client reads one error format everywhere. A refusal of the
core (``baccarat.refusals.Refusal``) becomes an ``ApiError`` through ``refused``, with the
one HTTP status of its code (``REFUSAL_STATUS``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

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
    "database_unavailable",
    "error_body",
    "error_response",
    "install_error_handlers",
    "refused",
]

log = logging.getLogger("baccarat.server")

#: The 401 messages of a request without a token, and of a token that opens nothing.
NO_TOKEN = "send 'Authorization: Bearer <token>'"
BAD_TOKEN = "unknown or expired token"


class ApiError(Exception):
    """A refusal with its HTTP status, a stable code, a message for people and any headers."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        headers: Mapping[str, str] | None = None,
        details: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = None if headers is None else dict(headers)
        #: The refusal's values (``Refusal.details``), only those present; none: no ``details``.
        self.details = dict(details) if details else None


#: The HTTP status of every refusal code.
REFUSAL_STATUS: Mapping[RefusalCode, int] = MappingProxyType(
    {
        RefusalCode.EMPTY: 422,
        RefusalCode.UNKNOWN_BET: 422,
        RefusalCode.NOT_OFFERED: 422,
        RefusalCode.BAD_STAKE: 422,
        RefusalCode.BELOW_MINIMUM: 422,
        RefusalCode.ABOVE_MAXIMUM: 422,
        RefusalCode.INSUFFICIENT_FUNDS: 422,
        RefusalCode.NOTHING_TO_REPEAT: 422,
        RefusalCode.NOTHING_TO_UNDO: 422,
        RefusalCode.INVALID_AMOUNT: 422,
        RefusalCode.DEPOSIT_TOO_LARGE: 422,
        RefusalCode.BALANCE_LIMIT: 422,
        RefusalCode.INSUFFICIENT_BALANCE: 422,
        RefusalCode.BETTING_CLOSED: 409,
        RefusalCode.KEY_REUSED: 422,
        RefusalCode.SESSION_ENDED: 401,
        RefusalCode.LIMIT_EXCEEDED: 403,
        RefusalCode.TIME_OUT: 403,
        RefusalCode.SELF_EXCLUDED: 403,
        RefusalCode.SESSION_LIMIT: 403,
        # A reality check is a state to leave (acknowledge it), not a prohibition.
        RefusalCode.REALITY_CHECK_DUE: 409,
        RefusalCode.STAFF_ONLY: 403,
        RefusalCode.ROLE_FORBIDDEN: 403,
        RefusalCode.ROUND_FINISHED: 409,
        RefusalCode.ROUND_DEALT: 409,
        RefusalCode.ACCOUNT_LOCKED: 403,
        RefusalCode.ACCOUNT_CLOSED: 403,
        RefusalCode.ABOVE_OPERATOR_LIMIT: 422,
    }
)


def refused(refusal: Refusal) -> ApiError:
    """A refusal as the API error the client sees, with its code's status.

    >>> error = refused(Refusal(RefusalCode.BETTING_CLOSED, "betting on round 7 is closed"))
    >>> error.status, error.code, error.message
    (409, 'betting_closed', 'betting on round 7 is closed')
    >>> set(REFUSAL_STATUS) == set(RefusalCode)
    True
    >>> refused(Refusal(RefusalCode.DEPOSIT_TOO_LARGE, "too much", limit=500_000)).details
    {'limit': 500000}
    """
    return ApiError(
        REFUSAL_STATUS[refusal.code],
        refusal.code.value,
        refusal.message,
        details=refusal.details(),
    )


def error_body(
    code: str, message: str, details: Mapping[str, object] | None = None
) -> dict[str, Any]:
    """The one error body; ``details`` only when the refusal has values to give.

    >>> error_body("balance_limit", "too much", {"limit": 100_000, "left": 0})
    {'error': {'code': 'balance_limit', 'message': 'too much', 'details': {'limit': 100000, 'left': 0}}}
    >>> error_body("not_found", "Not Found")
    {'error': {'code': 'not_found', 'message': 'Not Found'}}
    """
    error: dict[str, Any] = {"code": code, "message": message}
    if details:
        error["details"] = dict(details)
    return {"error": error}


def error_response(error: ApiError) -> JSONResponse:
    """The answer to an ``ApiError``: its status, the one error body and its headers."""
    return JSONResponse(
        error_body(error.code, error.message, error.details),
        status_code=error.status,
        headers=error.headers,
    )


def database_unavailable(error: SQLAlchemyError) -> JSONResponse:
    """The answer when the database failed a request: a 503 to retry, one log line."""
    log.error("database error: %s", error)
    return JSONResponse(
        error_body("database_unavailable", "the database did not answer; try again"),
        status_code=503,
    )


_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    422: "invalid_request",
}


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
        return JSONResponse(error_body("invalid_request", message), status_code=422)

    @app.exception_handler(SQLAlchemyError)
    async def _database(_request: Request, error: SQLAlchemyError) -> JSONResponse:
        return database_unavailable(error)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> JSONResponse:
        if error.status_code == 400 and error.detail == _UNREADABLE_BODY:
            # A body that is not even text is invalid like any other bad body: one code, 422.
            return JSONResponse(
                error_body("invalid_request", "the body is not valid JSON"), status_code=422
            )
        code = _CODES.get(error.status_code, "error")
        headers = dict(getattr(error, "headers", None) or {})
        if error.status_code == 405:
            # Starlette names only the first route of the path; a path may have several.
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return JSONResponse(
            error_body(code, str(error.detail)), status_code=error.status_code, headers=headers
        )


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (routers nest, so ask each by method)."""
    allowed = []
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"):
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] is Match.FULL for route in request.app.routes):
            allowed.append(method)
    return allowed
