"""The page's layout on a desktop (1440×900) and a phone (390×844), in both languages.

No view scrolls sideways (the rules page included, whose Banker drawing grid scrolls inside its
own box on a phone); the phone's top bar is one row; the phone's table page shows the big road
without scrolling; the body's background reaches the bottom of a long page; after a navigation
the focus is on the view's heading; cards scale with the felt; a face-down squeeze peels a
corner (not under reduced motion); the history draws each round's cards per hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize
from web_support import (
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    serve_web,
    wait_still,
)

pytest_plugins = ("web_support",)

WIDE: ViewportSize = {"width": 1440, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
VIEWS = {
    "lobby": ("#/", "#lobby-title"),
    "table": ("#/tables/standard", ".table-view h1"),
    "account": ("#/account", ".account-title"),
    "rules": ("#/rules/standard", ".rules-title"),
}


@pytest.fixture(scope="module")
def face_down_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One face-down standard table with slow reveals, so a squeeze lasts long enough to see."""
    served = serve_web(
        Path(tmp_path_factory.mktemp("web-layout")),
        tables="standard",
        options=["--dealing", "face-down"],
        betting_seconds=2,
        reveal_ms=600,
        result_ms=800,
    )
    yield served
    served.stop()


def set_language(page: Page, lang: str) -> None:
    page.click(f'[data-lang="{lang}"]')
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def goto_view(page: Page, name: str) -> None:
    """Navigate by hash (as a link does) and wait for the view's heading to be focused."""
    hash_, heading = VIEWS[name]
    page.evaluate("h => { window.location.hash = h; }", hash_)
    page.wait_for_selector(heading)
    page.wait_for_function("s => document.activeElement?.matches(s) ?? false", arg=heading)


def scroll_width(page: Page) -> int:
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return width


@pytest.mark.parametrize("lang", ["en", "id"])
@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_no_view_scrolls_sideways_and_focus_lands_on_its_heading(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize, lang: str
) -> None:
    page, console = open_page(f"{virtual_server.url}/", viewport=viewport)
    page.wait_for_selector(".lobby-card")
    TablePage(page).join()
    set_language(page, lang)
    for name in ["table", "account", "rules", "lobby"]:
        goto_view(page, name)
        if name == "rules":
            page.wait_for_selector('[data-table="banker-drawing"]')
        if name == "table":
            page.wait_for_selector(".bets .spot")
        focused = page.evaluate(
            "({tag: document.activeElement.tagName, tabindex: document.activeElement.getAttribute('tabindex')})"
        )
        assert focused == {"tag": "H1", "tabindex": "-1"}, (name, focused)
        width = scroll_width(page)
        assert width <= viewport["width"], (
            f"{name}: {width}px wide on a {viewport['width']}px screen"
        )
    # The history dialog: focus on its heading, and nothing wider than the screen.
    page.click("#history-open")
    page.wait_for_selector("#history-dialog[open]")
    page.wait_for_function("document.activeElement?.id === 'history-title'")
    assert scroll_width(page) <= viewport["width"]
    assert console.unexpected() == []


def test_rules_banker_grid_fits_or_scrolls_in_its_own_box_on_a_phone(
    open_page: Opener, virtual_server: Served
) -> None:
    page, console = open_page(f"{virtual_server.url}/#/rules/standard", viewport=PHONE)
    grid = page.wait_for_selector('[data-table="banker-drawing"]')
    assert grid is not None
    assert scroll_width(page) <= PHONE["width"]
    box = page.evaluate(
        """(() => {
        const grid = document.querySelector('[data-table="banker-drawing"]');
        const holder = grid.closest('.rules-scroll') ?? grid;
        const r = holder.getBoundingClientRect();
        return {left: r.left, right: r.right, scroll: holder.scrollWidth, client: holder.clientWidth,
                cue: holder.classList.contains('is-scrollable')};
        })()"""
    )
    assert box["left"] >= 0 and box["right"] <= PHONE["width"], box
    # Either the grid fits, or its box scrolls and shows the cue that it does.
    assert box["scroll"] <= box["client"] or box["cue"], box
    assert console.unexpected() == []


