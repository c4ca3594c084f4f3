"""The account side of the page in a real browser: log in and out, limits, reality checks,
history and the rules page.

The server runs on a virtual clock, the one clock of its tables, sessions and responsible
gaming: a test moves it forward as five minutes of play (a reality check then falls due at
once) or a day would, and plays its rounds by moving it to their close and their result.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page
from serving import ServerProcess
from web_support import (
    DESKTOP,
    PHONE,
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    money,
    no_sideways_scroll,
)

pytest_plugins = ("web_support",)

PASSWORD = "a long enough passphrase 42"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("web-account")
    server = ServerProcess(
        f"sqlite:///{folder / 'account.db'}",
        folder,
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=700,
        virtual_clock=True,
    )
    yield server.start()
    server.stop()


def register(page: Page) -> str:
    """Register and log in from the top bar; the username."""
    name = f"p{uuid.uuid4().hex[:10]}"
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", PASSWORD)
    page.click("#register-submit")
    # Wait for this login's own notice: a retry may still show the previous player's.
    page.wait_for_function(
        "name => document.querySelector('#notice').textContent.includes(name)", arg=name
    )
    assert page.inner_text("#notice") == f"Welcome, {name}. This is your first login."
    assert page.inner_text("#user") == name
    return name


def token(page: Page) -> str:
    stored = page.evaluate("localStorage.getItem('baccarat.session')")
    value: str = json.loads(stored)["token"]
    return value


def api(page: Page, served: Served) -> httpx.Client:
    return httpx.Client(
        base_url=served.url, headers={"Authorization": f"Bearer {token(page)}"}, timeout=10
    )


def deposit(page: Page, served: Served, dollars: int) -> None:
    page.goto(f"{served.url}/#/account")
    page.fill("#deposit-amount", str(dollars))
    page.click("#deposit-submit")
    TablePage(page).wait_balance(dollars * 100)


def set_limit(page: Page, key: str, dollars: str) -> str:
    page.fill(f"[data-limit='{key}']", dollars)
    page.click(f"[data-set='{key}']")
    page.wait_for_function("document.querySelector('#limits-message').textContent")
    return page.inner_text("#limits-message")


def test_login_logout_and_the_previous_login_time(open_page: Opener, served: Served) -> None:
    page, console = open_page(f"{served.url}/")
    name = register(page)
    with api(page, served) as client:
        first_login = client.get("/api/me/history").status_code  # the token works
    assert first_login == 200
    page.click("#logout")
    page.wait_for_selector("#login:not([hidden])")
    assert page.is_hidden("#user") and page.is_hidden("#logout")
    # The next login names the previous one, in UTC, as the server recorded it.
    before = httpx.post(
        f"{served.url}/api/sessions", json={"username": name, "password": PASSWORD}
    ).json()
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.querySelector('#notice').textContent.includes('previous login')"
    )
    # `before` was the previous login: its time is its token's expiry less the 12-hour lifetime.
    expires = datetime.fromisoformat(before["expires_at"].replace("Z", "+00:00"))
    previous = (expires - timedelta(hours=12)).strftime("%Y-%m-%d %H:%M:%S")
    assert page.inner_text("#notice") == (
        f"Welcome, {name}. Your previous login was at {previous} UTC."
    )
    # A wrong password is refused in words.
    page.click("#logout")
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", "not the password")
    page.click("#login-submit")
    page.wait_for_function("document.querySelector('#login-message').textContent")
    assert page.inner_text("#login-message") == "Wrong username or password."
    # The next good login tells of that wrong password, and keeps this device's token.
    before = httpx.post(
        f"{served.url}/api/sessions", json={"username": name, "password": "nor this one"}
    )
    assert before.status_code == 401
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_function("document.querySelector('#notice').textContent.includes('wrong')")
    assert page.inner_text("#notice").endswith(
        "Since then, 2 wrong passwords were tried for your username."
    )
    device = page.evaluate(f"localStorage.getItem('baccarat.device.{name.lower()}')")
    assert isinstance(device, str) and "." in device
    assert console.unexpected(s401=1) == []


def test_a_loss_limit_set_in_the_page_refuses_the_bet_past_it(
    open_page: Opener, served: Served
) -> None:
    page, console = open_page(f"{served.url}/")
    table = TablePage(page)
    refusals = 0
    for _attempt in range(3):  # a Tie that wins (1 in 10) leaves room: start again
        register(page)
        deposit(page, served, 100)
        said = set_limit(page, "loss-24h", "15")
        assert said == "Loss limit (24 hours): now $15.00 (was no limit)."
        assert page.inner_text("[data-row='loss-24h'] [data-col='limit']") == "$15.00"
        page.goto(f"{served.url}/#/tables/standard")
        page.wait_for_selector(".bets .spot")
        round_id = drive_to_open(table, served)
        table.chip(1000)
        table.bet("tie")
        table.wait_stakes({"tie": 1000})
        drive_to_result(served, round_id)
        table.wait_result()
        page.wait_for_function(
            "/You (win|lose)/.test(document.querySelector('.stage').textContent)"
        )
        if "You win" in page.inner_text(".stage"):
            page.click("#logout")
            continue
        drive_to_open(table, served)
        table.clear_message()
        table.bet("tie")
        refusals += 1
        assert table.message() == (
            "Refused by your own limit: loss limit (24 hours) reached: $5.00 left of $15.00."
        )
        assert table.stakes() == {}
        table.wait_balance(9000)
        break
    else:
        pytest.fail("three Tie bets in a row won")
    assert console.unexpected(s403=refusals) == []


def test_reality_check_blocks_bets_until_acknowledged_and_history_matches(
    open_page: Opener, served: Served
) -> None:
    page, console = open_page(f"{served.url}/")
    table = TablePage(page)
    register(page)
    deposit(page, served, 50)
    page.select_option("#reality-every", "300")
    page.click("#session-save")
    page.wait_for_function("document.querySelector('#session-message').textContent")
    assert page.inner_text("#session-message") == "Session settings saved."
    page.goto(f"{served.url}/#/tables/standard")
    page.wait_for_selector(".bets .spot")

    served.advance(301_000)  # five minutes of play go by
    page.wait_for_selector("#reality-dialog[open]")
    assert page.inner_text("#reality-dialog [data-fact='net'] dd") == "$0.00"
    played = page.inner_text("#reality-dialog [data-fact='played'] dd")
    assert played.startswith("5:0"), played
    with api(page, served) as client:
        round_id = served.open_round()["round"]["id"]
        refused = client.post(
            "/api/tables/standard/bets",
            json={"round_id": round_id, "bets": {"player": 100}},
            headers={"Idempotency-Key": uuid.uuid4().hex},
        )
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "reality_check_due"
    # The dialog leads to the history and back, then lets play go on.
    page.click("#reality-history")
    page.wait_for_selector("#history-dialog[open]")
    page.click("#history-dialog .btn--gold")
    page.click("#reality-continue")
    page.wait_for_selector("#reality-dialog:not([open])", state="attached")

    round_id = drive_to_open(table, served)
    table.chip(1000)
    table.bet("player")
    table.wait_stakes({"player": 1000})
    drive_to_result(served, round_id)
    table.wait_result()
    page.wait_for_function(
        "/You (win|lose|break)|Your stakes/.test(document.querySelector('.stage').textContent)"
    )

    page.click("#history-open")
    page.wait_for_selector("#history-dialog tbody tr")
    with api(page, served) as client:
        recall = client.get("/api/me/history").json()["rounds"]
    rows = page.eval_on_selector_all(
        "#history-dialog tbody tr",
        """rows => rows.map(r => ({round: Number(r.dataset.round),
            cells: Object.fromEntries([...r.querySelectorAll('td')].map(td => [td.dataset.col, td.textContent])),
            cards: r.querySelector('td[data-col="cards"]')?.dataset.cards ?? null}))""",
    )
    assert [row["round"] for row in rows] == [r["round_id"] for r in recall]
    first, shown = recall[0], rows[0]["cells"]
    assert shown["bets"] == f"Player {money(1000)}"
    # The cards are drawn as cards, split by hand; the cell keeps their codes in deal order.
    assert rows[0]["cards"] == " ".join(first["cards"])
    assert shown["before"] == money(first["balance_before"]) == money(5000)
    assert shown["after"] == money(first["balance_after"])
    assert shown["returns"] == f"Player {money(first['bets'][0]['returned'])}"
    assert shown["time"].endswith(" UTC") and shown["time"][:10] == first["time"][:10]
    # The CSV export is the server's own file, saved as it is.
    with page.expect_download() as download:
        page.click("#history-csv")
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    with api(page, served) as client:
        assert saved == client.get("/api/me/history.csv").text
    assert saved.splitlines()[1].startswith(f"{first['round_id']},standard,")
    assert console.unexpected() == []


def test_rules_page_shows_every_bet_with_its_edge(open_page: Opener, served: Served) -> None:
    page, console = open_page(f"{served.url}/#/rules/ez")
    page.wait_for_selector(".rules-bet")
    data: dict[str, Any] = httpx.get(f"{served.url}/api/rules/ez", timeout=30).json()
    shown = page.eval_on_selector_all(".rules-bet", "els => els.map(el => el.dataset.bet)")
    assert shown == [bet["name"] for bet in data["bets"]]
    for bet in data["bets"]:
        edge = page.inner_text(f".rules-bet[data-bet='{bet['name']}'] [data-fact='house-edge'] dd")
        assert edge == f"{bet['house_edge']['percent']} %"
        rows = page.eval_on_selector_all(
            f".rules-bet[data-bet='{bet['name']}'] tbody tr",
            "rows => rows.map(r => [r.querySelector('th').textContent, r.querySelector('td').textContent])",
        )
        assert rows == [[row["when"], row["odds"]] for row in bet["pays"]]
    grid = page.eval_on_selector_all(
        "[data-table='banker-drawing'] tbody tr",
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.dataset.action))",
    )
    assert grid == [
        [row["player_stood"], *[row["by_player_third"][str(v)] for v in range(10)]]
        for row in data["drawing"]["banker"]
    ]
    assert page.inner_text("[data-rule='rounding']") == data["rounding"]
    assert page.inner_text("[data-rule='interruption']") == data["interruption"]
    assert page.inner_text("[data-rule='fairness']") == data["fairness"]["scheme"]
    assert console.unexpected() == []


_UNNAMED = """root => [...root.querySelectorAll('button, input, select, a[href]')]
  .filter(el => el.offsetParent !== null)
  .filter(el => {
    const name = (el.getAttribute('aria-label') || (el.labels && [...el.labels].map(l => l.textContent).join(' ')) || el.textContent || '').trim();
    return !name;
  }).map(el => el.outerHTML.slice(0, 80))"""


def test_new_controls_are_named_and_work_from_the_keyboard(
    open_page: Opener, served: Served
) -> None:
    page, console = open_page(f"{served.url}/")
    page.wait_for_selector(".lobby-card")
    # Log in from the keyboard alone: Tab to the button, Enter, type, Enter.
    page.focus("#join")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "login"
    page.keyboard.press("Enter")
    page.wait_for_selector("#login-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "login-username"
    assert page.eval_on_selector("#login-dialog", _UNNAMED) == []
    name = f"k{uuid.uuid4().hex[:10]}"
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.click("#register-submit")  # registering is the second button; Enter logs in
    page.wait_for_selector("#notice:not([hidden])")

    page.goto(f"{served.url}/#/account")
    page.wait_for_selector("[data-row='wager-30d']")
    page.wait_for_selector("#break-state:not(:empty)")
    assert page.eval_on_selector("main", _UNNAMED) == []
    assert page.eval_on_selector(".topbar", _UNNAMED) == []
    labels = page.eval_on_selector_all(
        "[data-limit]", "els => els.map(el => el.getAttribute('aria-label'))"
    )
    assert len(labels) == 9 and len(set(labels)) == 9
    # A wager limit by keyboard: type in its field and press Enter.
    page.focus("[data-limit='wager-7d']")
    page.keyboard.type("20")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "document.querySelector(\"[data-row='wager-7d'] [data-col='limit']\").textContent === '$20.00'"
    )
    # Raising it waits: a pending increase whose Confirm is not usable yet.
    page.fill("[data-limit='wager-7d']", "30")
    page.press("[data-limit='wager-7d']", "Enter")
    page.wait_for_selector("[data-pending='wager-7d']")
    confirm = page.locator("[data-pending='wager-7d'] .btn--gold")
    assert confirm.get_attribute("aria-disabled") == "true"
    assert confirm.get_attribute("aria-label") == "Confirm the new wager limit, 7 days"
    # A break asks for a confirmation that says until when, and no break starts without it.
    page.select_option("#break-time_out", "0")
    page.click("[data-break='time_out']")
    text = page.inner_text("#break-confirm-text")
    assert text.startswith("A time-out of 24 hours: you will not be able to play until ")
    assert "cannot be shortened" in text
    assert page.evaluate("document.activeElement.id") == "break-confirm"
    page.click(".rg-confirm .btn--ghost")
    assert page.inner_text("#break-state") == "No break is running."
    page.click("#history-open")
    page.wait_for_selector("#history-dialog[open]")
    assert page.eval_on_selector("#history-dialog", _UNNAMED) == []
    page.keyboard.press("Escape")
    assert console.unexpected() == []


def test_a_time_out_taken_in_the_page_logs_out_and_refuses_the_next_login(
    open_page: Opener, served: Served
) -> None:
    page, console = open_page(f"{served.url}/")
    name = register(page)
    page.goto(f"{served.url}/#/account")
    page.wait_for_selector("#break-state:not(:empty)")
    page.select_option("#break-time_out", "1")  # 3 days
    page.click("[data-break='time_out']")
    page.click("#break-confirm")
    page.wait_for_function(
        "document.querySelector('#notice').textContent.startsWith('Your time-out has started')"
    )
    page.wait_for_selector("#login:not([hidden])")
    with httpx.Client(base_url=served.url, timeout=10) as client:
        login = client.post("/api/sessions", json={"username": name, "password": PASSWORD})
    assert login.status_code == 403 and login.json()["error"]["code"] == "time_out"
    # The break the server keeps ends where the page said, three days (and a little) from now.
    ends = page.inner_text("#notice").removeprefix("Your time-out has started. It ends at ")
    until = datetime.strptime(ends, "%Y-%m-%d %H:%M:%S UTC.").replace(tzinfo=UTC)
    now = datetime.fromtimestamp(served.clock_state()["now_ms"] / 1000, tz=UTC)
    assert timedelta(days=3) - timedelta(minutes=1) < until - now <= timedelta(days=3)
    # Logging in during it is refused in words.
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_function("document.querySelector('#login-message').textContent")
    # The page words the refusal itself, with the end the server's message names.
    end = re.search(r"until (\S+ \S+ UTC)", login.json()["error"]["message"])
    assert end, login.text
    assert page.inner_text("#login-message") == (
        f"You are on a break: a time-out runs until {end.group(1)}; bets and deposits are refused."
    )
    assert console.unexpected(s403=1) == []


def test_a_raised_limit_waits_24_hours_for_its_confirmation(
    open_page: Opener, served: Served
) -> None:
    page, console = open_page(f"{served.url}/")
    name = register(page)
    page.goto(f"{served.url}/#/account")
    page.wait_for_selector("[data-row='wager-24h']")
    assert (
        set_limit(page, "wager-24h", "20") == "Wager limit (24 hours): now $20.00 (was no limit)."
    )
    page.evaluate("document.querySelector('#limits-message').textContent = ''")
    raised = set_limit(page, "wager-24h", "30")
    assert raised.startswith(
        "Wager limit (24 hours): the change from $20.00 to $30.00 can be confirmed from "
    )
    assert page.inner_text("[data-row='wager-24h'] [data-col='limit']") == "$20.00"
    # Too early: the server refuses and the page says why; the limit stays.
    page.evaluate("document.querySelector('#limits-message').textContent = ''")
    early = page.locator("[data-pending='wager-24h'] .btn--gold")
    assert early.get_attribute("aria-disabled") == "true"
    early.click(force=True)  # marked unavailable, yet people can press it
    page.wait_for_function("document.querySelector('#limits-message').textContent")
    assert "24 hours" in page.inner_text("#limits-message")
    assert page.inner_text("[data-row='wager-24h'] [data-col='limit']") == "$20.00"
    served.advance(24 * 3_600_000 + 1_000)
    # A day later the login has expired (12 hours): log in again, then confirm. The page has
    # dropped the ended token once its scripts run (the button shows in the bare HTML first).
    page.reload()
    page.wait_for_function("localStorage.getItem('baccarat.session') === null")
    page.wait_for_selector("#login:not([hidden])")
    page.click("#login")
    page.fill("#login-username", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("[data-pending='wager-24h']")
    ready = page.locator("[data-pending='wager-24h'] .btn--gold")
    page.wait_for_function(
        "document.querySelector(\"[data-pending='wager-24h'] .btn--gold\")"
        "?.getAttribute('aria-disabled') === 'false'"
    )
    ready.click()
    page.wait_for_function(
        "document.querySelector(\"[data-row='wager-24h'] [data-col='limit']\").textContent"
        " === '$30.00'"
    )
    assert page.query_selector("[data-pending='wager-24h']") is None
    # The expired token is refused (401) by the few requests the reload makes before the page
    # learns it has expired; then the page stops using it.
    assert console.unexpected(s422=1, s401=8) == []


def test_account_and_rules_screenshots(open_page: Opener, served: Served) -> None:
    """``docs/screenshots/account-*.png`` and ``rules-desktop.png``; nothing wider than the screen."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    calm = {"reduced_motion": "reduce"}
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        page, console = open_page(f"{served.url}/", viewport=viewport, **calm)
        register(page)
        deposit(page, served, 200)
        set_limit(page, "loss-24h", "50")
        set_limit(page, "loss-24h", "80")  # a pending increase, shown with its Confirm
        page.wait_for_selector("[data-pending='loss-24h']")
        page.evaluate("window.scrollTo(0, 0)")
        no_sideways_scroll(page)
        page.screenshot(path=SCREENSHOTS / f"account-{name}.png")
        if name == "desktop":
            page.goto(f"{served.url}/#/rules/standard")
            page.wait_for_selector(".rules-bet")
            no_sideways_scroll(page)
            page.screenshot(path=SCREENSHOTS / "rules-desktop.png")
        assert console.unexpected() == []
