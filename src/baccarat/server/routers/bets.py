"""``/api/tables/{table_id}/bets``: place, undo (all, or the last chip), rebet and double.

The same ``Idempotency-Key`` with the same request returns the first answer and moves no
money again; with a different request it is refused (422). Only accepted requests are
remembered: a refused request left nothing, so retrying it asks again. Placing needs a key;
an undo takes one too (optional), and its request is what was sent: an undo without
``round_id`` is another request than one naming the round.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse

from baccarat.refusals import Refusal
from baccarat.server.deps import Bettor, CurrentPlayer, OptionalKey, ServiceDep, TableId
from baccarat.server.errors import refused
from baccarat.server.models import KEY_PATTERN, MAX_ID, BetRequest, BetResponse, RepeatRequest
from baccarat.server.routers.responses import errors
from baccarat.server.service import Service
from baccarat.table import Action, BetOrder, Phase

router = APIRouter(tags=["bets"])

IdempotencyKey = Annotated[
    str,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=200,
        pattern=KEY_PATTERN,
        description="A fresh random string per request; resend it to retry safely.",
    ),
]


def request_hash(action: str, table_id: str, round_id: int, bets: Mapping[str, int]) -> str:
    """A fingerprint of a request, to tell a retry from another request under the same key.

    >>> request_hash("place", "ez", 3, {"tie": 1, "player": 2}) == request_hash(
    ...     "place", "ez", 3, {"player": 2, "tie": 1})
    True
    """
    text = json.dumps([action, table_id, round_id, dict(bets)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _order(
    player: str,
    table_id: str,
    round_id: int,
    action: Action,
    key: str,
    session_hash: str,
    bets: Mapping[str, int] | None = None,
) -> BetOrder:
    """A bet request's order (a bettor's: its session is checked in the batch)."""
    wanted = dict(bets or {})
    fingerprint = request_hash(action, table_id, round_id, wanted)
    return BetOrder(player, table_id, round_id, action, wanted, key, fingerprint, session_hash)


async def _submit(service: Service, order: BetOrder) -> JSONResponse:
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


@router.post(
    "/api/tables/{table_id}/bets",
    response_model=BetResponse,
    responses=errors(401, 404, 409, 422),
)
async def place_bets(
    table_id: TableId,
    body: BetRequest,
    key: IdempotencyKey,
    bettor: Bettor,
    service: ServiceDep,
) -> JSONResponse:
    """Place bets on the open round: all spots or none.

    Errors: ``betting_closed`` (409), ``insufficient_funds`` (422), ``below_minimum``,
    ``above_maximum``, ``unknown_bet``, ``bet_not_offered``, ``invalid_stake``,
    ``idempotency_key_reused`` (422).
    """
    order = _order(bettor[0], table_id, body.round_id, "place", key, bettor[1], body.bets)
    return await _submit(service, order)


@router.delete(
    "/api/tables/{table_id}/bets", response_model=BetResponse, responses=errors(401, 404, 409, 422)
)
async def undo_bets(
    table_id: TableId,
    player: CurrentPlayer,
    service: ServiceDep,
    round_id: Annotated[
        int | None, Query(ge=1, le=MAX_ID, description="Defaults to the open round.")
    ] = None,
    last: Annotated[
        bool, Query(description="Take back only your last accepted request (one chip).")
    ] = False,
    key: OptionalKey = None,
) -> JSONResponse:
    """Take back every bet of yours on the open round (stakes return to your balance), or with
    ``last=true`` only your last accepted request.

    Errors: ``betting_closed`` (409), ``nothing_to_undo`` (422, with ``last=true``),
    ``idempotency_key_reused`` (422).
    """
    live = service.table(table_id)
    action: Action = "undo_last" if last else "undo"
    # The request as sent (an omitted round is part of it), for the Idempotency-Key.
    fingerprint = request_hash(action, table_id, round_id or 0, {})
    if round_id is None and live.phase is Phase.OPEN:
        round_id = live.round_id
    # With no round open, the order names none: the batch replays a retry's first answer
    # (by its key) or refuses it (betting_closed).
    order = BetOrder(player, table_id, round_id, action, {}, key, fingerprint)
    return await _submit(service, order)


@router.post(
    "/api/tables/{table_id}/bets/rebet",
    response_model=BetResponse,
    responses=errors(401, 404, 409, 422),
)
async def rebet(
    table_id: TableId,
    body: RepeatRequest,
    key: IdempotencyKey,
    bettor: Bettor,
    service: ServiceDep,
) -> JSONResponse:
    """Place again the bets of your previous round at this table."""
    return await _submit(
        service, _order(bettor[0], table_id, body.round_id, "rebet", key, bettor[1])
    )


@router.post(
    "/api/tables/{table_id}/bets/double",
    response_model=BetResponse,
    responses=errors(401, 404, 409, 422),
)
async def double(
    table_id: TableId,
    body: RepeatRequest,
    key: IdempotencyKey,
    bettor: Bettor,
    service: ServiceDep,
) -> JSONResponse:
    """Place the bets of your previous round at this table, each stake doubled."""
    return await _submit(
        service, _order(bettor[0], table_id, body.round_id, "double", key, bettor[1])
    )


__all__ = ["request_hash", "router"]
