"""The database's clock: the reference time for closing a betting window.

A bet transaction compares this clock with the round's ``closes_at`` while it holds the
round's lock, so no bet can commit after the round was closed in the database. In a cluster
the nodes' clocks differ a little; the database's is the one they share.

A single test server may run on a virtual clock instead (``baccarat serve --virtual-clock``):
``use_clock`` registers it on an engine's pooled connections, and ``db_now`` then reads it,
so the one place that decides a window's close is still ``db_now``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection, Engine, event, text

__all__ = ["db_now", "use_clock"]

_NOW = {
    # julianday('now') has millisecond resolution; 2440587.5 is the Unix epoch as a Julian day.
    "sqlite": "SELECT CAST(ROUND((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)",
    # clock_timestamp(), not now(): now() is frozen at the start of the transaction.
    "postgresql": "SELECT CAST(FLOOR(EXTRACT(EPOCH FROM clock_timestamp()) * 1000) AS BIGINT)",
}
#: The key of the clock that replaces the database's in a pooled connection's ``info``.
_CLOCK = "baccarat.clock"


def db_now(connection: Connection) -> int:
    """Milliseconds since the Unix epoch, by the database server's clock (or by the clock
    ``use_clock`` put in its place)."""
    clock = connection.info.get(_CLOCK)
    if clock is not None:
        return int(clock())
    value = connection.execute(text(_NOW[connection.dialect.name])).scalar_one()
    return int(value)


def use_clock(engine: Engine, now_ms: Callable[[], int]) -> None:
    """Make ``db_now`` read ``now_ms`` on every connection ``engine`` opens from now on, in
    place of the database server's clock (a test server's virtual clock; never a cluster's).
    """

    @event.listens_for(engine, "connect")
    def _register(_dbapi_connection: Any, connection_record: Any) -> None:
        connection_record.info[_CLOCK] = now_ms
