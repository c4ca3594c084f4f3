"""The bets' fast lane: ``POST /api/tables/{table_id}/bets`` (and ``/rebet``, ``/double``)
answered without FastAPI's routing.

Placing a bet is the hot path of the service. At a thousand bets a second FastAPI's routing
over every route, its dependency solving and its response machinery cost a node more CPU than
the group commit that makes the bet durable (measured with py-spy: 0.6 ms of the 1.0 ms a bet
cost a node at 800 bets/s on PostgreSQL). ``BetLane`` is a pure ASGI middleware that takes
every ``POST`` to a bet path and answers it through ``bet_service.answer``, the function the
FastAPI routes call too: one reader of the request (``bet_request``), one ``submit``, so an
answer is the same bytes whichever way the request came. The routes stay the description of
the API (OpenAPI) and answer when the lane is not installed. The lane sits inside
``Hygiene``, so the body limit and the security headers are the same.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from baccarat.server.bet_request import bet_path
from baccarat.server.bet_service import answer
from baccarat.server.service import Service

__all__ = ["BetLane"]


class BetLane:
    """The middleware (``app.add_middleware(BetLane, service=...)``, inside ``Hygiene``)."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = None
        if scope["type"] == "http" and scope["method"] == "POST":
            found = bet_path(scope["path"])
        if found is None:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        if body is None:
            return  # the client has gone: nobody to answer
        table_id, action = found
        response = await answer(self.service, action, table_id, scope["headers"], body)
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
