"""The one path of a bet order from a request to its answer: read, authenticate, submit.

``answer`` takes a bet request as bytes and headers (``bet_request.read_bet`` reads it), finds
the bettor behind its token, makes the ``BetOrder`` and ``submit``s it to the bet queue; the
receipt is the answer, and a refusal is the one error body with its code's status
(``errors.refused``). The bets' fast lane (``bet_lane``) and the FastAPI routes
(``routers.bets``) both answer through it, so their answers are the same bytes. A place,
rebet or double of an operator's player is paid by the operator's wallet first
(``provider_bets``); every other order goes to the bet queue.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Mapping
from typing import Any

from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.bet_request import BetAction, read_bet
from baccarat.server.errors import (
    BAD_TOKEN,
    ApiError,
    database_unavailable,
    error_response,
    refused,
)
from baccarat.server.provider_bets import PLACING
from baccarat.server.service import Service
from baccarat.table import Action, BetOrder, BetReceipt

__all__ = ["answer", "bet_order", "receipt_body", "request_hash", "submit"]


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
    result = await _placed(service, order)
    service.metrics.ack_seconds.observe(time.perf_counter() - started)
    if isinstance(result, Refusal):
        service.metrics.bets_refused.labels(order.table_id, result.code.value).inc()
        raise refused(result)
    if not result.replayed and order.action not in ("undo", "undo_last"):
        service.metrics.bets_accepted.labels(order.table_id).inc()
    # Sent without re-validating a body the store built (it is the documented BetResponse;
    # the schema tests check every answer against it).
    return JSONResponse(receipt_body(result))


async def _placed(service: Service, order: BetOrder) -> BetReceipt | Refusal:
    """The order's result: through the operator's wallet for an operator's player's stake
    (who is one is read once per player and remembered), else through the bet queue."""
    if order.action in PLACING:
        operator = await service.provider_bets.operator_of(order.player_id)
        if operator is not None:
            return await service.provider_bets.submit(order, operator)
    return await service.bet_queue.submit(order)


def receipt_body(receipt: BetReceipt) -> dict[str, Any]:
    """A receipt as the answer's body, each spot in the order of its name: as the store keeps
    an answer (sorted JSON) and replays it, so a retry's answer is the first byte for byte.

    >>> receipt_body(BetReceipt(7, "place", {"tie": 1, "banker": 2}, {"tie": 1, "banker": 2}, 9))
    {'round_id': 7, 'action': 'place', 'accepted': {'banker': 2, 'tie': 1}, 'bets': {'banker': 2, 'tie': 1}, 'balance': 9, 'returned': 0}
    """
    body = receipt.to_json()
    for spots in ("accepted", "bets"):
        body[spots] = dict(sorted(body[spots].items()))
    return body


async def answer(
    service: Service,
    action: BetAction,
    table_id: str,
    headers: Iterable[tuple[bytes, bytes]],
    body: bytes,
) -> JSONResponse:
    """The answer to a ``POST`` of ``action`` on ``table_id``'s bets: the receipt, or the
    error (its form 422, no token or a token nobody holds 401, then the table and the batch)."""
    try:
        call = read_bet(action, table_id, headers, body)
        bettor = await service.tokens.bettor(call.token)
        if bettor is None:
            raise refused(Refusal(RefusalCode.UNAUTHORIZED, BAD_TOKEN))
        order = bet_order(bettor, call.table_id, call.round_id, call.action, call.key, call.bets)
        return await submit(service, order)
    except ApiError as error:
        return error_response(error)
    except SQLAlchemyError as error:
        return database_unavailable(error)
