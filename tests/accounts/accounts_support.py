"""Fixtures and helpers of the accounts tests: the database (SQLite, and PostgreSQL when
reachable), the app factory run in-process on a virtual clock the test moves, and a player's calls. Test modules import the fixtures they use (a second
``conftest.py`` would clash with ``tests/server``'s under ``--doctest-modules``)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from clock_driver import ClientClock
from fastapi.testclient import TestClient
from pg_schemas import postgres_schema

from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock


class TestTime:
    """The service's virtual clock as a test moves it, in hours and seconds; after each move
    the dealer has settled (it sleeps again on the clock), so what the test reads next holds."""

    def __init__(self, service: Service, clock: VirtualClock) -> None:
        self._service = service
        self._clock = clock

    def now_ms(self) -> int:
        return self._clock.now_ms()

    def advance(self, *, hours: float = 0, seconds: float = 0) -> None:
        self._service.advance(int(hours * 3_600_000 + seconds * 1000))


class Service(ClientClock):
    """A running app (TestClient, a loopback caller), its virtual clock, and helpers to act
    as players. Time stands still until the test moves it (``clock.advance``) or steps the
    table to the state it wants (``betting_round``, ``wait_final``): no betting window closes
    under a slow request."""

    def __init__(self, client: TestClient, db_url: str, clock: VirtualClock | None = None) -> None:
        super().__init__(client)  # one table, whose dealer is its one sleep at rest
        self.db_url = db_url
        self.clock = TestTime(self, clock or VirtualClock())

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

    def betting_round(self) -> int:
        """The id of the round open for bets (the clock stepped to one if none is)."""
        return int(self.open_round()["round"]["id"])

    def bet(self, token: str, round_id: int, bets: dict[str, int]) -> httpx.Response:
        return self.call(
            "POST",
            "/api/tables/standard/bets",
            token,
            json={"round_id": round_id, "bets": bets},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def wait_final(self, round_id: int) -> dict[str, Any]:
        """Step the clock until round ``round_id`` is settled or void; its view."""

        def final() -> dict[str, Any] | None:
            view: dict[str, Any] = self.get(f"/api/rounds/{round_id}")
            return view if view.get("phase") in ("settled", "voided") else None

        return self.advance_until(final, f"round {round_id} to finish")


@contextlib.contextmanager
def serve_in_process(config: Settings) -> Iterator[Service]:
    """The app of ``config`` on a virtual clock, run by a TestClient as a loopback caller (the
    clock's route answers only those)."""
    clock = VirtualClock()
    app = create_app(config, clock=clock)
    with TestClient(app, client=("127.0.0.1", 50_000)) as client:
        service = Service(client, config.db or "", clock)
        service.settle()
        yield service


def clock_at(ms: int) -> Callable[[], int]:
    """A clock stopped at ``ms``."""
    return lambda: ms


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]
HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS


@pytest.fixture(name="db_url", params=DATABASES)
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for one test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'accounts.db'}"
        return
    with postgres_schema("baccarat_acc") as url:
        yield url


@pytest.fixture(name="service")
def service_fixture(db_url: str) -> Iterator[Service]:
    """The table service in-process on a virtual clock: one standard table."""
    # The tests move the clock days ahead: tokens neither idle out nor expire on their own
    # (but a login's after ``session_lifetime_ms``); test_accounts_session_lifetime tests those.
    config = Settings(
        db=db_url,
        # An hour's window: the virtual clock moves minutes within one round (a bet before
        # and after a limit passes), and a step still goes straight to its close.
        tables=tables_from(["standard"], betting_ms=HOUR_MS, reveal_ms=5, result_ms=10),
        idle_minutes=365 * DAY_MS / 60_000,
        session_hours=1,
        guest_hours=365 * DAY_MS / 3_600_000,
    )
    with serve_in_process(config) as service:
        yield service
