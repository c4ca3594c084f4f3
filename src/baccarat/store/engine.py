"""Opening the database: URL rules, SQLite's WAL and ``BEGIN IMMEDIATE``, PostgreSQL via psycopg 3.

SQLite runs with the driver in autocommit mode (``isolation_level=None``) and SQLAlchemy's
``begin`` event issuing the ``BEGIN`` itself: writes take the database's write lock when
they start (``BEGIN IMMEDIATE``), so two writers never deadlock upgrading a read lock, and
reads use a plain deferred ``BEGIN`` on their own engine. Every commit is durable
(``synchronous=FULL``). A read transaction sees one snapshot on both databases (WAL on
SQLite, ``REPEATABLE READ`` on PostgreSQL), however many statements it runs.

>>> database_url("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
>>> database_url("sqlite:////tmp/x.db"), database_url("/tmp/x.db")
('sqlite:////tmp/x.db', 'sqlite:////tmp/x.db')
>>> database_url("mysql://h/db")
Traceback (most recent call last):
...
baccarat.store.engine.StoreError: unsupported database URL 'mysql://h/db' (use sqlite:///FILE or postgresql://...)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from baccarat.store.clock import use_clock

__all__ = ["Database", "StoreError", "database_url", "default_database_url"]


class StoreError(Exception):
    """The database cannot be opened or used as asked (bad URL, unreadable file, no server)."""


def default_database_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    folder = Path(platformdirs.user_data_dir("baccarat", appauthor=False))
    return f"sqlite:///{folder / 'baccarat.db'}"


def database_url(url: str) -> str:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` gets the psycopg 3 driver, a path is SQLite."""
    text_url = url.strip()
    if "://" not in text_url:
        return f"sqlite:///{Path(text_url).expanduser().resolve()}"
    for prefix in ("postgresql://", "postgres://"):
        if text_url.startswith(prefix):
            return "postgresql+psycopg://" + text_url[len(prefix) :]
    if text_url.startswith(("postgresql+psycopg://", "sqlite://")):
        return text_url
    raise StoreError(f"unsupported database URL {url!r} (use sqlite:///FILE or postgresql://...)")


def _create_private(path: Path) -> None:
    """Create the SQLite file readable by its owner only (0600), whatever the umask: it holds
    balances, sessions and sealed seeds, and SQLite gives its WAL and shared-memory files the
    mode of the database file. A file that exists keeps the mode its operator gave it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _sqlite_engine(url: str, *, write: bool) -> Engine:
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": 30},
        pool_size=1 if write else 8,
        max_overflow=0 if write else 8,
    )

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Autocommit at the driver level: the "begin" hook below issues BEGIN itself.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    begin = "BEGIN IMMEDIATE" if write else "BEGIN"

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql(begin)

    return engine


class Database:
    """The two engines of one database: one for writes, one for reads.

    On SQLite, the write engine holds a single connection (one writer, as SQLite allows)
    and begins every transaction with ``BEGIN IMMEDIATE``.
    """

    def __init__(
        self,
        url: str,
        *,
        idle_in_transaction_ms: int | None = None,
        clock: Callable[[], int] | None = None,
    ) -> None:
        """``idle_in_transaction_ms`` (PostgreSQL): the server ends a session of this database
        that stays that long inside a transaction without a statement, and so frees its locks
        (a node paused mid-transaction must not hold a table's lease row for ever).
        ``clock`` (epoch ms) replaces the database's own clock in ``db_now``: a test server's
        virtual clock, never a cluster's (``baccarat.store.clock``)."""
        self.url = database_url(url)
        try:
            parsed = make_url(self.url)
        except ArgumentError as error:
            raise StoreError(f"bad database URL {url!r}: {error}") from None
        self.dialect = parsed.get_backend_name()
        if self.dialect == "sqlite":
            database = parsed.database or ""
            if database and database != ":memory:":
                _create_private(Path(database))
            self.write_engine = _sqlite_engine(self.url, write=True)
            self.read_engine = _sqlite_engine(self.url, write=False)
        else:
            try:
                # Pre-ping: a connection the server ended (a restart, an operator, a failover)
                # is replaced before use, rather than failing the bet batch that drew it.
                self.write_engine = create_engine(
                    self.url, pool_size=4, max_overflow=4, pool_pre_ping=True
                )
            except ModuleNotFoundError as error:
                # The driver is an extra of its own: SQLite, the default, needs none.
                if error.name != "psycopg":
                    raise
                raise StoreError(
                    "PostgreSQL needs the postgres extra: pip install 'baccarat[postgres]'"
                ) from None
            # A read is one snapshot, as on SQLite: a report of several statements (the ledger
            # check, a history page) never mixes states before and after a concurrent commit.
            self.read_engine = create_engine(
                self.url,
                pool_size=8,
                max_overflow=8,
                isolation_level="REPEATABLE READ",
                pool_pre_ping=True,
            )
            if idle_in_transaction_ms is not None:
                for engine in (self.write_engine, self.read_engine):
                    _end_idle_transactions(engine, idle_in_transaction_ms)
        if clock is not None:
            for engine in (self.write_engine, self.read_engine):
                use_clock(engine, clock)

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    @contextlib.contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction, committed on leaving the block (rolled back on an error)."""
        with self.write_engine.begin() as connection:
            yield connection

    @contextlib.contextmanager
    def read(self) -> Iterator[Connection]:
        """A read-only transaction."""
        with self.read_engine.begin() as connection:
            yield connection

    def ping(self) -> None:
        """Raise ``StoreError`` unless the database answers."""
        try:
            with self.read() as connection:
                connection.execute(text("SELECT 1"))
        except Exception as error:  # any driver error means "cannot use this database"
            raise StoreError(f"cannot open the database: {_first_line(error)}") from None

    def dispose(self) -> None:
        self.write_engine.dispose()
        self.read_engine.dispose()


def _end_idle_transactions(engine: Engine, after_ms: int) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        with dbapi_connection.cursor() as cursor:
            cursor.execute(f"SET idle_in_transaction_session_timeout = {int(after_ms)}")
        dbapi_connection.commit()


def _first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
