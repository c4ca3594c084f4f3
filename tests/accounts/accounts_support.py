"""Fixtures and helpers of the accounts tests: the database (SQLite, and PostgreSQL when
reachable), the app factory run in-process with a clock the test moves (its offset; the dealers'
waits stay real), and a player's calls. Test modules import the fixtures they use (a second
``conftest.py`` would clash with ``tests/server``'s under ``--doctest-modules``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from baccarat.server import Settings, create_app, tables_from

PG_DSN = "host=127.0.0.1 port=5432 user=postgres dbname=test"
PG_BASE = "postgresql://postgres@127.0.0.1:5432/test"
_PG: dict[str, bool] = {}


def _postgres_up() -> bool:
    import psycopg

    try:
        with psycopg.connect(PG_DSN, connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    import psycopg

    if "up" not in _PG:
        _PG["up"] = _postgres_up()
    if not _PG["up"]:
        if os.environ.get("BACCARAT_REQUIRE_SERVICES") == "1":
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    schema = f"baccarat_acc_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_DSN, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(PG_DSN, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


class MovableClock:
    """The server's one clock: the system clock plus an offset the test moves (a day passes in
    one call). Waits are real: the dealers keep pacing their rounds, and a betting window
    closes by the database's clock, which the offset does not move."""

    def __init__(self) -> None:
        self.offset_ms = 0

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000 + self.offset_ms

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))

    def advance(self, *, hours: float = 0, seconds: float = 0) -> None:
        self.offset_ms += int(hours * 3_600_000 + seconds * 1000)


class Service:
    """A running app (TestClient), its clock, and helpers to act as players."""

    def __init__(self, client: TestClient, clock: MovableClock, db_url: str) -> None:
        self.client = client
        self.clock = clock
        self.db_url = db_url

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response: httpx.Response = self.client.request(method, path, headers=headers, **kw)
        return response

    def register_and_login(self, username: str, password: str = "Correct-Horse-9") -> str:
        created = self.call(
            "POST", "/api/accounts", json={"username": username, "password": password}
        )
        assert created.status_code == 201, created.text
        token: str = self.login(username, password)["token"]
        return token

    def login(self, username: str, password: str = "Correct-Horse-9") -> dict[str, Any]:
        response = self.call(
            "POST", "/api/sessions", json={"username": username, "password": password}
        )
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def guest(self) -> str:
        response = self.call("POST", "/api/players")
        assert response.status_code == 201, response.text
        token: str = response.json()["token"]
        return token

    def open_round(self, min_left_ms: int = 1_200, timeout: float = 20.0) -> int:
        """The id of the open round with some time left to bet."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = self.call("GET", "/api/tables/standard").json()
            state = data["round"]
            if state and state["phase"] == "open":
                left = state["closes_at_ms"] - time.time_ns() // 1_000_000
                if left > min_left_ms:
                    return int(state["id"])
            time.sleep(0.02)
        raise AssertionError("no open round")

    def bet(self, token: str, round_id: int, bets: dict[str, int]) -> httpx.Response:
        return self.call(
            "POST",
            "/api/tables/standard/bets",
            token,
            json={"round_id": round_id, "bets": bets},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def wait_final(self, round_id: int, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            view: dict[str, Any] = self.call("GET", f"/api/rounds/{round_id}").json()
            if view.get("phase") in ("settled", "voided"):
                return view
            time.sleep(0.03)
        raise AssertionError(f"round {round_id} did not finish")


def clock_at(ms: int) -> Callable[[], int]:
    """A clock stopped at ``ms``."""
    return lambda: ms


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]
DAY_MS = 24 * 3_600_000


@pytest.fixture(name="db_url", params=DATABASES)
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for one test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'accounts.db'}"
        return
    with postgres_schema() as url:
        yield url


@pytest.fixture(name="service")
def service_fixture(db_url: str) -> Iterator[Service]:
    """The table service in-process: one standard table with a short betting window."""
    clock = MovableClock()
    # The tests move the clock days ahead: tokens neither idle out nor expire on their own
    # (but a login's after ``session_lifetime_ms``); test_accounts_session_lifetime tests those.
    config = Settings(
        db=db_url,
        # A window a test's few requests fit in with time to spare on a loaded machine.
        tables=tables_from(["standard"], betting_ms=1800, reveal_ms=5, result_ms=10),
        idle_minutes=365 * DAY_MS / 60_000,
        session_hours=1,
        guest_hours=365 * DAY_MS / 3_600_000,
    )
    app = create_app(config, clock=clock)
    with TestClient(app) as client:
        yield Service(client, clock, db_url)
