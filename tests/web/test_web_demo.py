"""Demo play in the page: a guest's balance says "Demo", and a person on a break is not offered
demo play on this device (it says when the break ends); an operator can turn guests off.

The page tells the time in the person's own time zone: the browser runs in Tokyo (no summer
time) and British English, and the test writes the server's break end the same way itself.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import httpx
import pytest
from playwright.sync_api import Page
from web_support import Opener, Served, TablePage, serve_web

pytest_plugins = ("web_support",)

PASSWORD = "a long enough passphrase 42"
TOKYO = timezone(timedelta(hours=9))
LOCALE = {"locale": "en-GB", "timezone_id": "Asia/Tokyo"}


def register(page: Page) -> str:
    """Register and log in from the top bar; the username."""
    name = f"d{uuid.uuid4().hex[:10]}"
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", PASSWORD)
    page.click("#register-submit")
    # Selectors only: the page's CSP forbids the eval behind wait_for_function.
    page.wait_for_selector(f"#user:text-is('{name}')")
    return name


def server_break_end(server: Served, name: str) -> datetime:
    """The end of ``name``'s break as the server keeps it (its login refusal says it)."""
    answer = httpx.post(
        f"{server.url}/api/sessions", json={"username": name, "password": PASSWORD}, timeout=10
    )
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "time_out"
    match = re.search(r"until (\S+ \S+) UTC", answer.json()["error"]["message"])
    assert match, answer.text
    return datetime.strptime(match.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)


#: British English month abbreviations (CLDR's: "Sept", not "Sep").
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"]


def tokyo_text(moment: datetime) -> str:
    """How an en-GB browser in Tokyo writes ``moment`` to the minute: "8 Jun 2024, 21:00"."""
    local = moment.astimezone(TOKYO)
    return f"{local.day} {MONTHS[local.month - 1]} {local:%Y, %H:%M}"


