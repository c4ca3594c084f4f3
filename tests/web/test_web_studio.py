"""The table as a studio shows it, in Chromium against real ``baccarat serve`` processes.

- Rounds are counted per table, "Shoe 12 · Round 34", alike on the table, in its details, in the
  lobby and for screen readers (the server-wide round id stays in the history).
- Between shoes the page shows the shuffle with the new shoe's commitment for a moment.
- The statistics give each result's share of the shoe's coups.
- Offline, the betting controls are disabled, and enabled again on reconnect.
- Chips on a spot never cover its name or payout, on a desktop and on a phone.

Each test watches the console: no error.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page
from web_support import Opener, Served, TablePage

pytest_plugins = ("web_support",)

WIDE = {"width": 1440, "height": 900}
NARROW = {"width": 390, "height": 844}

#: Every text the page's live region says, recorded in the page (window.said).
RECORD_ANNOUNCEMENTS = """() => {
  window.said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => window.said.push(region.textContent)).observe(
    region, {childList: true, characterData: true, subtree: true});
}"""


def said(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.said")
    return found


def round_label(shoe: int, number: int) -> str:
    return f"Shoe {shoe} · Round {number}"


def test_rounds_are_counted_per_table_everywhere(open_page: Opener, table_server: Served) -> None:
    page, console = open_page(f"{table_server.url}/#/tables/standard", viewport=WIDE)
    table = TablePage(page)
    page.wait_for_selector(".bets .spot")
    page.evaluate(RECORD_ANNOUNCEMENTS)
    table.wait_next_open(at_least=1)
    view = table_server.get("/api/tables/standard")
    shoe, number, round_id = view["shoe"]["number"], view["round"]["number"], view["round"]["id"]
    assert table.round_id() == round_id
    label = round_label(shoe, number)
    assert page.inner_text(".stage__round") == label
    assert page.inner_text('.info [data-fact="round"] dd') == label
    # The screen reader heard the same numbers when the round opened.
    opened = [text for text in said(page) if "place your bets" in text]
    assert opened and opened[-1] == f"{label}: place your bets."
    assert f"#{round_id}" not in page.inner_text("main")
    # The lobby's tile counts the same way.
    page.click('[data-nav="lobby"]')
    page.wait_for_selector('.lobby-card[data-table="standard"] [data-fact="round"] dd')
    tile = page.inner_text('.lobby-card[data-table="standard"] [data-fact="round"] dd')
    now = table_server.get("/api/tables/standard")
    assert tile in {
        round_label(shoe, number),
        round_label(now["shoe"]["number"], now["round"]["number"]),
    }
    assert re.fullmatch(r"Shoe \d+ · Round \d+", tile)
    assert "#" not in page.inner_text('.lobby-card[data-table="standard"]')
    assert console.unexpected() == []
