"""The outbox: claiming due rows under a lease, the backoff, and the sender that delivers every
credit and rollback exactly once through 500s and dropped answers, on SQLite and PostgreSQL.

The wallets are ``MockWallet``s behind the real ``WalletClient`` (signed calls, signed
answers, httpx's mock transport); what is due is decided by the database's clock, which these
tests move by hand (``Database(clock=...)``), so a backoff of seconds takes none.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest
from provider_bets_support import (
    BANKER_WINS,
    PLAYER_WINS,
    Casino,
    MockWallet,
    Seat,
    db_url_fixture,
    ok,
)
from sqlalchemy import update

from baccarat.server.outbox_sender import OutboxSender
from baccarat.server.store_threads import StoreRunner
from baccarat.store.operators import disable_operator, payout_endpoint
from baccarat.store.provider_placement import Prepared
from baccarat.store.schema import wallet_transactions
from baccarat.store.wallet_outbox import backoff_ms, claim_due, record_send
from baccarat.wallet.client import WalletEndpoint

__all__ = ["db_url_fixture"]


class HandClock:
    """The database's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = time.time_ns() // 1_000_000

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@pytest.fixture(name="clock")
def clock_fixture() -> HandClock:
    return HandClock()


@pytest.fixture(name="casino")
def casino_fixture(db_url: str, clock: HandClock) -> Iterator[Casino]:
    casino = Casino(db_url, clock=clock)
    yield casino
    casino.close()


def won_credit(casino: Casino, seat: Seat, stake: int = 1_000, balance: int = 9_000) -> str:
    """A round the seat bet ``stake`` on the player side of and won: its credit's id."""
    round_id = casino.open_round()
    casino.bet(casino.order(seat, round_id, {"player": stake}), seat, ok(balance))
    casino.settle(round_id, PLAYER_WINS)
    return casino.calls(kind="credit")[-1].id


class Sender:
    """An ``OutboxSender`` on the casino's database, its wallets ``MockWallet``s, stepped by
    hand; what it told the players' pages is kept."""

    def __init__(self, casino: Casino, wallet: MockWallet, **options: object) -> None:
        self.casino = casino
        self.runner = StoreRunner(casino.database)
        self.client = wallet.client()
        self.told: list[tuple[str, int, str]] = []
        self.sender = OutboxSender(
            self.runner,
            self.client,
            self.endpoint,
            notify=lambda *told: self.told.append(told),
            rand=lambda: 0.0,
            **options,  # type: ignore[arg-type]
        )

    async def endpoint(self, operator_id: str) -> WalletEndpoint | None:
        """The service's: the operator's wallet, disabled or not."""
        vault = self.casino.vault
        return await self.runner.read(lambda c: payout_endpoint(c, vault, operator_id))

    async def round(self) -> int:
        """One step: claim what is due, send it, record every answer."""
        sent = await self.sender.step()
        await self.sender.drain()
        return sent

    def run(self, steps: int) -> list[int]:
        async def go() -> list[int]:
            return [await self.round() for _ in range(steps)]

        return asyncio.run(go())

    def close(self) -> None:
        asyncio.run(self.client.aclose())
        self.runner.close()


# -- the store's outbox -------------------------------------------------------------------


def test_a_claim_leases_its_rows_until_the_lease_ends(casino: Casino, clock: HandClock) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    credit = won_credit(casino, seat)
    with casino.database.write() as c:
        [item] = claim_due(c, clock(), limit=10, lease_ms=60_000)
    assert (item.id, item.kind, item.amount, item.external_id) == (credit, "credit", 2_000, "alice")
    assert item.attempts == 1
    with casino.database.write() as c:
        assert claim_due(c, clock() + 59_999, limit=10, lease_ms=60_000) == []
    with casino.database.write() as c:  # the sender died mid-send: the next one takes it
        [again] = claim_due(c, clock() + 60_000, limit=10, lease_ms=60_000)
    assert (again.id, again.attempts) == (credit, 2)


