"""The back office's view of the operators' wallets (``/api/admin/operators``): the operators
with their outbox counts, the outbox by state in pages, a period's reconciliation with its
orphans, and a failed credit sent again — by an admin only, audited, refused (4xx, nothing
changed) for what is not there or has not failed. Every route's roles are in the admin
matrix (``tests/admin/test_admin_matrix.py``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reconcile_support import Book
from sqlalchemy import select

from baccarat.server.admin_operator_models import instant_ms
from baccarat.store import Database
from baccarat.store.ledger import Transaction, player_account, post
from baccarat.store.schema import wallet_transactions

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "admin"))
from admin_support import Admin, running_admin

T0 = instant_ms("2026-12-01T10:00")
PERIOD = {"since": "2026-12-01", "until": "2026-12-02"}


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("operators"))


@pytest.fixture(scope="module")
def database(admin: Admin) -> Iterator[Database]:
    database = Database(admin.db_url)
    yield database
    database.dispose()


@pytest.fixture(scope="module")
def dates(database: Database) -> str:
    """An operator for the tests of bad periods (a period is checked before it is read)."""
    return Book(database, "casino-dates", disabled=True).operator


def _row(database: Database, call_id: str) -> Any:
    with database.read() as c:
        return c.execute(
            select(wallet_transactions).where(wallet_transactions.c.id == call_id)
        ).one()


def _settled_round(admin: Admin) -> int:
    round_id = admin.open_round()
    admin.wait_final(round_id)
    return round_id


def test_operators_with_their_outbox_counts(admin: Admin, database: Database) -> None:
    book = Book(database, "casino-counts", disabled=True)
    player = book.player()
    for state, attempts in [
        ("queued", 0),
        ("queued", 2),
        ("failed", 1),
        ("failed", 3),
        ("done", 1),
    ]:
        debit = book.debit(player, None, 10, "confirmed", T0)
        book.end(debit, "credit", 10, state, T0 + 1, attempts)
    listed = admin.as_role("auditor", "GET", "/api/admin/operators")
    assert listed.status_code == 200, listed.text
    [mine] = [o for o in listed.json()["operators"] if o["id"] == "casino-counts"]
    assert mine["outbox"] == {"queued": 1, "retrying": 1, "failed": 2, "done": 1}
    assert mine["currency"] == "IDR" and mine["disabled_at"] is not None
    assert "secret" not in str(mine)


def test_the_outbox_by_state_oldest_first_in_pages(admin: Admin, database: Database) -> None:
    book = Book(database, "casino-pages", disabled=True)
    player = book.player()
    failed = []
    for i in range(5):
        debit = book.debit(player, None, 10, "confirmed", T0 + i)
        failed.append(book.end(debit, "credit", 10, "failed", T0 + 100 - i, attempts=1))
    debit = book.debit(player, None, 10, "confirmed", T0 + 9)
    queued = book.end(debit, "credit", 10, "queued", T0 + 200)
    path = "/api/admin/operators/casino-pages/outbox"
    seen: list[str] = []
    params: dict[str, Any] = {"state": "failed", "limit": 2}
    while True:
        page = admin.as_role("auditor", "GET", path, params=params).json()
        assert {row["outbox_state"] for row in page["rows"]} <= {"failed"}
        seen += [row["id"] for row in page["rows"]]
        if page["next_after"] is None:
            break
        params["after"] = page["next_after"]
    assert seen == failed[::-1]  # oldest first: the last written is the oldest here
    every = admin.as_role("auditor", "GET", path).json()["rows"]
    assert [row["id"] for row in every] == [*failed[::-1], queued]
    assert every[0]["amount"] == 10 and every[0]["last_error"] == "reference_not_found"
    for bad, status in [
        ({"state": "done"}, 422),
        ({"state": "lost"}, 422),
        ({"after": "yesterday"}, 422),
        ({"limit": 0}, 422),
    ]:
        answer = admin.as_role("auditor", "GET", path, params=bad)
        assert answer.status_code == status, (bad, answer.text)
    missing = admin.as_role("auditor", "GET", "/api/admin/operators/nobody/outbox")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "operator_not_found"
    bad_id = admin.as_role("auditor", "GET", "/api/admin/operators/a%20b/outbox")
    assert bad_id.status_code == 422


def test_the_reconciliation_of_a_period_with_its_orphans(admin: Admin, database: Database) -> None:
    book = Book(database, "casino-rec", disabled=True)
    alice, bob = book.player("alice"), book.player("bob")
    settled = _settled_round(admin)
    won = book.debit(alice, settled, 1_000, "confirmed", T0)
    book.end(won, "credit", 1_000, "done", T0 + 10)
    # Bob's stake was lost, but the credit (of 0) that ends his debit was never written.
    lost = book.debit(bob, settled, 500, "confirmed", T0 + 20)
    with database.write() as c:
        bet = [(player_account(bob), -500), ("house:standard", 500)]
        post(c, [Transaction("settle", bet, settled)], T0 + 30)
    path = "/api/admin/operators/casino-rec/reconciliation"
    view = admin.as_role("auditor", "GET", path, params=PERIOD)
    assert view.status_code == 200, view.text
    data = view.json()
    assert data["clean"] is False and data["ledger"]["ok"] is True
    assert [(o["kind"], o["call"]["id"]) for o in data["orphans"]] == [("debit_not_ended", lost)]
    assert data["total"] == {
        "debits": 2, "debited": 1_500, "credited": 1_000, "rolled_back": 0, "net": -500,
    }  # fmt: skip
    assert [r["round_id"] for r in data["rounds"]] == [settled]
    assert {p["external_id"]: p["net"] for p in data["players"]} == {"alice": 0, "bob": -500}
    assert data["lines_total"] == 2 and data["lines"][0]["end"]["state"] == "done"
    one = admin.as_role("auditor", "GET", path, params={**PERIOD, "limit": 1}).json()
    assert len(one["lines"]) == 1 and one["lines_total"] == 2
    # By the hour, with an offset: 17:00 in Jakarta is 10:00 UTC, so only ``lost`` is after.
    later = {"since": "2026-12-01T17:00:00.010+07:00", "until": "2026-12-01T11:00"}
    late = admin.as_role("auditor", "GET", path, params=later).json()
    assert [line["debit"]["id"] for line in late["lines"]] == [lost]
    # The default period is the last 24 hours of the server's clock: nothing of 2026 is in it.
    assert admin.as_role("auditor", "GET", path).status_code == 200


@pytest.mark.parametrize(
    "params",
    [
        {"since": "2026-13-01"},
        {"since": "2026-02-30"},
        {"since": "yesterday"},
        {"since": "2026-12-02", "until": "2026-12-01"},
        {"since": "2026-12-01", "until": "2026-12-01"},
        {"since": "2026-01-01", "until": "2026-03-01"},
        {"since": "2026-12-01", "limit": 0},
    ],
)
def test_a_bad_period_is_422(admin: Admin, dates: str, params: dict[str, Any]) -> None:
    answer = admin.as_role(
        "auditor", "GET", f"/api/admin/operators/{dates}/reconciliation", params=params
    )
    assert answer.status_code == 422, answer.text
    assert "error" in answer.json()


def test_an_admin_sends_a_failed_credit_again_audited(admin: Admin, database: Database) -> None:
    book = Book(database, "casino-retry", disabled=True)
    other = Book(database, "casino-other", disabled=True)
    player = book.player()
    debit = book.debit(player, None, 700, "confirmed", T0)
    failed = book.end(debit, "credit", 700, "failed", T0 + 1, attempts=2)
    queued_debit = book.debit(player, None, 5, "confirmed", T0 + 2)
    queued = book.end(queued_debit, "credit", 5, "queued", T0 + 3)
    not_mine = other.end(
        other.debit(other.player(), None, 1, "confirmed", T0), "credit", 1, "failed", T0
    )
    path = f"/api/admin/operators/casino-retry/outbox/{failed}/retry"
    body = {"reason": "the casino fixed its player record"}
    before = len(admin.audit())
    for role in ("auditor", "operator"):
        refused = admin.as_role(role, "POST", path, json=body)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "role_forbidden"
    refusals = [
        (f"/api/admin/operators/casino-retry/outbox/{failed}/retry", {}, 422),
        (f"/api/admin/operators/nobody/outbox/{failed}/retry", body, 404),
        ("/api/admin/operators/casino-retry/outbox/abc123/retry", body, 404),
        (f"/api/admin/operators/casino-retry/outbox/{debit}/retry", body, 404),
        (f"/api/admin/operators/casino-retry/outbox/{not_mine}/retry", body, 404),
        (f"/api/admin/operators/casino-retry/outbox/{queued}/retry", body, 409),
        ("/api/admin/operators/casino-retry/outbox/NOT-HEX/retry", body, 422),
    ]
    for where, sent, status in refusals:
        answer = admin.as_role("admin", "POST", where, json=sent)
        assert answer.status_code == status, (where, answer.text)
    assert len(admin.audit()) == before, "a refused retry wrote to the audit log"
    assert _row(database, failed).state == "failed"
    done = admin.as_role("admin", "POST", path, json=body)
    assert done.status_code == 200, done.text
    shown = done.json()
    assert shown["id"] == failed and shown["state"] == "queued"
    assert shown["outbox_state"] == "retrying" and shown["attempts"] == 2
    row = _row(database, failed)
    assert row.state == "queued" and row.next_attempt_at is not None
    [record] = admin.audit()[before:]
    assert record["action"] == "wallet_retry" and record["actor"] == "staff:staff-admin"
    for text in (failed, debit, '"role":"admin"', "the casino fixed its player record"):
        assert text in record["details"]
    # Queued now: a second retry is refused, and the money is as it was.
    again = admin.as_role("admin", "POST", path, json=body)
    assert again.status_code == 409 and again.json()["error"]["code"] == "outbox_not_failed"
    assert admin.ledger_problems() == []
