"""The provider bet path end to end with a wallet on the other side: ``ProviderBets`` (the
debit within the window, its answer recorded with the placement) and the ``OutboxSender`` (the
credits and rollbacks), against ``MockWallet``s behind the real ``WalletClient`` and against
the reference wallet (``baccarat wallet reference``) in a process of its own.

A slow operator's wallet (2 s a call) delays neither another operator's bets nor its credits:
the calls are asynchronous, and each operator has its own slots in the client and the sender.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from provider_bets_support import PLAYER_WINS, Casino, MockWallet, Seat, db_url_fixture
from sqlalchemy import update

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.auth import TokenBook
from baccarat.server.clock import SystemClock
from baccarat.server.outbox_sender import OutboxSender
from baccarat.server.provider_bets import ProviderBets
from baccarat.server.store_threads import StoreRunner
from baccarat.store.operators import seal_label
from baccarat.store.schema import operators
from baccarat.table import BetReceipt
from baccarat.wallet.client import WalletClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wallet"))
from reference_support import OPERATOR, SECRET, ReferenceWallet, wait_for

__all__ = ["db_url_fixture"]


@pytest.fixture(name="casino")
def casino_fixture(db_url: str) -> Iterator[Casino]:
    casino = Casino(db_url)
    yield casino
    casino.close()


class Node:
    """What one server runs of provider mode on the casino's database: the bet path and the
    outbox sender, with one wallet client."""

    def __init__(self, casino: Casino, client: WalletClient, **options: object) -> None:
        self.casino = casino
        self.runner = StoreRunner(casino.database)
        self.client = client
        tokens = TokenBook(self.runner, SystemClock(), idle_ms=10**9)
        self.bets = ProviderBets(self.runner, tokens, client, casino.vault)
        self.told: list[tuple[str, int, str]] = []
        self.sender = OutboxSender(
            self.runner,
            client,
            self.bets.endpoint,
            notify=lambda *told: self.told.append(told),
            poll_s=0.02,
            **options,  # type: ignore[arg-type]
        )

    async def bet(
        self, seat: Seat, round_id: int, bets: dict[str, int], key: str | None = None
    ) -> BetReceipt | Refusal:
        order = self.casino.order(seat, round_id, bets, key=key)
        operator = await self.bets.operator_of(seat.player_id)
        assert operator is not None
        return await self.bets.submit(order, operator)

    async def close(self) -> None:
        await self.client.aclose()
        await asyncio.to_thread(self.runner.close)


def _settled(casino: Casino, call_id: str) -> bool:
    return casino.call(call_id).state in ("done", "failed")


async def _until(check: object, timeout: float) -> float:
    """Seconds until ``check()`` is true (polled), or a failure after ``timeout``."""
    started = time.monotonic()
    while not check():  # type: ignore[operator]
        if time.monotonic() - started > timeout:
            raise AssertionError("timed out")
        await asyncio.sleep(0.02)
    return time.monotonic() - started


def test_a_bet_is_debited_placed_settled_and_credited(casino: Casino) -> None:
    wallet = MockWallet({"op-a": casino.operator("op-a")})
    seat = casino.seat("op-a", "alice")
    wallet.balances[("op-a", "alice")] = 10_000

    async def play() -> None:
        node = Node(casino, wallet.client())
        try:
            round_id = casino.open_round()
            receipt = await node.bet(seat, round_id, {"player": 1_000})
            assert isinstance(receipt, BetReceipt) and receipt.balance == 9_000
            short = await node.bet(seat, round_id, {"player": 10_000})
            assert isinstance(short, Refusal) and short.code is RefusalCode.WALLET_REFUSED
            assert short.kind == "insufficient_funds"
            casino.settle(round_id, PLAYER_WINS)
            runner = asyncio.create_task(node.sender.run())
            [credit] = casino.calls(kind="credit")
            await _until(lambda: _settled(casino, credit.id), 10)
            runner.cancel()
        finally:
            await node.close()
        assert wallet.balances[("op-a", "alice")] == 11_000
        assert node.told == [(seat.player_id, 11_000, "USD")]

    asyncio.run(play())
    casino.check()


def test_a_dropped_debit_answer_is_rolled_back_and_the_money_returns(casino: Casino) -> None:
    wallet = MockWallet({"op-a": casino.operator("op-a")})
    seat = casino.seat("op-a", "alice")
    wallet.balances[("op-a", "alice")] = 10_000
    wallet.plan["debit"] = ["drop"]  # the wallet took it; the answer never came

    async def play() -> None:
        node = Node(casino, wallet.client())
        try:
            round_id = casino.open_round()
            lost = await node.bet(seat, round_id, {"player": 1_000}, key="k-1")
            assert isinstance(lost, Refusal) and lost.code is RefusalCode.WALLET_UNAVAILABLE
            assert wallet.balances[("op-a", "alice")] == 9_000
            again = await node.bet(seat, round_id, {"player": 1_000}, key="k-1")
            assert isinstance(again, Refusal) and again.code is RefusalCode.WALLET_UNAVAILABLE
            assert [call for call, _ in wallet.received] == ["debit"]  # not sent twice
            await node.sender.step()
            await node.sender.drain()
        finally:
            await node.close()

    asyncio.run(play())
    [rollback] = casino.calls(kind="rollback")
    assert rollback.state == "done"
    assert wallet.balances[("op-a", "alice")] == 10_000
    assert casino.internal(seat) == 0 and casino.wallet_account("op-a") == 0
    casino.check()


def test_a_slow_operator_delays_neither_another_operators_bets_nor_its_credits(
    casino: Casino,
) -> None:
    wallet = MockWallet(
        {"slow": casino.operator("slow", timeout_ms=10_000), "fast": casino.operator("fast")}
    )
    # Long enough that the order of the answers says who waited, whatever the machine's load:
    # every fast call ends while every slow one is still held.
    wallet.latency_s["slow"] = 4.0
    slow = [casino.seat("slow", f"s{i}") for i in range(4)]
    fast = [casino.seat("fast", f"f{i}") for i in range(2)]
    for seat in slow + fast:
        wallet.balances[(seat.operator.operator_id, seat.operator.external_id)] = 10_000

    async def play() -> None:
        node = Node(casino, wallet.client(), per_operator=2)
        try:
            round_id = casino.open_round()
            slow_bets = [
                asyncio.create_task(node.bet(seat, round_id, {"player": 100})) for seat in slow
            ]
            await asyncio.sleep(0.1)  # the slow debits are in flight
            for seat in fast:
                assert isinstance(await node.bet(seat, round_id, {"banker": 100}), BetReceipt)
            assert not any(task.done() for task in slow_bets)
            for result in await asyncio.gather(*slow_bets):
                assert isinstance(result, BetReceipt)

            casino.settle(round_id, PLAYER_WINS)
            credits = {c.player_id: c.id for c in casino.calls(kind="credit")}
            runner = asyncio.create_task(node.sender.run())
            fast_done = [credits[seat.player_id] for seat in fast]
            slow_done = [credits[seat.player_id] for seat in slow]
            await _until(lambda: all(_settled(casino, c) for c in fast_done), 10)
            assert not any(_settled(casino, c) for c in slow_done)
            # Two waves of two (its slots), four seconds each.
            await _until(lambda: all(_settled(casino, c) for c in slow_done), 30)
            runner.cancel()
        finally:
            await node.close()

    asyncio.run(play())
    for seat in slow:
        assert wallet.balances[("slow", seat.operator.external_id)] == 10_000 + 100
    casino.check()


@pytest.fixture(name="reference", scope="module")
def reference_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReferenceWallet]:
    wallet = ReferenceWallet(tmp_path_factory.mktemp("wallet")).start()
    try:
        yield wallet
    finally:
        wallet.kill()


class FastClock:
    """The database's clock: the wall clock's pace until ``speed`` changes it (a backoff of
    seconds then passes in milliseconds)."""

    def __init__(self) -> None:
        self.base = time.time_ns() // 1_000_000
        self.since = time.monotonic()
        self.speed = 1.0

    def __call__(self) -> int:
        return self.base + int((time.monotonic() - self.since) * 1000 * self.speed)

    def faster(self, speed: float) -> None:
        self.base, self.since, self.speed = self(), time.monotonic(), speed


def test_with_the_reference_wallet_every_debit_ends_once_through_its_faults(
    db_url: str, reference: ReferenceWallet
) -> None:
    """Against the reference wallet: dropped and failed credits are sent until done, a dropped
    debit is rolled back, and the wallet's money agrees with ours."""
    clock = FastClock()
    casino = Casino(db_url, clock=clock)
    try:
        _reference_rounds(casino, reference, clock)
    finally:
        casino.close()


