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
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Request

__all__ = [
    "FRAME_WRITER",
    "INVALID_DATA",
    "MAX_BUFFERED_BYTES",
    "WS_MAX_BYTES",
    "FeedProtocol",
    "FrameWriter",
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
