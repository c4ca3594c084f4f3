"""Demo play is play money: a guest's balance is demo money, kept apart from real money.

A guest can neither deposit nor withdraw (403 ``demo_account``, nothing written), ``/api/me``
says ``"demo": true``, an operator can turn guests off, and ``ledger check`` fails as soon as
demo money and real money meet.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from accounts_support import Service, db_url_fixture, service_fixture  # noqa: F401
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import Connection, func, select, text
from typer.testing import CliRunner

from baccarat.cli.app import app as cli
from baccarat.server import Settings, create_app, tables_from
from baccarat.store import Database, LedgerReport, check_ledger, upgrade
from baccarat.store.ledger import WORLD, Transaction, player_account, post
from baccarat.store.migrate import alembic_config
from baccarat.store.schema import accounts, ledger_entries, ledger_transactions, players

CREDIT = 1_000_000  # the default demo credit of Settings
DEMO_BANK = "demo-bank"  # baccarat.store.ledger.DEMO_BANK, spelled out as stored


def report_of(db_url: str) -> LedgerReport:
    database = Database(db_url)
    try:
        with database.read() as connection:
            return check_ledger(connection)
    finally:
        database.dispose()


def entry_sums(c: Connection) -> dict[str, int]:
    """Every account's money: the sum of its entries."""
    query = select(ledger_entries.c.account_id, func.sum(ledger_entries.c.amount)).group_by(
        ledger_entries.c.account_id
    )
    return {account: int(total) for account, total in c.execute(query)}


def ledger_rows(db_url: str) -> tuple[int, int, dict[str, int], dict[str, int]]:
    """How many transactions and entries, every account's cached balance and its entries."""
    database = Database(db_url)
    try:
        with database.read() as c:
            count = select(func.count())
            return (
                int(c.scalar(count.select_from(ledger_transactions)) or 0),
                int(c.scalar(count.select_from(ledger_entries)) or 0),
                {row.id: int(row.balance) for row in c.execute(select(accounts))},
                entry_sums(c),
            )
    finally:
        database.dispose()


def test_a_guest_can_neither_deposit_nor_withdraw_demo_money(service: Service) -> None:
    guest = service.guest()
    before = ledger_rows(service.db_url)
    for path in ("/api/me/deposits", "/api/me/withdrawals"):
        for amount in (1, 100, CREDIT):
            answer = service.call("POST", path, guest, json={"amount": amount})
            assert answer.status_code == 403, answer.text
            assert answer.json()["error"]["code"] == "demo_account"
    assert ledger_rows(service.db_url) == before  # nothing written, not even a failed try
    me = service.call("GET", "/api/me", guest).json()
    assert me["balance"] == CREDIT and me["demo"] is True
    # A registered player's cashier works as before, and says its money is not demo money.
    real = service.register_and_login("rita")
    assert service.call("POST", "/api/me/deposits", real, json={"amount": 5_000}).status_code == 201
    assert service.call("POST", "/api/me/withdrawals", real, json={"amount": 1}).status_code == 201
    assert service.call("GET", "/api/me", real).json() == {
        "id": service.login("rita")["player_id"],
        "balance": 4_999,
        "demo": False,
    }
    report = report_of(service.db_url)
    assert report.ok, report.problems
    assert (report.demo_players, report.demo_money, report.demo_bank) == (1, CREDIT, -CREDIT)
    assert report.player_money - report.demo_money == 4_999
    money = ledger_rows(service.db_url)[3]
    assert money[WORLD] == -4_999  # the world paid for real money only


def test_demo_play_adds_up_apart_and_a_leak_into_real_money_is_caught(service: Service) -> None:
    guest = service.guest()
    real = service.register_and_login("ralph")
    assert (
        service.call("POST", "/api/me/deposits", real, json={"amount": 50_000}).status_code == 201
    )
    round_id = service.betting_round()
    for token, stake in ((guest, 7_000), (real, 3_000)):
        placed = service.bet(token, round_id, {"banker": stake})
        assert placed.status_code == 200, placed.text
    service.wait_final(round_id)
    report = report_of(service.db_url)
    assert report.ok, report.problems
    guest_balance = service.call("GET", "/api/me", guest).json()["balance"]
    assert report.demo_money == guest_balance and report.demo_in_play == 0
    # What the house kept of the guest's stake is demo money, whatever the result.
    assert report.demo_house == CREDIT - guest_balance
    assert report.demo_bank + report.demo_money + report.demo_house == 0
    # Real money slipped into a guest's account (what a guest deposit did before): caught.
    guest_id = service.call("GET", "/api/me", guest).json()["id"]
    database = Database(service.db_url)
    try:
        with database.write() as c:
            leak = Transaction("deposit", [(WORLD, -100), (player_account(guest_id), 100)])
            post(c, [leak], 0)
    finally:
        database.dispose()
    broken = report_of(service.db_url)
    assert not broken.ok
    assert list(broken.problems) == ["demo money that does not add up on its own"]