def _reference_rounds(casino: Casino, reference: ReferenceWallet, clock: FastClock) -> None:
    casino.operator(OPERATOR, url=reference.url, timeout_ms=5_000)
    with casino.database.write() as c:  # the secret the reference wallet was started with
        sealed = casino.vault.seal(seal_label(OPERATOR), SECRET)
        c.execute(update(operators).where(operators.c.id == OPERATOR).values(secret_sealed=sealed))
    player = f"p-{time.time_ns()}"
    reference.player(player, 100_000)
    seat = casino.seat(OPERATOR, player)

    async def play() -> None:
        node = Node(casino, WalletClient())
        try:
            round_id = casino.open_round()
            receipt = await node.bet(seat, round_id, {"player": 1_000, "tie": 500})
            assert isinstance(receipt, BetReceipt) and receipt.balance == 98_500
            reference.faults(drop_rate=1.0, calls=["debit"])
            lost = await node.bet(seat, round_id, {"banker": 700})
            assert isinstance(lost, Refusal) and lost.code is RefusalCode.WALLET_UNAVAILABLE
            reference.faults(error_rate=0.5, drop_rate=0.3, calls=["credit", "rollback"])
            casino.settle(round_id, PLAYER_WINS)
            clock.faster(100)  # a minute of backoff in 0.6 s
            runner = asyncio.create_task(node.sender.run())
            ends = [c.id for c in casino.calls() if c.kind != "debit"]
            assert len(ends) == 2
            await _until(lambda: all(_settled(casino, c) for c in ends), 60)
            runner.cancel()
        finally:
            reference.faults(error_rate=0, drop_rate=0)
            await node.close()

    asyncio.run(play())
    assert {c.state for c in casino.calls() if c.kind != "debit"} == {"done"}
    # 100 000 - 1 500 staked + 2 000 back from the player side; the dropped debit rolled back.
    assert wait_for(lambda: reference.balance(player) == 100_500 or None, 10, "the balance")
    casino.check()
