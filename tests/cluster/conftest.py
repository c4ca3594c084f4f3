"""Fixtures of the cluster tests: a fresh database, a Redis key prefix and the test's nodes.

The tests need the machine's PostgreSQL (127.0.0.1:5432, user postgres, database ``test``) and
Redis (127.0.0.1:6379); they skip without them, unless BACCARAT_REQUIRE_SERVICES=1.

This directory is a package (``__init__.py``) only so that its ``conftest`` is not a second
top-level module of that name for mypy, which checks ``tests`` as a whole.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from .cluster_support import REDIS_URL, Cluster, drop_redis_keys, fresh_database, require_services


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A cluster of this test's own: database, key prefix, nodes and watchers, all gone after."""
    require_services()
    prefix = f"bt-{uuid.uuid4().hex}"
    with fresh_database() as (database, db_url):
        group = Cluster(database, db_url, REDIS_URL, prefix, tmp_path)
        try:
            yield group
        finally:
            group.close()
            drop_redis_keys(REDIS_URL, prefix)
