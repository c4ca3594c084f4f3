"""A fresh PostgreSQL schema per test, in the machine's ``test`` database.

A schema is far cheaper than a database, and dropping it with ``CASCADE`` leaves nothing
behind. Without PostgreSQL a test skips, or fails when ``BACCARAT_REQUIRE_SERVICES=1`` (CI).
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

__all__ = ["PG_BASE", "PG_DSN", "postgres_schema"]

PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=test"
PG_BASE = "postgresql://postgres@127.0.0.1:5432/test"
_UP: dict[str, bool] = {}


def _postgres_up() -> bool:
    import psycopg

    try:
        with psycopg.connect(PG_DSN, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


@contextlib.contextmanager
def postgres_schema(prefix: str = "baccarat") -> Iterator[str]:
    """A new schema named ``{prefix}_<random>``; yields a URL whose connections use it."""
    import psycopg

    if "up" not in _UP:
        _UP["up"] = _postgres_up()
    if not _UP["up"]:
        if os.environ.get("BACCARAT_REQUIRE_SERVICES") == "1":
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    schema = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_DSN, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
