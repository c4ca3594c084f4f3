"""``POST /api/operators/{operator_id}/launch`` and ``POST /api/launch``: an operator launches
its player (provider mode, ``docs/wallet.md``); the page trades the link for a session.

The operator's request is signed like a wallet call (``X-Operator-Id``, ``X-Timestamp``,
``X-Signature`` over the raw body), so the route reads the body as bytes and the action
verifies it before parsing it. The transactions are ``baccarat.server.actions.launches``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request

from baccarat.server.actions.launches import Launches
from baccarat.server.errors import answer
from baccarat.server.launch_models import LaunchAnswer, LaunchBody, Launched, LaunchTrade
from baccarat.server.routers.responses import errors
from baccarat.wallet.contract import HEADER_OPERATOR, HEADER_SIGNATURE, HEADER_TIMESTAMP

__all__ = ["router"]

router = APIRouter(tags=["operators"])


async def _launches(request: Request) -> Launches:
    launches: Launches = request.app.state.launches
    return launches


LaunchesDep = Annotated[Launches, Depends(_launches)]
OperatorId = Annotated[str, Path(max_length=40, pattern=r"^[a-z0-9][a-z0-9_-]*$")]


def _header(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "in": "header",
        "required": True,
        "schema": {"type": "string", "maxLength": 100},
        "description": description,
    }


# The body is documented here and read as bytes below: its signature is over the bytes sent.
_SIGNED = {
    "parameters": [
        _header(HEADER_OPERATOR, "The operator's id: the one in the path."),
        _header(HEADER_TIMESTAMP, "Milliseconds since the Unix epoch; within 300 s of ours."),
        _header(
            HEADER_SIGNATURE,
            'Lowercase hex HMAC-SHA256 of f"{timestamp}." + body under the shared secret.',
        ),
    ],
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": LaunchBody.model_json_schema()}},
    },
}


@router.post(
    "/api/operators/{operator_id}/launch",
    status_code=201,
    responses=errors(401, 403, 404, 409, 422),
    openapi_extra=_SIGNED,
)
async def launch(operator_id: OperatorId, request: Request, launches: LaunchesDep) -> LaunchAnswer:
    """Launch the operator's player: seat them (made at the first launch) and answer a link
    that opens the game once, within 120 s. Refused with nothing made: 401
    ``invalid_signature`` (headers, an unknown or disabled operator, a timestamp more than
    300 s away, a wrong signature), 409 ``replayed_request`` (this signature was received
    before), 422 (the body, a currency not the operator's or not played here), 404 (no such
    table), 403 (the player's account is locked or closed)."""
    raw = await request.body()
    return answer(await launches.launch(operator_id, request.headers, raw, str(request.base_url)))


@router.post("/api/launch", status_code=201, responses=errors(401, 403, 409, 422))
async def trade(body: LaunchTrade, launches: LaunchesDep) -> Launched:
    """Trade a launch link's token for a player session (as a login answers, with the
    launch's language and table, the operator's name and the balance at its wallet). The
    token works once (409 ``launch_used``) and within 120 s (401 ``launch_expired``); a
    locked account or a break is refused (403) and leaves the token as it was."""
    return answer(await launches.trade(body.token))
