"""Money stays inside 64 bits: deposits and balances bounded at the edge (configurable), the
ledger's money columns refuse anything but integers in range, the world account cannot be
pinned, and ``baccarat ledger check`` reports a damaged database instead of crashing."""

from __future__ import annotations

import subprocess
import uuid
from collections.abc import Iterator

import pytest
from cashier_support import App, running_app
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_support import ledger_check, ledger_check_failing
from serving import BIN
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError
from store_support import migrated, new_round, players, setup_table

from baccarat.refusals import Refusal
from baccarat.rulesets import load_ruleset
from baccarat.server import Settings, tables_from
from baccarat.store import Database, check_ledger, db_now
from baccarat.store.cashier import move_money
from baccarat.store.ledger import WORLD, Transaction, player_account, post
from baccarat.store.money import MONEY_LIMIT, MoneyBounds
from baccarat.store.placement import place_batch
from baccarat.store.players import create_player, new_token, player_balance
from baccarat.table import BetOrder, BetReceipt

STANDARD = load_ruleset("standard")


@pytest.fixture(scope="module")
def app(module_db_url: str) -> Iterator[App]:
    with running_app(module_db_url, max_deposit=1_000_000, max_balance=2_500_000) as running:
        yield running


def test_a_deposit_past_the_per_deposit_maximum_is_refused(app: App) -> None:
    token = app.account()
    for amount in (1_000_001, 2**53, 2**63 - 1, 2**63, 2**64):
        refused = app.deposit(token, amount)
        assert refused.status_code == 422, (amount, refused.text)
        assert refused.json()["error"]["code"] in ("deposit_too_large", "invalid_request")
    over = app.deposit(token, 1_000_001)
    assert over.json()["error"]["code"] == "deposit_too_large"
    assert "1000000" in over.json()["error"]["message"].replace(",", "")
    assert app.balance(token) == 0
    assert app.deposit(token, 1_000_000).status_code == 201
    assert app.balance(token) == 1_000_000


def test_a_deposit_that_would_pass_the_balance_maximum_is_refused(app: App) -> None:
    token = app.account()
    assert app.deposit(token, 1_000_000).status_code == 201
    assert app.deposit(token, 1_000_000).status_code == 201
    over = app.deposit(token, 500_001)
    assert over.status_code == 422 and over.json()["error"]["code"] == "balance_limit"
    assert app.balance(token) == 2_000_000
    assert app.deposit(token, 500_000).status_code == 201  # exactly the maximum is fine
    assert app.balance(token) == 2_500_000
    assert app.deposit(token, 1).json()["error"]["code"] == "balance_limit"
    # Withdrawing makes room again.
    assert app.withdraw(token, 1_000_000).status_code == 201
    assert app.deposit(token, 1_000_000).status_code == 201
    assert app.balance(token) == 2_500_000


def test_repeated_deposits_never_break_the_service(app: App) -> None:
    """The report's attack: many large deposits. Every answer is 201 or 422, never 5xx."""
    tokens = [app.account(), app.account()]
    for _ in range(8):
        for token in tokens:
            answer = app.deposit(token, 2**53)
            assert answer.status_code == 422, answer.text
            answer = app.deposit(token, 1_000_000)
            assert answer.status_code in (201, 422), answer.text
    for token in tokens:  # two deposits fit under the maximum of 2,500,000; the rest did not
        assert app.balance(token) == 2_000_000
    assert app.call("POST", "/api/players").status_code == 201
    assert ledger_check(app.db_url)["ok"] is True


def test_bounds_are_validated() -> None:
    settings_ = tables_from(["standard"])
    with pytest.raises(ValueError, match="max_deposit"):
        Settings(db="sqlite:///x.db", tables=settings_, max_deposit=0)
    with pytest.raises(ValueError, match="max_balance"):
        Settings(db="sqlite:///x.db", tables=settings_, max_deposit=10, max_balance=5)
    with pytest.raises(ValueError, match="max_balance"):
        Settings(db="sqlite:///x.db", tables=settings_, max_balance=MONEY_LIMIT + 1)
    with pytest.raises(ValueError, match="--demo-credit"):
        Settings(db="sqlite:///x.db", tables=settings_, demo_credit=10**13)
    defaults = Settings(db="sqlite:///x.db", tables=settings_)
    assert (defaults.max_deposit, defaults.max_balance) == (10**9, 10**12)


