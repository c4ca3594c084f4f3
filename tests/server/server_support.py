"""Helpers for the server tests: PostgreSQL schemas, players, rounds, the ledger check.

The server process itself is ``serving.ServerProcess`` (``tests/support``), shared by every test
directory; it is re-exported here for the tests that import it from this module.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
from serving import BIN, wait_until

HERE = Path(__file__).parent
QUICK_TABLE = HERE / "data" / "quick.toml"
PG_BASE = "postgresql://postgres@127.0.0.1:5432/test"
T = TypeVar("T")


def postgres_reachable() -> bool:
    import psycopg

    try:
        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3
        ):
            return True
    except psycopg.OperationalError:
        return False


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh schema in the ``test`` database; yields a URL that uses it; drops it after."""
    import psycopg

    schema = f"baccarat_srv_{uuid.uuid4().hex[:12]}"
    dsn = "host=127.0.0.1 port=5432 user=postgres dbname=test"
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def new_player(client: httpx.Client) -> tuple[str, str]:
    """A guest player: (id, token)."""
    response = client.post("/api/players")
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def open_round(
    client: httpx.Client, table: str, min_left_ms: int = 300, timeout: float = 20
) -> int:
    """The id of the table's open round with at least ``min_left_ms`` to go."""

    def check() -> int | None:
        data = client.get(f"/api/tables/{table}").json()
        state = data["round"]
        if state and state["phase"] == "open" and state["closes_at_ms"] - data["now"] > min_left_ms:
            return int(state["id"])
        return None

    return wait_until(check, timeout, f"an open round at {table}", step=0.05)


def round_view(client: httpx.Client, round_id: int) -> dict[str, Any]:
    response = client.get(f"/api/rounds/{round_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_round_final(client: httpx.Client, round_id: int, timeout: float = 30) -> dict[str, Any]:
    return wait_until(
        lambda: (lambda v: v if v["phase"] in ("settled", "voided") else None)(
            round_view(client, round_id)
        ),
        timeout,
        f"round {round_id} to finish",
        step=0.05,
    )


def ledger_check(db_url: str) -> dict[str, Any]:
    """``baccarat ledger check --json`` in a subprocess; asserts exit 0."""
    result = subprocess.run(
        [str(BIN / "baccarat"), "ledger", "check", "--db", db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def ledger_check_failing(db_url: str) -> str:
    """``baccarat ledger check`` in a subprocess; asserts exit 1 with no traceback and returns
    its output, white space folded (the console may wrap a line)."""
    result = subprocess.run(
        [str(BIN / "baccarat"), "ledger", "check", "--db", db_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return " ".join(result.stdout.split())


def ledger_report(db_url: str) -> Any:
    """``check_ledger`` in this process (the CLI's own test runs the command)."""
    from baccarat.store import Database, check_ledger

    database = Database(db_url)
    try:
        with database.read() as connection:
            return check_ledger(connection)
    finally:
        database.dispose()