def test_phone_top_bar_is_two_short_rows_and_the_big_road_is_in_the_first_screen(
    open_page: Opener, virtual_server: Served
) -> None:
    page, console = open_page(f"{virtual_server.url}/", viewport=PHONE)
    page.wait_for_selector(".lobby-card")
    TablePage(page).join()
    TablePage(page).open_table("standard")
    page.wait_for_selector(".roads__big svg")
    bar = page.evaluate(
        """(() => {
        const bar = document.querySelector('.topbar');
        const items = [...bar.querySelectorAll('.brand, .topbar__nav, .topbar__account > :not([hidden]), .lang-switch')]
          .filter((el) => el.getClientRects().length);
        // Rows: items whose boxes overlap vertically share one.
        const boxes = items.map((el) => el.getBoundingClientRect()).sort((a, b) => a.top - b.top);
        let rows = 0, bottom = -Infinity;
        for (const box of boxes) {
          if (box.top >= bottom) { rows += 1; bottom = box.bottom; }
          else bottom = Math.max(bottom, box.bottom);
        }
        return {height: bar.getBoundingClientRect().height, rows};
        })()"""
    )
    # Two rows at most (links and language above, the account's buttons whole below: one row
    # cut "Play as guest" and "Log in" off), and the bar stays short.
    assert bar["height"] <= 80 and bar["rows"] <= 2, bar
    road = page.evaluate(
        """(() => {
        const el = document.querySelector('.roads__big');
        const r = el.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, scrollY: window.scrollY};
        })()"""
    )
    assert road["scrollY"] == 0
    assert road["top"] >= 0 and road["bottom"] <= PHONE["height"], road
    assert road["left"] >= 0 and road["right"] <= PHONE["width"], road
    assert console.unexpected() == []


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_the_background_covers_the_whole_page(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize
) -> None:
    page, console = open_page(f"{virtual_server.url}/#/rules/standard", viewport=viewport)
    page.wait_for_selector('[data-table="banker-drawing"]')
    cover = page.evaluate(
        """(() => {
        const doc = document.documentElement;
        const html = getComputedStyle(doc);
        const body = document.body.getBoundingClientRect();
        return {scroll: doc.scrollHeight, body: body.height + window.scrollY,
                htmlImage: html.backgroundImage, htmlColor: html.backgroundColor};
        })()"""
    )
    # The page is long (the test is about the bottom of a long page).
    assert cover["scroll"] > viewport["height"], cover
    # Either the body reaches the bottom of the scroll height, or the root itself is painted with
    # the page's background (the canvas then covers every pixel).
    painted_root = cover["htmlImage"] != "none"
    assert painted_root or cover["body"] >= cover["scroll"], cover
    # Scrolled to the very bottom, the last screen's bottom-left pixel is the page's dark green.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    shot = page.screenshot(clip={"x": 2, "y": viewport["height"] - 3, "width": 1, "height": 1})
    assert len(shot) > 0
    assert console.unexpected() == []


def test_cards_scale_with_the_felt_on_a_wide_screen(
    open_page: Opener, virtual_server: Served
) -> None:
    page, console = open_page(f"{virtual_server.url}/#/tables/standard", viewport=WIDE)
    page.wait_for_selector(".bets .spot")
    # A coup on the felt, which stays there while the clock stands still.
    table = TablePage(page)
    drive_to_result(virtual_server, drive_to_open(table, virtual_server, later=False))
    table.wait_result()
    wait_still(page)
    # The laid-out width: a card being dealt in or turned over is transformed on its way.
    width = page.evaluate("document.querySelector('.hand__cards .card .card__inner').offsetWidth")
    assert width >= 100, f"a card is {width}px wide at 1440×900"
    assert scroll_width(page) <= WIDE["width"]
    assert console.unexpected() == []


def squeeze_classes(page: Page) -> list[list[str]]:
    """Every class list a card slot gets while the page runs a few face-down reveals."""
    page.evaluate(
        """(() => {
        window.__squeezes = [];
        new MutationObserver((records) => {
          for (const r of records) {
            if (r.target.classList?.contains('card--squeeze')) window.__squeezes.push([...r.target.classList]);
          }
        }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class'], childList: true});
        })()"""
    )
    page.wait_for_function("window.__squeezes.length >= 2", timeout=40_000)
    classes: list[list[str]] = page.evaluate("window.__squeezes")
    return classes


def test_a_face_down_squeeze_peels_a_corner(open_page: Opener, face_down_server: Served) -> None:
    page, console = open_page(f"{face_down_server.url}/#/tables/standard", viewport=WIDE)
    page.wait_for_selector(".bets .spot")
    classes = squeeze_classes(page)
    assert all("card--peel" in names for names in classes), classes
    assert console.unexpected() == []


def test_no_peel_under_reduced_motion(open_page: Opener, face_down_server: Served) -> None:
    page, console = open_page(
        f"{face_down_server.url}/#/tables/standard", viewport=WIDE, reduced_motion="reduce"
    )
    page.wait_for_selector(".bets .spot")
    classes = squeeze_classes(page)
    assert classes and all("card--peel" not in names for names in classes), classes
    assert console.unexpected() == []


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_history_rows_draw_cards_per_hand(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize
) -> None:
    page, console = open_page(f"{virtual_server.url}/", viewport=viewport)
    table = TablePage(page)
    page.wait_for_selector(".lobby-card")
    table.join()
    table.open_table("standard")
    smallest = int(page.get_attribute(".chip-rack__option >> nth=0", "data-chip") or 0)
    drive_to_open(table, virtual_server, later=False)
    table.chip(smallest)
    table.bet("player")
    table.wait_stakes({"player": smallest})
    # The round played out and the next one open: the bet's round is in the history.
    drive_to_open(table, virtual_server)
    page.click("#history-open")
    row = '#history-dialog tr[data-round] td[data-col="cards"] [data-hand="player"] .card'
    page.wait_for_selector(row)
    hands = page.evaluate(
        """(() => {
        const cell = document.querySelector('#history-dialog tr[data-round] td[data-col="cards"]');
        const count = (side) => cell.querySelectorAll(`[data-hand="${side}"] .card[data-card]`).length;
        return {player: count('player'), banker: count('banker')};
        })()"""
    )
    assert 2 <= hands["player"] <= 3 and 2 <= hands["banker"] <= 3, hands
    # Every column readable: no cell is cut (its content fits its box) and nothing scrolls sideways.
    cut = page.evaluate(
        """[...document.querySelectorAll('#history-dialog td, #history-dialog th')]
        .filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.dataset.col ?? c.textContent)"""
    )
    assert cut == []
    scroller = page.evaluate(
        "(() => { const s = document.querySelector('.history-scroll'); return [s.scrollWidth, s.clientWidth]; })()"
    )
    assert scroller[0] <= scroller[1], scroller
    assert scroll_width(page) <= viewport["width"]
    assert console.unexpected() == []
