"""Closing a request's connection without an answer, as a wallet that crashed after it committed.

An ASGI application cannot do this by itself: an application that returns without answering
gets a 500 from the server, which is an answer. So ``Dropper`` is given the running
``uvicorn.Server`` and aborts the transport of the connection the request came on (found by
its peer address among the server's connections): the client sees the connection end with no
response, a transport error. Outside uvicorn (an in-process ASGI transport) it raises
``ConnectionAbortedError`` instead, which such a transport hands to its client.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    import uvicorn

__all__ = ["Dropper"]


class Dropper:
    """Aborts the connection of a request; ``server`` is set once uvicorn runs the app."""

    def __init__(self) -> None:
        self.server: uvicorn.Server | None = None

    async def drop(self, client: Any) -> None:
        """Abort the connection from ``client`` (the ASGI scope's ``client``), then let the
        server see it lost, so nothing is sent on it afterwards."""
        if self.server is None:
            raise ConnectionAbortedError("the wallet dropped the answer")
        transport = self._transport(tuple(client) if client is not None else None)
        if transport is None:
            return  # the client has gone already (it timed out)
        transport.abort()
        # connection_lost runs on the next turns of the loop: the request is then marked
        # disconnected, and the response the application returns is discarded.
        for _ in range(3):
            await asyncio.sleep(0)

    def _transport(self, peer: tuple[Any, ...] | None) -> asyncio.Transport | None:
        if self.server is None or peer is None:
            return None
        for connection in list(self.server.server_state.connections):
            # Both of uvicorn's HTTP protocols keep their peer and transport under these names.
            if getattr(connection, "client", None) == peer:
                # uvloop's transports are not asyncio.Transport subclasses: what is needed is abort.
                transport = getattr(connection, "transport", None)
                if callable(getattr(transport, "abort", None)):
                    return cast("asyncio.Transport", transport)
        return None
