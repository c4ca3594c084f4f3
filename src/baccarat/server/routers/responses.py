"""The error responses each route documents in the OpenAPI schema."""

from __future__ import annotations

from typing import Any

from baccarat.server.models import ErrorBody

__all__ = ["errors"]

_TEXT = {
    401: "No token, or a token nobody holds.",
    404: "No such resource.",
    409: "Betting on this round is closed, or the state does not allow it.",
    422: "The request is invalid, refused by the table's limits, or the balance is too low.",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for the given error statuses, all with the error body."""
    return {status: {"model": ErrorBody, "description": _TEXT[status]} for status in statuses}
