"""``baccarat serve --workers N``: N processes on one port, each a node of the cluster.

uvicorn's supervisor starts the workers (fresh interpreters) and restarts one that dies; each
builds its app with ``worker_app`` from the ``Settings`` the command handed down in
``BACCARAT_WORKER_CONFIG`` (this process's own environment, readable only by its user). Each
worker is a node of its own, ``<node-id>-<pid>``: it holds its own leases, so a worker that
dies costs its tables one lease time, as a node would.
"""

from __future__ import annotations

import base64
import os
import pickle

from fastapi import FastAPI

from baccarat.server.app import create_app
from baccarat.server.config import Settings
from baccarat.server.edge import configure_edge
from baccarat.server.pause import install_from_env

__all__ = ["ENV_VAR", "hand_down", "worker_app"]

ENV_VAR = "BACCARAT_WORKER_CONFIG"


def hand_down(settings: Settings) -> None:
    """Put ``settings`` (``on_this_machine``'s) where the workers ``worker_app`` builds will
    find them."""
    os.environ[ENV_VAR] = base64.b64encode(pickle.dumps(settings)).decode()


def worker_app() -> FastAPI:
    """The app of one worker (uvicorn's factory), a node named after its process."""
    settings = pickle.loads(base64.b64decode(os.environ[ENV_VAR]))  # our parent process wrote it
    assert isinstance(settings, Settings)
    if settings.cluster is not None:
        node = f"{settings.cluster.node_id}-{os.getpid()}"
        settings = settings.model_copy(update={"node_id": node})
    install_from_env()
    configure_edge(settings)
    return create_app(settings)
