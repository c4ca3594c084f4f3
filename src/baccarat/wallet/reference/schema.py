"""The reference wallet's own database: SQLAlchemy Core, its own metadata, created at start.

SQLite, one writer: every transaction begins with ``BEGIN IMMEDIATE`` on a single pooled
connection, so two calls with one transaction id are served one after the other, and every
commit is durable (``synchronous=FULL``): a wallet killed with SIGKILL keeps what it answered.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Connection,
    Engine,
    Index,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
)

__all__ = ["metadata", "open_engine", "players", "tombstones", "transactions"]

metadata = MetaData()

players = Table(
    "players",
    metadata,
    # The operator's players: its id for each (the game server's external id), the balance.
    Column("player_id", String(100), primary_key=True),
    Column("balance", BigInteger, nullable=False),
    Column("currency", String(3), nullable=False),
    Column("blocked", Boolean, nullable=False),
    CheckConstraint("balance >= 0", name="ck_players_balance"),
)

transactions = Table(
    "transactions",
    metadata,
    # Every money call answered on its merits, by the caller's transaction id (the primary
    # key is the idempotency key): the request's canonical text, the answer as sent, and the
    # balance change it made (``moved``: -amount for a debit, 0 for a refusal).
    Column("transaction_id", String(100), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("request", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("status", String(8), nullable=False),
    Column("code", String(40), nullable=True),
    Column("player_id", String(100), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("moved", BigInteger, nullable=False),
    Column("reference_id", String(100), nullable=True),
    Column("wallet_transaction_id", String(32), nullable=True, unique=True),
    Column("created_at", BigInteger, nullable=False),
    CheckConstraint("kind IN ('debit', 'credit', 'rollback')", name="ck_transactions_kind"),
    CheckConstraint("status IN ('ok', 'refused')", name="ck_transactions_status"),
    Index("ix_transactions_reference", "reference_id"),
)

tombstones = Table(
    "tombstones",
    metadata,
    # A rollback that came before its debit: the debit's id, so that the late debit is refused.
    Column("debit_id", String(100), primary_key=True),
    Column("rollback_id", String(100), nullable=False),
    Column("created_at", BigInteger, nullable=False),
)


def open_engine(path: Path) -> Engine:
    """The database at ``path`` (created 0600 with its tables if new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):  # balances: readable by its owner only
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"check_same_thread": False, "timeout": 30},
        pool_size=1,
        max_overflow=0,
        pool_timeout=60,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the "begin" hook below issues BEGIN
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    metadata.create_all(engine)
    return engine
