"""``baccarat serve --workers N``: N processes on one port, each a node of the cluster.

uvicorn's supervisor starts the workers (fresh interpreters) and restarts one that dies; each
builds its app with ``worker_app`` from the configuration the command handed down in
``BACCARAT_WORKER_CONFIG`` (this process's own environment, readable only by its user). Each
worker is a node of its own, ``<node-id>-<pid>``: it holds its own leases, so a worker that
dies costs its tables one lease time, as a node would.
"""

from __future__ import annotations

import base64
import os
import pickle
from dataclasses import replace

from fastapi import FastAPI

from baccarat.server.app import create_app
from baccarat.server.config import ServerConfig
from baccarat.server.pause import install_from_env

__all__ = ["ENV_VAR", "hand_down", "worker_app"]

ENV_VAR = "BACCARAT_WORKER_CONFIG"


def hand_down(config: ServerConfig) -> None:
    """Put ``config`` where the workers ``worker_app`` builds will find it."""
    os.environ[ENV_VAR] = base64.b64encode(pickle.dumps(config)).decode()


def worker_app() -> FastAPI:
    """The app of one worker (uvicorn's factory), a node named after its process."""
    config = pickle.loads(base64.b64decode(os.environ[ENV_VAR]))  # our parent process wrote it
    assert isinstance(config, ServerConfig)
    if config.cluster is not None:
        node = f"{config.cluster.node_id}-{os.getpid()}"
        config = replace(config, cluster=replace(config.cluster, node_id=node))
    install_from_env()
    return create_app(config)
