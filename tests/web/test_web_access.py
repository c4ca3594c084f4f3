"""The page without a mouse, without motion, and without a steady connection.

Keyboard alone from the lobby to a bet; an accessible name on every control and the live
regions that speak results and errors; ``prefers-reduced-motion`` honoured; a dropped connection
shown plainly and recovered from a snapshot; a gap in the feed's ``seq`` answered with a resync.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, WebSocketRoute
from web_support import Opener, Served, TablePage, serve_web

pytest_plugins = ("web_support",)

FEED = re.compile(r".*/ws/tables/.*")


def tab_to(page: Page, selector: str, presses: int = 60) -> None:
    """Press Tab until the focused element matches ``selector``."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def until(page: Page, check: Callable[[], bool], what: str, seconds: float = 20) -> None:
    """Let the page run (and route handlers fire) until ``check()`` holds."""
    for _ in range(int(seconds * 20)):
        if check():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"timed out waiting for {what}")


def focus_ring(page: Page) -> str:
    """The focused element's outline (the visible focus)."""
    ring: str = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement); return `${s.outlineStyle} ${s.outlineWidth}`; })()"
    )
    return ring


@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The three default tables on the real clock, dealing on their own: for the tests that
    watch a table play (a result said, a flip, a dropped feed caught up), not drive it."""
    served = serve_web(
        tmp_path_factory.mktemp("web-access"),
        tables="standard,no-commission,ez",
        betting_seconds=5,
        reveal_ms=250,
        result_ms=1500,
        demo_credit=150_000,
    )
    yield served
    served.stop()


def test_keyboard_alone_from_the_lobby_to_a_bet(open_page: Opener, virtual_server: Served) -> None:
    page, console = open_page(f"{virtual_server.url}/")
    table = TablePage(page)
    page.wait_for_selector(".lobby-card")
    tab_to(page, "#join")
    assert focus_ring(page) != "none 0px"
    page.keyboard.press("Enter")
    page.wait_for_selector("#balance:not([hidden])")
    tab_to(page, '.lobby-card[data-table="standard"] a')
    page.keyboard.press("Enter")
    page.wait_for_selector(".bets .spot")

    # Tabbing from the chips to the spots and to undo takes many key presses, seconds on a
    # loaded machine: on the virtual clock the window stays open however long they take.
    round_id = virtual_server.open_round("standard")["round"]["id"]
    page.wait_for_function(
        "id => Number(document.querySelector('.stage__round').dataset.round) === id"
        " && document.querySelector('.stage__phase').dataset.phase === 'open'",
        arg=round_id,
    )
    tab_to(page, ".chip-rack input:checked")
    page.keyboard.press("ArrowRight")  # from $1 to $5
    assert page.evaluate("document.activeElement.value") == "500"
    tab_to(page, '.spot[data-bet="player"]')
    assert focus_ring(page) != "none 0px"
    page.keyboard.press("Enter")
    table.wait_stakes({"player": 500})
    tab_to(page, '.spot[data-bet="tie"]')
    page.keyboard.press("Space")
    table.wait_stakes({"player": 500, "tie": 500})
    tab_to(page, '[data-action="undo"]')
    page.keyboard.press("Enter")
    table.wait_stakes({"player": 500})
    assert table.round_id() == round_id
    assert console.unexpected() == []


def test_every_control_is_named_and_results_are_spoken(
    open_page: Opener, table_server: Served
) -> None:
    page, console = open_page(f"{table_server.url}/#/tables/no-commission")
    page.wait_for_selector(".bets .spot")
    page.wait_for_selector(".roads__bead svg")
    unnamed = page.evaluate(
        """[...document.querySelectorAll('button, a[href], input, [role=img], [role=group]')]
             .filter(el => !el.closest('[hidden]'))
             .filter(el => !(el.getAttribute('aria-label') || el.textContent.trim()
               || (el.labels && [...el.labels].map(l => l.textContent.trim()).join(''))))
             .map(el => el.outerHTML.slice(0, 120))"""
    )
    assert unnamed == []
    assert page.get_attribute("#announcer", "aria-live") == "polite"
    assert page.get_attribute(".table-message", "role") == "alert"
    # One voice: the result banner and the phase are not live regions of their own.
    assert (
        page.eval_on_selector_all(
            "[aria-live]:not(#announcer), [role=status]:not(.lobby__status)", "els => els.length"
        )
        == 0
    )
    # The result is said, not only shown.
    page.wait_for_function("/wins|Tie/.test(document.getElementById('announcer').textContent)")
    assert console.unexpected() == []


def test_reduced_motion_is_honoured(open_page: Opener, table_server: Served) -> None:
    calm, calm_console = open_page(f"{table_server.url}/#/tables/ez", reduced_motion="reduce")
    lively, lively_console = open_page(f"{table_server.url}/#/tables/ez")
    # The ask's animation while it is shown (four seconds), read as soon as it is drawn: a
    # road redrawn by a result in between leaves a detached mark with no computed style.
    blink = """() => { const el = document.querySelector('.road__ask');
                       return el?.isConnected && getComputedStyle(el).animationName; }"""
    asks = {}
    for page in (calm, lively):
        page.wait_for_selector(".hand .card--revealed")
        page.click(".ask--banker")
        asks[page] = page.wait_for_function(blink, polling="raf").json_value()
    assert asks == {calm: "none", lively: "ask-blink"}
    assert calm.eval_on_selector_all(".card--flipping, .card--dealt", "els => els.length") == 0
    lively.wait_for_selector(".card--flipping")  # a flip, at this round's reveal or the next
    assert calm_console.unexpected() == lively_console.unexpected() == []


def test_a_lost_connection_is_shown_and_recovered(open_page: Opener, table_server: Served) -> None:
    page, console = open_page(f"{table_server.url}/")
    state = {"down": False, "connections": 0}
    sockets: list[WebSocketRoute] = []

    def feed(socket: WebSocketRoute) -> None:
        if state["down"]:
            socket.close(code=1012, reason="test: the server is away")
            return
        state["connections"] += 1
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(FEED, feed)
    page.goto(f"{table_server.url}/#/tables/standard")
    page.wait_for_selector('#connection[data-status="live"]')
    state["down"] = True
    sockets[-1].close(code=1012, reason="test: dropped")
    page.wait_for_selector("#connection-banner:not([hidden])")
    assert "Connection lost" in page.inner_text("#connection-banner")
    page.wait_for_timeout(1500)  # it keeps retrying while the server is away
    assert page.is_visible("#connection-banner")

    state["down"] = False
    page.wait_for_selector("#connection-banner", state="hidden", timeout=20_000)
    page.wait_for_selector('#connection[data-status="live"]')
    # Caught up from the new snapshot: the round shown is the table's round.
    page.wait_for_function(
        "id => document.querySelector('.stage__round').dataset.round === String(id)",
        arg=table_server.get("/api/tables/standard")["round"]["id"],
    )
    assert console.unexpected() == []


def test_a_gap_in_the_feed_brings_a_fresh_snapshot(open_page: Opener, table_server: Served) -> None:
    page, console = open_page(f"{table_server.url}/")
    plan = {"drop": False, "dropped": 0, "snapshots": 0}

    def feed(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def relay(message: str | bytes) -> None:
            kind = json.loads(message).get("type")
            if kind == "snapshot":
                plan["snapshots"] += 1
            elif plan["drop"] and kind == "card":
                plan["drop"] = False
                plan["dropped"] += 1
                return  # lost on the way: the next event's seq skips one
            socket.send(message)

        server.on_message(relay)

    page.route_web_socket(FEED, feed)
    page.goto(f"{table_server.url}/#/tables/ez")
    page.wait_for_selector('#connection[data-status="live"]')
    assert plan["snapshots"] == 1
    plan["drop"] = True
    until(page, lambda: plan["dropped"] == 1, "a card to drop")
    until(page, lambda: plan["snapshots"] == 2, "the page to reconnect for a snapshot")
    page.wait_for_selector('#connection[data-status="live"]')
    # The page caught up: every revealed card the table shows is on the page.
    page.wait_for_selector(".hand .card--revealed")
    assert console.unexpected() == []
