"""Screenshots of the lobby and the table on a desktop (1280x800) and a phone (390x844), and of
the table in Bahasa Indonesia.

Saved under ``docs/screenshots/`` for ``docs/web.md`` and the README. The pages play the same
round (a guest each, with bets on three spots) on a virtual clock: one shot while the bets stand
in the window, then each page at the result with cards and roads, time standing still for each;
the test also checks that nothing on the page is wider than the screen. (The verified fairness panel is taken by ``test_web_verify``.)
"""

from __future__ import annotations

from web_support import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    no_sideways_scroll,
    wait_still,
)

pytest_plugins = ("web_support",)


def test_screenshots(open_page: Opener, virtual_server: Served) -> None:
    served = virtual_server
    # Some rounds first, for the roads in the lobby and at the table.
    served.play_rounds(8)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # Reduced motion: no flip or entrance is caught half-way.
    calm = {"reduced_motion": "reduce"}
    desktop, desktop_console = open_page(f"{served.url}/", viewport=DESKTOP, **calm)
    phone, phone_console = open_page(
        f"{served.url}/",
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        **calm,
    )
    indonesian, indonesian_console = open_page(
        f"{served.url}/", viewport=DESKTOP, locale="id-ID", **calm
    )
    pages = {"desktop": desktop, "phone": phone, "id-desktop": indonesian}
    for name, page in pages.items():
        page.wait_for_selector(".lobby-card .road__big")
        wait_still(page)
        no_sideways_scroll(page)
        if page is not indonesian:
            page.screenshot(path=SCREENSHOTS / f"lobby-{name}.png")
        if page is indonesian:  # its balance reads "$1.500,00": TablePage reads English amounts
            page.click("#join")
            page.wait_for_selector("#balance:not([hidden])")
        else:
            TablePage(page).join()
        TablePage(page).open_table("standard")

    # Time stands still from here to the shots: the window stays open while three pages bet,
    # and the result stays up while they are taken.
    round_id = drive_to_open(TablePage(desktop), served, later=False)
    for page in pages.values():
        table = TablePage(page)
        page.wait_for_function(
            "id => Number(document.querySelector('.stage__round').dataset.round) === id",
            arg=round_id,
        )
        table.chip(1000)
        table.bet("player")
        table.chip(500)
        table.bet("tie")
        table.bet("player_pair")
    # Mid-round: the stakes on the felt while the window counts down.
    TablePage(desktop).wait_stakes({"player": 1000, "tie": 500, "player_pair": 500})
    desktop.screenshot(path=SCREENSHOTS / "table-betting-desktop.png")
    drive_to_result(served, round_id)
    for name, page in pages.items():
        TablePage(page).wait_result()
        page.wait_for_selector(".result__line")
        wait_still(page)
        no_sideways_scroll(page)
        page.screenshot(path=SCREENSHOTS / f"table-{name}.png")
    assert desktop_console.unexpected() == phone_console.unexpected() == []
    assert indonesian_console.unexpected() == []
    assert indonesian.evaluate("document.documentElement.lang") == "id"
