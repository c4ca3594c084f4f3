"""Bring a database's schema to the newest migration, programmatically (no ``alembic.ini``).

The migrations live in the package (``baccarat/store/migrations``), so an installed wheel
can create and upgrade its own database at start.
"""

from __future__ import annotations

from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from baccarat.store.engine import Database

__all__ = ["alembic_config", "current_revision", "head_revision", "upgrade"]


def alembic_config() -> Config:
    """An Alembic configuration pointing at the package's migrations."""
    config = Config()
    config.set_main_option("script_location", str(resources.files("baccarat.store") / "migrations"))
    return config


def head_revision() -> str:
    """The newest revision the package knows."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(database: Database) -> str | None:
    """The revision the database is at (``None`` for an empty database)."""
    with database.read() as connection:
        return MigrationContext.configure(connection).get_current_revision()


#: An arbitrary key of the advisory lock that makes nodes starting together migrate in turn.
_MIGRATION_LOCK = 7_240_000


def upgrade(database: Database) -> None:
    """Apply every migration the database lacks, in one write transaction (on PostgreSQL,
    one node at a time: the others wait, then find nothing left to do)."""
    config = alembic_config()
    with database.write() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
