"""The live table service: HTTP API, WebSocket feed, dealer loop, auth and metrics.

``create_app(Settings(...))`` builds the ASGI app; ``baccarat serve`` runs it.

>>> from baccarat.server import Settings
>>> Settings(db="sqlite:///t.db", tables="ez").tables[0].table_id
'ez'
"""

from __future__ import annotations

from baccarat.server.app import create_app
from baccarat.server.clock import Clock, SystemClock
from baccarat.server.config import Settings, default_static_dir
from baccarat.server.table_specs import DEFAULT_TABLES, tables_from

__all__ = [
    "DEFAULT_TABLES",
    "Clock",
    "Settings",
    "SystemClock",
    "create_app",
    "default_static_dir",
    "tables_from",
]
