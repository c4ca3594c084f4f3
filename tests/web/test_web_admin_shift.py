"""A shift in the back office (``/admin``) in Chromium against a real ``baccarat serve`` on a
virtual clock: an operator opens a shift, watches a round on the table's monitor (its cards
appear as they are turned, never one before: at every step of the clock the monitor shows
exactly the cards the public table shows), hands the shift over with a note and reads its
report; in English and in Bahasa Indonesia, with no serious axe finding and no sideways
scroll on a 390 px phone.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page
from web_support import (
    PHONE,
    STAFF_PASSWORD,
    Opener,
    Served,
    money,
    no_sideways_scroll,
    staffed_server,
)

pytest_plugins = ("web_support",)

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
ID_MESSAGES = (
    Path(__file__).resolve().parents[2] / "src/baccarat/web/static/js/admin/messages/id.js"
)


@pytest.fixture(scope="module")
def shift_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from staffed_server(tmp_path_factory.mktemp("web-shift"), {"marta": "operator"})


def log_in(page: Page) -> None:
    page.wait_for_selector(".admin-login")
    page.fill("input[name=username]", "marta")
    page.fill("input[name=password]", STAFF_PASSWORD)
    page.click(".admin-login button[type=submit]")
    page.wait_for_selector("#staff-user:not([hidden])")


def run_axe(page: Page) -> list[str]:
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
             .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }))"""
    )
    return [
        f"{v['impact']} {v['id']}: {v['nodes'][:5]}"
        for v in found
        if v["impact"] in {"serious", "critical"}
    ]


def shown_cards(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        ".admin-monitor [data-card]", "els => els.map(el => el.dataset.card)"
    )
    return cards


def public_cards(server: Served) -> tuple[int, list[str]]:
    view = server.get("/api/tables/standard")
    return view["round"]["id"], [c["card"] for c in view["cards"]]


def catalogue_text(key: str) -> str:
    """An Indonesian string of the back office's catalogue, read from its source."""
    for line in ID_MESSAGES.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith(f'"{key}":'):
            return line.split(":", 1)[1].strip().strip(",").strip('"')
    raise AssertionError(f"no {key} in id.js")


