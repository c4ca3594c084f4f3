"""Helpers of the studio table's tests: the app in-process on a virtual clock with one studio
table, a dealer and a supervisor, a device token, and a shoe pushed card by card."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from clock_driver import ClientClock
from fastapi.testclient import TestClient

from baccarat.passwords import hash_password
from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.store import Database, check_ledger, upgrade
from baccarat.store.audit_log import audit_rows
from baccarat.store.device_tokens import issue_device_token
from baccarat.store.staff import create_staff

TABLE = "standard-studio"
PASSWORD = "Studio-Pass-9"
BETTING_MS = 60_000
#: A member of staff of every role (``staff-<role>``).
STAFF = ("dealer", "operator", "auditor", "admin")


class Studio:
    """A running app with a studio table: staff tokens, a device token and helpers."""

    def __init__(self, client: TestClient, db_url: str, device: str, other_device: str) -> None:
        self.client = client
        self.db_url = db_url
        self.clock = ClientClock(client)
        self.device = device
        #: A device token of another table.
        self.other_device = other_device
        self.tokens = {role: self.login(f"staff-{role}") for role in STAFF}
        self.scans = 0

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        if token:
            headers["Authorization"] = f"Bearer {token}"
        response: httpx.Response = self.client.request(method, path, headers=headers, **kw)
        return response

    def login(self, username: str) -> str:
        response = self.call(
            "POST", "/api/admin/login", json={"username": username, "password": PASSWORD}
        )
        assert response.status_code == 201, response.text
        token: str = response.json()["token"]
        return token

    def dealer(self, method: str, action: str = "", **kw: Any) -> httpx.Response:
        path = f"/api/studio/tables/{TABLE}" + (f"/{action}" if action else "")
        return self.call(method, path, self.tokens["dealer"], **kw)

    def supervisor(self, action: str, reason: str = "checked") -> httpx.Response:
        path = f"/api/studio/tables/{TABLE}/{action}"
        return self.call("POST", path, self.tokens["operator"], json={"reason": reason})

    def console(self) -> dict[str, Any]:
        response = self.dealer("GET")
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def read(self, card: str, scan_id: str | None = None) -> httpx.Response:
        """The device reads ``card`` (a new scan id unless one is given)."""
        if scan_id is None:
            self.scans += 1
            scan_id = f"shoe1:{self.scans:06d}"
        return self.call(
            "POST",
            f"/api/studio/tables/{TABLE}/cards",
            self.device,
            json={"card": card, "scan_id": scan_id},
        )

    def read_ok(self, card: str) -> dict[str, Any]:
        response = self.read(card)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def new_shoe(self, burn: str = "Ac Kd") -> None:
        """A new shoe, and its burn read (the first card's value, and as many more)."""
        response = self.dealer("POST", "shoe", json={"shuffled_by": "dana", "cut_card": 14})
        assert response.status_code == 201, response.text
        for card in burn.split():
            self.read_ok(card)
        self.clock.settle()

    def open_round(self) -> int:
        """Wait (on the virtual clock) for the studio table's next round open for bets."""
        view = self.clock.advance_until(
            lambda: (lambda c: c if c["round"] and c["round"]["phase"] == "open" else None)(
                self.console()
            ),
            "a studio round open for bets",
        )
        return int(view["round"]["id"])

    def guest(self) -> tuple[str, str]:
        response = self.call("POST", "/api/players")
        assert response.status_code == 201, response.text
        data = response.json()
        return data["id"], data["token"]

    def bet(self, token: str, round_id: int, bets: dict[str, int]) -> httpx.Response:
        return self.call(
            "POST",
            f"/api/tables/{TABLE}/bets",
            token,
            json={"round_id": round_id, "bets": bets},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def balance(self, token: str) -> int:
        value: int = self.call("GET", "/api/me", token).json()["balance"]
        return value

    def round_view(self, round_id: int) -> dict[str, Any]:
        data: dict[str, Any] = self.call("GET", f"/api/rounds/{round_id}").json()
        return data

    def wait_final(self, round_id: int) -> dict[str, Any]:
        return self.clock.advance_until(
            lambda: (lambda v: v if v["phase"] in ("settled", "voided") else None)(
                self.round_view(round_id)
            ),
            f"round {round_id} to finish",
        )

    def audit(self) -> list[dict[str, Any]]:
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


def _prepare(db_url: str) -> tuple[str, str]:
    """Staff of each role and two device tokens (this table's, another's), as the CLI makes
    them; the tokens."""
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as connection:
            for role in STAFF:
                create_staff(connection, f"staff-{role}", role, hash_password(PASSWORD), 0)
            _, device = issue_device_token(
                connection, table_id=TABLE, label="shoe 1", by="test", at=0
            )
            _, other = issue_device_token(
                connection, table_id="ez-studio", label="shoe 2", by="test", at=0
            )
    finally:
        database.dispose()
    return device, other


@contextlib.contextmanager
def running_studio(
    folder: Path, *, before_time: str = "void", exposed: str = "void"
) -> Iterator[Studio]:
    db_url = f"sqlite:///{folder / 'studio.db'}"
    device, other = _prepare(db_url)
    tables = tables_from(
        ["standard:studio", "ez:studio"], betting_ms=BETTING_MS, reveal_ms=10, result_ms=10
    )
    tables = tuple(
        replace(t, before_time=before_time, exposed=exposed)  # type: ignore[arg-type]
        for t in tables
    )
    app = create_app(Settings(db=db_url, tables=tables), clock=VirtualClock())
    with TestClient(app, client=("127.0.0.1", 50_000)) as client:
        studio = Studio(client, db_url, device, other)
        studio.clock.sleepers = 2
        studio.clock.settle()
        yield studio
