"""Fixtures of the table-service tests: the database URL (SQLite and PostgreSQL).

The ``servers`` fixture that starts ``baccarat serve`` is the root ``conftest.py``'s.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from server_support import postgres_reachable, postgres_schema
from serving import services_required

_PG: dict[str, bool] = {}
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]


def require_postgres() -> None:
    """Skip without PostgreSQL, unless BACCARAT_REQUIRE_SERVICES=1 (then fail)."""
    if "up" not in _PG:
        _PG["up"] = postgres_reachable()
    if not _PG["up"]:
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")


def fresh_database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a new PostgreSQL schema (dropped after)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'table.db'}"
        return
    require_postgres()
    with postgres_schema() as url:
        yield url


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database for one test."""
    yield from fresh_database(request.param, tmp_path)


@pytest.fixture(scope="module", params=DATABASES)
def module_db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A fresh database shared by the tests of one module."""
    yield from fresh_database(request.param, tmp_path_factory.mktemp("db"))
