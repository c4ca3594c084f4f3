"""Submitting bet orders, and the bets' fast lane: ``POST /api/tables/{table_id}/bets`` placed
without FastAPI's routing.

Placing a bet is the hot path of the service. At a thousand bets a second FastAPI's routing
over every route, its dependency solving and its response machinery cost a node more CPU than
the group commit that makes the bet durable (measured with py-spy: 0.6 ms of the 1.0 ms a bet
cost a node at 800 bets/s on PostgreSQL). ``BetLane`` is a pure ASGI middleware that takes
only the well-formed request — a JSON body that ``BetRequest`` accepts, an ``Idempotency-Key``
and a bearer token as the route's parameters allow, a table id its path allows — and places it
through the same ``submit`` as the route. Anything else goes on, with its body replayed, to the
FastAPI route, which answers exactly as it always has: the route stays the one description of
the API (OpenAPI) and of every error, and the lane is only a shorter way to the same answer.
The lane sits inside ``Hygiene``, so the body limit and the security headers are the same.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Mapping
from typing import Any

from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from baccarat.refusals import Refusal
from baccarat.server.errors import (
    BAD_TOKEN,
    ApiError,
    database_unavailable,
    error_response,
    refused,
)
from baccarat.server.models import KEY_CHARS, KEY_PATTERN, PRINTABLE, TABLE_ID_CHARS, BetRequest
from baccarat.server.service import Service
from baccarat.table import Action, BetOrder

__all__ = ["BetLane", "bet_order", "request_hash", "submit"]

#: The route the lane serves (Starlette's ``{table_id}`` is one path segment).
_PATH = re.compile(r"/api/tables/([^/]+)/bets")
_PRINTABLE = re.compile(PRINTABLE)
_KEY = re.compile(KEY_PATTERN)
_HEADERS = (b"content-type", b"authorization", b"idempotency-key")


def request_hash(action: str, table_id: str, round_id: int, bets: Mapping[str, int]) -> str:
    """A fingerprint of a request, to tell a retry from another request under the same key.

    >>> request_hash("place", "ez", 3, {"tie": 1, "player": 2}) == request_hash(
    ...     "place", "ez", 3, {"player": 2, "tie": 1})
    True
    """
    text = json.dumps([action, table_id, round_id, dict(bets)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def bet_order(
    bettor: tuple[str, str],
    table_id: str,
    round_id: int,
    action: Action,
    key: str,
    bets: Mapping[str, int] | None = None,
) -> BetOrder:
    """A bettor's order (player id, session hash): its session is checked in the batch.

    >>> order = bet_order(("p1", "h1"), "ez", 3, "place", "k1", {"tie": 100})
    >>> order.player_id, order.round_id, order.bets, order.session_hash
    ('p1', 3, {'tie': 100}, 'h1')
    """
    wanted = dict(bets or {})
    fingerprint = request_hash(action, table_id, round_id, wanted)
    return BetOrder(bettor[0], table_id, round_id, action, wanted, key, fingerprint, bettor[1])


async def submit(service: Service, order: BetOrder) -> JSONResponse:
    """Queue the order; answer its receipt, or raise its refusal with the refusal's status."""
    started = time.perf_counter()
    service.table(order.table_id)
    result = await service.bet_queue.submit(order)
    service.metrics.ack_seconds.observe(time.perf_counter() - started)
    if isinstance(result, Refusal):
        service.metrics.bets_refused.labels(order.table_id, result.code.value).inc()
        raise refused(result)
    if not result.replayed and order.action not in ("undo", "undo_last"):
        service.metrics.bets_accepted.labels(order.table_id).inc()
    # Sent as is: the hot path skips re-validating a body the store built (it is the
    # documented BetResponse; the schema tests check every answer against it).
    return JSONResponse(result.to_json())


class BetLane:
    """The middleware (``app.add_middleware(BetLane, service=...)``, inside ``Hygiene``)."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        path = _PATH.fullmatch(scope["path"])
        if path is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        if body is None:
            return  # the client has gone: nobody to answer
        request = _well_formed(path.group(1), scope["headers"], body)
        if request is None:
            await self.app(scope, _replay(body, receive), send)
            return
        table_id, token, key, parsed = request
        try:
            bettor = await self.service.tokens.bettor(token)
            if bettor is None:
                raise ApiError(401, "unauthorized", BAD_TOKEN)
            order = bet_order(bettor, table_id, parsed.round_id, "place", key, parsed.bets)
            response = await submit(self.service, order)
        except ApiError as error:
            response = error_response(error)
        except SQLAlchemyError as error:
            response = database_unavailable(error)
        await response(scope, receive, send)


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body, or ``None`` if the client disconnected first."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` for the route: the body read already, then whatever comes next."""
    pending = True

    async def replay() -> Message:
        nonlocal pending
        if pending:
            pending = False
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _well_formed(
    table_id: str, headers: list[tuple[bytes, bytes]], body: bytes
) -> tuple[str, str, str, BetRequest] | None:
    """The table, token, key and body of a request the route would take; ``None`` for any
    other (the route then answers it). A header sent twice is left to the route too.

    >>> _well_formed("ez", [(b"authorization", b"Bearer t"), (b"idempotency-key", b"k")],
    ...              b'{"round_id": 1, "bets": {"tie": 100}}')[:3]
    ('ez', 't', 'k')
    >>> _well_formed("ez", [(b"idempotency-key", b"k")], b'{"round_id": 1, "bets": {}}') is None
    True
    """
    found: dict[bytes, str] = {}
    for name, value in headers:
        name = name.lower()
        if name in _HEADERS:
            if name in found:
                return None
            found[name] = value.decode("latin-1")
    content_type = found.get(b"content-type")
    if content_type is not None and content_type.split(";")[0].strip().lower() != (
        "application/json"
    ):
        return None
    scheme, _, token = found.get(b"authorization", "").partition(" ")
    token, key = token.strip(), found.get(b"idempotency-key", "")
    if scheme.lower() != "bearer" or not token:
        return None
    if not (0 < len(key) <= KEY_CHARS and _KEY.fullmatch(key)):
        return None
    if not (len(table_id) <= TABLE_ID_CHARS and _PRINTABLE.fullmatch(table_id)):
        return None
    try:
        data: Any = json.loads(body)
        parsed = BetRequest.model_validate(data)
    except (ValueError, RecursionError):  # not JSON (or nested past the parser), not the model
        return None
    return table_id, token, key, parsed