def test_a_retry_waits_its_backoff_and_an_answer_is_recorded_once(
    casino: Casino, clock: HandClock
) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    won_credit(casino, seat)
    for attempt, fraction in ((1, 0.0), (2, 0.5), (3, 0.99)):
        with casino.database.write() as c:
            [item] = claim_due(c, clock(), limit=10, lease_ms=60_000)
            assert item.attempts == attempt
            assert record_send(c, item, "retry", clock(), error="HTTP 500", fraction=fraction)
        wait = backoff_ms(attempt, fraction)
        assert 500 * 2 ** (attempt - 1) <= wait < 1_000 * 2 ** (attempt - 1)
        with casino.database.write() as c:
            assert claim_due(c, clock() + wait - 1, limit=10, lease_ms=60_000) == []
        clock.advance(wait)
    with casino.database.write() as c:
        [item] = claim_due(c, clock(), limit=10, lease_ms=60_000)
        assert record_send(c, item, "done", clock(), answer='{"status":"ok"}')
        assert not record_send(c, item, "done", clock(), answer='{"status":"ok"}')
        assert not record_send(c, item, "retry", clock(), error="late")
    done = casino.call(item.id)
    assert (done.state, done.attempts, done.last_error) == ("done", 4, "HTTP 500")


def test_a_claim_leaves_room_for_each_operator(casino: Casino, clock: HandClock) -> None:
    casino.operator("op-a")
    casino.operator("op-b")
    alice, bob = casino.seat("op-a", "alice"), casino.seat("op-b", "bob")
    for _ in range(4):
        won_credit(casino, alice)
    won_credit(casino, bob)
    with casino.database.write() as c:
        items = claim_due(c, clock(), limit=10, lease_ms=1_000, per_operator=2, busy={"op-a": 1})
    assert sorted(item.operator_id for item in items) == ["op-a", "op-b"]
    with casino.database.write() as c:
        items = claim_due(c, clock(), limit=10, lease_ms=1_000, per_operator=2, busy={"op-a": 2})
    assert [item.operator_id for item in items] == []  # op-b's one is leased already


def test_two_nodes_claim_different_rows(casino: Casino, clock: HandClock) -> None:
    """On PostgreSQL two nodes' claims at once skip each other's rows (SKIP LOCKED); SQLite
    has one writer at a time, so the second claim sees the first's lease."""
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    credits = {won_credit(casino, seat) for _ in range(3)}
    if casino.database.is_sqlite:
        with casino.database.write() as c:
            first = claim_due(c, clock(), limit=2, lease_ms=60_000)
        with casino.database.write() as c:
            second = claim_due(c, clock(), limit=2, lease_ms=60_000)
    else:
        engine = casino.database.write_engine
        with engine.connect() as one:
            one.begin()
            first = claim_due(one, clock(), limit=2, lease_ms=60_000)
            with engine.connect() as two, two.begin():
                second = claim_due(two, clock(), limit=2, lease_ms=60_000)
            one.commit()
    assert len(first) == 2 and len(second) == 1
    assert {item.id for item in first + second} == credits


# -- the sender ---------------------------------------------------------------------------


def test_the_sender_retries_through_500s_and_a_dropped_answer_and_ends_done_once(
    casino: Casino, clock: HandClock
) -> None:
    secret = casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    wallet = MockWallet({"op-a": secret})
    wallet.balances[("op-a", "alice")] = 9_000
    credit = won_credit(casino, seat)
    wallet.plan["credit"] = ["500", "500", "drop"]
    sender = Sender(casino, wallet)
    try:
        sent = []
        for wait in (0, 500, 1_000, 2_000):
            clock.advance(wait)
            sent += sender.run(2)  # the second step finds nothing due yet
        assert sent == [1, 0] * 4
    finally:
        sender.close()
    row = casino.call(credit)
    assert (row.state, row.attempts) == ("done", 4)
    assert wallet.moves == [("credit", credit)]  # the dropped answer's credit, moved once
    assert wallet.balances[("op-a", "alice")] == 11_000
    assert sender.told == [(seat.player_id, 11_000, "USD")]
    assert [call for call, _ in wallet.received] == ["credit"] * 4


def test_a_definite_refusal_of_a_credit_is_failed_for_a_person(
    casino: Casino, clock: HandClock
) -> None:
    secret = casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    wallet = MockWallet({"op-a": secret})
    credit = won_credit(casino, seat)
    wallet.plan["credit"] = ["refuse:player_not_found"]
    sender = Sender(casino, wallet)
    try:
        assert sender.run(1) == [1]
        clock.advance(10**7)
        assert sender.run(1) == [0]  # never sent again
    finally:
        sender.close()
    row = casino.call(credit)
    assert row.state == "failed" and row.last_error is not None
    assert row.last_error.startswith("player_not_found")
    assert sender.told == []


