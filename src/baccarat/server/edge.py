"""HTTP at the process edge, bounded whatever sits in front: uvicorn's h11 protocol, with a
head timeout and a cap of open connections per address.

- **h11, not httptools.** h11 refuses a request head (request line and headers) past
  ``MAX_HEAD_BYTES`` with a 400 and closes the connection, so neither one endless header nor a
  million tiny ones can grow the process; and it hands a chunked body's trailers to no one,
  where httptools appended them to the request's headers after the app had been called (an
  ``Authorization`` sent only as a trailer placed a bet).
- **A head timeout.** A request head must be complete ``head_timeout_s`` after the connection
  opened or its previous response was sent; a peer that sends nothing, or trickles its head a
  byte at a time, is closed then (uvicorn's keep-alive timeout starts only after a response,
  and any byte stops it).
- **Connections per address.** At most ``max_per_address`` HTTP connections from one client
  address at once in this process; a further one is closed at once. A WebSocket leaves the
  count when it is upgraded (its frames are bounded by ``FeedProtocol``). Behind a proxy every
  connection comes from the proxy: ``--forwarded-allow-ips`` names it, and its connections are
  not capped here (the proxy caps its clients, ``docs/deployment.md``).

``EdgeProtocol`` subclasses uvicorn's ``H11Protocol`` and reads its ``conn``, ``transport``
and ``client``: ``edge_protocol`` checks at start that they are there (``server.internals``)
and otherwise falls back to uvicorn's plain h11 protocol with one warning line, which keeps
the head bound and the trailers rule, not the timeout and the cap.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any, ClassVar

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from baccarat.server.config import Settings
from baccarat.server.internals import missing_members

__all__ = [
    "MAX_HEAD_BYTES",
    "EdgeProtocol",
    "configure_edge",
    "edge_protocol",
    "missing_internals",
]

#: The largest request head (request line and headers) accepted: 16 KiB, h11's own default.
MAX_HEAD_BYTES = 16 * 1024
log = logging.getLogger("baccarat.server")


class EdgeProtocol(H11Protocol):
    """uvicorn's h11 protocol with the head timeout and the per-address cap (see the module)."""

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
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # a whole head has come
            self._disarm_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_head_timer()

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        # The connection becomes the WebSocket protocol's: this one hears of it no more.
        self._release()
        super().handle_websocket_upgrade(event)

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
        timer, self._head_timer = getattr(self, "_head_timer", None), None
        if timer is not None:
            timer.cancel()

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self.transport.close()


def missing_internals() -> list[str]:
    """What ``EdgeProtocol`` reads of uvicorn's ``H11Protocol`` and the installed one lacks."""
    return missing_members(
        H11Protocol,
        methods=(
            "connection_made",
            "connection_lost",
            "data_received",
            "on_response_complete",
            "handle_websocket_upgrade",
        ),
        attributes=("conn", "transport", "client", "loop"),
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
    or uvicorn's plain ``h11`` (one warning line) when the installed uvicorn lacks what it
    reads."""
    options = {"h11_max_incomplete_event_size": MAX_HEAD_BYTES}
    missing = missing_internals()
    if missing:
        log.warning(
            "uvicorn %s's h11 protocol lacks %s: no head timeout or connection cap",
            uvicorn.__version__,
            ", ".join(missing),
        )
        return "h11", options
    configure_edge(settings)
    return EdgeProtocol, options
