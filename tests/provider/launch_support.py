"""Fixtures and helpers of the operator and launch tests: a fresh database (SQLite, and
PostgreSQL when reachable), a vault, an operator, and signed launch requests. Test modules
import the fixtures they use (a ``conftest.py`` here would clash with ``tests/server``'s
under ``--doctest-modules``)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from clock_driver import ClientClock
from fastapi.testclient import TestClient
from pg_schemas import postgres_schema
from sqlalchemy import func, select

from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.store import Database, upgrade
from baccarat.store.keyfile import KeySource
from baccarat.store.operators import add_operator
from baccarat.store.schema import (
    auth_sessions,
    launch_requests,
    launch_tokens,
    operator_players,
    players,
)
from baccarat.store.seal import SeedVault
from baccarat.wallet.client import WalletClient, wall_ms
from baccarat.wallet.contract import canonical, ok_answer, signed_headers, verify

DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]
#: A moment to start from (2026-01-01T00:00:00Z): tests move on from it.
T0 = 1_767_225_600_000
#: The operator of ``launch_app``.
OPERATOR = "casino-1"


@pytest.fixture(name="db_url", params=DATABASES)
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for one test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'provider.db'}"
        return
    with postgres_schema("baccarat_op") as url:
        yield url


@pytest.fixture(name="database")
def database_fixture(db_url: str) -> Iterator[Database]:
    """The fresh database, migrated."""
    database = Database(db_url)
    upgrade(database)
    yield database
    database.dispose()


@pytest.fixture(name="vault")
def vault_fixture() -> SeedVault:
    return SeedVault.ephemeral()


def new_operator(
    database: Database,
    vault: SeedVault,
    operator_id: str = "casino-1",
    *,
    currency: str = "USD",
    url: str = "http://127.0.0.1:9/wallet",
    at: int = T0,
) -> bytes:
    """Add an operator; its secret."""
    with database.write() as c:
        secret = add_operator(
            c,
            vault,
            operator_id=operator_id,
            name=f"Casino {operator_id}",
            wallet_url=url,
            currency=currency,
            timeout_ms=2000,
            at=at,
        )
    return bytes.fromhex(secret)


def launch_body(**changes: object) -> dict[str, object]:
    """A launch request's body (what the operator sends), with ``changes``."""
    body: dict[str, object] = {
        "player_id": "ext-1",
        "display_name": "Budi",
        "currency": "USD",
        "language": "id",
    }
    body.update(changes)
    return {key: value for key, value in body.items() if value is not None}


def signed(
    operator_id: str, secret: bytes, at: int, body: Mapping[str, object] | bytes
) -> tuple[bytes, dict[str, str]]:
    """The raw body and the headers of the operator's launch request signed at ``at``."""
    raw = body if isinstance(body, bytes) else canonical(body)
    return raw, signed_headers(operator_id, secret, at, raw)


def counts(database: Database) -> dict[str, int]:
    """How many rows each table a launch writes holds: a refusal leaves them all alone."""
    with database.read() as c:
        return {
            table.name: int(c.scalar(select(func.count()).select_from(table)) or 0)
            for table in (players, operator_players, launch_tokens, launch_requests, auth_sessions)
        }


class FakeWallet:
    """An operator's wallet as ``httpx.MockTransport`` serves it: it checks the game server's
    signature and answers each player's balance, signed; ``down`` makes it answer 503."""

    def __init__(self, secret: bytes, balances: Mapping[str, int] | None = None) -> None:
        self.secret = secret
        self.balances = dict(balances or {})
        self.down = False
        self.calls: list[dict[str, object]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        raw = request.content
        timestamp = int(request.headers["X-Timestamp"])
        assert verify([self.secret], timestamp, raw, request.headers["X-Signature"], wall_ms())
        body = json.loads(raw)
        self.calls.append(body)
        if self.down:
            return httpx.Response(503)
        answer = canonical(ok_answer(self.balances.get(body["player_id"], 0), body["currency"]))
        headers = signed_headers(None, self.secret, wall_ms(), answer)
        return httpx.Response(200, content=answer, headers=headers)


class LaunchApp(ClientClock):
    """The app in-process (a TestClient as a loopback caller) on a virtual clock, with one
    operator (``OPERATOR``, in dollars like the standard table) whose wallet is a
    ``FakeWallet``; the operator's signed launch requests and the player's calls."""

    def __init__(self, client: TestClient, app: Any, secret: bytes, wallet: FakeWallet) -> None:
        super().__init__(client)
        self.app = app
        self.secret = secret
        self.wallet = wallet

    @property
    def service(self) -> Any:
        return self.app.state.service

    def now_ms(self) -> int:
        clock: VirtualClock = self.service.clock
        return clock.now_ms()

    def database(self) -> Database:
        database: Database = self.service.runner.database
        return database

    def request(
        self,
        body: Mapping[str, object] | bytes | None = None,
        *,
        secret: bytes | None = None,
        at: int | None = None,
        operator_id: str = OPERATOR,
    ) -> tuple[bytes, dict[str, str]]:
        """A launch request signed now (or ``at``) with the operator's secret (or ``secret``)."""
        return signed(
            operator_id,
            self.secret if secret is None else secret,
            self.now_ms() if at is None else at,
            launch_body() if body is None else body,
        )

    def send(
        self, raw: bytes, headers: Mapping[str, str], operator_id: str = OPERATOR
    ) -> httpx.Response:
        response: httpx.Response = self.client.post(
            f"/api/operators/{operator_id}/launch", content=raw, headers=dict(headers)
        )
        return response

    def launch(
        self, body: Mapping[str, object] | bytes | None = None, **sign: Any
    ) -> httpx.Response:
        return self.send(*self.request(body, **sign))

    def token_of(self, response: httpx.Response) -> str:
        assert response.status_code == 201, response.text
        url = httpx.URL(response.json()["launch_url"])
        assert url.path == "/launch"
        return str(url.params["token"])

    def trade(self, token: str) -> httpx.Response:
        response: httpx.Response = self.client.post("/api/launch", json={"token": token})
        return response

    def read(self, path: str, token: str | None = None) -> Any:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return self.client.get(path, headers=headers)


@contextlib.contextmanager
def launch_app(db_url: str, balances: Mapping[str, int] | None = None) -> Iterator[LaunchApp]:
    """``LaunchApp`` on a fresh database: one standard table, one operator."""
    database = Database(db_url)
    upgrade(database)
    # The server's own keys ($BACCARAT_SEED_KEY of the tests), so it opens the sealed secret.
    secret = new_operator(database, SeedVault(KeySource(None).load))
    database.dispose()
    wallet = FakeWallet(secret, balances)
    config = Settings(
        db=db_url,
        tables=tables_from(["standard"], betting_ms=3_600_000, reveal_ms=5, result_ms=10),
        idle_minutes=24 * 60,
    )
    clock = VirtualClock()
    app = create_app(config, clock=clock)
    app.state.service._wallet = WalletClient(transport=httpx.MockTransport(wallet))
    with TestClient(app, client=("127.0.0.1", 50_000)) as client:
        running = LaunchApp(client, app, secret, wallet)
        running.settle()
        yield running
