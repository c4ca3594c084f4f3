"""Two writers of bets on one database (two nodes, two workers): each batch reads the stakes
held, the limits and the rule set in its own transaction, under the player's lock.

Each writer here is what one process has: a ``Database`` of its own (its own connections) and
either ``place_batch`` with its own ``ShoeRules`` or a whole ``BetQueue`` (with its writer
thread and whatever it keeps). Nothing one of them remembers can make the other accept more
than a spot's maximum, or answer a receipt that is not what the database holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from server_support import postgres_reachable, postgres_schema
from serving import services_required, wait_until
from sqlalchemy import event, text
from store_support import migrated, new_round, players, setup_table

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible import NO_LIMITS, LimitKind, Period, request_change
from baccarat.responsible.instants import from_epoch_ms
from baccarat.rulesets import load_ruleset, parse_ruleset
from baccarat.server.bet_queue import BetQueue
from baccarat.server.store_threads import StoreRunner
from baccarat.store import Database, check_ledger, db_now
from baccarat.store.bet_reads import open_stakes
from baccarat.store.ledger import WORLD, Transaction, balance_versions, player_account, post
from baccarat.store.placement import place_batch
from baccarat.store.players import player_balance
from baccarat.store.responsible import Controls, save_controls
from baccarat.store.shoe_rules import ShoeRules
from baccarat.store.stakes_cache import StakesCache
from baccarat.table import BetOrder, BetReceipt

STANDARD = load_ruleset("standard")
#: Every spot of the standard table with its maximum (every offered bet has one).
MAXIMA = {spot: rule.max_stake for spot, rule in STANDARD.bets.items()}
CREDIT = 10**8


class Writer:
    """One process's batches: its own connections, its own cache of rule sets and its own
    memory of the stakes held (kept once a batch has committed, as the bet queue does)."""

    def __init__(self, url: str) -> None:
        self.database = Database(url)
        self.rules = ShoeRules()
        self.stakes = StakesCache()

    def place(self, orders: list[BetOrder]) -> list[BetReceipt | Refusal]:
        """The orders as one batch, committed."""
        try:
            with self.database.write() as c:
                results = place_batch(c, orders, rules=self.rules, stakes=self.stakes)
        except BaseException:
            self.stakes.discard()
            raise
        self.stakes.commit()
        return results

    def close(self) -> None:
        self.database.dispose()


class QueueWriter(Writer):
    """One process's bet queue, on an event loop of its own (driven by one thread at a time)."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.runner = StoreRunner(self.database)
        self.queue = BetQueue(self.runner)
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self._start())

    async def _start(self) -> None:
        self.queue.start()

    def place(self, orders: list[BetOrder]) -> list[BetReceipt | Refusal]:
        """The orders submitted together (the queue batches them), once all are answered."""

        async def submit() -> list[BetReceipt | Refusal]:
            return list(await asyncio.gather(*(self.queue.submit(o) for o in orders)))

        return self.loop.run_until_complete(submit())

    def close(self) -> None:
        self.loop.run_until_complete(self.queue.stop())
        self.loop.close()
        self.runner.close()


@pytest.fixture(params=[Writer, QueueWriter], ids=["batches", "queues"])
def writers(
    request: pytest.FixtureRequest, db_url: str
) -> Iterator[tuple[Database, Writer, Writer]]:
    database = migrated(db_url)
    one, two = request.param(db_url), request.param(db_url)
    yield database, one, two
    one.close()
    two.close()
    database.dispose()


def held(database: Database, round_id: int, player: str) -> dict[str, int]:
    with database.read() as c:
        return open_stakes(c, [(round_id, player)]).get((round_id, player), {})


