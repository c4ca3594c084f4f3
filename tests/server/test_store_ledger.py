"""The store on SQLite and PostgreSQL: migrations, bet batches, settlement, voids, ledger check."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, text
from store_support import force_close, migrated, new_round, players, reload, setup_table

from baccarat.cards import full_deck
from baccarat.coup import Coup, deal_from
from baccarat.refusals import Refusal
from baccarat.rulesets import load_ruleset
from baccarat.store import Database, check_ledger, db_now
from baccarat.store.bet_reads import player_round_bets
from baccarat.store.ledger import LedgerError, Transaction, player_account
from baccarat.store.migrate import current_revision, head_revision, upgrade
from baccarat.store.placement import place_batch
from baccarat.store.players import player_balance
from baccarat.store.rounds import store_cards
from baccarat.store.schema import metadata
from baccarat.store.settlement import allocate, settle_round, void_round
from baccarat.table import BetOrder, BetReceipt

STANDARD = load_ruleset("standard")
CREDIT = 100_000


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = migrated(db_url)
    yield db
    db.dispose()


def place(db: Database, orders: list[BetOrder]) -> list[BetReceipt | Refusal]:
    with db.write() as c:
        return place_batch(c, orders)


def balance(db: Database, player: str) -> int:
    with db.read() as c:
        return player_balance(c, player)


def coup_from(order: list[int]) -> Coup:
    deck = full_deck()
    cards = iter(deck[i] for i in order)
    return deal_from(lambda: next(cards))


def deal_and_settle(db: Database, round_id: int, coup: Coup) -> None:
    with db.write() as c:
        row = store_cards(c, round_id, coup.cards, db_now(c)).row
        settle_round(c, row, coup, STANDARD, db_now(c))


# -- reads --------------------------------------------------------------------------------


def test_a_read_is_one_snapshot_while_a_settlement_commits(database: Database) -> None:
    """``ledger check`` runs many statements in one read; a settlement committed between two of
    them must not show (half of it would look like cached balances that differ from entries)."""
    shoe = setup_table(database, STANDARD)
    [player] = players(database, 1, CREDIT)
    round_id = new_round(database, shoe, 1).id
    [receipt] = place(
        database, [BetOrder(player, "standard", round_id, "place", {"banker": 2_000})]
    )
    assert isinstance(receipt, BetReceipt)
    force_close(database, round_id)
    with database.read() as reading:
        before = reading.execute(text("SELECT count(*) FROM ledger_entries")).scalar_one()
        deal_and_settle(database, round_id, coup_from(list(range(6))))
        during = check_ledger(reading)
        after = reading.execute(text("SELECT count(*) FROM ledger_entries")).scalar_one()
    assert after == before
    assert during.ok, during.problems
    with database.read() as fresh:
        assert fresh.execute(text("SELECT count(*) FROM ledger_entries")).scalar_one() > before
        assert check_ledger(fresh).ok


# -- schema -------------------------------------------------------------------------------


def test_the_migrations_create_exactly_the_schema(database: Database) -> None:
    assert current_revision(database) == head_revision()
    upgrade(database)  # a second run changes nothing
    with database.read() as c:
        context = MigrationContext.configure(c, opts={"compare_type": True})
        assert compare_metadata(context, metadata) == []


# -- bets ---------------------------------------------------------------------------------


def test_a_batch_runs_each_request_whole_or_not_at_all(database: Database) -> None:
    shoe = setup_table(database, STANDARD)
    alice, bob = players(database, 2, CREDIT)
    r = new_round(database, shoe, 1)

    def order(player: str, bets: dict[str, int], key: str | None = None) -> BetOrder:
        return BetOrder(player, "standard", r.id, "place", bets, key, repr(sorted(bets.items())))

    results = place(
        database,
        [
            order(alice, {"player": 1000, "tie": 100}, "a1"),
            order(alice, {"player": 1000, "tie": 100}, "a1"),  # a retry: replayed
            order(alice, {"banker": 500}, "a1"),  # same key, another request
            order(bob, {"player": 1000, "tie": 300_000}),  # the tie spot is over its limit
            order(bob, {"banker": CREDIT}),  # exactly everything
            order(bob, {"player": 100}),  # nothing left
            order(alice, {"tie": 199_901}),  # 100 already on tie: 200,000 is the maximum
        ],
    )
    first, retry, reused, over, everything, broke, tie_limit = results
    assert isinstance(first, BetReceipt) and first.balance == CREDIT - 1100
    assert isinstance(retry, BetReceipt) and retry.replayed and retry.to_json() == first.to_json()
    assert isinstance(reused, Refusal) and reused.code == "idempotency_key_reused"
    assert isinstance(over, Refusal) and over.code == "above_maximum"
    assert isinstance(everything, BetReceipt) and everything.balance == 0
    assert isinstance(broke, Refusal) and broke.code == "insufficient_funds"
    assert isinstance(tie_limit, Refusal) and tie_limit.code == "above_maximum"
    assert balance(database, alice) == CREDIT - 1100 and balance(database, bob) == 0
    with database.read() as c:
        assert [b["stake"] for b in player_round_bets(c, r.id, alice)] == [1000, 100]
        assert [b["spot"] for b in player_round_bets(c, r.id, bob)] == ["banker"]
        report = check_ledger(c)
    assert report.ok and report.in_play == 1100 + CREDIT


def test_no_bet_after_the_close_and_undo_only_while_open(database: Database) -> None:
    shoe = setup_table(database, STANDARD)
    [alice] = players(database, 1, CREDIT)
    r = new_round(database, shoe, 1)
    bet = BetOrder(alice, "standard", r.id, "place", {"player": 500})
    undo = BetOrder(alice, "standard", r.id, "undo")
    [placed, undone, again] = place(database, [bet, undo, bet])
    assert isinstance(placed, BetReceipt) and placed.balance == CREDIT - 500
    assert isinstance(undone, BetReceipt) and undone.returned == 500 and undone.bets == {}
    assert isinstance(again, BetReceipt) and again.bets == {"player": 500}
    force_close(database, r.id)
    [late, late_undo] = place(database, [bet, undo])
    assert isinstance(late, Refusal) and late.code == "betting_closed"
    assert isinstance(late_undo, Refusal) and late_undo.code == "betting_closed"
    assert balance(database, alice) == CREDIT - 500
    other_table = BetOrder(alice, "ez", r.id, "place", {"player": 500})
    [wrong] = place(database, [other_table])
    assert isinstance(wrong, Refusal) and wrong.code == "betting_closed"


def test_rebet_and_double_repeat_the_previous_round(database: Database) -> None:
    shoe = setup_table(database, STANDARD)
    [alice] = players(database, 1, CREDIT)
    first = new_round(database, shoe, 1)
    place(database, [BetOrder(alice, "standard", first.id, "place", {"banker": 700, "tie": 100})])
    place(database, [BetOrder(alice, "standard", first.id, "place", {"banker": 300})])
    force_close(database, first.id)
    deal_and_settle(database, first.id, coup_from(list(range(6))))
    second = new_round(database, shoe, 2)
    rebet, double = place(
        database,
        [
            BetOrder(alice, "standard", second.id, "rebet"),
            BetOrder(alice, "standard", second.id, "double"),
        ],
    )
    assert isinstance(rebet, BetReceipt) and rebet.accepted == {"banker": 1000, "tie": 100}
    assert isinstance(double, BetReceipt) and double.accepted == {"banker": 2000, "tie": 200}
    assert double.bets == {"banker": 3000, "tie": 300}


# -- settlement ---------------------------------------------------------------------------

wagers = st.lists(
    st.tuples(
        st.integers(0, 3),
        st.sampled_from(["player", "banker", "tie", "player_pair", "big", "small"]),
        st.integers(100, 5_000),
    ),
    min_size=1,
    max_size=14,
)


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(bets=wagers, order=st.permutations(range(52)), void=st.booleans())
def test_settlement_pays_each_spot_by_the_rules_once(
    database: Database, bets: list[tuple[int, str, int]], order: list[int], void: bool
) -> None:
    shoe_id = f"shoe-{db_id(database)}"
    shoe = setup_table(database, STANDARD, shoe_id=shoe_id)
    people = players(database, 4, CREDIT)
    r = new_round(database, shoe, 1)
    staked: dict[tuple[str, str], int] = defaultdict(int)
    for who, spot, stake in bets:
        [result] = place(
            database, [BetOrder(people[who], "standard", r.id, "place", {spot: stake})]
        )
        if isinstance(result, BetReceipt):
            staked[(people[who], spot)] += stake
    force_close(database, r.id)
    coup = coup_from(order)
    if void:
        with database.write() as c:
            void_round(c, reload(c, r.id), "test", db_now(c))
    else:
        deal_and_settle(database, r.id, coup)
    # An independent model: each player's whole stake on a spot, paid by the pay table.
    expected = dict.fromkeys(people, CREDIT)
    for (player, spot), stake in staked.items():
        back = stake if void else STANDARD.bet(spot).payout(coup).returned(stake)
        expected[player] += back - stake
    for player in people:
        assert balance(database, player) == expected[player]
    with database.read() as c:
        report = check_ledger(c)
        outcomes = c.execute(
            text("SELECT count(*), count(DISTINCT bet_id) FROM bet_outcomes WHERE round_id = :r"),
            {"r": r.id},
        ).one()
        bets_in_round = c.execute(
            text("SELECT count(*) FROM bets WHERE round_id = :r"), {"r": r.id}
        ).scalar_one()
    assert report.ok, report.problems
    assert outcomes[0] == outcomes[1] == bets_in_round
    # Settling again does nothing.
    with database.write() as c:
        assert settle_round(c, reload(c, r.id), coup, STANDARD, db_now(c)) is None
        assert void_round(c, reload(c, r.id), "again", db_now(c)) is None


_ids: dict[int, int] = {}


def db_id(database: Database) -> int:
    _ids[id(database)] = _ids.get(id(database), 0) + 1
    return _ids[id(database)]


@given(total=st.integers(0, 10**9), stakes=st.lists(st.integers(1, 10**6), min_size=1, max_size=8))
def test_allocate_splits_exactly(total: int, stakes: list[int]) -> None:
    shares = allocate(total, stakes)
    assert sum(shares) == total and len(shares) == len(stakes)
    assert all(share >= 0 for share in shares)


def test_a_transaction_must_balance() -> None:
    with pytest.raises(LedgerError, match="does not balance"):
        Transaction("bet", [("a", -1), ("b", 2)])
    with pytest.raises(LedgerError, match="no entries"):
        Transaction("bet", [])


# -- ledger check -------------------------------------------------------------------------


def _corrupt(c: Connection, how: str, ids: dict[str, object]) -> None:
    statements = {
        "unbalanced entry": "INSERT INTO ledger_entries (txn_id, account_id, amount) "
        "VALUES (:txn, :account, 5)",
        "stale balance": "UPDATE accounts SET balance = balance + 1 WHERE id = :account",
        "lost outcome": "DELETE FROM bet_outcomes WHERE bet_id = :bet",
        "wrong payout": "UPDATE bet_outcomes SET returned = returned + 1 WHERE bet_id = :bet",
        "empty transaction": "INSERT INTO ledger_transactions (id, kind, created_at) "
        "VALUES ('ffff', 'correction', 0)",
        "early outcome": "UPDATE rounds SET phase = 'dealt' WHERE id = :round",
    }
    c.execute(text(statements[how]), ids)


def test_the_ledger_check_finds_every_kind_of_damage(database: Database) -> None:
    shoe = setup_table(database, STANDARD)
    alice, bob = players(database, 2, CREDIT)
    r = new_round(database, shoe, 1)
    place(
        database,
        [
            BetOrder(alice, "standard", r.id, "place", {"player": 1000, "banker": 1000}),
            BetOrder(bob, "standard", r.id, "place", {"tie": 500}),
        ],
    )
    force_close(database, r.id)
    deal_and_settle(database, r.id, coup_from(list(range(51, -1, -1))))
    with database.read() as c:
        assert check_ledger(c).ok
        txn = c.execute(text("SELECT txn_id FROM bets LIMIT 1")).scalar_one()
        bet = c.execute(text("SELECT min(id) FROM bets")).scalar_one()
    ids = {"txn": txn, "account": player_account(alice), "bet": bet, "round": r.id}
    expected = {
        "unbalanced entry": {
            "transactions that do not sum to zero",
            "all accounts together do not sum to zero",
            "cached balances that differ from their entries",
        },
        "stale balance": {"cached balances that differ from their entries"},
        "lost outcome": {
            "bets of finished rounds without an outcome",
            "stake accounts that differ from the stakes in play",
        },
        "wrong payout": {"settlements that differ from the rules"},
        "empty transaction": {"transactions without entries"},
        "early outcome": {"bets settled before their round was dealt"},
    }
    for how, problems in expected.items():
        with database.write() as c:
            _corrupt(c, how, ids)
            report = check_ledger(c)
            c.rollback()
        assert set(report.problems) == problems, how
    # A player overdrawn by a balanced transaction.
    with database.write() as c:
        from baccarat.store.ledger import post

        post(c, [Transaction("correction", [(player_account(bob), -CREDIT), ("world", CREDIT)])], 0)
        report = check_ledger(c)
        c.rollback()
    assert set(report.problems) == {"players with a negative balance"}
    with database.read() as c:
        assert check_ledger(c).ok
