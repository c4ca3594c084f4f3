"""``store.reconcile``: every kind of orphan found (and nothing in a clean period), totals per
round and per player exact against a straightforward recount of random calls (Hypothesis),
the ledger check, the period's bounds, and the outbox by state, oldest first."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reconcile_support import Book, database_url, migrated, wallet_account

from baccarat.store import Database
from baccarat.store.ledger import Transaction, post
from baccarat.store.outbox_view import outbox_counts, outbox_rows
from baccarat.store.reconcile import ORPHAN_KINDS, Reconciliation, reconcile

DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.services)]
DAY = 86_400_000
T0 = 1_780_000_000_000  # some day of 2026


@pytest.fixture(scope="module", params=DATABASES)
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Database]:
    with database_url(request.param, tmp_path_factory.mktemp("rec")) as url:
        database = migrated(url)
        yield database
        database.dispose()


def _reconcile(
    book: Book, since: int = T0, until: int = T0 + DAY, now: int = T0 + DAY
) -> Reconciliation:
    with book.database.read() as c:
        found = reconcile(c, book.operator, since_ms=since, until_ms=until, now_ms=now)
    assert found is not None
    return found


def _kinds(found: Reconciliation) -> Counter[str]:
    return Counter(orphan.kind for orphan in found.orphans)


def test_every_kind_of_orphan_is_found_and_named_by_its_row(database: Database) -> None:
    book = Book(database, timeout_ms=5_000)
    alice, bob = book.player("alice"), book.player("bob")
    settled, voided, open_ = book.round("settled"), book.round("voided"), book.round("open")
    at = T0 + 1_000
    # A confirmed debit of a settled round, and one of a voided round, never ended.
    lost = book.debit(alice, settled, 500, "confirmed", at)
    lost_void = book.debit(bob, voided, 700, "confirmed", at + 1)
    # An unknown debit with no rollback; another whose end is a credit (neither is one).
    unknown = book.debit(alice, open_, 300, "unknown", at + 2)
    unknown_credited = book.debit(bob, settled, 40, "unknown", at + 3)
    credit_of_unknown = book.end(unknown_credited, "credit", 40, "done", at + 4)
    # Credits and rollbacks still queued, retrying, or failed.
    d1 = book.debit(alice, settled, 100, "confirmed", at + 5)
    queued = book.end(d1, "credit", 200, "queued", at + 6)
    d2 = book.debit(bob, settled, 100, "confirmed", at + 7)
    retrying = book.end(d2, "credit", 0, "queued", at + 8, attempts=3)
    d3 = book.debit(alice, settled, 100, "confirmed", at + 9)
    failed = book.end(d3, "credit", 0, "failed", at + 10, attempts=1)
    d4 = book.debit(bob, open_, 60, "unknown", at + 11)
    rollback_failed = book.end(d4, "rollback", 60, "failed", at + 12, attempts=9)
    # A rollback of a confirmed debit: a refund the ledger never saw.
    d5 = book.debit(alice, open_, 80, "confirmed", at + 13)
    rolled_confirmed = book.end(d5, "rollback", 80, "done", at + 14)
    # A debit pending past the operator's timeout (5 s) at ``now``, and one still in time.
    stale = book.debit(bob, open_, 90, "pending", at + 15)
    book.debit(alice, open_, 95, "pending", at + 20_000)

    found = _reconcile(book, now=at + 21_000)
    orphans = {(o.kind, o.call.id): o for o in found.orphans}
    assert set(orphans) == {
        ("debit_not_ended", lost),
        ("debit_not_ended", lost_void),
        ("unknown_not_rolled_back", unknown),
        ("unknown_not_rolled_back", unknown_credited),
        ("end_mismatch", credit_of_unknown),
        ("outbox_queued", queued),
        ("outbox_queued", retrying),
        ("outbox_failed", failed),
        ("outbox_failed", rollback_failed),
        ("end_mismatch", rolled_confirmed),
        ("debit_pending_stale", stale),
    }
    assert {o.kind for o in found.orphans} == set(ORPHAN_KINDS)
    assert orphans[("outbox_failed", failed)].debit_id == d3
    assert orphans[("outbox_failed", failed)].call.last_error == "reference_not_found"
    assert not found.clean
    # The ledger agrees all the same: each confirmed debit and each credit was posted.
    assert found.ledger.ok and found.ledger.ledger == found.ledger.expected


def test_a_clean_period_is_clean(database: Database) -> None:
    book = Book(database)
    alice = book.player()
    settled, open_ = book.round("settled"), book.round("open")
    at = T0 + 5_000
    won = book.debit(alice, settled, 1_000, "confirmed", at)
    book.end(won, "credit", 1_950, "done", at + 10)
    lost = book.debit(alice, settled, 500, "confirmed", at + 20)
    book.end(lost, "credit", 0, "done", at + 30)
    unknown = book.debit(alice, settled, 300, "unknown", at + 40)
    book.end(unknown, "rollback", 300, "done", at + 50)
    book.debit(alice, settled, 10_000, "refused", at + 60)
    # In play: a confirmed debit of an open round, a pending debit within its timeout.
    book.debit(alice, open_, 200, "confirmed", at + 70)
    book.debit(alice, open_, 100, "pending", at + 80)

    found = _reconcile(book, now=at + 81)
    assert found.orphans == [] and found.ledger.ok and found.clean
    assert [line.debit.amount for line in found.lines] == [1_000, 500, 300, 10_000, 200, 100]
    assert [line.end.kind if line.end else None for line in found.lines] == [
        "credit", "credit", "rollback", None, None, None,
    ]  # fmt: skip
    t = found.total
    assert (t.debits, t.debited, t.credited, t.rolled_back, t.net) == (6, 1_700, 1_950, 300, 250)
    assert found.rounds[settled].net == 1_950 - 1_500 and found.rounds[open_].debited == 200
    assert found.external_ids[alice].startswith("ext-")
    assert found.ledger.expected == -1_700 + 1_950


def test_the_ledger_check_sees_a_movement_the_calls_do_not_explain(database: Database) -> None:
    book = Book(database)
    alice = book.player()
    round_id = book.round("settled")
    debit = book.debit(alice, round_id, 400, "confirmed", T0 + 100)
    book.end(debit, "credit", 400, "done", T0 + 200)
    assert _reconcile(book).clean
    with database.write() as c:
        stray = [(wallet_account(book.operator), -1), ("house:standard", 1)]
        post(c, [Transaction("correction", stray)], T0 + 300)
    found = _reconcile(book)
    assert found.orphans == [] and not found.ledger.ok and not found.clean
    assert (found.ledger.ledger, found.ledger.expected) == (-1, 0)


def test_the_period_is_half_open_and_an_end_is_read_with_its_debit(database: Database) -> None:
    book = Book(database)
    alice = book.player()
    round_id = book.round("settled")
    before = book.debit(alice, round_id, 1, "confirmed", T0 - 1)
    first = book.debit(alice, round_id, 2, "confirmed", T0)
    last = book.debit(alice, round_id, 4, "confirmed", T0 + DAY - 1)
    after = book.debit(alice, round_id, 8, "confirmed", T0 + DAY)
    # ``first`` ends after the period: the line still shows it.
    book.end(first, "credit", 3, "done", T0 + DAY + 5)
    for debit in (before, last, after):
        book.end(debit, "credit", 0, "done", T0 + DAY + 6)
    found = _reconcile(book)
    assert [line.debit.id for line in found.lines] == [first, last]
    assert found.lines[0].end is not None and found.lines[0].end.amount == 3
    assert found.total.debited == 6 and found.total.credited == 3
    # The ledger check is by the time of each movement: both debits are in, no credit is.
    assert found.ledger.ok and found.ledger.expected == -6


def test_an_unknown_operator_has_no_reconciliation(database: Database) -> None:
    with database.read() as c:
        assert reconcile(c, "nobody-here", since_ms=0, until_ms=1, now_ms=1) is None


def test_the_outbox_by_state_oldest_first_in_pages(database: Database) -> None:
    book = Book(database)
    alice = book.player()
    round_id = book.round("settled")
    made: dict[str, list[str]] = defaultdict(list)
    plan = [("queued", 0), ("queued", 2), ("failed", 1), ("done", 1), ("queued", 0)]
    for i, (state, attempts) in enumerate(plan * 3):
        debit = book.debit(alice, round_id, 10, "confirmed", T0 + 10 * i)
        # Written in an order other than their time: the view sorts them.
        at = T0 + 1_000 - i
        call = book.end(debit, "credit", 10, state, at, attempts)
        shown = "retrying" if state == "queued" and attempts else state
        made[shown].insert(0, call)
    with database.read() as c:
        for state in ("queued", "retrying", "failed"):
            assert [r.id for r in outbox_rows(c, book.operator, state)] == made[state]
        every = [r.id for r in outbox_rows(c, book.operator)]
        assert sorted(every) == sorted(made["queued"] + made["retrying"] + made["failed"])
        # Page by page with the cursor of the last row: the same rows, once each.
        pages: list[str] = []
        after = None
        while page := outbox_rows(c, book.operator, limit=4, after=after):
            pages += [r.id for r in page]
            after = (page[-1].created_at, page[-1].id)
        assert pages == every
        counts = outbox_counts(c)[book.operator]
    assert counts == {"queued": 6, "retrying": 3, "failed": 3, "done": 3}


# ---- totals against a recount -------------------------------------------------------------

_DEBIT_STATES = ("pending", "confirmed", "refused", "unknown")
_ENDS = st.one_of(
    st.none(),
    st.tuples(
        st.sampled_from(("credit", "rollback")),
        st.integers(0, 10**12),
        st.sampled_from(("queued", "done", "failed")),
        st.integers(0, 5),
    ),
)
_CALLS = st.lists(
    st.tuples(
        st.integers(0, 2),  # player
        st.integers(0, 3),  # round
        st.integers(0, 10**12),  # amount
        st.sampled_from(_DEBIT_STATES),
        st.integers(-20, 40),  # when, in steps of 1 s around the period
        _ENDS,
    ),
    min_size=1,
    max_size=30,
)
_PHASES = st.lists(st.sampled_from(("open", "closed", "settled", "voided")), min_size=4, max_size=4)


def _recount(
    calls: list[Any], phases: list[str], since: int, until: int, now: int
) -> dict[str, Any]:
    """What the reconciliation must say, counted the plain way from what was written."""
    per_round: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    per_player: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    kinds: Counter[str] = Counter()
    ledger = 0
    for player, round_no, amount, state, step, end in calls:
        at = T0 + step * 1_000
        confirmed = state == "confirmed"
        if confirmed and since <= at < until:
            ledger -= amount
        if end is not None and end[0] == "credit" and since <= at + 500 < until:
            ledger += end[1]
        if not since <= at < until:
            continue
        for sums in (per_round[round_no], per_player[player]):
            sums[0] += 1
            sums[1] += amount if confirmed else 0
            if end is not None:
                sums[2 if end[0] == "credit" else 3] += end[1]
        final = phases[round_no] in ("settled", "voided")
        kinds["debit_not_ended"] += confirmed and end is None and final
        kinds["unknown_not_rolled_back"] += state == "unknown" and (
            end is None or end[0] != "rollback"
        )
        kinds["debit_pending_stale"] += state == "pending" and now - at > 2_000
        if end is not None:
            kinds[f"outbox_{end[2]}"] += end[2] != "done"
            kinds["end_mismatch"] += (end[0] == "credit") != confirmed
    return {
        "rounds": {k: tuple(v) for k, v in per_round.items()},
        "players": {k: tuple(v) for k, v in per_player.items()},
        "orphans": +kinds,
        "ledger": ledger,
    }


@pytest.fixture(scope="module")
def sqlite_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    folder: Path = tmp_path_factory.mktemp("hyp")
    with database_url("sqlite", folder) as url:
        database = migrated(url)
        yield database
        database.dispose()


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    calls=_CALLS,
    phases=_PHASES,
    bounds=st.tuples(st.integers(-30, 30), st.integers(1, 80)),
    now_step=st.integers(-20, 60),
)
def test_totals_and_orphans_match_a_recount_of_random_calls(
    sqlite_database: Database,
    calls: list[Any],
    phases: list[str],
    bounds: tuple[int, int],
    now_step: int,
) -> None:
    # A fresh operator per example: the examples share the database, never an account.
    book = Book(sqlite_database, timeout_ms=2_000)
    players = [book.player() for _ in range(3)]
    round_ids = [book.round(phase) for phase in phases]
    for player, round_no, amount, state, step, end in calls:
        at = T0 + step * 1_000
        debit = book.debit(players[player], round_ids[round_no], amount, state, at)
        if end is not None:
            kind, end_amount, end_state, attempts = end
            book.end(debit, kind, end_amount, end_state, at + 500, attempts)
    since = T0 + bounds[0] * 1_000
    until = since + bounds[1] * 1_000
    now = T0 + now_step * 1_000
    found = _reconcile(book, since, until, now)
    want = _recount(calls, phases, since, until, now)

    def figures(t: Any) -> tuple[int, int, int, int]:
        assert t.net == t.credited - t.debited
        return (t.debits, t.debited, t.credited, t.rolled_back)

    by_round = {round_ids.index(k or 0): figures(v) for k, v in found.rounds.items()}
    assert by_round == want["rounds"]
    assert {players.index(k): figures(v) for k, v in found.players.items()} == want["players"]
    assert _kinds(found) == want["orphans"]
    assert found.ledger.ledger == want["ledger"] == found.ledger.expected
    total = figures(found.total)
    assert total == tuple(map(sum, zip(*want["rounds"].values(), strict=False))) or (
        not want["rounds"] and total == (0, 0, 0, 0)
    )
    assert found.clean == (not want["orphans"])


def test_a_pending_debit_is_stale_only_past_its_operators_timeout(database: Database) -> None:
    book = Book(database, timeout_ms=3_000)
    alice = book.player()
    pending = book.debit(alice, book.round("open"), 50, "pending", T0 + 10)
    assert _reconcile(book, now=T0 + 10 + 3_000).orphans == []
    late = _reconcile(book, now=T0 + 10 + 3_001).orphans
    assert [(o.kind, o.call.id) for o in late] == [("debit_pending_stale", pending)]


def test_the_calls_as_the_bet_path_writes_them_reconcile_at_every_cut(tmp_path: Path) -> None:
    """The store functions of the bet path and the outbox (not this test's inserts): a debit
    written, then confirmed later with its bets' transaction, then credited later still; an
    unknown debit rolled back; a refused one. Every period, cut anywhere, is clean once the
    outbox has landed, and the ledger agrees at every cut."""
    from baccarat.store.wallet_calls import (
        confirm_debit,
        lose_debit,
        open_debit,
        queue_credit,
        refuse_debit,
    )
    from baccarat.store.wallet_outbox import claim_due, record_send

    with database_url("sqlite", tmp_path) as url:
        database = migrated(url)
        book = Book(database, "casino-path")
        alice = book.player()
        round_id = book.round("settled")

        def debit(call: str, amount: int, at: int) -> Any:
            return open_debit(
                c, call_id=call, operator_id=book.operator, player_id=alice, round_id=round_id,
                table_id="standard", amount=amount, currency="IDR", at=at,
            )  # fmt: skip

        with database.write() as c:
            won = debit("a" * 32, 1_000, T0 + 10)
            lost = debit("b" * 32, 400, T0 + 11)
            unknown = debit("c" * 32, 300, T0 + 12)
            refused = debit("d" * 32, 200, T0 + 13)
        with database.write() as c:
            assert confirm_debit(c, won, '{"status":"ok"}', T0 + 20, lambda _: ("t" * 32, 1)) == 1
            assert confirm_debit(c, lost, '{"status":"ok"}', T0 + 21, lambda _: ("u" * 32, 1)) == 1
            assert lose_debit(c, unknown, "timeout", T0 + 22)
            assert refuse_debit(c, refused.id, '{"status":"error"}', T0 + 23)
        with database.write() as c:
            queue_credit(c, won, 1_950, round_closed=True, at=T0 + 30)
            queue_credit(c, lost, 0, round_closed=True, at=T0 + 31)
        # Before the outbox lands: its three rows are the orphans, the ledger agrees anyway.
        found = _reconcile(book, since=T0, until=T0 + 100, now=T0 + 40)
        assert sorted(o.kind for o in found.orphans) == ["outbox_queued"] * 3
        with database.write() as c:
            for item in claim_due(c, T0 + 50, limit=10, lease_ms=1_000):
                record_send(c, item, "done", T0 + 51, answer='{"status":"ok"}')
        found = _reconcile(book, since=T0, until=T0 + 100, now=T0 + 60)
        assert found.clean and found.total.net == 1_950 - 1_400
        # Cut between each write and the next: the ledger check holds on both sides.
        for cut in range(T0 + 9, T0 + 33):
            for since, until in ((T0, cut), (cut, T0 + 100)):
                assert _reconcile(book, since=since, until=until, now=T0 + 60).ledger.ok, cut
        database.dispose()