def shows_no_demo_play(page: Page, until: datetime) -> None:
    page.wait_for_selector("#break-note:not([hidden])")
    assert page.is_hidden("#join")
    note = " ".join(page.inner_text("#break-note").split())
    assert note == f"On a break until {tokyo_text(until)}"


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The default tables on a virtual clock of this module's own, which stays where the
    browser's clock is: a break's end is set by the page's clock and checked by the server's
    (the shared ``virtual_server`` may have been stepped hours ahead by other tests)."""
    served = serve_web(tmp_path_factory.mktemp("web-demo"), demo_credit=150_000, virtual_clock=True)
    yield served
    served.stop()


def test_a_break_taken_here_hides_demo_play_and_says_when_it_ends(
    open_page: Opener, demo_server: Served
) -> None:
    page, console = open_page(f"{demo_server.url}/", **LOCALE)
    page.wait_for_selector(".lobby-card")
    assert page.is_visible("#join")  # demo play is offered to a visitor
    name = register(page)
    page.goto(f"{demo_server.url}/#/account")
    page.wait_for_selector("#break-state:not(:empty)")
    page.select_option("#break-time_out", "0")  # 24 hours
    page.click("[data-break='time_out']")
    page.click("#break-confirm")
    page.wait_for_selector("#login:not([hidden])")  # the break logged the player out
    until = server_break_end(demo_server, name)
    now = datetime.now(UTC)
    # The page keeps a minute inside the server's shortest time-out, 24 hours.
    assert timedelta(hours=24) < until - now <= timedelta(hours=24, minutes=2)
    shows_no_demo_play(page, until)
    # The device remembers: a reload, then a table, offer no seat either.
    page.goto(f"{demo_server.url}/#/")
    page.reload()
    page.wait_for_selector(".lobby-card")
    shows_no_demo_play(page, until)
    page.click('.lobby-card[data-table="standard"] a')
    page.wait_for_selector(".spectator:not([hidden])")
    assert page.is_hidden(".spectator button")
    blocked = " ".join(page.inner_text(".spectator__blocked").split())
    assert blocked == f"On a break until {tokyo_text(until)}"
    assert page.evaluate("localStorage.getItem('baccarat.session')") is None
    assert console.unexpected() == []


def test_a_login_refused_for_a_break_hides_demo_play_on_that_device(
    open_page: Opener, demo_server: Served
) -> None:
    """The break was taken elsewhere: this device learns it from the refused login."""
    name = f"e{uuid.uuid4().hex[:10]}"
    with httpx.Client(base_url=demo_server.url, timeout=10) as client:
        body = {"username": name, "password": PASSWORD}
        assert client.post("/api/accounts", json=body).status_code == 201
        token = client.post("/api/sessions", json=body).json()["token"]
        now = datetime.now(UTC)
        until = (now + timedelta(days=3)).replace(microsecond=0)
        taken = client.post(
            "/api/me/breaks",
            json={"kind": "time_out", "until": until.isoformat()},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert taken.status_code == 201, taken.text
    page, console = open_page(f"{demo_server.url}/", **LOCALE)
    page.wait_for_selector(".lobby-card")
    assert page.is_visible("#join")
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#login-message:not(:empty)")
    page.keyboard.press("Escape")
    shows_no_demo_play(page, until)
    assert console.unexpected(s403=1) == []


def test_a_guest_balance_says_demo(open_page: Opener, demo_server: Served) -> None:
    page, console = open_page(f"{demo_server.url}/")
    page.click("#join")
    page.wait_for_selector("#balance-amount:has-text('$')")
    assert TablePage(page).balance() == 150_000  # the server's demo credit
    assert page.is_visible("#balance-demo")
    assert page.text_content("#balance-demo") == "Demo"
    assert "demo" in page.inner_text("#balance").lower()
    page.goto(f"{demo_server.url}/#/account")
    page.wait_for_selector("#account-balance")
    assert " ".join(page.inner_text("#account-balance").split()) == "Demo balance $1,500.00"
    assert page.query_selector("#deposit-amount") is None  # no cashier for demo money
    page.click("#history-open")
    page.wait_for_selector("#history-dialog[open] th:has-text('Demo balance before')")
    page.click("#history-dialog .btn--gold")
    # A registered player's balance is real money: no "Demo" anywhere it is shown.
    register(page)
    page.wait_for_selector("#balance-demo", state="hidden")
    assert "demo" not in page.inner_text("#balance").lower()
    page.goto(f"{demo_server.url}/#/account")
    page.wait_for_selector("#deposit-amount")
    assert page.inner_text("#account-balance") == "Balance $0.00"
    page.click("#history-open")
    page.wait_for_selector("#history-dialog[open]")
    page.wait_for_function(
        "!document.querySelector('#history-dialog thead').innerText.includes('Demo')"
    )
    assert "Balance before" in page.inner_text("#history-dialog thead")
    assert console.unexpected() == []


def test_a_guest_ends_its_demo_session_and_its_token_is_refused(
    open_page: Opener, demo_server: Served
) -> None:
    page, console = open_page(f"{demo_server.url}/")
    page.click("#join")
    page.wait_for_selector("#balance-amount:has-text('$')")
    token = page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).token")
    assert httpx.get(f"{demo_server.url}/api/me", headers=bearer(token)).status_code == 200
    page.goto(f"{demo_server.url}/#/account")
    page.click("#end-demo")
    page.wait_for_selector("#join:has-text('Play as guest')")
    assert page.evaluate("localStorage.getItem('baccarat.session')") is None
    assert httpx.get(f"{demo_server.url}/api/me", headers=bearer(token)).status_code == 401
    assert console.unexpected() == []


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def no_guests(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    # On a virtual clock: its table never deals (nothing here needs it to), at no cost.
    served = serve_web(
        tmp_path_factory.mktemp("web-no-guests"), options=["--guests", "off"], virtual_clock=True
    )
    yield served
    served.stop()


def test_guests_off_offers_no_demo_play(open_page: Opener, no_guests: Served) -> None:
    answer = httpx.post(f"{no_guests.url}/api/players", timeout=10)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "guests_disabled"
    page, console = open_page(f"{no_guests.url}/")
    page.wait_for_selector(".lobby-card")
    page.wait_for_selector("#join", state="hidden")
    assert page.is_visible("#login")
    page.click('.lobby-card[data-table="standard"] a')
    page.wait_for_selector(".spectator:not([hidden])")
    assert page.is_hidden(".spectator button")
    assert "log in to play" in page.inner_text(".spectator__blocked")
    assert console.unexpected() == []
