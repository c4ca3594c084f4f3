"""Undo of the last bet goes through the bet queue like every bet: it runs in its batch, in
order with the other requests, and the stakes the queue remembers follow it (no request
counts from stakes an undo has taken back)."""

from __future__ import annotations

import asyncio

from store_support import migrated, new_round, players, setup_table

from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import load_ruleset
from baccarat.server.bet_queue import BetQueue
from baccarat.server.store_threads import StoreRunner
from baccarat.store import check_ledger
from baccarat.store.players import player_balance
from baccarat.table import Action, BetOrder, BetReceipt

STANDARD = load_ruleset("standard")
CREDIT = 10**9


def test_an_undo_last_and_a_place_in_one_batch_count_from_what_is_left(db_url: str) -> None:
    database = migrated(db_url)
    shoe = setup_table(database, STANDARD)
    [alice] = players(database, 1, CREDIT)
    r = new_round(database, shoe, 1)
    tie_max = STANDARD.bets["tie"].max_stake

    def order(action: Action, bets: dict[str, int], key: str) -> BetOrder:
        return BetOrder(alice, "standard", r.id, action, bets, key, f"{action}{bets}")

    async def play() -> tuple[list[BetReceipt | Refusal], list[int]]:
        runner = StoreRunner(database)
        sizes: list[int] = []
        queue = BetQueue(runner, lambda: {"standard": STANDARD}, on_batch=sizes.append)
        queue.start()
        try:
            # Two placements, each its own batch: the queue remembers tie_max - 50_000 + 50_000.
            first = await queue.submit(order("place", {"tie": tie_max - 50_000}, "k1"))
            second = await queue.submit(order("place", {"tie": 50_000}, "k2"))
            # One batch: take the last placement back, then bet up to the maximum again.
            undone, again = await asyncio.gather(
                queue.submit(order("undo_last", {}, "k3")),
                queue.submit(order("place", {"tie": 50_000}, "k4")),
            )
            # The queue's memory after the batch: the table's maximum is really reached.
            over = await queue.submit(order("place", {"tie": 1}, "k5"))
            return [first, second, undone, again, over], sizes
        finally:
            await queue.stop()
            runner.close()

    results, sizes = asyncio.run(play())
    first, second, undone, again, over = results
    assert sizes == [1, 1, 2, 1]
    assert isinstance(first, BetReceipt) and first.bets == {"tie": tie_max - 50_000}
    assert isinstance(second, BetReceipt) and second.bets == {"tie": tie_max}
    assert isinstance(undone, BetReceipt)
    assert (undone.action, undone.returned, undone.bets) == (
        "undo",
        50_000,
        {"tie": tie_max - 50_000},
    )
    assert undone.balance == CREDIT - (tie_max - 50_000)
    # Not refused as above the maximum: it counts from what the undo left, not from before it.
    assert isinstance(again, BetReceipt), again
    assert again.accepted == {"tie": 50_000} and again.bets == {"tie": tie_max}
    assert again.balance == CREDIT - tie_max
    assert isinstance(over, Refusal) and over.code is RefusalCode.ABOVE_MAXIMUM
    with database.read() as c:
        assert player_balance(c, alice) == CREDIT - tie_max
        assert check_ledger(c).ok
    database.dispose()


def test_an_undo_with_no_round_open_replays_by_its_key_or_is_refused(db_url: str) -> None:
    database = migrated(db_url)
    shoe = setup_table(database, STANDARD)
    [alice] = players(database, 1, CREDIT)
    r = new_round(database, shoe, 1)

    async def play() -> list[BetReceipt | Refusal]:
        runner = StoreRunner(database)
        queue = BetQueue(runner, lambda: {"standard": STANDARD})
        queue.start()
        try:
            placed = await queue.submit(
                BetOrder(alice, "standard", r.id, "place", {"banker": 700}, "k1", "h1")
            )
            undo = BetOrder(alice, "standard", r.id, "undo_last", {}, "k2", "undo-last-open")
            first = await queue.submit(undo)
            # The same request again, sent once the round is no longer open: its first answer.
            retry = await queue.submit(
                BetOrder(alice, "standard", None, "undo_last", {}, "k2", "undo-last-open")
            )
            other = await queue.submit(
                BetOrder(alice, "standard", None, "undo_last", {}, "k2", "other")
            )
            fresh = await queue.submit(
                BetOrder(alice, "standard", None, "undo_last", {}, "k3", "h3")
            )
            nothing = await queue.submit(
                BetOrder(alice, "standard", r.id, "undo_last", {}, None, "h4")
            )
            return [placed, first, retry, other, fresh, nothing]
        finally:
            await queue.stop()
            runner.close()

    placed, first, retry, other, fresh, nothing = asyncio.run(play())
    assert isinstance(placed, BetReceipt)
    assert isinstance(first, BetReceipt) and first.returned == 700 and not first.replayed
    assert isinstance(retry, BetReceipt) and retry.replayed
    assert retry.to_json() == first.to_json()
    assert isinstance(other, Refusal) and other.code is RefusalCode.KEY_REUSED
    assert isinstance(fresh, Refusal) and fresh.code is RefusalCode.BETTING_CLOSED
    assert fresh.message == "no round is open for bets at this table"
    assert isinstance(nothing, Refusal) and nothing.code is RefusalCode.NOTHING_TO_UNDO
    with database.read() as c:
        assert player_balance(c, alice) == CREDIT
    database.dispose()
