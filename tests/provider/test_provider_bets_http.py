"""An operator's player's bets through the API (the bets' fast lane and ``bet_service``): the
stake is the operator wallet's, its refusals are ``wallet_refused`` (402 for insufficient
funds, else 403) and ``wallet_unavailable`` (503), an undo and a settlement are credited by the
service's own outbox sender, and the player's feed is told the wallet's balance.

The app runs in-process on a virtual clock (``accounts_support``); the operator's wallet is a
``MockWallet`` behind the service's ``WalletClient``.
"""

from __future__ import annotations

import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from provider_bets_support import MockWallet, db_url_fixture

from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.server.events import MESSAGES
from baccarat.store import Database, check_ledger, db_now
from baccarat.store.launches import seat_player
from baccarat.store.operators import add_operator, disable_operator
from baccarat.store.schema import wallet_transactions
from baccarat.store.sessions import open_session
from baccarat.store.wallet_calls import WalletCall, find_call

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "accounts"))
from accounts_support import HOUR_MS, Service

__all__ = ["db_url_fixture"]


class Casino:
    """The running app, its wallet, and an operator ``op-a`` with a player ``alice``."""

    def __init__(
        self, service: Service, wallet: MockWallet, vault: Any, clock: VirtualClock
    ) -> None:
        self.service = service
        self.wallet = wallet
        self.database = Database(service.db_url, clock=clock.now_ms)
        with self.database.write() as c:
            now = db_now(c)
            secret = add_operator(
                c, vault, operator_id="op-a", name="Casino A",
                wallet_url="http://wallet.test", currency="USD", timeout_ms=2_000, at=now,
            )  # fmt: skip
            self.player = seat_player(
                c, operator_id="op-a", external_id="alice", display_name="Alice",
                currency="USD", language="en", at=now,
            )  # fmt: skip
            self.token, _ = open_session(c, self.player, now, 10**10)
        wallet.secrets["op-a"] = bytes.fromhex(secret)
        wallet.balances[("op-a", "alice")] = 10_000

    def bet(self, round_id: int, bets: dict[str, int]) -> Any:
        return self.service.call(
            "POST",
            "/api/tables/standard/bets",
            self.token,
            json={"round_id": round_id, "bets": bets},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def undo_last(self, round_id: int) -> Any:
        return self.service.call(
            "DELETE",
            f"/api/tables/standard/bets?round_id={round_id}&last=true",
            self.token,
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )

    def calls(self, kind: str) -> list[WalletCall]:
        with self.database.read() as c:
            ids = c.scalars(
                wallet_transactions.select()
                .with_only_columns(wallet_transactions.c.id)
                .where(wallet_transactions.c.kind == kind)
                .order_by(wallet_transactions.c.created_at)
            ).all()
            return [call for call in (find_call(c, i) for i in ids) if call is not None]

    def wait_sent(self, kind: str, count: int) -> list[WalletCall]:
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            found = self.calls(kind)
            if len(found) == count and all(call.state == "done" for call in found):
                return found
            time.sleep(0.05)
        raise AssertionError(f"the {kind}s were not sent: {self.calls(kind)}")


@pytest.fixture(name="casino")
def casino_fixture(db_url: str) -> Iterator[Casino]:
    config = Settings(
        db=db_url,
        tables=tables_from(["standard"], betting_ms=HOUR_MS, reveal_ms=5, result_ms=10),
        # The clock moves hours within a round: the session must not idle out meanwhile.
        idle_minutes=365 * 24 * 60,
    )
    clock = VirtualClock()
    app = create_app(config, clock=clock)
    wallet = MockWallet({})
    app.state.service._wallet = wallet.client()
    with TestClient(app, client=("127.0.0.1", 50_000)) as client:
        service = Service(client, db_url, clock)
        service.settle()
        casino = Casino(service, wallet, app.state.service.vault, clock)
        yield casino
        casino.database.dispose()


def test_an_operator_players_bets_go_through_the_wallet(casino: Casino) -> None:
    service, wallet = casino.service, casino.wallet
    round_id = service.betting_round()
    placed = casino.bet(round_id, {"player": 1_000})
    assert placed.status_code == 200, placed.text
    assert placed.json()["balance"] == 9_000 and placed.json()["bets"] == {"player": 1_000}

    short = casino.bet(round_id, {"player": 20_000})
    assert short.status_code == 402, short.text
    error = short.json()["error"]
    assert error["code"] == "wallet_refused" and error["details"] == {"kind": "insufficient_funds"}

    wallet.plan["debit"] = ["refuse:player_blocked"]
    blocked = casino.bet(round_id, {"player": 100})
    assert (
        blocked.status_code == 403
        and blocked.json()["error"]["details"]["kind"] == "player_blocked"
    )

    wallet.plan["debit"] = ["500"]
    down = casino.bet(round_id, {"player": 100})
    assert down.status_code == 503 and down.json()["error"]["code"] == "wallet_unavailable"
    assert wallet.balances[("op-a", "alice")] == 9_000
    casino.wait_sent("rollback", 1)  # the 500's debit: the service's sender rolled it back

    tie = casino.bet(round_id, {"tie": 500})
    assert tie.status_code == 200 and tie.json()["balance"] == 8_500
    undone = casino.undo_last(round_id)
    assert undone.status_code == 200, undone.text
    assert undone.json()["returned"] == 500 and undone.json()["balance"] == 9_000
    [credit] = casino.wait_sent("credit", 1)
    assert (credit.amount, credit.round_closed) == (500, False)
    assert wallet.balances[("op-a", "alice")] == 9_000

    with service.client.websocket_connect(
        "/ws/tables/standard", headers={"Authorization": f"Bearer {casino.token}"}
    ) as feed:
        service.wait_final(round_id)
        deadline = time.monotonic() + 15
        told: list[dict[str, Any]] = []
        settled: list[dict[str, Any]] = []
        while not (told and settled) and time.monotonic() < deadline:
            message = feed.receive_json()
            if message["type"] in ("balance", "settled"):
                MESSAGES.validate_python(message)  # as docs/events.schema.json says
                (told if message["type"] == "balance" else settled).append(message)
    # The round's own result, without a balance of ours: the wallet's answer is the figure.
    [mine] = settled
    assert mine["staked"] == 1_000 and "net" in mine and "balance" not in mine
    first, second = casino.wait_sent("credit", 2)
    assert first.id == credit.id and second.round_closed  # the round's: 0, or 2 000 won
    assert second.amount in (0, 2_000, 1_000)  # lost, won, or a tie pushes the player bet
    final = wallet.balances[("op-a", "alice")]
    assert final == 9_000 + second.amount
    assert told == [{"type": "balance", "balance": final, "currency": "USD"}]
    with casino.database.read() as c:
        report = check_ledger(c)
    assert report.ok, report.problems


def test_an_ordinary_players_bet_is_untouched(casino: Casino) -> None:
    service = casino.service
    token = service.guest()
    round_id = service.betting_round()
    placed = service.bet(token, round_id, {"player": 1_000})
    assert placed.status_code == 200, placed.text
    assert casino.wallet.received == []


def test_a_disabled_operators_player_is_still_paid_by_the_services_sender(
    casino: Casino,
) -> None:
    """Disabling the operator mid-round ends its player's session and stops new stakes, but the
    round's credit still reaches the wallet: the service's own sender ignores ``disabled_at``."""
    service, wallet = casino.service, casino.wallet
    # Each endpoint read afresh (not kept 5 s): the sender sees the disabling at once, as it
    # would any credit sent later than that.
    service.client.app.state.service.provider_bets.endpoint_ttl_s = 0.0
    round_id = service.betting_round()
    placed = casino.bet(round_id, {"player": 1_000})
    assert placed.status_code == 200, placed.text
    with casino.database.write() as c:
        assert disable_operator(c, "op-a", db_now(c)) == 1
    refused = casino.bet(round_id, {"player": 500})
    assert refused.status_code == 403, refused.text  # no new stake for a disabled operator
    assert refused.json()["error"]["details"] == {"kind": "operator_disabled"}
    service.wait_final(round_id)
    [credit] = casino.wait_sent("credit", 1)
    assert credit.round_closed and credit.amount in (0, 1_000, 2_000)
    assert wallet.balances[("op-a", "alice")] == 9_000 + credit.amount
    with casino.database.read() as c:
        report = check_ledger(c)
    assert report.ok, report.problems