def test_a_shift_is_opened_a_round_watched_and_the_shift_handed_over(
    open_page: Opener, shift_server: Served
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")
    page, console = open_page(f"{shift_server.url}/admin#/shifts")
    log_in(page)
    page.wait_for_selector('[data-shift="none"]')
    assert run_axe(page) == [], "the shifts section with no shift open"
    page.click('[data-act="open-shift"]')
    page.wait_for_selector('[data-status="open"]')
    assert "marta" in page.inner_text('[data-fact="opened"]')

    # The monitor: a guest's stakes, then the cards one step of the clock at a time.
    page.click('[data-nav="monitor"]')
    page.select_option("select[name=table_id]", "standard")
    opened = shift_server.open_round("standard")
    round_id = opened["round"]["id"]
    page.wait_for_selector(f'#monitor-round[data-round="{round_id}"]')
    page.wait_for_selector('.admin-monitor [data-phase="open"]')
    with httpx.Client(base_url=shift_server.url, timeout=30) as client:
        guest = client.post("/api/players").json()
        placed = client.post(
            "/api/tables/standard/bets",
            json={"round_id": round_id, "bets": {"player": 2_500}},
            headers={
                "Authorization": f"Bearer {guest['token']}",
                "Idempotency-Key": uuid.uuid4().hex,
            },
        )
        assert placed.status_code == 200, placed.text
    # The dealer tells the stakes every half second of the (virtual) clock.
    shift_server.advance(600)
    page.wait_for_selector('tr[data-spot="player"] [data-col="demo"]')
    assert page.inner_text('tr[data-spot="player"] [data-col="demo"]') == money(2_500)
    assert run_axe(page) == [], "the monitor while bets are open"

    seen_counts = set()
    shift_server.close_bets("standard")
    for _ in range(40):
        shift_server.settle()
        shown_id, cards = public_cards(shift_server)
        assert shown_id == round_id
        # The page catches up with the feed; it never shows a card the table has not shown.
        page.wait_for_function(
            "n => document.querySelectorAll('.admin-monitor [data-card]').length === n",
            arg=len(cards),
        )
        assert sorted(shown_cards(page)) == sorted(cards)
        seen_counts.add(len(cards))
        if shift_server.get("/api/tables/standard")["result"]:
            break
        shift_server.step()
    assert len(seen_counts - {0}) >= 3, f"the cards did not come one by one: {seen_counts}"
    page.wait_for_selector(".admin-monitor__result")
    shift_server.advance_until(
        lambda: shift_server.get(f"/api/rounds/{round_id}")["phase"] == "settled",
        f"round {round_id} to settle",
    )
    page.wait_for_selector('[data-result="last_result"]')
    page.wait_for_selector('[data-result="shift_result"]')
    assert run_axe(page) == [], "the monitor after the result"

    # A shift is [opened, closed): the virtual clock moves on past the settlement first.
    shift_server.advance(5)
    # Hand over with a note: the report is shown, the guest's demo stakes in it.
    page.click('[data-nav="shifts"]')
    page.wait_for_selector('[data-status="open"]')
    page.fill("#shift-note", "all quiet at standard")
    page.click('[data-act="hand-over"]')
    page.wait_for_selector('[data-final="true"]')
    assert "all quiet at standard" in page.inner_text('[data-fact="note"]')
    demo_row = 'tr[data-table="standard"][data-money="demo"]'
    assert page.inner_text(f'{demo_row} [data-col="turnover"]') == money(2_500)
    assert run_axe(page) == [], "a shift's report"
    assert console.unexpected() == []

    # In Bahasa Indonesia: the report's heading and the monitor's words from the catalogue.
    shift_id = page.get_attribute("[data-shift]", "data-shift") or ""
    page.click('[data-lang="id"]')
    # The section is drawn again in the new language: wait for its words, not its element.
    page.wait_for_function(
        "text => document.getElementById('shift-title')?.textContent === text",
        arg=catalogue_text("admin.shifts.report_title").replace("{id}", shift_id),
    )
    assert run_axe(page) == [], "a shift's report in Indonesian"
    page.click('[data-nav="monitor"]')
    page.select_option("select[name=table_id]", "standard")
    page.wait_for_selector("#monitor-round[data-round]")
    assert page.inner_text("h1") == catalogue_text("admin.monitor.title")
    assert run_axe(page) == [], "the monitor in Indonesian"
    page.click('[data-lang="en"]')


def test_the_shift_views_fit_a_phone(open_page: Opener, shift_server: Served) -> None:
    page, console = open_page(f"{shift_server.url}/admin#/shifts", viewport=PHONE)
    log_in(page)
    page.wait_for_selector("[data-shift]")
    no_sideways_scroll(page)
    for language in ("en", "id"):
        page.click(f'[data-lang="{language}"]')
        page.goto(f"{shift_server.url}/admin#/monitor/standard")
        page.wait_for_selector("#monitor-round")
        page.wait_for_selector("[data-shift]")
        no_sideways_scroll(page)
        page.goto(f"{shift_server.url}/admin#/shifts")
        page.wait_for_selector("[data-shift]")
        no_sideways_scroll(page)
        shifts = page.eval_on_selector_all("a[href^='#/shifts/']", "els => els.length")
        if shifts:
            page.click("a[href^='#/shifts/'] >> nth=0")
            page.wait_for_selector('[data-final="true"]')
            no_sideways_scroll(page)
        page.goto(f"{shift_server.url}/admin#/reports/players")
        page.wait_for_selector("caption")
        no_sideways_scroll(page)
    assert console.unexpected() == []
