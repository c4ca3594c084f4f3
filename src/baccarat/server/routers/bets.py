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
from sqlalchemy import Connection

from baccarat.server.bet_queue import SESSION_ENDED
from baccarat.server.deps import Bettor, CurrentPlayer, ServiceDep
from baccarat.server.errors import ApiError
from baccarat.server.models import KEY_PATTERN, MAX_ID, BetRequest, BetResponse, RepeatRequest
from baccarat.server.routers.cashier import OptionalKey
from baccarat.server.routers.responses import errors
from baccarat.server.routers.tables import TableId
from baccarat.server.service import Service
from baccarat.store.clock import db_now
from baccarat.store.idempotency import KeyReused, recall
from baccarat.store.placement import CLOSED, KEY_REUSED, Action, BetOrder, BetReceipt, BetRefusal
from baccarat.store.undo_last import undo_last
from baccarat.table import Phase

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

_STATUS = {CLOSED: 409, KEY_REUSED: 422, SESSION_ENDED.code: 401}


def request_hash(action: str, table_id: str, round_id: int, bets: Mapping[str, int]) -> str:
    """A fingerprint of a request, to tell a retry from another request under the same key.

    >>> request_hash("place", "ez", 3, {"tie": 1, "player": 2}) == request_hash(
    ...     "place", "ez", 3, {"player": 2, "tie": 1})
    True
    """
    text = json.dumps([action, table_id, round_id, dict(bets)], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


async def _submit(
    service: Service,
    *,
    player: str,
    table_id: str,
    round_id: int,
    action: Action,
    bets: Mapping[str, int] | None = None,
    key: str | None = None,
    fingerprint: str | None = None,
    session_hash: str | None = None,
) -> JSONResponse:
    started = time.perf_counter()
    service.table(table_id)
    wanted = dict(bets or {})
    order = BetOrder(
        player,
        table_id,
        round_id,
        action,
        wanted,
        key,
        fingerprint or request_hash(action, table_id, round_id, wanted),
        session_hash,
    )
    result = await service.bet_queue.submit(order)
    service.metrics.ack_seconds.observe(time.perf_counter() - started)
    if isinstance(result, BetRefusal):
        service.metrics.bets_refused.labels(table_id, result.code).inc()
        raise ApiError(_STATUS.get(result.code, 422), result.code, result.message)
    if not result.replayed and action != "undo":
        service.metrics.bets_accepted.labels(table_id).inc()
    return _response(result)


async def _undo_last(
    service: Service,
    player: str,
    table_id: str,
    round_id: int,
    key: str | None,
    fingerprint: str,
) -> JSONResponse:
    def run(c: Connection) -> BetReceipt | BetRefusal:
        return undo_last(c, table_id, round_id, player, db_now(c), key, fingerprint)

    result = await service.runner.write(run)
    # The bet queue remembers each player's stakes per round to spare re-reading them; this write
    # went around it, so it must read them again.
    service.bet_queue.forget(round_id, player)
    if isinstance(result, BetRefusal):
        service.metrics.bets_refused.labels(table_id, result.code).inc()
        raise ApiError(_STATUS.get(result.code, 422), result.code, result.message)
    return _response(result)


def _response(receipt: BetReceipt) -> JSONResponse:
    # Sent as is: the hot path skips re-validating a body the store built (it is the
    # documented BetResponse; the schema tests check every answer against it).
    return JSONResponse(receipt.to_json())


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
    return await _submit(
        service,
        player=bettor[0],
        session_hash=bettor[1],
        table_id=table_id,
        round_id=body.round_id,
        action="place",
        bets=body.bets,
        key=key,
    )


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
    # The request as sent (an omitted round is part of it), for the Idempotency-Key.
    action = "undo_last" if last else "undo"
    fingerprint = request_hash(action, table_id, round_id or 0, {})
    if key is not None:
        prior = await service.runner.read(lambda c: recall(c, player, key, fingerprint))
        if isinstance(prior, KeyReused):
            raise ApiError(422, prior.code, prior.message)
        if prior is not None:
            return JSONResponse(prior)
    if round_id is None:
        if live.round is None or live.phase is not Phase.OPEN:
            raise ApiError(409, CLOSED, "no round is open for bets at this table")
        round_id = live.round.id
    if last:
        return await _undo_last(service, player, table_id, round_id, key, fingerprint)
    return await _submit(
        service,
        player=player,
        table_id=table_id,
        round_id=round_id,
        action="undo",
        key=key,
        fingerprint=fingerprint,
    )


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
        service,
        player=bettor[0],
        session_hash=bettor[1],
        table_id=table_id,
        round_id=body.round_id,
        action="rebet",
        key=key,
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
        service,
        player=bettor[0],
        session_hash=bettor[1],
        table_id=table_id,
        round_id=body.round_id,
        action="double",
        key=key,
    )


__all__ = ["request_hash", "router"]
