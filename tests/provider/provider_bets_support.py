"""Helpers of the provider bet and outbox tests: a fresh database (SQLite, and PostgreSQL when
reachable) with a table, a shoe and operators, and a ``Casino`` that plays rounds in it through
the provider bet path's own transactions (``server.provider_bets.prepare`` and
``record_answer``), the wallet's answer scripted by the test. Test modules import the fixtures
they use (a ``conftest.py`` here would clash with ``tests/server``'s under ``--doctest-modules``).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from pg_schemas import postgres_schema
from sqlalchemy import func, select, update

from baccarat.cards import parse_cards
from baccarat.coup import deal
from baccarat.fair import commitment
from baccarat.refusals import Refusal
from baccarat.rulesets import load_ruleset
from baccarat.server.bet_service import request_hash
from baccarat.store import Database, check_ledger, db_now, upgrade
from baccarat.store.launches import seat_player
from baccarat.store.ledger import balances, player_account
from baccarat.store.operators import OperatorPlayer, add_operator, player_operator
from baccarat.store.placement import place_batch
from baccarat.store.players import token_hash
from baccarat.store.provider_placement import Gate, Prepared, prepare, record_answer
from baccarat.store.rounds import close_round, get_round, open_round, store_cards
from baccarat.store.schema import rounds, wallet_transactions
from baccarat.store.seal import SeedVault
from baccarat.store.sessions import open_session
from baccarat.store.settlement import settle_round, void_round
from baccarat.store.shoe_rules import ShoeRules
from baccarat.store.shoes import fix_client_seed, register_table, start_shoe
from baccarat.store.wallet_calls import WalletCall, find_call, wallet_account
from baccarat.table import Action, BetOrder, BetReceipt
from baccarat.wallet.client import WalletClient
from baccarat.wallet.contract import (
    Ok,
    Refused,
    canonical,
    error_answer,
    ok_answer,
    signed_headers,
)

DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]
STANDARD = load_ruleset("standard")
TABLE = STANDARD.name
#: A coup the player side wins (a natural 9 against 5), and one the banker side wins.
PLAYER_WINS = deal(parse_cards("9s 2h Kd 3c"))
BANKER_WINS = deal(parse_cards("2s 9h 3d Kc"))


def gate() -> Gate:
    """The sessions' check now (by the wall clock), with sessions that never idle out."""
    return Gate(now_ms=time.time_ns() // 1_000_000, idle_ms=10**12, touch_ms=10**12)


@pytest.fixture(name="db_url", params=DATABASES)
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for one test."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'provider.db'}"
        return
    with postgres_schema("baccarat_pb") as url:
        yield url


def ok(balance: int, call_id: str = "x") -> Ok:
    """The wallet's yes, as ``read_answer`` gives it."""
    answer = ok_answer(balance, "USD", call_id, f"w-{call_id}")
    return Ok(balance, f"w-{call_id}", canonical(answer).decode())


def refused(code: str, message: str = "no") -> Refused:
    return Refused(code, message, canonical(error_answer(code, message)).decode())


@dataclass
class Seat:
    """An operator's player: our id, the operator's, and a live session's hash."""

    player_id: str
    operator: OperatorPlayer
    session_hash: str


class Casino:
    """A database with the standard table, one shoe, and operators whose players bet through
    the provider path's transactions (the wallet's answers scripted)."""

    def __init__(
        self, url: str, vault: SeedVault | None = None, clock: Callable[[], int] | None = None
    ) -> None:
        """``clock``: the database's clock (``db_now``) in place of its own."""
        self.database = Database(url, clock=clock)
        upgrade(self.database)
        self.vault = vault or SeedVault.ephemeral()
        self.rules = ShoeRules()
        self.secrets: dict[str, bytes] = {}
        with self.database.write() as c:
            now = db_now(c)
            register_table(c, TABLE, TABLE, {"betting_ms": 1000}, now)
            self.shoe = start_shoe(
                c,
                shoe_id="shoe-1",
                table_id=TABLE,
                decks=STANDARD.decks,
                ruleset_toml=STANDARD.to_toml(),
                server_seed=bytes(32),
                commitment=commitment(bytes(32)),
                at=now,
                vault=self.vault,
            )
        self.number = 0

    def close(self) -> None:
        self.database.dispose()

    # -- operators and players ---------------------------------------------------------

    def operator(
        self, operator_id: str, url: str = "http://127.0.0.1:9", timeout_ms: int = 2000
    ) -> bytes:
        with self.database.write() as c:
            secret = add_operator(
                c,
                self.vault,
                operator_id=operator_id,
                name=f"Casino {operator_id}",
                wallet_url=url,
                currency="USD",
                timeout_ms=timeout_ms,
                at=db_now(c),
            )
        self.secrets[operator_id] = bytes.fromhex(secret)
        return self.secrets[operator_id]

    def seat(self, operator_id: str, external_id: str) -> Seat:
        with self.database.write() as c:
            now = db_now(c)
            player = seat_player(
                c,
                operator_id=operator_id,
                external_id=external_id,
                display_name=external_id,
                currency="USD",
                language="en",
                at=now,
            )
            token, _ = open_session(c, player, now, 10**10)
            found = player_operator(c, player)
        assert found is not None
        return Seat(player, found, token_hash(token))

    # -- rounds ------------------------------------------------------------------------

    def open_round(self, betting_ms: int = 60_000) -> int:
        self.number += 1
        with self.database.write() as c:
            row = open_round(
                c, table_id=TABLE, shoe_id=self.shoe.id, number=self.number, betting_ms=betting_ms
            ).row
        return row.id

    def close_round(self, round_id: int) -> None:
        with self.database.write() as c:
            c.execute(
                update(rounds).where(rounds.c.id == round_id).values(closes_at=rounds.c.opened_at)
            )
            closed = close_round(c, round_id)
            assert not isinstance(closed, int)
            fix_client_seed(c, closed.row.shoe_id)

    def settle(self, round_id: int, coup: Any = PLAYER_WINS) -> Any:
        self.close_round(round_id)
        with self.database.write() as c:
            row = store_cards(c, round_id, coup.cards, db_now(c)).row
            return settle_round(c, row, coup, STANDARD, db_now(c))

    def void(self, round_id: int) -> Any:
        with self.database.write() as c:
            row = get_round(c, round_id)
            assert row is not None
            return void_round(c, row, "test void", db_now(c))

    # -- the bet path ------------------------------------------------------------------

    def order(
        self,
        seat: Seat,
        round_id: int,
        bets: dict[str, int] | None = None,
        *,
        action: Action = "place",
        key: str | None = None,
    ) -> BetOrder:
        wanted = dict(bets or {})
        return BetOrder(
            seat.player_id,
            TABLE,
            round_id,
            action,
            wanted,
            key or uuid.uuid4().hex,
            request_hash(action, TABLE, round_id, wanted),
            seat.session_hash,
        )

    def prepare(self, order: BetOrder, seat: Seat) -> Prepared | BetReceipt | Refusal:
        with self.database.write() as c:
            return prepare(c, order, seat.operator, gate(), self.rules)

    def answer(
        self, order: BetOrder, debit: WalletCall, outcome: Ok | Refused | str
    ) -> BetReceipt | Refusal:
        with self.database.write() as c:
            return record_answer(c, order, debit, outcome, gate(), self.rules)

    def bet(self, order: BetOrder, seat: Seat, outcome: Ok | Refused | str) -> BetReceipt | Refusal:
        """The whole provider path with the wallet's answer given."""
        prepared = self.prepare(order, seat)
        if not isinstance(prepared, Prepared):
            return prepared
        return self.answer(order, prepared.debit, outcome)

    def undo(self, seat: Seat, round_id: int, *, last: bool = False) -> BetReceipt | Refusal:
        """An undo through the bet queue's placement (as every undo goes)."""
        order = self.order(seat, round_id, action="undo_last" if last else "undo")
        with self.database.write() as c:
            [result] = place_batch(c, [order], rules=self.rules)
        return result

    # -- reading -----------------------------------------------------------------------

    def calls(self, **where: object) -> list[WalletCall]:
        query = select(wallet_transactions.c.id).order_by(wallet_transactions.c.created_at)
        for name, value in where.items():
            query = query.where(wallet_transactions.c[name] == value)
        with self.database.read() as c:
            found = [find_call(c, call_id) for call_id in c.scalars(query)]
        return [call for call in found if call is not None]

    def call(self, call_id: str) -> WalletCall:
        with self.database.read() as c:
            found = find_call(c, call_id)
        assert found is not None
        return found

    def balance(self, account: str) -> int:
        with self.database.read() as c:
            return balances(c, [account]).get(account, 0)

    def internal(self, seat: Seat) -> int:
        return self.balance(player_account(seat.player_id))

    def wallet_account(self, operator_id: str) -> int:
        return self.balance(wallet_account(operator_id))

    def count(self) -> int:
        with self.database.read() as c:
            return int(c.scalar(select(func.count()).select_from(wallet_transactions)) or 0)

    def check(self) -> None:
        """``ledger check`` finds nothing wrong."""
        with self.database.read() as c:
            report = check_ledger(c)
        assert report.ok, report.problems


@pytest.fixture(name="casino")
def casino_fixture(db_url: str) -> Iterator[Casino]:
    casino = Casino(db_url)
    yield casino
    casino.close()


class MockWallet:
    """Operators' wallets answering over ``httpx.MockTransport``, as the contract says (signed
    answers, idempotent ids, a rollback's tombstone), with trouble on demand: ``plan`` holds,
    per call kind, what the next calls do (``"500"``: refused before anything moves;
    ``"drop"``: the money moves, the answer is lost; ``"ok"``: as the contract says), and
    ``latency_s`` per operator delays every call of that operator."""

    def __init__(self, secrets: dict[str, bytes]) -> None:
        self.secrets = secrets
        self.balances: dict[tuple[str, str], int] = {}
        self.answers: dict[str, bytes] = {}
        self.rolled_back: set[str] = set()
        self.debits: dict[str, int] = {}
        self.credited: set[str] = set()
        self.moves: list[tuple[str, str]] = []
        self.plan: dict[str, list[str]] = {}
        self.latency_s: dict[str, float] = {}
        self.received: list[tuple[str, str]] = []

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    def client(self) -> WalletClient:
        return WalletClient(transport=self.transport())

    async def handle(self, request: httpx.Request) -> httpx.Response:
        operator = request.headers["X-Operator-Id"]
        call = request.url.path.rsplit("/", 1)[-1]
        body = json.loads(request.content)
        self.received.append((call, body.get("transaction_id", "")))
        await asyncio.sleep(self.latency_s.get(operator, 0.0))
        fate = self.plan.get(call, []).pop(0) if self.plan.get(call) else "ok"
        if fate == "500":
            return httpx.Response(500, content=b"busy")
        if fate.startswith("refuse:"):  # a definite no, nothing moved
            answer = canonical(error_answer(fate.removeprefix("refuse:"), "refused on purpose"))
            stamp = time.time_ns() // 1_000_000
            return httpx.Response(
                200,
                content=answer,
                headers=signed_headers(None, self.secrets[operator], stamp, answer),
            )
        answer = self._answer(operator, call, body)
        if fate == "drop":
            raise httpx.RemoteProtocolError("the wallet closed the connection", request=request)
        headers = signed_headers(None, self.secrets[operator], time.time_ns() // 1_000_000, answer)
        return httpx.Response(200, content=answer, headers=headers)

    def _answer(self, operator: str, call: str, body: dict[str, Any]) -> bytes:
        txn = body["transaction_id"]
        if txn in self.answers:
            return self.answers[txn]
        key = (operator, body["player_id"])
        balance = self.balances.get(key, 0)
        amount = int(body["amount"])
        found: dict[str, object]
        if call == "debit" and txn in self.rolled_back:
            found = error_answer("transaction_rolled_back", "rolled back before it came")
        elif call == "debit" and amount > balance:
            found = error_answer("insufficient_funds", f"balance {balance}")
        elif call == "rollback" and body["reference_id"] in self.credited:
            found = error_answer("bet_already_closed", "credited already")
        else:
            if call == "debit":
                balance -= amount
                self.debits[txn] = amount
            elif call == "credit":
                balance += amount
                self.credited.add(body["reference_id"])
            else:
                balance += self.debits.pop(body["reference_id"], 0)
                self.rolled_back.add(body["reference_id"])
            self.balances[key] = balance
            self.moves.append((call, txn))
            found = ok_answer(balance, body["currency"], txn, f"w-{txn[:8]}")
        self.answers[txn] = canonical(found)
        return self.answers[txn]
