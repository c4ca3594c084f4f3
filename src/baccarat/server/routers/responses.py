"""The error responses each route documents in the OpenAPI schema: one helper, one text per
status, every one with the error body."""

from __future__ import annotations

from typing import Any

from baccarat.server.models import ErrorBody

__all__ = ["errors"]

_TEXT = {
    401: "No token, a token nobody holds, or a wrong username or password; an operator's"
    " request whose signature does not verify, or a launch link expired.",
    403: "Refused by responsible gaming (a break, the session time limit or a limit), a"
    " guest's demo money (or an operator's player) at the cashier, guests turned off, or a new"
    " guest on a device whose last seat an operator locked.",
    404: "No such resource.",
    409: "Betting on this round is closed, a reality check is due, the name is taken, a signed"
    " request or a launch link used already, or the state does not allow it.",
    422: "The request is invalid, or refused by a rule (the table's limits, the balance,"
    " responsible-gaming limits, breaks, the session).",
    503: "Not the request's fault (the database, or an operator's wallet, did not answer):"
    " try again.",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for the given error statuses, all with the error body.

    >>> sorted(errors(401, 404))
    [401, 404]
    """
    return {status: {"model": ErrorBody, "description": _TEXT[status]} for status in statuses}
