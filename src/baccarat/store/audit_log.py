"""The audit log as stored: append a chained record in the caller's transaction, read it back.

An append reads the last record and writes the next one in the same transaction as the
action it records, so a rolled-back action leaves no record. Appends serialise: on SQLite
the write transaction (``BEGIN IMMEDIATE``) already holds the database; on PostgreSQL the
table is locked in ``EXCLUSIVE`` mode (reads go on, a second appender waits), so two
servers sharing a database cannot both append ``seq`` n + 1 and fork the chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, select, text

from baccarat.audit import ChainedRecord, Problem, append, verify_chain
from baccarat.responsible.instants import from_epoch_ms
from baccarat.store.schema import audit_log

__all__ = ["append_audit", "audit_head", "audit_rows", "verify_audit_log"]


def append_audit(
    connection: Connection, at_ms: int, actor: str, action: str, details: Mapping[str, Any]
) -> ChainedRecord:
    """Append one record after the current last one; returns it."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("LOCK TABLE audit_log IN EXCLUSIVE MODE"))
    last_row = connection.execute(
        select(audit_log).order_by(audit_log.c.seq.desc()).limit(1)
    ).first()
    last = None if last_row is None else ChainedRecord.from_row(dict(last_row._mapping))
    record = append(last, from_epoch_ms(at_ms), actor, action, details)
    connection.execute(audit_log.insert().values(**record.to_row()))
    return record


def audit_head(connection: Connection) -> tuple[int, str] | None:
    """The last record's ``seq`` and hash (``None`` for an empty log): what an anchor keeps."""
    query = select(audit_log.c.seq, audit_log.c.hash).order_by(audit_log.c.seq.desc()).limit(1)
    row = connection.execute(query).first()
    return None if row is None else (int(row.seq), str(row.hash))


def audit_rows(connection: Connection) -> list[dict[str, Any]]:
    """Every stored record in ``seq`` order, as column mappings."""
    query = select(audit_log).order_by(audit_log.c.seq)
    return [dict(row._mapping) for row in connection.execute(query)]


def verify_audit_log(connection: Connection, anchor: str | None = None) -> list[Problem]:
    """Every problem of the stored chain (an empty list: it holds)."""
    return verify_chain(audit_rows(connection), anchor=anchor)
