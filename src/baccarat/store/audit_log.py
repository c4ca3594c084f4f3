"""The audit log as stored: append a chained record in the caller's transaction, read it back.

An append reads the last record and writes the next one in the same transaction as the
action it records, so a rolled-back action leaves no record. Appends serialise: on SQLite
the write transaction (``BEGIN IMMEDIATE``) already holds the database; on PostgreSQL the
table is locked in ``EXCLUSIVE`` mode (reads go on, a second appender waits), so two
servers sharing a database cannot both append ``seq`` n + 1 and fork the chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Connection, func, select, text

from baccarat.audit import ChainedRecord, Problem, append, verify_chain
from baccarat.responsible.instants import from_epoch_ms
from baccarat.store.schema import audit_log

__all__ = [
    "AuditFilter",
    "append_audit",
    "audit_head",
    "audit_rows",
    "count_audit",
    "find_audit",
    "verify_audit_log",
]


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


@dataclass(frozen=True, slots=True)
class AuditFilter:
    """Which records: ``actor`` matches the start of the actor (``staff:`` for every member of
    staff), ``action`` exactly; ``since`` and ``until`` are record times (``audit_time`` text,
    which sorts as time does), from ``since`` and before ``until``; ``after_seq`` and
    ``before_seq`` bound the sequence (a page's edge)."""

    actor: str | None = None
    action: str | None = None
    since: str | None = None
    until: str | None = None
    after_seq: int = 0
    before_seq: int | None = None


def _where(query: Any, which: AuditFilter) -> Any:
    query = query.where(audit_log.c.seq > which.after_seq)
    if which.before_seq is not None:
        query = query.where(audit_log.c.seq < which.before_seq)
    if which.actor is not None:
        escaped = which.actor.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        query = query.where(audit_log.c.actor.like(f"{escaped}%", escape="\\"))
    if which.action is not None:
        query = query.where(audit_log.c.action == which.action)
    if which.since is not None:
        query = query.where(audit_log.c.time >= which.since)
    if which.until is not None:
        query = query.where(audit_log.c.time < which.until)
    return query


def find_audit(
    connection: Connection,
    which: AuditFilter,
    *,
    order: Literal["asc", "desc"] = "asc",
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """The stored records ``which`` names, oldest first (``asc``) or newest first (``desc``),
    at most ``limit`` (``None``: all)."""
    seq = audit_log.c.seq
    query = _where(select(audit_log), which).order_by(seq if order == "asc" else seq.desc())
    if limit is not None:
        query = query.limit(limit)
    return [dict(row._mapping) for row in connection.execute(query)]


def count_audit(connection: Connection, which: AuditFilter) -> int:
    """How many stored records ``which`` names."""
    query = _where(select(func.count()).select_from(audit_log), which)
    return int(connection.execute(query).scalar_one())
