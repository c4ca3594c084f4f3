"""``/ws/tables/{table_id}``: the table's live feed (spectators welcome; ``?token=`` for players).

On connect: a ``snapshot``; then events in ``seq`` order: ``shoe_start``, ``round_open``,
``bets_closed``, ``card``, ``round_result``, ``settled`` (a player's copy carries ``you``:
their returns and balance), ``round_void``, ``shoe_end``. A client that sees a gap in
``seq`` (or is dropped for falling behind) reconnects for a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from baccarat.server.live import Client
from baccarat.server.service import Service

router = APIRouter()


async def _pump(websocket: WebSocket, client: Client) -> None:
    while True:
        text = await client.queue.get()
        if text is None:
            return
        await websocket.send_text(text)


@router.websocket("/ws/tables/{table_id}")
async def table_feed(websocket: WebSocket, table_id: str, token: str | None = None) -> None:
    service: Service = websocket.app.state.service
    await websocket.accept()
    live = service.tables.get(table_id)
    if live is None:
        await websocket.close(code=4404, reason=f"there is no table {table_id!r}")
        return
    player = None
    if token:
        player = await service.tokens.player(token)
        if player is None:
            await websocket.close(code=4401, reason="unknown token")
            return
    client = Client(player)
    live.attach(client)
    gauge = service.metrics.clients.labels(table_id)
    gauge.inc()
    client.sender = asyncio.create_task(_pump(websocket, client))
    disconnected = False
    try:
        while not client.sender.done():
            receive = asyncio.create_task(websocket.receive())
            done, _ = await asyncio.wait(
                {receive, client.sender}, return_when=asyncio.FIRST_COMPLETED
            )
            if receive not in done:
                receive.cancel()
                break
            if receive.result()["type"] == "websocket.disconnect":
                disconnected = True
                break
    except WebSocketDisconnect:
        disconnected = True
    finally:
        live.detach(client)
        gauge.dec()
        client.sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await client.sender
    if client.dropped and not disconnected:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=client.close_code, reason=client.close_reason), 2.0
            )
