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


def upgrade(database: Database) -> None:
    """Apply every migration the database lacks, in one write transaction."""
    config = alembic_config()
    with database.write() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
