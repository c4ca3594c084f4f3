"""The WebSocket protocol the server runs under uvicorn: its sans-I/O one, minus two faults,
plus a way to write whole frames made once for many connections.

uvicorn logs a client's text frame that is not UTF-8 as an exception (a traceback in the
server's log for a single bad frame): here it is closed with 1007 (invalid data) and one
log line. And a connection whose peer stopped reading keeps its socket until the kernel
gives up: once the application is done with it, it is aborted instead.

A table's event goes to every client watching it, thousands at once. Through ASGI each copy
costs a task switch, Starlette's and uvicorn's ``send`` and the protocol's frame encoder
(measured: about 50 µs of CPU a client and a message, more than all the rest of a fan-out).
So each connection offers, in its scope's extensions (``FRAME_WRITER``), a ``FrameWriter`` that
writes a frame made once (``text_frame``) straight to its transport. A frame is whole, so it
interleaves safely with the frames the protocol writes itself (pings, pongs, the close).

``FeedProtocol`` reaches into uvicorn's protocol (methods it overrides, attributes it reads):
``feed_protocol()``, called at start, checks that they are there and otherwise answers
uvicorn's own sans-I/O protocol with one warning line, so the feeds take the plain ASGI path
(``routers.feed`` sends through ASGI when a connection has no ``FrameWriter``).
"""

from __future__ import annotations

import asyncio
import logging

import uvicorn
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol

from baccarat.server.internals import missing_members

__all__ = [
    "FRAME_WRITER",
    "INVALID_DATA",
    "MAX_BUFFERED_BYTES",
    "PLAIN_PROTOCOL",
    "WS_MAX_BYTES",
    "FeedProtocol",
    "FrameWriter",
    "feed_protocol",
    "missing_internals",
    "text_frame",
]

#: The close code of a text message that is not UTF-8 (RFC 6455, 7.4.1).
INVALID_DATA = 1007
#: The largest message a client may send (the feed takes none): past it, 1009.
WS_MAX_BYTES = 64 * 1024

#: The scope extension holding a connection's ``FrameWriter``.
FRAME_WRITER = "baccarat.frame_writer"
#: Bytes a connection may have waiting in its transport (its peer reads too slowly) before a
#: frame is refused: about five hundred of a table's messages.
MAX_BUFFERED_BYTES = 1 << 20

#: uvicorn's name of the protocol ``FeedProtocol`` extends: the plain path.
PLAIN_PROTOCOL = "websockets-sansio"

#: What ``FeedProtocol`` uses of uvicorn's protocol: the methods it overrides or calls, and the
#: attributes it reads (``conn`` is the ``websockets`` protocol, whose ``send_close`` it calls).
_METHODS = (
    "handle_connect",
    "send_receive_event_to_app",
    "handle_parser_exception",
    "on_task_complete",
)
_ATTRIBUTES = (
    "scope",
    "curr_msg_data_type",
    "frames",
    "close_sent",
    "disconnected",
    "conn",
    "transport",
    "writable",
)

log = logging.getLogger("baccarat.server")


def text_frame(text: str) -> bytes:
    """``text`` as one unmasked, uncompressed WebSocket text frame (a server's frame).

    >>> text_frame("hi")
    b'\\x81\\x02hi'
    >>> len(text_frame("x" * 300))  # a 16-bit length after the marker 126
    304
    """
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


class FrameWriter:
    """Whole frames written straight to one connection's transport (after its handshake)."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: FeedProtocol) -> None:
        self._protocol = protocol

    def write(self, frame: bytes) -> bool:
        """Write ``frame``; ``False`` (nothing written) if the connection is closing, or if
        its peer has let ``MAX_BUFFERED_BYTES`` pile up."""
        protocol = self._protocol
        transport = protocol.transport
        if protocol.close_sent or protocol.disconnected or transport.is_closing():
            return False
        if transport.get_write_buffer_size() > MAX_BUFFERED_BYTES:
            return False
        transport.write(frame)
        return True


class FeedProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol with clean closes for bad peers and a
    ``FrameWriter`` in each connection's scope."""

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        # The application's task is created, not yet started: it finds the writer in its scope.
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][FRAME_WRITER] = FrameWriter(self)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode("utf-8")
            except UnicodeDecodeError:
                self.frames = []
                log.info("closed a WebSocket that sent a text frame that is not UTF-8")
                self.conn.send_close(INVALID_DATA, "text frames must be UTF-8")
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def on_task_complete(self, task: asyncio.Task[None]) -> None:
        super().on_task_complete(task)
        # The application has finished: if the peer's unread data still fills the buffer,
        # nothing more (not even the close frame) will reach it.
        if not self.writable.is_set():
            self.transport.abort()


def missing_internals() -> list[str]:
    """What ``FeedProtocol`` reads of uvicorn's protocol (and of the ``websockets`` protocol
    under it) and the installed packages lack: empty for the versions it is tested with."""
    missing = missing_members(WebSocketsSansIOProtocol, methods=_METHODS, attributes=_ATTRIBUTES)
    missing += [f"conn.{name}" for name in missing_members(ServerProtocol, methods=["send_close"])]
    return missing


def feed_protocol() -> type[asyncio.Protocol] | str:
    """uvicorn's ``ws`` setting: ``FeedProtocol``, or uvicorn's own protocol (the feeds' plain
    ASGI path) with one warning line if the installed uvicorn lacks what it reads."""
    missing = missing_internals()
    if not missing:
        return FeedProtocol
    log.warning(
        "uvicorn %s's WebSocket protocol lacks %s: the feeds take the plain ASGI path",
        uvicorn.__version__,
        ", ".join(missing),
    )
    return PLAIN_PROTOCOL
