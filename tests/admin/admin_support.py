"""Helpers of the admin API tests: the app in-process (TestClient) on a SQLite file with two
fast tables (``standard``, and ``quick``, whose shoes end after one to three coups), a member
of staff of each role, guests, rounds, and reads of the database (audit log, ledger)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from clock_driver import ClientClock
from fastapi.testclient import TestClient
from pg_schemas import postgres_schema

from baccarat.passwords import hash_password
from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.store import Database, check_ledger, upgrade
from baccarat.store.audit_log import audit_rows
from baccarat.store.staff import create_staff

QUICK_TABLE = Path(__file__).parents[1] / "server" / "data" / "quick.toml"
#: Every staff role; a studio's dealer reaches no back-office route but its own session's.
ROLES = ("auditor", "operator", "admin", "dealer")
PASSWORD = "Pit-Boss-Pass-9"


def add_staff(db_url: str, username: str, role: str) -> None:
    """A member of staff, written straight to the database (as ``baccarat admin`` does)."""
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as connection:
            create_staff(connection, username, role, hash_password(PASSWORD), 0)
    finally:
        database.dispose()


class Admin:
    """A running app, a staff token per role and a few helpers."""

    def __init__(self, client: TestClient, db_url: str, clock: ClientClock | None = None) -> None:
        self.client = client
        self.db_url = db_url
        #: The app's virtual clock (``running_admin``): rounds are stepped to, never waited for.
        self.clock = clock or ClientClock(client)
        self.tokens = {role: self.login(f"staff-{role}")["token"] for role in ROLES}

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response: httpx.Response = self.client.request(method, path, headers=headers, **kw)
        return response

    def as_role(self, role: str, method: str, path: str, **kw: Any) -> httpx.Response:
        return self.call(method, path, self.tokens[role], **kw)

    def login(self, username: str, password: str = PASSWORD) -> dict[str, Any]:
        response = self.call(
            "POST", "/api/admin/login", json={"username": username, "password": password}
        )
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def guest(self) -> tuple[str, str]:
        response = self.call("POST", "/api/players")
        assert response.status_code == 201, response.text
        data = response.json()
        return data["id"], data["token"]

    def open_round(self, table: str = "standard") -> int:
        """The round of ``table`` open for bets (the clock stepped to one if none is)."""
        return int(self.clock.open_round(table)["round"]["id"])

    def bet(
        self, token: str, round_id: int, bets: dict[str, int], table: str = "standard"
    ) -> httpx.Response:
        return self.call(
            "POST",
            f"/api/tables/{table}/bets",
            token,
            json={"round_id": round_id, "bets": bets},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def round_view(self, round_id: int) -> dict[str, Any]:
        data: dict[str, Any] = self.call("GET", f"/api/rounds/{round_id}").json()
        return data

    def wait_final(self, round_id: int) -> dict[str, Any]:
        """Step the clock until round ``round_id`` is settled or void; its view."""
        return self.clock.advance_until(
            lambda: (lambda v: v if v["phase"] in ("settled", "voided") else None)(
                self.round_view(round_id)
            ),
            f"round {round_id} to finish",
        )

    def audit(self) -> list[dict[str, Any]]:
        """Every audit record, read from the database."""
        database = Database(self.db_url)
        try:
            with database.read() as connection:
                return audit_rows(connection)
        finally:
            database.dispose()

    def ledger_problems(self) -> list[str]:
        database = Database(self.db_url)
        try:
            with database.read() as connection:
                return list(check_ledger(connection).problems)
        finally:
            database.dispose()


@contextlib.contextmanager
def postgres_url() -> Iterator[str]:
    """A fresh schema in PostgreSQL's ``test`` database (dropped after); a skip without
    PostgreSQL, unless BACCARAT_REQUIRE_SERVICES=1."""
    with postgres_schema("baccarat_adm") as url:
        yield url


def running_admin(folder: Path, db_url: str | None = None) -> Iterator[Admin]:
    """The app on ``db_url`` (default: a fresh SQLite file), with ``staff-<role>`` for every
    role."""
    db_url = db_url or f"sqlite:///{folder / 'admin.db'}"
    for role in ROLES:
        add_staff(db_url, f"staff-{role}", role)
    config = Settings(
        db=db_url,
        tables=tables_from(
            ["standard", str(QUICK_TABLE)], betting_ms=2000, reveal_ms=5, result_ms=10
        ),
    )
    # On a virtual clock, as a loopback caller (its route answers only those): nothing moves
    # between a test's reads and its requests unless the test steps the tables.
    app = create_app(config, clock=VirtualClock())
    with TestClient(app, client=("127.0.0.1", 50_000)) as client:
        clock = ClientClock(client, sleepers=2)
        clock.settle()
        yield Admin(client, db_url, clock)