def test_the_reproduction_in_sequence_on_every_spot(
    writers: tuple[Database, Writer, Writer],
) -> None:
    database, n1, n2 = writers
    shoe = setup_table(database, STANDARD)
    [guest] = players(database, 1, CREDIT)
    r = new_round(database, shoe, 1)

    def order(spot: str, stake: int) -> BetOrder:
        return BetOrder(guest, "standard", r.id, "place", {spot: stake})

    for spot, maximum in MAXIMA.items():
        three_quarters, quarter = maximum * 3 // 4, maximum // 4
        # Three quarters through n1 (its cache, if it had one, would remember them) ...
        [first] = n1.place([order(spot, three_quarters)])
        assert isinstance(first, BetReceipt) and first.bets[spot] == three_quarters
        # ... a quarter through n2: the maximum reached ...
        [second] = n2.place([order(spot, quarter)])
        assert isinstance(second, BetReceipt) and second.bets[spot] == maximum
        # ... and n1 must know it, though it did not place it.
        [third] = n1.place([order(spot, quarter)])
        assert isinstance(third, Refusal), third
        assert (third.code, third.spot, third.limit) == (RefusalCode.ABOVE_MAXIMUM, spot, maximum)
        # Every receipt reported the stakes the database held once it was committed.
        assert second.bets == held(database, r.id, guest)
        assert held(database, r.id, guest)[spot] == maximum
    total = sum(MAXIMA.values())
    with database.read() as c:
        assert player_balance(c, guest) == CREDIT - total
        assert check_ledger(c).ok


