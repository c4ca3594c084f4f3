"""The database's clock: the reference time for closing a betting window.

A bet transaction compares this clock with the round's ``closes_at`` while it holds the
round's lock, so no bet can commit after the round was closed in the database.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

__all__ = ["db_now"]

_NOW = {
    # julianday('now') has millisecond resolution; 2440587.5 is the Unix epoch as a Julian day.
    "sqlite": "SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)",
    # clock_timestamp(), not now(): now() is frozen at the start of the transaction.
    "postgresql": "SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)",
}


def db_now(connection: Connection) -> int:
    """Milliseconds since the Unix epoch, by the database server's clock."""
    value = connection.execute(text(_NOW[connection.dialect.name])).scalar_one()
    return int(value)
