"""The store: schema and migrations, the double-entry ledger, players, shoes, rounds and bets.

Everything here runs inside a transaction the caller opens (``Database.write()`` or
``Database.read()``) on a SQLAlchemy ``Connection``; the functions do not commit.

>>> database_url("postgres://postgres@127.0.0.1/test")
'postgresql+psycopg://postgres@127.0.0.1/test'
"""

from __future__ import annotations

from baccarat.store.check import LedgerReport, check_ledger
from baccarat.store.clock import db_now
from baccarat.store.engine import Database, StoreError, database_url, default_database_url
from baccarat.store.migrate import upgrade

__all__ = [
    "Database",
    "LedgerReport",
    "StoreError",
    "check_ledger",
    "database_url",
    "db_now",
    "default_database_url",
    "upgrade",
]
