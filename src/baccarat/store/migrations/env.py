"""Alembic environment: migrations run on the connection the caller passes in.

``baccarat.store.migrate.upgrade`` puts an open connection in ``config.attributes``;
there is no ``alembic.ini`` and no URL here. Importing this module outside Alembic (as
the doctest collector does) does nothing.
"""

from __future__ import annotations

from alembic import context

from baccarat.store.schema import metadata


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


try:
    context.config  # noqa: B018  (raises NameError unless Alembic is running this file)
except (NameError, AttributeError):
    pass
else:
    run_migrations()