def test_concurrent_batches_of_two_writers_never_pass_a_maximum(
    writers: tuple[Database, Writer, Writer],
) -> None:
    database, n1, n2 = writers
    shoe = setup_table(database, STANDARD)
    [guest] = players(database, 1, CREDIT)
    r = new_round(database, shoe, 1)
    # Per spot, 24 bets of a tenth of its maximum, alternating writers: 10 fit, 14 do not.
    orders = [
        BetOrder(guest, "standard", r.id, "place", {spot: maximum // 10})
        for _ in range(24)
        for spot, maximum in MAXIMA.items()
    ]
    shares = [orders[0::2], orders[1::2]]
    results: list[list[BetReceipt | Refusal]] = [[], []]
    start = threading.Barrier(2)

    def run(i: int, writer: Writer) -> None:
        start.wait()
        for at in range(0, len(shares[i]), 5):  # batches of five, back to back
            results[i].extend(writer.place(shares[i][at : at + 5]))

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate((n1, n2))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert all(len(results[i]) == len(shares[i]) for i in (0, 1))

    seen: dict[str, list[int]] = defaultdict(list)
    for share, answers in zip(shares, results, strict=True):
        for order, answer in zip(share, answers, strict=True):
            [spot] = order.bets
            if isinstance(answer, BetReceipt):
                seen[spot].append(answer.bets[spot])
            else:
                assert (answer.code, answer.spot) == (RefusalCode.ABOVE_MAXIMUM, spot), answer
    stakes = held(database, r.id, guest)
    for spot, maximum in MAXIMA.items():
        tenth = maximum // 10
        assert stakes[spot] == maximum
        # Each accepted bet's receipt is the database after it: 1, 2, ... 10 tenths, once each.
        assert sorted(seen[spot]) == [tenth * k for k in range(1, 11)], spot
    with database.read() as c:
        assert player_balance(c, guest) == CREDIT - sum(MAXIMA.values())
        assert check_ledger(c).ok


def test_a_wager_limit_counts_what_the_other_writer_staked(
    writers: tuple[Database, Writer, Writer],
) -> None:
    database, n1, n2 = writers
    shoe = setup_table(database, STANDARD)
    [guest] = players(database, 1, CREDIT)
    with database.write() as c:
        at = db_now(c)
        limits, _ = request_change(NO_LIMITS, LimitKind.WAGER, Period.DAY, 3_000, from_epoch_ms(at))
        save_controls(c, guest, Controls(limits=limits), at)
    r = new_round(database, shoe, 1)

    def order(stake: int) -> BetOrder:
        return BetOrder(guest, "standard", r.id, "place", {"player": stake})

    [first] = n1.place([order(2_000)])
    [second] = n2.place([order(1_500)])
    [third] = n1.place([order(1_000)])
    assert isinstance(first, BetReceipt) and first.bets == {"player": 2_000}
    assert isinstance(second, Refusal) and second.code == RefusalCode.LIMIT_EXCEEDED
    assert isinstance(third, BetReceipt) and third.bets == {"player": 3_000}
    [fourth] = n2.place([order(100)])
    assert isinstance(fourth, Refusal) and fourth.code == RefusalCode.LIMIT_EXCEEDED
    assert held(database, r.id, guest) == {"player": 3_000}


@dataclass
class TieTable:
    """One guest at a standard table with a round open, and two writers of its bets."""

    database: Database
    n1: Writer
    n2: Writer
    guest: str
    round_id: int

    def tie(self, stake: int) -> BetOrder:
        return BetOrder(self.guest, "standard", self.round_id, "place", {"tie": stake})

    def held(self) -> dict[str, int]:
        return held(self.database, self.round_id, self.guest)


@contextlib.contextmanager
def tie_table_on(url: str) -> Iterator[TieTable]:
    database = migrated(url)
    n1, n2 = Writer(url), Writer(url)
    try:
        shoe = setup_table(database, STANDARD)
        [guest] = players(database, 1, CREDIT)
        yield TieTable(database, n1, n2, guest, new_round(database, shoe, 1).id)
    finally:
        for db in (n1.database, n2.database, database):
            db.dispose()


@pytest.fixture
def tie_table(db_url: str) -> Iterator[TieTable]:
    with tie_table_on(db_url) as table:
        yield table


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL schema: the test below needs a writer to wait for another's lock."""
    if not postgres_reachable():
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    with postgres_schema() as url:
        yield url


@pytest.mark.services
def test_a_batch_that_waits_for_another_counts_what_that_one_committed(
    postgres_url: str,
) -> None:
    with tie_table_on(postgres_url) as table:
        database, n1, n2, tie = table.database, table.n1, table.n2, table.tie
        answer: list[BetReceipt | Refusal] = []
        waiting = threading.Thread(target=lambda: answer.extend(n2.place([tie(100_000)])))
        with n1.database.write() as c:
            [first] = place_batch(c, [tie(150_000)])
            assert isinstance(first, BetReceipt) and first.bets == {"tie": 150_000}
            pid = c.execute(text("SELECT pg_backend_pid()")).scalar_one()
            waiting.start()
            # n2's batch started while n1's is open, and waits for the player's lock.
            blocked = text(
                "SELECT count(*) FROM pg_stat_activity WHERE :p = ANY(pg_blocking_pids(pid))"
            )

            def n2_waits() -> bool:
                with database.read() as watch:
                    return bool(watch.execute(blocked, {"p": pid}).scalar_one())

            wait_until(n2_waits, 60, "n2's batch to wait for n1's")
        waiting.join(60)
        [second] = answer
        assert isinstance(second, Refusal) and second.code == RefusalCode.ABOVE_MAXIMUM
        [third] = n2.place([tie(50_000)])
        assert isinstance(third, BetReceipt) and third.bets == {"tie": 200_000}
        assert table.held() == {"tie": 200_000}


#: A rule set named like the table's but tighter: what its shoe was started with.
TIGHT = parse_ruleset(
    'name = "standard"\nextends = "standard"\n[bets.tie]\nmax_stake = 1000\n'
    "[bets.big]\noffered = false\n"
)


def test_a_bet_is_checked_against_its_shoes_rule_set_not_the_one_handed_in(db_url: str) -> None:
    database = migrated(db_url)
    tight = setup_table(database, TIGHT, shoe_id="tight")
    loose = setup_table(database, STANDARD, shoe_id="loose")
    [guest] = players(database, 1, CREDIT)
    on_tight, on_loose = new_round(database, tight, 1), new_round(database, loose, 1)

    def order(round_id: int, bets: dict[str, int]) -> BetOrder:
        return BetOrder(guest, "standard", round_id, "place", bets)

    async def play() -> list[BetReceipt | Refusal]:
        runner = StoreRunner(database)
        # What a process was told the table plays (a broadcast): the standard rule set.
        queue = BetQueue(runner, lambda: {"standard": STANDARD})
        queue.start()
        try:
            return [
                await queue.submit(order(on_tight.id, {"tie": 1_500})),
                await queue.submit(order(on_tight.id, {"big": 1_000})),
                await queue.submit(order(on_tight.id, {"tie": 1_000})),
                # The next shoe's rule set applies to its rounds, in the same queue.
                await queue.submit(order(on_loose.id, {"tie": 1_500, "big": 1_000})),
                await queue.submit(order(on_tight.id, {"tie": 1})),
            ]
        finally:
            await queue.stop()
            runner.close()

    try:
        over, not_offered, fits, other_shoe, still_tight = asyncio.run(play())
        assert isinstance(over, Refusal) and (over.code, over.limit) == (
            RefusalCode.ABOVE_MAXIMUM,
            1000,
        )
        assert isinstance(not_offered, Refusal) and not_offered.code == RefusalCode.NOT_OFFERED
        assert isinstance(fits, BetReceipt) and fits.bets == {"tie": 1_000}
        assert isinstance(other_shoe, BetReceipt)
        assert other_shoe.bets == {"tie": 1_500, "big": 1_000}
        assert isinstance(still_tight, Refusal) and still_tight.code == RefusalCode.ABOVE_MAXIMUM
    finally:
        database.dispose()


# -- a writer's memory of the stakes: good only while the player's account version is -------


def bets_reads(database: Database) -> list[str]:
    """Every statement that reads the ``bets`` table, as the writer's connections send it."""
    seen: list[str] = []

    def record(*args: object) -> None:
        statement = str(args[2])
        if statement.lstrip().upper().startswith("SELECT") and " bets" in statement:
            seen.append(statement)

    event.listen(database.write_engine, "before_cursor_execute", record)
    return seen


def test_a_writer_alone_reads_no_bets_after_its_first_batch_and_another_writer_makes_it_read(
    tie_table: TieTable,
) -> None:
    n1, n2, tie = tie_table.n1, tie_table.n2, tie_table.tie
    reads = bets_reads(n1.database)
    n1.place([tie(10_000)])
    assert len(reads) == 1  # the first batch reads what the player holds
    for k in range(2, 6):
        [receipt] = n1.place([tie(10_000)])
        assert isinstance(receipt, BetReceipt) and receipt.bets == {"tie": 10_000 * k}
    assert len(reads) == 1  # nobody else posted to the account: what n1 wrote holds
    n2.place([tie(100_000)])
    [receipt] = n1.place([tie(10_000)])
    assert len(reads) == 2  # the version moved: n1 reads again, and counts n2's bet
    assert isinstance(receipt, BetReceipt) and receipt.bets == {"tie": 160_000}
    assert receipt.bets == tie_table.held()
    # An undo posts on its own: the next batch reads again, and holds nothing.
    [undone] = n1.place([BetOrder(tie_table.guest, "standard", tie_table.round_id, "undo", {})])
    assert isinstance(undone, BetReceipt) and undone.bets == {}
    [again] = n1.place([tie(1_000)])
    assert isinstance(again, BetReceipt) and again.bets == {"tie": 1_000} == tie_table.held()


def test_a_batch_rolled_back_leaves_nothing_remembered_for_a_version_another_writer_reaches(
    tie_table: TieTable,
) -> None:
    n1, n2, tie = tie_table.n1, tie_table.n2, tie_table.tie

    # n1's batch stages 150,000 at the next version, then its transaction fails.
    def staged_then_failed() -> None:
        with n1.database.write() as c:
            place_batch(c, [tie(150_000)], rules=n1.rules, stakes=n1.stakes)
            raise RuntimeError("the commit failed")

    with pytest.raises(RuntimeError):
        staged_then_failed()
    n1.stakes.discard()
    # n2 brings the account to that same version with other stakes.
    [other] = n2.place([tie(100_000)])
    assert isinstance(other, BetReceipt) and other.bets == {"tie": 100_000}
    # n1 must count the 100,000 it never saw, not the 150,000 that never happened.
    [receipt] = n1.place([tie(60_000)])
    assert isinstance(receipt, BetReceipt), receipt
    assert receipt.bets == {"tie": 160_000} == tie_table.held()


def test_every_posting_moves_the_accounts_version_even_when_it_nets_to_nothing(
    db_url: str,
) -> None:
    database = migrated(db_url)
    try:
        [guest] = players(database, 1, CREDIT)
        account = player_account(guest)
        with database.read() as c:
            [(_, before)] = balance_versions(c, [account]).values()
        with database.write() as c:
            there = Transaction("adjust", [(account, -5), (WORLD, 5)])
            back = Transaction("adjust", [(account, 5), (WORLD, -5)])
            post(c, [there, back], db_now(c))  # one call: its entries cancel out
        with database.read() as c:
            assert balance_versions(c, [account]) == {account: (CREDIT, before + 1)}
    finally:
        database.dispose()
