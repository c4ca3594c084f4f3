"""Helpers of the money-bounds, input-edge and cashier-idempotency tests: the app in-process
(FastAPI's TestClient, real dealers, the real database of ``module_db_url``) and a player's calls."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from fastapi.testclient import TestClient

from baccarat.server import Settings, create_app, tables_from

PASSWORD = "Correct-Horse-9"


class App:
    """A running app and the calls a test makes as a player."""

    def __init__(self, client: TestClient, db_url: str) -> None:
        self.client = client
        self.db_url = db_url

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        *,
        key: str | None = None,
        **kw: Any,
    ) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if key is not None:
            headers["Idempotency-Key"] = key
        response: httpx.Response = self.client.request(method, path, headers=headers, **kw)
        return response

    def account(self) -> str:
        """A freshly registered and logged-in player's token (the cashier serves them)."""
        name = f"u{uuid.uuid4().hex[:12]}"
        body = {"username": name, "password": PASSWORD}
        created = self.call("POST", "/api/accounts", json=body)
        assert created.status_code == 201, created.text
        login = self.call("POST", "/api/sessions", json=body)
        assert login.status_code == 201, login.text
        token: str = login.json()["token"]
        return token

    def guest(self) -> str:
        response = self.call("POST", "/api/players")
        assert response.status_code == 201, response.text
        token: str = response.json()["token"]
        return token

    def balance(self, token: str) -> int:
        response = self.call("GET", "/api/me", token)
        assert response.status_code == 200, response.text
        value: int = response.json()["balance"]
        return value

    def deposit(self, token: str, amount: Any, key: str | None = None) -> httpx.Response:
        return self.call("POST", "/api/me/deposits", token, key=key, json={"amount": amount})

    def withdraw(self, token: str, amount: Any, key: str | None = None) -> httpx.Response:
        return self.call("POST", "/api/me/withdrawals", token, key=key, json={"amount": amount})

    def open_round(self, min_left_ms: int = 400, timeout: float = 20.0) -> int:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            data = self.call("GET", "/api/tables/standard").json()
            state = data["round"]
            if (
                state
                and state["phase"] == "open"
                and state["closes_at_ms"] - data["now"] > min_left_ms
            ):
                return int(state["id"])
            time.sleep(0.02)
        raise AssertionError("no open round")

    def bet(self, token: str, round_id: Any, bets: dict[str, Any]) -> httpx.Response:
        return self.call(
            "POST",
            "/api/tables/standard/bets",
            token,
            key=uuid.uuid4().hex,
            json={"round_id": round_id, "bets": bets},
        )


@contextmanager
def running_app(db_url: str, betting_ms: int = 1500, **config: Any) -> Iterator[App]:
    """The service in-process with one standard table; ``config`` goes to ``Settings``."""
    tables = tables_from(["standard"], betting_ms=betting_ms, reveal_ms=5, result_ms=10)
    app = create_app(Settings(db=db_url, tables=tables, **config))
    with TestClient(app) as client:
        yield App(client, db_url)
