"""``/api/tables/{table_id}/bets``: place, undo (all, or the last chip), rebet and double.

The same ``Idempotency-Key`` with the same request returns the first answer and moves no
money again; with a different request it is refused (422). Only accepted requests are
remembered: a refused request left nothing, so retrying it asks again. Placing needs a key;
an undo takes one too (optional), and its request is what was sent: an undo without
``round_id`` is another request than one naming the round.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse

from baccarat.server.bet_lane import bet_order, request_hash, submit
from baccarat.server.deps import Bettor, CurrentPlayer, OptionalKey, ServiceDep, TableId
from baccarat.server.models import (
    KEY_CHARS,
    KEY_PATTERN,
    MAX_ID,
    BetRequest,
    BetResponse,
    RepeatRequest,
)
from baccarat.server.routers.responses import errors
from baccarat.table import Action, BetOrder, Phase

router = APIRouter(tags=["bets"])

IdempotencyKey = Annotated[
    str,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=KEY_CHARS,
        pattern=KEY_PATTERN,
        description="A fresh random string per request; resend it to retry safely.",
    ),
]


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
    # A well-formed request is placed by the bets' fast lane (``baccarat.server.bet_lane``)
    # before it gets here; this route answers the others, and describes the API.
    order = bet_order(bettor, table_id, body.round_id, "place", key, body.bets)
    return await submit(service, order)


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
    return await submit(service, order)


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
    return await submit(service, bet_order(bettor, table_id, body.round_id, "rebet", key))


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
    return await submit(service, bet_order(bettor, table_id, body.round_id, "double", key))


__all__ = ["router"]
