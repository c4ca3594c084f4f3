"""Running the reference wallet under uvicorn (``baccarat wallet reference``)."""

from __future__ import annotations

import socket

import uvicorn

from baccarat.wallet.reference.app import ReferenceConfig, create_app
from baccarat.wallet.reference.drop import Dropper

__all__ = ["listen", "run"]


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a port in use is an ``OSError`` to report
    (uvicorn would log it and exit)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def run(config: ReferenceConfig, *, host: str = "127.0.0.1", port: int = 8800) -> None:
    """Serve the wallet until interrupted (SIGINT or SIGTERM)."""
    sock = listen(host, port)
    dropper = Dropper()
    app = create_app(config, dropper=dropper)
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, timeout_keep_alive=30)
    )
    dropper.server = server
    server.run(sockets=[sock])
