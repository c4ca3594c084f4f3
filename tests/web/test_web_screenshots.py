"""Screenshots of the lobby and the table on a desktop (1280x800) and a phone (390x844), and of
the table in Bahasa Indonesia.

Saved under ``docs/screenshots/`` for ``docs/web.md`` and the README. The pages play the same
round (a guest each, with bets on three spots): one shot while the bets stand in the window,
then each page at the result with cards and roads; the test also checks that nothing on the page
is wider than the screen. (The verified fairness panel is taken by ``test_web_verify``.)
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, WebSocketRoute
from web_support import (
    DESKTOP,
    LONG_WINDOW_LEFT_S,
    PHONE,
    SCREENSHOTS,
    Opener,
    Served,
    TablePage,
    no_sideways_scroll,
)

pytest_plugins = ("web_support",)


def freezable(page: Page) -> dict[str, bool]:
    """Relay the table feed to ``page`` until ``frozen`` is set: then the page stays as it is
    (the result stays up) however long the screenshot takes."""
    switch = {"frozen": False}

    def feed(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        server.on_message(lambda message: None if switch["frozen"] else socket.send(message))

    page.route_web_socket(re.compile(r".*/ws/tables/.*"), feed)
    return switch


def test_screenshots(open_page: Opener, long_window_server: Served) -> None:
    # Three pages bet on one round: a window that fits them on a loaded machine.
    table_server = long_window_server
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Reduced motion: no flip or entrance is caught half-way in the short result pause.
    calm = {"reduced_motion": "reduce"}
    desktop, desktop_console = open_page(f"{table_server.url}/", viewport=DESKTOP, **calm)
    phone, phone_console = open_page(
        f"{table_server.url}/",
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        **calm,
    )
    indonesian, indonesian_console = open_page(
        f"{table_server.url}/", viewport=DESKTOP, locale="id-ID", **calm
    )
    pages = {"desktop": desktop, "phone": phone, "id-desktop": indonesian}
    switches = {name: freezable(page) for name, page in pages.items()}
    for name, page in pages.items():
        page.wait_for_selector(".lobby-card .road__big")  # some rounds on the mini roads
        page.wait_for_timeout(300)
        no_sideways_scroll(page)
        if page is not indonesian:
            page.screenshot(path=SCREENSHOTS / f"lobby-{name}.png")
        if page is indonesian:  # its balance reads "$1.500,00": TablePage reads English amounts
            page.click("#join")
            page.wait_for_selector("#balance:not([hidden])")
        else:
            TablePage(page).join()
        TablePage(page).open_table("standard")

    TablePage(desktop).wait_open(at_least=LONG_WINDOW_LEFT_S)
    for page in pages.values():
        table = TablePage(page)
        table.chip(1000)
        table.bet("player")
        table.chip(500)
        table.bet("tie")
        table.bet("player_pair")
    # Mid-round: the stakes on the felt while the window counts down.
    TablePage(desktop).wait_stakes({"player": 1000, "tie": 500, "player_pair": 500})
    desktop.screenshot(path=SCREENSHOTS / "table-betting-desktop.png")
    for name, page in pages.items():
        TablePage(page).wait_result()
        page.wait_for_selector(".result__line")
        switches[name]["frozen"] = True
    for name, page in pages.items():
        no_sideways_scroll(page)
        page.screenshot(path=SCREENSHOTS / f"table-{name}.png")
    assert desktop_console.unexpected() == phone_console.unexpected() == []
    assert indonesian_console.unexpected() == []
    assert indonesian.evaluate("document.documentElement.lang") == "id"
