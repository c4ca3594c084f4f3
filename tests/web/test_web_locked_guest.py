"""An operator locks a guest who is at a table (``POST /api/admin/players/{id}/lock``): the
guest's page says why it was logged out, in the language shown, and "Play as guest" on that
browser is refused with a clear message instead of a fresh guest with new demo credit (the
page sends the seat device token the server gave the locked guest; ``docs/security.md``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page
from web_support import (
    STAFF_PASSWORD,
    Console,
    Opener,
    Served,
    TablePage,
    staffed_server,
)

pytest_plugins = ("web_support",)

PASSWORD = STAFF_PASSWORD
LOCALES = {"en": "en-GB", "id": "id-ID"}
#: What the page says when its player was locked, and when a guest is refused on the device.
LOCKED = {
    "en": "You were logged out: your account was locked by the casino. Contact support.",
    "id": "Anda telah dikeluarkan: akun Anda dikunci oleh kasino. Hubungi layanan pelanggan.",
}
REFUSED = {
    "en": "Play as guest is refused on this browser: the account last played here was locked "
    "by the casino. Contact support.",
    "id": "Bermain sebagai tamu ditolak di peramban ini: akun yang terakhir dimainkan di sini "
    "dikunci oleh kasino. Hubungi layanan pelanggan.",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One table on a virtual clock and an operator, ``marta``, made by the command."""
    yield from staffed_server(
        tmp_path_factory.mktemp("web-locked-guest"), {"marta": "operator"}, tables="standard"
    )


def lock_guest(served: Served, page: Page) -> str:
    """The operator locks the guest seated on ``page``; the guest's id."""
    player: str = page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).id")
    with served.client() as anyone:
        login = anyone.post("/api/admin/login", json={"username": "marta", "password": PASSWORD})
    assert login.status_code == 201, login.text
    with served.client(login.json()["token"]) as staff:
        locked = staff.post(f"/api/admin/players/{player}/lock", json={"reason": "fraud check"})
    assert locked.status_code == 200, locked.text
    return player


def seated_guest_at_a_table(
    open_page: Opener, served: Served, language: str
) -> tuple[TablePage, Console]:
    page, console = open_page(f"{served.url}/", locale=LOCALES[language])
    table = TablePage(page)
    page.click("#join")
    page.wait_for_selector("#balance:not([hidden])")
    table.open_table("standard")
    page.wait_for_selector('.connection[data-status="live"]')
    return table, console


def only_refusals(console: Console) -> list[str]:
    """The console's errors but Chromium's own lines for the refused requests (the ended
    token's 401s, the refused guest's 403): the page words those itself."""
    return [e for e in console.errors if not re.search(r"status of 40[13]\b", e)]


@pytest.mark.parametrize("language", ["en", "id"])
def test_the_locked_guests_page_says_why_it_was_logged_out(
    open_page: Opener, served: Served, language: str
) -> None:
    table, console = seated_guest_at_a_table(open_page, served, language)
    page = table.page
    lock_guest(served, page)
    # The feed is closed and the seat dropped: the page is a spectator's again, and says why.
    page.wait_for_selector("#join:not([hidden])")
    page.wait_for_selector("#balance", state="hidden")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.inner_text("#notice") == LOCKED[language]
    assert only_refusals(console) == []


@pytest.mark.parametrize("language", ["en", "id"])
def test_play_as_guest_is_refused_on_the_locked_guests_browser(
    open_page: Opener, served: Served, language: str
) -> None:
    table, console = seated_guest_at_a_table(open_page, served, language)
    page = table.page
    player = lock_guest(served, page)
    page.wait_for_selector("#join:not([hidden])")
    # Reloaded too, the browser is refused: the server decides, not the page's memory.
    for _ in ("as it is", "reloaded"):
        page.click("#join")
        # No fresh guest with new demo credit: the refusal, in words, and no seat.
        page.wait_for_function(
            """text => document.getElementById('notice').textContent === text
                 || !document.getElementById('balance').hidden""",
            arg=REFUSED[language],
        )
        seat = page.evaluate("JSON.parse(localStorage.getItem('baccarat.session'))")
        assert seat is None, f"a fresh guest {seat['id']} ({page.inner_text('#balance')})"
        assert page.is_hidden("#balance")
        assert page.inner_text("#notice") == REFUSED[language]
        page.reload()
        page.wait_for_selector("#join:not([hidden])")
    assert player  # the locked guest, whose seat device token the browser keeps
    assert only_refusals(console) == []
