"""``/api/tables/{table_id}/bets``: place, undo (all, or the last chip), rebet and double.

The same ``Idempotency-Key`` with the same request returns the first answer and moves no
money again; with a different request it is refused (422). Only accepted requests are
remembered: a refused request left nothing, so retrying it asks again. Placing needs a key;
an undo takes one too (optional), and its request is what was sent: an undo without
``round_id`` is another request than one naming the round.

A ``POST`` (place, rebet, double) is answered by ``bet_service.answer``, the function of the
bets' fast lane (``bet_lane``), which takes these requests before FastAPI's routing: the
routes' signatures describe the API (OpenAPI), and ``BetRoute`` answers a request that reaches
them (an app without the lane) from its raw headers and body, as the lane does.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute

from baccarat.server.bet_request import BetAction, bet_path
from baccarat.server.bet_service import answer, request_hash, submit
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
from baccarat.server.service import Service
from baccarat.table import Action, BetOrder, Phase

__all__ = ["BetRoute", "router"]

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


class BetRoute(APIRoute):
    """A bet ``POST``: documented by its endpoint's signature, answered by
    ``bet_service.answer`` (not by FastAPI's validation, so the lane's answer and the route's
    are one)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        found = bet_path(self.path_format)
        assert found is not None, f"{self.path_format} is not a bet path"
        action: BetAction = found[1]

        async def handle(request: Request) -> Response:
            service: Service = request.app.state.service
            table_id: str = request.path_params["table_id"]
            body = await request.body()
            return await answer(service, action, table_id, request.scope["headers"], body)

        return handle


router = APIRouter(tags=["bets"])
_placing = APIRouter(route_class=BetRoute)
_BET_ERRORS = errors(401, 404, 409, 422)


@_placing.post("/api/tables/{table_id}/bets", response_model=BetResponse, responses=_BET_ERRORS)
async def place_bets(
    table_id: TableId,
    body: BetRequest,
    key: IdempotencyKey,
    bettor: Bettor,
    service: ServiceDep,
) -> JSONResponse:  # pragma: no cover  (the signature documents; BetRoute answers)
    """Place bets on the open round: all spots or none.

    Errors: ``betting_closed`` (409), ``insufficient_funds`` (422), ``below_minimum``,
    ``above_maximum``, ``unknown_bet``, ``bet_not_offered``, ``invalid_stake``,
    ``idempotency_key_reused`` (422).
    """
    raise NotImplementedError


async def _repeat(
    table_id: TableId,
    body: RepeatRequest,
    key: IdempotencyKey,
    bettor: Bettor,
    service: ServiceDep,
) -> JSONResponse:  # pragma: no cover  (the signature documents; BetRoute answers)
    raise NotImplementedError


#: A rebet and a double: one request (the round), told apart by the path.
_REPEATS = {
    "rebet": "Place again the bets of your previous round at this table.",
    "double": "Place the bets of your previous round at this table, each stake doubled.",
}
for _action, _description in _REPEATS.items():
    _placing.add_api_route(
        f"/api/tables/{{table_id}}/bets/{_action}",
        _repeat,
        methods=["POST"],
        name=_action,
        description=_description,
        response_model=BetResponse,
        responses=_BET_ERRORS,
    )
router.include_router(_placing)


@router.delete("/api/tables/{table_id}/bets", response_model=BetResponse, responses=_BET_ERRORS)
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