def test_registering_starts_a_new_real_account_without_the_demo_money(service: Service) -> None:
    guest = service.guest()
    guest_id = service.call("GET", "/api/me", guest).json()["id"]
    real = service.register_and_login("gina")
    me = service.call("GET", "/api/me", real).json()
    assert me["id"] != guest_id and me["balance"] == 0 and me["demo"] is False
    # The guest's demo money stays with the guest, still demo.
    assert service.call("GET", "/api/me", guest).json() == {
        "id": guest_id,
        "balance": CREDIT,
        "demo": True,
    }


def test_the_page_learns_whether_guests_may_play(service: Service) -> None:
    answer = service.call("GET", "/api/config")
    assert answer.status_code == 200
    assert answer.json() == {
        "guests": True,
        "demo_credit": CREDIT,
        "currency": "USD",
        "minor_unit": 2,
        "rules": "standard",
        "language": None,
    }
    created = service.call("POST", "/api/players").json()
    assert created["demo"] is True and created["balance"] == CREDIT


@pytest.fixture
def no_guests(db_url: str) -> Iterator[TestClient]:
    config = Settings(db=db_url, tables=tables_from(["standard"], betting_ms=1200), guests=False)
    with TestClient(create_app(config)) as client:
        yield client


def test_guests_off_refuses_new_guests_and_says_so(no_guests: TestClient, db_url: str) -> None:
    for _ in range(3):
        refused = no_guests.post("/api/players")
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "guests_disabled"
    assert no_guests.get("/api/config").json()["guests"] is False
    database = Database(db_url)
    try:
        with database.read() as c:
            assert c.scalar(select(func.count()).select_from(players)) == 0
    finally:
        database.dispose()
    # Registered players still play with real money.
    created = no_guests.post(
        "/api/accounts", json={"username": "olga", "password": "Correct-Horse-9"}
    )
    assert created.status_code == 201, created.text


def test_serve_refuses_a_guests_value_other_than_on_or_off() -> None:
    result = CliRunner().invoke(cli, ["serve", "--guests", "maybe", "--port", "1"])
    assert result.exit_code == 2
    assert "--guests must be 'on' or 'off'" in result.output


def test_the_migration_moves_existing_guests_to_demo_money(db_url: str) -> None:
    """A database of revision 0002 with a guest (funded by ``world``, as guests were) and a
    registered player: after the upgrade the guest is demo, and each kind adds up apart."""
    database = Database(db_url)
    config = alembic_config()
    try:
        with database.write() as c:
            config.attributes["connection"] = c
            command.upgrade(config, "0002")
        with database.write() as c:
            for row in [
                ("world", "world", -1_300),
                ("player:g", "player", 1_000),
                ("player:r", "player", 300),
            ]:
                c.execute(
                    text("INSERT INTO accounts VALUES (:id, :kind, :balance, 0)"),
                    dict(zip(("id", "kind", "balance"), row, strict=True)),
                )
            for pid in ("g", "r"):
                c.execute(
                    text("INSERT INTO players VALUES (:id, :hash, :account, 0)"),
                    {"id": pid, "hash": pid * 64, "account": f"player:{pid}"},
                )
            c.execute(text("INSERT INTO logins VALUES ('r', 'rosa', 'x', NULL, 0)"))
            for txn, account, amount in (("t1", "player:g", 1_000), ("t2", "player:r", 300)):
                c.execute(
                    text("INSERT INTO ledger_transactions VALUES (:id, 'deposit', NULL, NULL, 0)"),
                    {"id": txn},
                )
                for acc, value in ((WORLD, -amount), (account, amount)):
                    c.execute(
                        text(
                            "INSERT INTO ledger_entries (txn_id, account_id, amount)"
                            " VALUES (:t, :a, :v)"
                        ),
                        {"t": txn, "a": acc, "v": value},
                    )
        upgrade(database)
        with database.read() as c:
            kinds = {r.id: r.kind for r in c.execute(select(accounts.c.id, accounts.c.kind))}
            money = entry_sums(c)
            demo = {r.id: r.demo for r in c.execute(select(players.c.id, players.c.demo))}
            report = check_ledger(c)
    finally:
        database.dispose()
    assert demo == {"g": True, "r": False}
    assert kinds["player:g"] == "demo" and kinds["player:r"] == "player"
    assert money[WORLD] == -300 and money[DEMO_BANK] == -1_000
    assert report.ok, report.problems
    assert (report.demo_money, report.demo_bank, report.player_money) == (1_000, -1_000, 1_300)
