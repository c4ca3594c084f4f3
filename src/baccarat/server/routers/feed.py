"""``/ws/tables/{table_id}``: the table's live feed (spectators welcome).

A player connects with ``?ticket=`` (a single-use ticket from ``POST /api/ws-tickets``,
valid for seconds) or, from a client that can send headers, ``Authorization: Bearer``;
a bearer token is never taken from the URL, where logs and histories keep it.

On connect: a ``snapshot``; then events in ``seq`` order: ``shoe_start``, ``round_open``,
``bets_closed``, ``squeeze``, ``peel``, ``card``, ``round_result``, ``settled`` (a player's copy adds
their results and balance), ``round_void``, ``shoe_end``, ``watching``; and, outside the
sequence, a player's ``reality_check`` and a squeezer's ``refused``. Each is a model of ``baccarat.server.events``, made
and serialized by the live table. A client that sees a gap in ``seq`` (or is dropped for
falling behind) reconnects for a fresh snapshot.

The feed is one-way but for the squeeze of a face-down card: a player's ``peel`` and
``turn`` messages go to the table's runtime (``baccarat.server.squeeze_inbox``), refused to
that connection alone with a private ``refused`` message; other text messages are read and
ignored; a binary one closes the feed with 1003. Close codes: 4404 no such table, 4401 a ticket or token that
opens nothing (or a session that has ended), 1013 too far behind; uvicorn closes a frame
past the size limit with 1009 and ``baccarat.server.wsprotocol`` bad UTF-8 with 1007.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect
from starlette.datastructures import QueryParams
from starlette.types import ASGIApp, Receive, Scope, Send

from baccarat.server.auth import MAX_TOKEN_CHARS, bearer_token
from baccarat.server.mirror import Client
from baccarat.server.service import Service
from baccarat.server.squeeze_inbox import SqueezeInbox
from baccarat.server.wsprotocol import FRAME_WRITER, FrameWriter
from baccarat.store.sessions import LiveSession, redeem_ticket

__all__ = ["FEED_PATH", "MAX_REASON_BYTES", "FeedLane", "close_reason", "table_feed"]

#: The feed's path (Starlette's ``{table_id}`` is one path segment).
FEED_PATH = re.compile(r"/ws/tables/([^/]+)")
#: A close frame carries at most 125 bytes: the 2-byte code and a reason of 123 bytes.
MAX_REASON_BYTES = 123
UNSUPPORTED_DATA = 1003


def close_reason(text: str, limit: int = MAX_REASON_BYTES) -> str:
    """``text`` cut to ``limit`` UTF-8 bytes on a character boundary (ending in '…' if cut).

    >>> close_reason("short")
    'short'
    >>> reason = close_reason("é" * 100)
    >>> len(reason.encode()), reason[-1]
    (123, '…')
    """
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    ellipsis = "…".encode()
    cut = data[: limit - len(ellipsis)].decode("utf-8", errors="ignore")
    return cut + "…"


async def _pump(websocket: WebSocket, queue: asyncio.Queue[str | None]) -> None:
    """Send a client's queued messages through ASGI (a server without ``FrameWriter``)."""
    while True:
        text = await queue.get()
        if text is None:
            return
        await websocket.send_text(text)


async def _session(
    service: Service, websocket: WebSocket, ticket: str | None
) -> LiveSession | None:
    """The session a ticket (or a bearer header) opens; ``None`` if it opens nothing."""
    if ticket is not None:
        if not ticket or len(ticket) > MAX_TOKEN_CHARS:
            return None
        now, idle = service.tokens.now_ms(), service.tokens.idle_ms
        return await service.runner.write(lambda c: redeem_ticket(c, ticket, now, idle))
    token = bearer_token(websocket.headers.get("authorization"))
    # Watching is not activity: a feed does not keep its session from idling out.
    return None if token is None else await service.tokens.session(token, touch=False)


def _wants_player(websocket: WebSocket, ticket: str | None) -> bool:
    return ticket is not None or websocket.headers.get("authorization") is not None


class FeedLane:
    """Feed connections served as they come, before the app's middleware and routing (a
    pure ASGI middleware, the outermost the app adds); every other scope goes on.

    A feed lives for hours and thousands are open at once, and each layer a connection
    passes keeps a coroutine of it for its whole life: through every middleware and router a
    feed held 28 coroutines (tracemalloc: 34 KB a client in all). So the feed has no route:
    the lane is its only way in.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = FEED_PATH.fullmatch(scope["path"]) if scope["type"] == "websocket" else None
        if path is None:
            await self.app(scope, receive, send)
            return
        ticket = QueryParams(scope["query_string"]).get("ticket")
        await table_feed(WebSocket(scope, receive, send), path.group(1), ticket)


async def table_feed(websocket: WebSocket, table_id: str, ticket: str | None = None) -> None:
    service: Service = websocket.app.state.service
    await websocket.accept()
    live = service.tables.get(table_id)
    if live is None or not live.ready.is_set():
        await websocket.close(code=4404, reason=close_reason(f"there is no table {table_id!r}"))
        return
    session = None
    if _wants_player(websocket, ticket):
        session = await _session(service, websocket, ticket)
        if session is None:
            await websocket.close(code=4401, reason="unknown, used or expired ticket or token")
            return
    writer: FrameWriter | None = websocket.scope.get("extensions", {}).get(FRAME_WRITER)
    stopped: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    client = Client(
        None if session is None else session.player_id,
        None if session is None else session.token_hash,
        writer=writer,
        stopped=stopped,
    )
    live.attach(client)
    gauge = service.metrics.clients.labels(table_id)
    gauge.inc()
    watched: set[asyncio.Future[Any]] = {stopped}
    if client.queue is not None:
        client.sender = asyncio.create_task(_pump(websocket, client.queue))
        watched.add(client.sender)
    disconnected = False
    squeezes = SqueezeInbox(service, table_id, client)
    try:
        while not client.dropped:
            receive = asyncio.create_task(websocket.receive())
            done, _ = await asyncio.wait({receive, *watched}, return_when=asyncio.FIRST_COMPLETED)
            if receive not in done:
                receive.cancel()
                break
            message = receive.result()
            if message["type"] == "websocket.disconnect":
                disconnected = True
                break
            if message.get("bytes") is not None:
                client.drop(UNSUPPORTED_DATA, "the feed takes no binary messages")
                break
            if message.get("text") is not None:
                await squeezes.take(message["text"])
    except WebSocketDisconnect:
        disconnected = True
    finally:
        live.detach(client)
        gauge.dec()
        if client.sender is not None:
            client.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await client.sender
    if client.dropped and not disconnected:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=client.close_code, reason=close_reason(client.close_reason)),
                2.0,
            )
