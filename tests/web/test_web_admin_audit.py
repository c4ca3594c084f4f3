"""The back office's audit log and a table's limits, in Chromium against a real server.

An operator changes a table's limits from the form: the round in play keeps its limits, and
the guest's page shows the new ones on the spots from the next round's opening. The operator
ends the shoe (a dialog asks why, in English and in Indonesian). The audit log lists the
records newest first, filtered by day, who and what; an amount in the details is money and a
change is shown as before → after; the CSV holds the records found. axe finds nothing serious.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page
from test_web_admin import give_reason, log_in, run_axe
from web_support import (
    STAFF_PASSWORD,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    money,
    staffed_server,
)

pytest_plugins = ("web_support",)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from staffed_server(
        tmp_path_factory.mktemp("web-audit"), {"marta": "operator", "eve": "auditor"}
    )


def _tie_label(page: Page) -> str:
    return page.get_attribute('.spot[data-bet="tie"]', "aria-label") or ""


def _seqs(page: Page) -> list[int]:
    found: list[str] = page.eval_on_selector_all(
        ".admin-table tbody tr[data-seq]", "rows => rows.map(r => r.dataset.seq)"
    )
    return [int(seq) for seq in found]


def test_limits_from_the_next_round_and_the_audit_log_as_a_shift_manager_reads_it(
    open_page: Opener, server: Served
) -> None:
    url = server.url
    guest_page, guest_console = open_page(f"{url}/")
    guest = TablePage(guest_page)
    guest.join()
    guest.open_table("standard")
    first = drive_to_open(guest, server, later=False)
    assert money(200_000) in _tie_label(guest_page)

    page, console = open_page(f"{url}/admin", accept_downloads=True)
    log_in(page, "marta")
    # The limits from the next round, from their form.
    form = 'form[data-form="limits"]'
    page.wait_for_selector(f'{form} select[name=limit_bet] option[value="tie"]', state="attached")
    assert page.input_value(f"{form} input[name=table_min]") == "1.00"
    assert page.input_value(f"{form} input[name=table_max]") == "10000.00"
    page.fill(f"{form} input[name=table_min]", "2")
    page.fill(f"{form} input[name=table_max]", "500.00")
    page.select_option(f"{form} select[name=limit_bet]", "tie")
    page.fill(f"{form} input[name=bet_max]", "50")
    page.click('[data-act="limits"]')
    give_reason(page, "a quieter night")
    pending = 'tr[data-table="standard"] [data-pending="limits"]'
    page.wait_for_selector(pending)
    assert page.inner_text(pending) == (
        f"from the next round: {money(200)} to {money(50_000)} · tie up to {money(5_000)}"
    )
    assert run_axe(page) == [], "the tables section with its limits form"
    # The round in play keeps its limits; the next one opens at the new ones, on the spots too.
    assert money(200_000) in _tie_label(guest_page)
    drive_to_open(guest, server)
    guest_page.wait_for_function(
        "text => document.querySelector('.spot[data-bet=\"tie\"]').getAttribute('aria-label')"
        ".includes(text)",
        arg=money(5_000),
    )
    assert f"{money(200)} to {money(5_000)}" in _tie_label(guest_page)
    assert first < guest.round_id()

    # End the shoe: a dialog asks why first.
    old_shoe = server.get("/api/tables/standard")["shoe"]["id"]
    page.click('[data-nav="tables"]')
    page.click('tr[data-table="standard"] [data-act="new-shoe"]')
    page.wait_for_selector("dialog.admin-dialog[open]")
    assert page.inner_text("#admin-reason-title").startswith("End the shoe of table standard")
    give_reason(page, "the cards look worn")
    page.wait_for_function(
        "() => document.getElementById('admin-status').textContent"
        ".startsWith('Table standard starts a new shoe')"
    )

    # An operator limit on the guest: an amount to show as money.
    token = httpx.post(
        f"{url}/api/admin/login",
        json={"username": "marta", "password": STAFF_PASSWORD},
        timeout=10,
    ).json()["token"]
    player = guest_page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).id")
    capped = httpx.put(
        f"{url}/api/admin/players/{player}/operator-limits",
        json={"kind": "loss", "period": "24h", "amount": 50_000, "reason": "asked by the player"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert capped.status_code == 200, capped.text

    # The audit log: newest first.
    page.click('[data-nav="audit"]')
    page.wait_for_selector('tr[data-action="operator_limit"]')
    seqs = _seqs(page)
    assert seqs == sorted(seqs, reverse=True) and len(seqs) >= 5
    assert page.get_attribute(".admin-table tbody tr", "data-action") == "operator_limit"
    # Money as money, and a change as before → after.
    cap = 'tr[data-action="operator_limit"] [data-col=details]'
    assert f"amount:\n{money(50_000)}" in page.inner_text(cap) or money(50_000) in page.inner_text(
        cap
    )
    assert page.inner_text(f"{cap} .admin-diff ins") == money(50_000)
    assert page.inner_text(f"{cap} .admin-diff del") == "–"
    limits = 'tr[data-action="table_limits"] .admin-diff'
    assert page.inner_text(f'{limits} li[data-field="max_stake"] del') == money(1_000_000)
    assert page.inner_text(f'{limits} li[data-field="max_stake"] ins') == money(50_000)
    assert page.inner_text(f'{limits} li[data-field="bets.tie.max_stake"] ins') == money(5_000)
    assert "→" in page.inner_text(limits)
    assert run_axe(page) == [], "the audit log with changes"

    # Filters: what, who, and the UTC days.
    page.fill("input[name=action]", "table_limits")
    page.click(".admin-toolbar button[type=submit]")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.admin-table tbody tr[data-action]')]"
        ".every(r => r.dataset.action === 'table_limits')"
    )
    assert len(_seqs(page)) == 1
    with page.expect_download() as download:
        page.click('[data-read="csv"]')
    text = Path(download.value.path()).read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["action"] for row in rows] == ["table_limits"]
    assert [int(row["seq"]) for row in rows] == _seqs(page)
    page.fill("input[name=action]", "")
    page.fill("input[name=actor]", "staff:marta")
    today = datetime.now(UTC).date()
    page.fill("input[name=until]", (today - timedelta(days=1)).isoformat())
    page.click(".admin-toolbar button[type=submit]")
    page.wait_for_selector(".admin-empty")
    page.fill("input[name=until]", today.isoformat())
    page.fill("input[name=since]", today.isoformat())
    page.click(".admin-toolbar button[type=submit]")
    page.wait_for_selector('tr[data-action="table_new_shoe"]')
    actors = page.eval_on_selector_all(
        '.admin-table tbody [data-col="actor"]', "cells => cells.map(c => c.textContent)"
    )
    assert actors and set(actors) == {"staff:marta"}

    # The new shoe has started once the round in play finished: the button is back.
    server.advance_until(
        lambda: server.get("/api/tables/standard")["shoe"]["id"] != old_shoe or None,
        "the new shoe",
    )

    # In Indonesian: the same records and changes, worded; no key left unwritten.
    page.click('[data-lang="id"]')
    page.wait_for_selector("caption:has-text('Catatan audit, terbaru lebih dulu')")
    assert not re.search(r"admin\.[a-z]", page.inner_text("body"))
    assert page.inner_text("label:has(input[name=since]) span") == "Dari (hari UTC)"
    assert run_axe(page) == [], "the audit log in Indonesian"
    page.click('[data-nav="tables"]')
    page.wait_for_selector('form[data-form="limits"] legend:has-text("mulai ronde berikutnya")')
    page.click('tr[data-table="standard"] [data-act="new-shoe"]')
    page.wait_for_selector("dialog.admin-dialog[open]")
    assert page.inner_text("#admin-reason-title").startswith("Akhiri shoe meja standard")
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.admin-dialog", state="detached")
    assert not re.search(r"admin\.[a-z]", page.inner_text("body"))
    assert run_axe(page) == [], "the tables section in Indonesian"
    assert console.unexpected() == []
    assert guest_console.unexpected() == []


def test_the_diff_and_money_helpers(open_page: Opener, server: Served) -> None:
    page, _console = open_page(f"{server.url}/healthz")
    from web_support import call_module

    assert call_module(
        page,
        "admin/audit.js",
        "leaves",
        [[{"limits": {"tie": {"max_stake": 9}}, "ruleset": "ez"}], [5], [{}]],
    ) == [[["limits.tie.max_stake", 9], ["ruleset", "ez"]], [["", 5]], [["", {}]]]
    assert call_module(
        page,
        "admin/audit.js",
        "detailText",
        [
            ["returned.p1", 600],
            ["before.max_stake", 125_050],
            ["round", 7],
            ["after", 5, True],
            ["x", None],
        ],
    ) == [money(600), money(125_050), "7", money(5), "–"]
    assert call_module(
        page, "admin/tables.js", "minorOf", [["12.5", 2], ["10000", 0], ["10.5", 0], ["7"]]
    ) == [1250, 10_000, None, 700]