def test_serve_refuses_bad_bounds_in_one_line(tmp_path: object) -> None:
    result = subprocess.run(
        [str(BIN / "baccarat"), "serve", "--max-deposit", "10", "--max-balance", "5"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "max_balance" in result.stderr + result.stdout
    assert "Traceback" not in result.stderr + result.stdout


# -- the database itself ------------------------------------------------------------------


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = migrated(db_url)
    yield db
    db.dispose()


def _raw(c: Connection, sql: str, **params: object) -> None:
    c.execute(text(sql), params)


def _refused_or_integer(database: Database, sql: str, read: str, **params: object) -> None:
    """The write fails on the CHECK, or (PostgreSQL rounds a float into BIGINT itself) what
    is stored is an integer in range: never a REAL, never past the bound."""
    try:
        with database.write() as c:
            _raw(c, sql, **params)
    except IntegrityError:
        return
    assert not database.is_sqlite, "SQLite took a value its CHECK should refuse"
    with database.read() as c:
        stored = c.execute(text(read)).scalar()
    assert isinstance(stored, int) and abs(stored) <= MONEY_LIMIT, stored


@pytest.mark.parametrize("value", [2**63 - 1, MONEY_LIMIT + 1, -MONEY_LIMIT - 1, 1.5])
def test_ledger_entries_hold_only_integers_in_range(database: Database, value: object) -> None:
    [alice] = players(database, 1, 0)
    with database.write() as c:
        _raw(c, "INSERT INTO ledger_transactions (id, kind, created_at) VALUES ('t1', 'x', 0)")
    _refused_or_integer(
        database,
        "INSERT INTO ledger_entries (txn_id, account_id, amount) VALUES ('t1', :a, :v)",
        "SELECT amount FROM ledger_entries WHERE txn_id = 't1'",
        a=player_account(alice),
        v=value,
    )


@pytest.mark.parametrize("value", [2**62 + 1, -(2**62) - 1, 0.5])
def test_account_balances_hold_only_integers_in_range(database: Database, value: object) -> None:
    [alice] = players(database, 1, 0)
    account = player_account(alice)
    _refused_or_integer(
        database,
        "UPDATE accounts SET balance = :v WHERE id = :a",
        f"SELECT balance FROM accounts WHERE id = '{account}'",
        v=value,
        a=account,
    )


@pytest.mark.parametrize(("table", "column"), [("bets", "stake"), ("bet_outcomes", "returned")])
@pytest.mark.parametrize("value", [MONEY_LIMIT + 1, -(2**63), 2.5])
def test_stakes_and_returns_hold_only_integers_in_range(
    database: Database, table: str, column: str, value: object
) -> None:
    shoe = setup_table(database, STANDARD)
    [alice] = players(database, 1, 10_000)
    r = new_round(database, shoe, 1)
    with database.write() as c:
        order = BetOrder(alice, "standard", r.id, "place", {"player": 1000}, None, "h")
        [receipt] = place_batch(c, [order])
    assert isinstance(receipt, BetReceipt)
    if table == "bet_outcomes":
        with database.write() as c:
            _raw(
                c,
                "INSERT INTO bet_outcomes (bet_id, round_id, kind, returned, txn_id, created_at)"
                " SELECT id, round_id, 'undone', 0, txn_id, 0 FROM bets",
            )
    _refused_or_integer(
        database, f"UPDATE {table} SET {column} = :v", f"SELECT {column} FROM {table}", v=value
    )


def test_the_world_account_cannot_be_pinned(database: Database) -> None:
    """More than 2**63 in all flows out of the world: nothing overflows, guests still come."""
    holders = players(database, 3, 0)
    batch = 400  # 3 * 400 entries of 2**53 - 1: the world gives out about 2**63.2
    with database.write() as c:
        now = db_now(c)
        for holder in holders:
            post(
                c,
                [
                    Transaction(
                        "deposit", [(WORLD, -MONEY_LIMIT), (player_account(holder), MONEY_LIMIT)]
                    )
                    for _ in range(batch)
                ],
                now,
            )
    with database.write() as c:
        guest = create_player(c, new_token(), 1_000_000, db_now(c))
    with database.read() as c:
        assert player_balance(c, guest) == 1_000_000
        assert player_balance(c, holders[0]) == batch * MONEY_LIMIT
        report = check_ledger(c)
    assert report.ok, report.problems
    assert report.player_money == 3 * batch * MONEY_LIMIT + 1_000_000


def _damage(database: Database) -> None:
    """Put a REAL (SQLite) or an out-of-range value (PostgreSQL) where only integers belong,
    the way the old schema let overflowing sums in."""
    with database.write() as c:
        if database.is_sqlite:
            c.exec_driver_sql("PRAGMA ignore_check_constraints = ON")
            c.exec_driver_sql(
                "UPDATE accounts SET balance = 1.8446744073709552e19 WHERE kind = 'player'"
            )
            c.exec_driver_sql("UPDATE ledger_entries SET amount = 0.5 WHERE id = 1")
            c.exec_driver_sql("PRAGMA ignore_check_constraints = OFF")
        else:
            for table, name in (
                ("accounts", "ck_accounts_balance"),
                ("ledger_entries", "ck_ledger_entries_amount"),
            ):
                c.exec_driver_sql(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
            c.exec_driver_sql(
                "UPDATE accounts SET balance = 9223372036854775807 WHERE kind = 'player'"
            )
            c.exec_driver_sql("UPDATE ledger_entries SET amount = 9223372036854775807 WHERE id = 1")


def test_ledger_check_reports_values_that_are_not_bounded_integers(db_url: str) -> None:
    database = migrated(db_url)
    try:
        players(database, 2, 1_000)
        _damage(database)
        with database.read() as c:
            report = check_ledger(c)
    finally:
        database.dispose()
    assert not report.ok
    assert any("integer" in name for name in report.problems), report.problems
    assert "FAIL" in ledger_check_failing(db_url)


# -- no sequence of accepted operations leaves a balance out of bounds ----------------------

_OPS = st.lists(
    st.tuples(
        st.sampled_from(["deposit", "withdraw", "bet"]),
        st.integers(min_value=-(2**64), max_value=2**64)
        | st.integers(min_value=1, max_value=5_000),
    ),
    min_size=1,
    max_size=25,
)


@pytest.fixture(scope="module")
def sqlite_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Database, int]]:
    db = migrated(f"sqlite:///{tmp_path_factory.mktemp('hyp') / 'money.db'}")
    shoe = setup_table(db, STANDARD)
    r = new_round(db, shoe, 1)
    yield db, r.id
    db.dispose()


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=_OPS)
def test_no_accepted_sequence_leaves_a_balance_out_of_bounds(
    sqlite_table: tuple[Database, int], ops: list[tuple[str, int]]
) -> None:
    database, round_id = sqlite_table
    bounds = MoneyBounds(max_deposit=2_000, max_balance=5_000)
    with database.write() as c:
        player = create_player(c, new_token(), 0, db_now(c))
    model = 0
    for op, amount in ops:
        with database.write() as c:
            now = db_now(c)
            if op == "bet":
                [result] = place_batch(
                    c,
                    [
                        BetOrder(
                            player,
                            "standard",
                            round_id,
                            "place",
                            {"player": amount},
                            None,
                            uuid.uuid4().hex,
                        )
                    ],
                )
                accepted = isinstance(result, BetReceipt)
                delta = -amount
            else:
                signed = amount if op == "deposit" else -amount
                outcome = move_money(c, player, signed, now, bounds)
                accepted = not isinstance(outcome, Refusal)
                delta = signed
            if accepted:
                model += delta
            balance = player_balance(c, player)
        assert balance == model
        assert 0 <= balance <= bounds.max_balance
