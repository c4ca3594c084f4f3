"""The reference wallet in process, behind httpx's ASGI transport: a ``WalletClient`` on it, its
admin, and the bodies of the calls the wallet tests send."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from baccarat.wallet.client import WalletClient, WalletEndpoint
from baccarat.wallet.contract import (
    Ok,
    Outcome,
    Refused,
    credit_body,
    debit_body,
    rollback_body,
)
from baccarat.wallet.reference.app import ReferenceConfig, create_app

__all__ = ["OP", "SECRET", "InProcess", "code", "credit", "debit", "in_process", "rollback"]

_T = TypeVar("_T")
SECRET = b"\x07" * 32
OP = "op-test"


class InProcess:
    """The reference app behind httpx's ASGI transport, a client and the admin."""

    def __init__(
        self, folder: Path, *, client_host: str = "127.0.0.1", game_url: str | None = None
    ) -> None:
        self.app = create_app(ReferenceConfig(OP, SECRET, folder / "w.db", game_url))
        self.transport = httpx.ASGITransport(app=self.app, client=(client_host, 40000))
        self.endpoint = WalletEndpoint(OP, "http://wallet", SECRET, 5.0)

    def run(self, work: Callable[[WalletClient], Awaitable[_T]]) -> _T:
        async def main() -> _T:
            client = WalletClient(transport=self.transport)
            try:
                return await work(client)
            finally:
                await client.aclose()

        return asyncio.run(main())

    def call(self, call: str, body: dict[str, Any]) -> Outcome:
        return self.run(lambda c: c.call(self.endpoint, call, body))  # type: ignore[arg-type]

    def admin(self, method: str, path: str, body: Any = None) -> httpx.Response:
        async def send() -> httpx.Response:
            async with httpx.AsyncClient(transport=self.transport, base_url="http://wallet") as c:
                return await c.request(method, path, json=body)

        return asyncio.run(send())

    def player(self, player_id: str, balance: int, **more: Any) -> None:
        body = {"player_id": player_id, "balance": balance, "currency": "USD", **more}
        assert self.admin("POST", "/admin/players", body).status_code == 200

    def balance(self, player_id: str) -> int:
        found: int = self.admin("GET", f"/admin/players/{player_id}").json()["balance"]
        return found

    def close(self) -> None:
        self.app.state.engine.dispose()


@pytest.fixture(name="wallet")
def in_process(tmp_path: Path) -> Iterator[InProcess]:
    found = InProcess(tmp_path)
    yield found
    found.close()


def debit(tid: str, amount: int, player: str = "p") -> dict[str, Any]:
    return dict(
        debit_body(
            transaction_id=tid,
            player_id=player,
            round_id=3,
            table_id="t",
            amount=amount,
            currency="USD",
        )
    )


def credit(tid: str, ref: str, amount: int, player: str = "p") -> dict[str, Any]:
    return dict(
        credit_body(
            transaction_id=tid,
            reference_id=ref,
            player_id=player,
            round_id=3,
            table_id="t",
            amount=amount,
            currency="USD",
            round_closed=True,
        )
    )


def rollback(tid: str, ref: str, amount: int, player: str = "p") -> dict[str, Any]:
    return dict(
        rollback_body(
            transaction_id=tid,
            reference_id=ref,
            player_id=player,
            round_id=3,
            table_id="t",
            amount=amount,
            currency="USD",
        )
    )


def code(outcome: Outcome) -> str:
    if isinstance(outcome, Ok):
        return f"ok {outcome.balance}"
    if isinstance(outcome, Refused):
        return outcome.code
    return f"unknown: {outcome.reason}"