def test_a_loss_is_credited_zero_and_the_player_is_told_the_balance(
    casino: Casino, clock: HandClock
) -> None:
    secret = casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    wallet = MockWallet({"op-a": secret})
    wallet.balances[("op-a", "alice")] = 9_500
    round_id = casino.open_round()
    casino.bet(casino.order(seat, round_id, {"player": 500}), seat, ok(9_500))
    casino.settle(round_id, BANKER_WINS)
    sender = Sender(casino, wallet)
    try:
        assert sender.run(1) == [1]
    finally:
        sender.close()
    [credit] = casino.calls(kind="credit")
    assert (credit.state, credit.amount) == ("done", 0)
    assert sender.told == [(seat.player_id, 9_500, "USD")]


def test_a_disabled_operator_is_still_paid_what_it_owes(casino: Casino, clock: HandClock) -> None:
    """Disabling stops launches and stakes, never the money owed: the credit of a round won
    before, and the rollback of a debit left without an answer, still reach the wallet."""
    secret = casino.operator("op-a", timeout_ms=2_000)
    seat = casino.seat("op-a", "alice")
    wallet = MockWallet({"op-a": secret})
    wallet.balances[("op-a", "alice")] = 9_000
    credit = won_credit(casino, seat)
    prepared = casino.prepare(casino.order(seat, casino.open_round(), {"player": 700}), seat)
    assert isinstance(prepared, Prepared)  # the process died before the debit's answer
    with casino.database.write() as c:
        disable_operator(c, "op-a", clock())
    sender = Sender(casino, wallet, sweep_grace_ms=1_000)
    try:
        clock.advance(3_000)
        assert asyncio.run(sender.sender.sweep()) == [prepared.debit.id]
        assert sender.run(1) == [2]
    finally:
        sender.close()
    assert casino.call(credit).state == "done"
    [rollback] = casino.calls(kind="rollback")
    assert rollback.state == "done" and rollback.reference_id == prepared.debit.id
    assert wallet.balances[("op-a", "alice")] == 9_000 + 2_000
    assert sender.told == [(seat.player_id, 11_000, "USD")]


def test_an_unknown_operators_rows_wait(casino: Casino, clock: HandClock) -> None:
    """No endpoint at all (an operator this node cannot find): the row is tried again later."""
    secret = casino.operator("op-a")
    credit = won_credit(casino, casino.seat("op-a", "alice"))
    sender = Sender(casino, MockWallet({"op-a": secret}))

    async def nowhere(_operator_id: str) -> WalletEndpoint | None:
        return None

    sender.sender.endpoint = nowhere
    try:
        assert sender.run(1) == [1]
    finally:
        sender.close()
    row = casino.call(credit)
    assert row.state == "queued" and row.last_error == "the operator is unknown"
    assert row.next_attempt_at == clock() + backoff_ms(1, 0.0)


def test_the_sweep_at_start_rolls_back_a_debit_a_crash_left_pending(
    casino: Casino, clock: HandClock
) -> None:
    secret = casino.operator("op-a", timeout_ms=2_000)
    seat = casino.seat("op-a", "alice")
    wallet = MockWallet({"op-a": secret})
    round_id = casino.open_round()
    prepared = casino.prepare(casino.order(seat, round_id, {"player": 700}), seat)
    assert isinstance(prepared, Prepared)  # then the process died before the answer
    sender = Sender(casino, wallet, sweep_grace_ms=1_000)
    try:
        assert asyncio.run(sender.sender.sweep()) == []
        clock.advance(3_000)
        assert asyncio.run(sender.sender.sweep()) == [prepared.debit.id]
        assert sender.run(1) == [1]
    finally:
        sender.close()
    [rollback] = casino.calls(kind="rollback")
    assert rollback.state == "done" and rollback.reference_id == prepared.debit.id
    assert wallet.rolled_back == {prepared.debit.id}  # a tombstone: a late debit is refused
    casino.check()


def test_a_row_recorded_meanwhile_is_not_recorded_again(casino: Casino, clock: HandClock) -> None:
    """A sender whose lease ran out while it sent: another recorded the row first."""
    secret = casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    credit = won_credit(casino, seat)
    wallet = MockWallet({"op-a": secret})
    sender = Sender(casino, wallet)

    async def late() -> None:
        await sender.sender.step()
        with casino.database.write() as c:  # the other node's record
            c.execute(
                update(wallet_transactions)
                .where(wallet_transactions.c.id == credit)
                .values(state="done", answer="theirs")
            )
        await sender.sender.drain()

    try:
        asyncio.run(late())
    finally:
        sender.close()
    assert casino.call(credit).answer == "theirs"
    assert sender.told == []
