"""HTTP at the process edge, bounded whatever sits in front: uvicorn's httptools protocol with
a bound on the request head, trailers ignored, a head timeout and a cap of connections per
address.

- **The request head** (request line and headers) may take ``MAX_HEAD_BYTES``: past that,
  before the head is whole, the answer is 400 and the connection is closed. httptools gathers
  a header's value before it reports it, so the bytes are counted as they arrive, not as
  headers: neither one endless header nor a million tiny ones grows the process.
- **Trailers are nobody's headers.** httptools reports a chunked body's trailer fields through
  the same callback as headers, and uvicorn appended them to the headers the app had already
  been given (an ``Authorization`` sent only as a trailer placed a bet): they are dropped.
- **A head timeout.** A request head must be whole ``head_timeout_s`` after the connection
  opened or its previous answer was sent; a peer that sends nothing, or trickles its head a
  line at a time, is closed then (uvicorn's keep-alive timeout starts only after an answer,
  and any byte stops it).
- **Connections per address.** At most ``max_per_address`` HTTP connections from one client
  address at once in this process; a further one is closed at once. A WebSocket leaves the
  count when it is upgraded (its frames are bounded by ``FeedProtocol``). Behind a proxy every
  connection comes from the proxy: ``--forwarded-allow-ips`` names it, and its connections are
  not capped here (the proxy caps its clients, ``docs/deployment.md``).

httptools rather than h11, which bounds a head by itself: measured in one run, h11 cost the
bet path 0.2 ms of CPU a request, doubling p99 at 500 bets/s (``bench/RESULTS.md``).
``EdgeProtocol`` subclasses uvicorn's ``HttpToolsProtocol`` and overrides its parser
callbacks: ``edge_protocol`` checks at start that they are there (``server.internals``) and
otherwise falls back to uvicorn's h11 protocol with one warning line (its own head bound, and
trailers ignored; no timeout or cap).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any, ClassVar

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from baccarat.server.config import Settings
from baccarat.server.internals import missing_members

__all__ = [
    "MAX_HEAD_BYTES",
    "EdgeProtocol",
    "configure_edge",
    "edge_protocol",
    "missing_internals",
]

#: The largest request head (request line and headers) accepted: 16 KiB, h11's default.
MAX_HEAD_BYTES = 16 * 1024
log = logging.getLogger("baccarat.server")


class EdgeProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the edge's bounds (see the module)."""

    head_timeout_s: ClassVar[float] = 10.0
    max_per_address: ClassVar[int] = 256
    #: Addresses whose connections are not capped (the proxies of ``--forwarded-allow-ips``).
    uncapped: ClassVar[frozenset[str]] = frozenset()
    #: Open HTTP connections per client address, in this process (one event loop).
    open_per_address: ClassVar[Counter[str]] = Counter()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._address: str | None = None
        #: Whether a request head is awaited (none begun, or begun and not whole), and its
        #: bytes so far.
        self._in_head, self._head_bytes = True, 0
        address = self.client[0] if self.client else ""
        capped = address not in self.uncapped and "*" not in self.uncapped
        if capped and self.open_per_address[address] >= self.max_per_address:
            transport.close()
            return
        self._address = address
        self.open_per_address[address] += 1
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        # Still no whole head after this many bytes: refused before the parser holds more.
        if self._in_head and self._head_bytes > MAX_HEAD_BYTES and not self.transport.is_closing():
            self.send_400_response("Request head too large.")

    def on_header(self, name: bytes, value: bytes) -> None:
        if self._in_head:  # after the head, the parser reports a chunked body's trailers
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head, self._head_bytes = False, 0
        self._disarm_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True  # the next request's head, if the connection goes on

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._in_head:
            self._arm_head_timer()

    def handle_websocket_upgrade(self) -> None:
        # The connection becomes the WebSocket protocol's: this one hears of it no more.
        self._release()
        super().handle_websocket_upgrade()

    def _release(self) -> None:
        self._disarm_head_timer()
        address, self._address = self._address, None
        if address is not None:
            self.open_per_address[address] -= 1
            if self.open_per_address[address] <= 0:
                del self.open_per_address[address]

    def _arm_head_timer(self) -> None:
        self._disarm_head_timer()
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_timed_out)

    def _disarm_head_timer(self) -> None:
        timer, self._head_timer = self._head_timer, None
        if timer is not None:
            timer.cancel()

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing() and self._in_head:
            self.transport.close()


def missing_internals() -> list[str]:
    """What ``EdgeProtocol`` overrides or reads of uvicorn's ``HttpToolsProtocol`` and the
    installed one lacks."""
    return missing_members(
        HttpToolsProtocol,
        methods=(
            "connection_made",
            "connection_lost",
            "data_received",
            "on_header",
            "on_headers_complete",
            "on_message_complete",
            "on_response_complete",
            "handle_websocket_upgrade",
            "send_400_response",
        ),
        attributes=("transport", "client", "loop"),
    )


def configure_edge(settings: Settings) -> None:
    """Give ``EdgeProtocol`` the settings' bounds, in this process (a worker calls it too: a
    class attribute set in the supervisor does not reach a spawned worker)."""
    EdgeProtocol.head_timeout_s = settings.head_timeout_seconds
    EdgeProtocol.max_per_address = settings.max_connections_per_address
    proxies = settings.forwarded_allow_ips or ""
    EdgeProtocol.uncapped = frozenset(ip.strip() for ip in proxies.split(",") if ip.strip())


def edge_protocol(settings: Settings) -> tuple[type[asyncio.Protocol] | str, dict[str, Any]]:
    """uvicorn's ``http`` setting and its options: ``EdgeProtocol`` configured by ``settings``,
    or uvicorn's ``h11`` (one warning line) when the installed uvicorn lacks what it reads."""
    options = {"h11_max_incomplete_event_size": MAX_HEAD_BYTES}
    missing = missing_internals()
    if missing:
        log.warning(
            "uvicorn %s's httptools protocol lacks %s: h11 serves, with no head timeout or "
            "connection cap",
            uvicorn.__version__,
            ", ".join(missing),
        )
        return "h11", options
    configure_edge(settings)
    return EdgeProtocol, options
