"""The page under its Content Security Policy, in Chromium: the policy is sent, and playing a
round (lobby, table, live feed, cards, roads, rules, account) breaks none of its rules."""

from __future__ import annotations

from playwright.sync_api import Browser
from web_support import DESKTOP, WAIT_MS, Console, Served, TablePage, drive_to_result

from baccarat.server.hygiene import CSP

pytest_plugins = ("web_support",)

#: Runs before the page's own scripts (set by the browser, not subject to the policy).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""


def test_the_page_plays_a_round_under_its_policy_with_no_violation(
    browser: Browser, virtual_server: Served
) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(RECORD_VIOLATIONS)
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    try:
        document = page.goto(f"{virtual_server.url}/")
        assert document is not None
        assert document.headers["content-security-policy"] == CSP
        assert "server" not in document.headers
        table = TablePage(page)
        table.join()
        table.open_table("standard")
        # Selectors only while waiting on the page: its policy is in force here.
        round_id = virtual_server.open_round("standard")["round"]["id"]
        page.wait_for_selector(f'.stage__round[data-round="{round_id}"]')
        page.wait_for_selector('.stage__phase[data-phase="open"]')
        table.chip(500)
        table.bet("player")
        page.wait_for_selector('.spot[data-bet="player"] [data-stake="500"]')
        drive_to_result(virtual_server, round_id)
        table.wait_result()  # the live feed (WebSocket) brought the cards
        page.wait_for_selector(".roads svg")
        page.goto(f"{virtual_server.url}/#/rules/standard")
        page.wait_for_selector("table")
        page.goto(f"{virtual_server.url}/#/account")
        page.wait_for_timeout(300)
        violations = page.evaluate("window.__violations")
    finally:
        context.close()
    assert violations == []
    assert not [e for e in console.errors if "Content Security Policy" in e], console.errors
    assert console.unexpected() == []
