"""A bet request as the API takes it: ``POST /api/tables/{table_id}/bets`` (and its ``/rebet``
and ``/double``) read from its path, headers and body, or refused with the reason.

This is the one reader of a bet request: the bets' fast lane (``bet_lane``) and the FastAPI
routes (``routers.bets``) both call ``read_bet``, so a request gets one answer whichever way it
came. A request is read whole before anyone is looked up: what is wrong with its form is one
422 ``invalid_request`` naming up to three faults (the path, the ``Idempotency-Key``, the body),
then a missing bearer token is a 401; the token's owner and the order are the service's
(``bet_service``).

The body must be sent as JSON (``Content-Type: application/json`` or ``application/*+json``)
and is checked by the API's models (``BetRequest``, ``RepeatRequest``): strict integers,
bounded ids and stakes, no unknown key.

>>> call = read_bet("place", "standard", [(b"authorization", b"Bearer t"),
...     (b"idempotency-key", b"k1"), (b"content-type", b"application/json")],
...     b'{"round_id": 3, "bets": {"tie": 100}}')
>>> call.action, call.table_id, call.round_id, call.bets, call.key, call.token
('place', 'standard', 3, {'tie': 100}, 'k1', 't')
>>> read_bet("place", "standard", [(b"idempotency-key", b"k1")], b"{}")
Traceback (most recent call last):
...
baccarat.server.errors.ApiError: Content-Type: send the body as JSON ('Content-Type: application/json')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.errors import NO_TOKEN, refused
from baccarat.server.models import (
    KEY_CHARS,
    KEY_PATTERN,
    PRINTABLE,
    TABLE_ID_CHARS,
    BetRequest,
    RepeatRequest,
)

__all__ = ["BetAction", "BetCall", "bet_path", "read_bet"]

#: What a ``POST`` to a bet path asks: place stakes, or repeat the previous round's.
BetAction = Literal["place", "rebet", "double"]

# Starlette's ``{table_id}`` is one path segment, as here.
_PATH = re.compile(r"/api/tables/([^/]+)/bets(?:/(rebet|double))?")
_PRINTABLE = re.compile(PRINTABLE)
_KEY = re.compile(KEY_PATTERN)
#: The action of a path by its last segment after ``bets`` (none: placing).
_ACTION_OF: Mapping[str | None, BetAction] = {None: "place", "rebet": "rebet", "double": "double"}
_HEADERS = (b"content-type", b"authorization", b"idempotency-key")
#: The body each action takes.
_BODIES: Mapping[BetAction, type[BetRequest] | type[RepeatRequest]] = {
    "place": BetRequest,
    "rebet": RepeatRequest,
    "double": RepeatRequest,
}
#: A request's faults named in its 422, as FastAPI named them.
_FAULTS_SHOWN = 3


@dataclass(frozen=True, slots=True)
class BetCall:
    """A bet request read whole: what it asks, with which key, and the bearer token sent."""

    action: BetAction
    table_id: str
    round_id: int
    #: The stakes asked for (empty for a rebet or a double: the store finds them).
    bets: dict[str, int]
    key: str
    token: str


def bet_path(path: str) -> tuple[str, BetAction] | None:
    """The table id and action of a bet path; ``None`` for any other path.

    >>> bet_path("/api/tables/ez/bets"), bet_path("/api/tables/ez/bets/double")
    (('ez', 'place'), ('ez', 'double'))
    >>> bet_path("/api/tables/ez/bets/undo") is None, bet_path("/api/tables/a/b/bets") is None
    (True, True)
    """
    found = _PATH.fullmatch(path)
    if found is None:
        return None
    return found.group(1), _ACTION_OF[found.group(2)]


def read_bet(
    action: BetAction, table_id: str, headers: Iterable[tuple[bytes, bytes]], body: bytes
) -> BetCall:
    """The request as a ``BetCall``, or an ``ApiError``: 422 ``invalid_request`` for its form,
    401 without a bearer token. ``table_id`` is the path's segment, decoded; a header sent
    twice counts by its first value (as Starlette reads it).

    >>> from baccarat.server.errors import ApiError
    >>> try:
    ...     read_bet("rebet", "ez\\x01", [(b"content-type", b"application/json")], b'{"round_id": 0}')
    ... except ApiError as error:
    ...     print(error.status, error.code)
    ...     print(error.message)
    422 invalid_request
    path.table_id: String should match pattern '^[^\\x00-\\x1f\\x7f-\\x9f]*$'; header.Idempotency-Key: Field required; round_id: Input should be greater than or equal to 1
    """
    found: dict[bytes, str] = {}
    for name, value in headers:
        name = name.lower()
        if name in _HEADERS and name not in found:
            found[name] = value.decode("latin-1")
    faults = _path_faults(table_id)
    key = found.get(b"idempotency-key")
    faults += _key_faults(key)
    model = _BODIES[action]
    parsed: BetRequest | RepeatRequest | None = None
    if not _is_json(found.get(b"content-type")):
        faults.append("Content-Type: send the body as JSON ('Content-Type: application/json')")
    else:
        try:
            parsed = model.model_validate_json(body)
        except ValidationError as error:
            faults += [_describe(item["loc"], item["msg"]) for item in error.errors()]
    if faults or parsed is None or key is None:
        message = "; ".join(faults[:_FAULTS_SHOWN])
        raise refused(Refusal(RefusalCode.INVALID_REQUEST, message))
    token = _bearer(found.get(b"authorization"))
    if token is None:
        raise refused(Refusal(RefusalCode.UNAUTHORIZED, NO_TOKEN))
    bets = parsed.bets if isinstance(parsed, BetRequest) else {}
    return BetCall(action, table_id, parsed.round_id, bets, key, token)


def _path_faults(table_id: str) -> list[str]:
    if len(table_id) > TABLE_ID_CHARS:
        return [f"path.table_id: String should have at most {TABLE_ID_CHARS} characters"]
    if not _PRINTABLE.fullmatch(table_id):
        return [f"path.table_id: String should match pattern '{PRINTABLE}'"]
    return []


def _key_faults(key: str | None) -> list[str]:
    if key is None:
        return ["header.Idempotency-Key: Field required"]
    if not key:
        return ["header.Idempotency-Key: String should have at least 1 character"]
    if len(key) > KEY_CHARS:
        return [f"header.Idempotency-Key: String should have at most {KEY_CHARS} characters"]
    if not _KEY.fullmatch(key):
        return [f"header.Idempotency-Key: String should match pattern '{KEY_PATTERN}'"]
    return []


def _is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` says JSON: ``application/json`` or ``application/*+json``,
    with any parameters.

    >>> [_is_json(v) for v in ("application/json; charset=utf-8", "Application/Problem+JSON")]
    [True, True]
    >>> [_is_json(v) for v in (None, "", "text/plain", "application/json/x", "application/")]
    [False, False, False, False, False]
    """
    if content_type is None:
        return False
    main, _, sub = content_type.partition(";")[0].strip().lower().partition("/")
    return main == "application" and "/" not in sub and (sub == "json" or sub.endswith("+json"))


def _bearer(authorization: str | None) -> str | None:
    """The token of ``Authorization: Bearer <token>`` (the scheme in any case), as FastAPI's
    ``HTTPBearer`` reads it; ``None`` without one.

    >>> _bearer("bearer  abc "), _bearer("Basic abc"), _bearer("Bearer"), _bearer(None)
    ('abc', None, None, None)
    """
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if not token or scheme.lower() != "bearer":
        return None
    return token


def _describe(loc: tuple[int | str, ...], message: str) -> str:
    """One fault of the body, where it is first: ``bets.tie: Input should be ...``. A key of
    the body is shown with any character UTF-8 cannot carry escaped: the answer must encode."""
    where = ".".join(str(part) for part in loc)
    where = where.encode("utf-8", "backslashreplace").decode("utf-8")
    return f"{where}: {message}" if where else message
