"""A reference operator wallet for a test: ``baccarat wallet reference`` in a process of its own.

Started as an operator would start it (the console script, a free port, its own SQLite file),
driven through its loopback admin, and killed with SIGKILL and started again on the same file
when a test needs a crash.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from baccarat.wallet.client import WalletClient, WalletEndpoint
from baccarat.wallet.contract import MoneyCall, Outcome, credit_body, debit_body, rollback_body

__all__ = [
    "OPERATOR",
    "SECRET",
    "ReferenceWallet",
    "credit",
    "debit",
    "fresh_player",
    "new_id",
    "one",
    "rollback",
    "run",
    "shared_wallet",
    "wait_for",
    "wallet",
]

OPERATOR = "op-ref"
SECRET = bytes.fromhex("5e" * 32)
_BIN = Path(sys.executable).parent
_T = TypeVar("_T")


def wait_for(check: Callable[[], _T | None], timeout: float, what: str) -> _T:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found is not None and found is not False:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ReferenceWallet:
    """One reference wallet process; ``start`` again after ``kill`` keeps the database."""

    def __init__(self, workdir: Path, *, game_url: str = "http://127.0.0.1:9") -> None:
        self.workdir = workdir
        self.db = workdir / "wallet.db"
        self.game_url = game_url
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def endpoint(self, *, timeout_s: float = 5.0, secret: bytes = SECRET) -> WalletEndpoint:
        return WalletEndpoint(OPERATOR, self.url, secret, timeout_s)

    def start(self, *options: str) -> ReferenceWallet:
        self.starts += 1
        self.port = _free_port()
        secret_file = self.workdir / "secret"
        secret_file.write_text(SECRET.hex())
        argv = [
            str(_BIN / "baccarat"),
            *("wallet", "reference", "--db", str(self.db), "--operator-id", OPERATOR),
            *("--secret-file", str(secret_file), "--game-url", self.game_url),
            *("--port", str(self.port), *options),
        ]
        err = (self.workdir / f"wallet-{self.starts}.err").open("wb")
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        err.close()
        wait_for(self._up, 30.0, f"the reference wallet on port {self.port}")
        return self

    def _up(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            text = (self.workdir / f"wallet-{self.starts}.err").read_text(errors="replace")
            raise AssertionError(f"the wallet exited with {self.process.returncode}: {text}")
        try:
            return httpx.get(f"{self.url}/admin/health", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """``kill -9``: nothing of the wallet's shutdown runs."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    # -- the admin ---------------------------------------------------------------------

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        response = httpx.request(method, f"{self.url}{path}", json=body, timeout=10.0)
        assert response.status_code == 200, response.text
        return response.json()

    def player(self, player_id: str, balance: int, currency: str = "USD", **more: Any) -> None:
        body = {"player_id": player_id, "balance": balance, "currency": currency, **more}
        self.admin("POST", "/admin/players", body)

    def balance(self, player_id: str) -> int:
        found: int = self.admin("GET", f"/admin/players/{player_id}")["balance"]
        return found

    def transactions(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.admin("GET", "/admin/transactions")
        return rows

    def faults(self, **faults: Any) -> None:
        self.admin("PUT", "/admin/faults", faults)


@pytest.fixture(scope="module")
def shared_wallet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceWallet]:
    """One reference wallet process for a test module (import this fixture and ``wallet``)."""
    started = ReferenceWallet(tmp_path_factory.mktemp("wallet")).start()
    try:
        yield started
    finally:
        started.kill()


@pytest.fixture
def wallet(shared_wallet: ReferenceWallet) -> ReferenceWallet:
    """The module's wallet with no faults in force."""
    shared_wallet.faults(
        latency_ms=0,
        timeout_rate=0,
        error_rate=0,
        drop_rate=0,
        hang_ms=30_000,
        calls=["balance", "debit", "credit", "rollback"],
    )
    return shared_wallet


# -- calls through WalletClient --------------------------------------------------------


def run(work: Callable[[WalletClient], Awaitable[_T]], **options: Any) -> _T:
    async def main() -> _T:
        client = WalletClient(**options)
        try:
            return await work(client)
        finally:
            await client.aclose()

    return asyncio.run(main())


def new_id() -> str:
    return secrets.token_hex(16)


def debit(
    player: str, amount: int, tid: str | None = None, currency: str = "USD"
) -> dict[str, Any]:
    return dict(
        debit_body(
            transaction_id=tid or new_id(),
            player_id=player,
            round_id=1,
            table_id="standard",
            amount=amount,
            currency=currency,
        )
    )


def credit(player: str, of: dict[str, Any], amount: int, tid: str | None = None) -> dict[str, Any]:
    return dict(
        credit_body(
            transaction_id=tid or new_id(),
            reference_id=of["transaction_id"],
            player_id=player,
            round_id=1,
            table_id="standard",
            amount=amount,
            currency=of["currency"],
            round_closed=True,
        )
    )


def rollback(player: str, of: dict[str, Any], tid: str | None = None) -> dict[str, Any]:
    return dict(
        rollback_body(
            transaction_id=tid or new_id(),
            reference_id=of["transaction_id"],
            player_id=player,
            round_id=1,
            table_id="standard",
            amount=of["amount"],
            currency=of["currency"],
        )
    )


def one(wallet: ReferenceWallet, call: MoneyCall, body: dict[str, Any], **endpoint: Any) -> Outcome:
    return run(lambda client: client.call(wallet.endpoint(**endpoint), call, body))


def fresh_player(wallet: ReferenceWallet, balance: int = 10_000, **more: Any) -> str:
    player = f"p-{new_id()[:12]}"
    wallet.player(player, balance, **more)
    return player
