"""The WebSocket protocol the server runs under uvicorn: its sans-I/O one, minus two faults.

uvicorn logs a client's text frame that is not UTF-8 as an exception (a traceback in the
server's log for a single bad frame): here it is closed with 1007 (invalid data) and one
log line. And a connection whose peer stopped reading keeps its socket until the kernel
gives up: once the application is done with it, it is aborted instead.
"""

from __future__ import annotations

import asyncio
import logging

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["INVALID_DATA", "WS_MAX_BYTES", "FeedProtocol"]

#: The close code of a text message that is not UTF-8 (RFC 6455, 7.4.1).
INVALID_DATA = 1007
#: The largest message a client may send (the feed takes none): past it, 1009.
WS_MAX_BYTES = 64 * 1024

log = logging.getLogger("baccarat.server")


class FeedProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol with clean closes for bad peers."""

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
