"""The back office's Operators section (``#/operators``, ``js/admin/operators.js``) in Chromium
against a real ``baccarat serve``: an admin finds the operator with a failed credit, sends it
again with a reason (audited; an auditor's button is disabled), and reads a period's
reconciliation with its orphans; amounts in rupiah without sen, in English and in Bahasa
Indonesia; no serious axe finding, no sideways scroll on a phone, no console error."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from reconcile_support import Book
from sqlalchemy import select

from baccarat.server.admin_operator_models import instant_ms
from baccarat.store import Database
from baccarat.store.audit_log import audit_rows
from baccarat.store.schema import wallet_transactions

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from web_support import (
    PHONE,
    STAFF_PASSWORD,
    Opener,
    Served,
    axe_serious,
    no_sideways_scroll,
    staffed_server,
)

pytest_plugins = ("web_support",)

T0 = instant_ms("2026-12-01T10:00")
NBSP = "\u00a0"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from staffed_server(
        tmp_path_factory.mktemp("web-operators"), {"ana": "admin", "eve": "auditor"}
    )


@pytest.fixture(scope="module")
def calls(served: Served) -> Iterator[dict[str, str]]:
    """An operator (disabled: the server sends none of its rows) with a failed credit of
    Rp 12.500 and a debit of unknown outcome that has no rollback: two orphans."""
    database = Database(served.db_url)
    book = Book(database, "casino-page", disabled=True)
    player = book.player("member-42")
    debit = book.debit(player, None, 12_500, "confirmed", T0)
    failed = book.end(debit, "credit", 12_500, "failed", T0 + 1_000, attempts=3)
    unknown = book.debit(player, None, 7_000, "unknown", T0 + 2_000)
    yield {"failed": failed, "debit": debit, "unknown": unknown}
    database.dispose()


def log_in(page: Page, name: str) -> None:
    page.wait_for_selector(".admin-login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", STAFF_PASSWORD)
    page.click(".admin-login button[type=submit]")
    page.wait_for_selector("#staff-user:not([hidden])")


def reconcile(page: Page, orphan: str) -> None:
    """The reconciliation of 1 December 2026, once it shows the orphan ``orphan``."""
    page.fill("input[name=since]", "2026-12-01")
    page.fill("input[name=until]", "2026-12-02")
    page.click("#main form.admin-toolbar button[type=submit]")
    page.wait_for_selector(f'[data-orphan="{orphan}"]')


def test_an_admin_sends_a_failed_credit_again_and_reads_the_reconciliation(
    open_page: Opener, served: Served, calls: dict[str, str]
) -> None:
    page, console = open_page(f"{served.url}/admin#/operators")
    log_in(page, "ana")
    row = page.wait_for_selector('tr[data-operator="casino-page"]')
    assert row is not None
    assert page.inner_text('tr[data-operator="casino-page"] [data-col="failed"]') == "1"
    assert axe_serious(page) == []
    page.click('tr[data-operator="casino-page"] a')
    failed = f'tr[data-call="{calls["failed"]}"]'
    page.wait_for_selector(f'{failed}[data-state="failed"]')
    assert page.inner_text(f'{failed} [data-col="amount"]') == f"Rp{NBSP}12,500"

    # The reconciliation of the day: two orphans, the ledger agrees.
    reconcile(page, "outbox_failed")
    assert page.get_attribute("[data-clean]", "data-clean") == "false"
    assert "2 orphans" in page.inner_text("[data-clean]")
    assert page.get_attribute("[data-ledger]", "data-ledger") == "true"
    orphans = page.eval_on_selector_all("[data-orphan]", "rows => rows.map(r => r.dataset.orphan)")
    assert sorted(orphans) == ["outbox_failed", "unknown_not_rolled_back"]
    assert page.inner_text('[data-total] [data-col="debited"]') == f"Rp{NBSP}12,500"
    assert axe_serious(page) == []

    # Sent again, with a reason: queued (retrying), and in the audit chain.
    page.click(f'{failed} [data-act="retry"]')
    page.fill("#admin-reason", "the casino restored the player's record")
    page.click("[data-confirm]")
    page.wait_for_selector(f'{failed}[data-state="retrying"]')
    assert calls["failed"] in page.inner_text("#admin-status")
    database = Database(served.db_url)
    try:
        with database.read() as c:
            state = c.scalar(
                select(wallet_transactions.c.state).where(
                    wallet_transactions.c.id == calls["failed"]
                )
            )
            records = [r for r in audit_rows(c) if r["action"] == "wallet_retry"]
    finally:
        database.dispose()
    assert state == "queued"
    assert len(records) == 1 and calls["failed"] in records[0]["details"]
    assert records[0]["actor"] == "staff:ana"

    # In Bahasa Indonesia: the same figures, rupiah written the Indonesian way.
    page.click('[data-lang="id"]')
    expect(page.locator(f'{failed} [data-col="amount"]')).to_have_text(f"Rp{NBSP}12.500")
    # Queued again, the credit is still an orphan until the wallet takes it.
    reconcile(page, "outbox_queued")
    assert "transaksi menggantung" in page.inner_text("[data-clean]")
    page.set_viewport_size(PHONE)
    no_sideways_scroll(page)
    assert console.unexpected() == []


def test_an_auditor_reads_but_cannot_send_again(open_page: Opener, served: Served) -> None:
    database = Database(served.db_url)
    try:
        book = Book(database, "casino-audit", disabled=True)
        player = book.player()
        debit = book.debit(player, None, 300, "confirmed", T0)
        failed = book.end(debit, "credit", 300, "failed", T0 + 1)
    finally:
        database.dispose()
    page, console = open_page(f"{served.url}/admin#/operators/casino-audit")
    log_in(page, "eve")
    button = page.wait_for_selector(f'tr[data-call="{failed}"] [data-act="retry"]')
    assert button is not None and button.is_disabled()
    assert console.unexpected() == []
