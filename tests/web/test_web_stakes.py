"""Each spot shows its share of all players' stakes on the open round, live, in the language
shown; and a refusal is worded from its ``details``, not from the server's English message.

A guest sits at the standard table in a real browser against a real ``baccarat serve``; a
second guest bets through the API in the same round, so the shares can only come from the
server's stake totals (the page knows its own stakes only).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page
from web_support import DESKTOP, WAIT_MS, Console, Served, TablePage, drive_to_open

from baccarat.live.dealer import STAKES_EVERY_S

pytest_plugins = ("web_support",)


@pytest.fixture
def seated(browser: Browser, virtual_server: Served) -> Iterator[tuple[TablePage, Console]]:
    # Playwright's wait_for_function needs eval, which the page's CSP forbids (see open_page).
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True, locale="en-US")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    page.goto(f"{virtual_server.url}/")
    table = TablePage(page)
    table.join()
    table.open_table("standard")
    yield table, console
    context.close()


def share_of(page: Page, spot: str) -> dict[str, Any]:
    found: dict[str, Any] = page.eval_on_selector(
        f'.spot[data-bet="{spot}"]',
        """spot => ({
             text: spot.querySelector(".spot__share")?.textContent ?? null,
             share: spot.querySelector(".spot__share")?.dataset.share ?? null,
             label: spot.getAttribute("aria-label"),
           })""",
    )
    return found


def wait_share(page: Page, spot: str, text: str) -> None:
    page.wait_for_function(
        """([spot, text]) => document.querySelector(
             `.spot[data-bet="${spot}"] .spot__share`)?.textContent === text""",
        arg=[spot, text],
    )


def test_each_spot_shows_its_share_of_all_stakes(
    seated: tuple[TablePage, Console], virtual_server: Served
) -> None:
    table_server = virtual_server  # on a virtual clock: the window stays open for the test
    table, console = seated
    page = table.page
    # A fresh round: the shared server's round in play may hold earlier tests' stakes.
    round_id = drive_to_open(table, table_server)
    other = httpx.post(f"{table_server.url}/api/players", timeout=10).json()["token"]
    placed = httpx.post(
        f"{table_server.url}/api/tables/standard/bets",
        json={"round_id": round_id, "bets": {"banker": 3_000}},
        headers={"Authorization": f"Bearer {other}", "Idempotency-Key": uuid.uuid4().hex},
        timeout=10,
    )
    assert placed.status_code == 200, placed.text
    table.chip(1000)
    table.bet("player")
    table.wait_stakes({"player": 1000})
    # The dealer reads the round's stakes every half second of its clock while it is open: a
    # read that ran before the last commit shows the next half second (a few, at most).
    for _ in range(4):
        table_server.advance(round(STAKES_EVERY_S * 1000))
        if share_of(page, "player")["text"] == "25% of all stakes":
            break
    # 1,000 of 4,000 on Player, 3,000 on Banker; nobody on Tie (no share shown there).
    wait_share(page, "player", "25% of all stakes")
    wait_share(page, "banker", "75% of all stakes")
    assert table.round_id() == round_id
    player, banker, tie = (share_of(page, spot) for spot in ("player", "banker", "tie"))
    assert player["share"] == "0.25" and banker["share"] == "0.75"
    assert "25% of all stakes" in player["label"] and "75% of all stakes" in banker["label"]
    assert tie["text"] is None and "of all stakes" not in tie["label"]
    # The other language, without a reload: the same shares in its own words.
    page.click('[data-lang="id"]')
    page.wait_for_function("() => document.documentElement.lang === 'id'")
    wait_share(page, "player", "25% dari semua taruhan")
    wait_share(page, "banker", "75% dari semua taruhan")
    # The next round starts from nothing.
    drive_to_open(table, table_server)
    page.wait_for_function("() => !document.querySelector('.spot__share')")
    assert console.unexpected() == []


def test_a_refusal_is_worded_from_its_details(module_page: Page) -> None:
    """The details win over the message: here the message says other amounts (an older
    server's words would be read only when a body has no details)."""
    said = module_page.evaluate(
        """async () => {
             const i18n = await import("/static/js/i18n.js");
             const { errorText, explain } = await import("/static/js/refusals.js");
             const { betName, money } = await import("/static/js/format.js");
             const out = {};
             for (const language of ["en", "id"]) {
               await i18n.setLanguage(language, { remember: false });
               const t = i18n.t;
               out[language] = {
                 deposit: [
                   errorText({ code: "deposit_too_large", message: "a deposit is at most 1, not 2",
                               details: { limit: 500000 } }),
                   t("error.deposit_too_large", { amount: money(500000) }),
                 ],
                 balance: [
                   errorText({ code: "balance_limit", message: "a balance is at most 1: you may deposit up to 1 more",
                               details: { limit: 2500000, left: 12345 } }),
                   t("error.balance_limit", { amount: money(2500000), room: money(12345) }),
                 ],
                 below: [
                   explain({ status: 422, code: "below_minimum", message: "player: 1 on this spot is below the minimum of 7",
                             details: { spot: "tie", limit: 100 } }, {}, 0),
                   t("error.below_minimum", { bet: betName("tie"), amount: money(100) }),
                 ],
                 above: [
                   explain({ status: 422, code: "above_maximum", message: "",
                             details: { spot: "tie", limit: 200000 } },
                           { tie: { label: "Tie", min_stake: 100, max_stake: 999 } }, 0),
                   t("error.above_maximum", { bet: betName("tie"), amount: money(200000) }),
                 ],
                 limit: [
                   errorText({ code: "limit_exceeded", message: "wager limit (30 days) reached: 1.00 left of 2.00",
                               details: { kind: "loss", period: "24h", limit: 1500, left: 500 } }),
                   [money(500), money(1500), t("limit.kind.loss").toLowerCase(), t("limit.period.24h")],
                 ],
                 time_out: [
                   errorText({ code: "time_out", message: "on a time-out",
                               details: { until: "2030-01-05T03:04:05.000Z" } }),
                   i18n.utcStamp(Date.parse("2030-01-05T03:04:05.000Z")),
                 ],
               };
             }
             await i18n.setLanguage("en", { remember: false });
             return out;
           }"""
    )
    for language in ("en", "id"):
        found = said[language]
        for name in ("deposit", "balance", "below", "above"):
            text, expected = found[name]
            assert text == expected, (language, name)
        text, parts = found["limit"]
        assert all(part in text for part in parts), (language, text, parts)
        text, stamp = found["time_out"]
        assert stamp in text, (language, text)
