"""The live table service: HTTP API, WebSocket feed, dealer loop, auth and metrics.

``create_app(ServerConfig(...))`` builds the ASGI app; ``baccarat serve`` runs it.

>>> from baccarat.server import ServerConfig, tables_from
>>> ServerConfig("sqlite:///t.db", tables_from(["ez"])).tables[0].table_id
'ez'
"""

from __future__ import annotations

from baccarat.server.app import create_app
from baccarat.server.clock import Clock, SystemClock
from baccarat.server.config import DEFAULT_TABLES, ServerConfig, default_static_dir, tables_from

__all__ = [
    "DEFAULT_TABLES",
    "Clock",
    "ServerConfig",
    "SystemClock",
    "create_app",
    "default_static_dir",
    "tables_from",
]
