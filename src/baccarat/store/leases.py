"""Table leases: one dealer per table across nodes, and the fence on every dealer write.

A node deals a table only while it holds the table's lease row: its ``node_id``, an
``epoch`` and an ``expires_at`` on the database's clock. Taking a free or expired lease
raises the epoch; a holder renews before expiry. Every write of a dealer runs ``fence``
first, in the same transaction: the row is locked (``FOR SHARE`` on PostgreSQL, so a
takeover waits for the write to commit or abort), and unless it still carries the dealer's
epoch and has not expired the transaction is refused with ``FencedError``. A node that paused
past its lease (GC, SIGSTOP, a cut network) therefore writes nothing more, even before
another node has taken the table.

>>> import tempfile
>>> from baccarat.store import Database, upgrade
>>> database = Database(f"sqlite:///{tempfile.mkdtemp()}/leases.db")
>>> upgrade(database)
>>> with database.write() as c:
...     add_leases(c, ["standard"])
...     first = acquire(c, "standard", "n1", 3000)
...     other = acquire(c, "standard", "n2", 3000)
...     again = acquire(c, "standard", "n1", 3000)
>>> first, other, again
(1, None, 1)
>>> with database.write() as c:
...     fence(c, "standard", 1)
...     fence(c, "standard", 2)
Traceback (most recent call last):
...
baccarat.store.leases.FencedError: table 'standard': the lease's epoch is 1, not 2
>>> database.dispose()
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, insert, select, update

from baccarat.store.clock import db_now
from baccarat.store.schema import table_leases

__all__ = [
    "FencedError",
    "Lease",
    "acquire",
    "add_leases",
    "fence",
    "lease_holders",
    "release",
    "renew",
]


class FencedError(Exception):
    """A dealer's write refused: its lease was taken over, released or has expired."""


@dataclass(frozen=True, slots=True)
class Lease:
    """Who deals a table, under which epoch, until when (database ms)."""

    table_id: str
    node_id: str
    epoch: int
    expires_at: int


def _row(connection: Connection, table_id: str, *, lock: bool, share: bool = False) -> Lease | None:
    query = select(table_leases).where(table_leases.c.table_id == table_id)
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update(read=share)
    row = connection.execute(query).one_or_none()
    return None if row is None else Lease(row.table_id, row.node_id, row.epoch, row.expires_at)


def add_leases(connection: Connection, table_ids: list[str]) -> None:
    """Give each table a lease row, held by nobody, if it has none (at registration, which
    nodes do one at a time: taking a lease then only ever updates its row)."""
    known = set(connection.scalars(select(table_leases.c.table_id)))
    for table_id in table_ids:
        if table_id not in known:
            connection.execute(
                insert(table_leases).values(table_id=table_id, node_id="", epoch=0, expires_at=0)
            )


def acquire(
    connection: Connection, table_id: str, node_id: str, lease_ms: int, *, unheld_ms: int = 0
) -> int | None:
    """Take or keep the lease of ``table_id`` for ``lease_ms``; its epoch, or ``None`` if
    another node holds it, or it has been free for less than ``unheld_ms`` (a node that
    already deals its share leaves a free table to the others first). Keeping one's own
    unexpired lease keeps its epoch."""
    lease = _row(connection, table_id, lock=True)
    now = db_now(connection)  # after the lock: a wait for a write in flight counts
    if lease is None:  # not a registered table
        return None
    if lease.node_id == node_id and lease.expires_at > now:
        renew(connection, table_id, node_id, lease.epoch, lease_ms)
        return lease.epoch
    if lease.expires_at > now - unheld_ms:
        return None
    epoch = lease.epoch + 1
    connection.execute(
        update(table_leases)
        .where(table_leases.c.table_id == table_id)
        .values(node_id=node_id, epoch=epoch, expires_at=now + lease_ms)
    )
    return epoch


def renew(connection: Connection, table_id: str, node_id: str, epoch: int, lease_ms: int) -> bool:
    """Extend the lease held under ``epoch`` by ``lease_ms`` from now; ``False`` if it is no
    longer ours (taken over, or expired: an expired lease is taken again with ``acquire``)."""
    now = db_now(connection)
    return _set_expiry(connection, table_id, node_id, epoch, now + lease_ms, unexpired_at=now)


def release(connection: Connection, table_id: str, node_id: str, epoch: int) -> bool:
    """Give the lease up at once (a clean stop, a hand-over); ``False`` if it was not ours.

    The row stays, expired, so that the next holder's epoch is higher."""
    return _set_expiry(connection, table_id, node_id, epoch, db_now(connection))


def _set_expiry(
    connection: Connection,
    table_id: str,
    node_id: str,
    epoch: int,
    expires_at: int,
    unexpired_at: int | None = None,
) -> bool:
    """Move the expiry of the lease ``node_id`` holds under ``epoch``; whether it was ours
    (and, with ``unexpired_at``, still running then)."""
    held = [
        table_leases.c.table_id == table_id,
        table_leases.c.node_id == node_id,
        table_leases.c.epoch == epoch,
    ]
    if unexpired_at is not None:
        held.append(table_leases.c.expires_at > unexpired_at)
    done = connection.execute(update(table_leases).where(*held).values(expires_at=expires_at))
    return done.rowcount == 1


def fence(connection: Connection, table_id: str, epoch: int) -> None:
    """Raise ``FencedError`` unless the lease of ``table_id`` is held under ``epoch`` and unexpired;
    the row stays locked until the transaction ends."""
    lease = _row(connection, table_id, lock=True, share=True)
    if lease is None:
        raise FencedError(f"table {table_id!r} has no lease")
    if lease.epoch != epoch:
        raise FencedError(f"table {table_id!r}: the lease's epoch is {lease.epoch}, not {epoch}")
    if lease.expires_at <= db_now(connection):
        raise FencedError(f"table {table_id!r}: the lease of epoch {epoch} has expired")


def lease_holders(connection: Connection) -> list[Lease]:
    """Every table's lease, expired ones too."""
    rows = connection.execute(select(table_leases).order_by(table_leases.c.table_id))
    return [Lease(r.table_id, r.node_id, r.epoch, r.expires_at) for r in rows]
