"""An Indonesian house as its players and its shift manager use it, in Chromium against a real
``baccarat serve --locale id`` on a virtual clock: rupiah tables out of the box.

In English and in Bahasa Indonesia, on a desktop with a mouse and on a phone with a touch
screen, a guest plays a full round at the face-down rupiah table: sound turned on, chips of
Rp 100.000 and Rp 50.000 on Player and Banker, the Player's and the Banker's first cards
squeezed by dragging their corner (mouse) or their side (touch), the others turned at their
deadline, and the balance after the result exactly what ``settle`` pays on the round's cards;
the result is spoken in the page's language; the table strip switches to another table in
place. axe finds nothing serious at any step.

Every screen, player's and back office's, then opens at 360 px wide with nothing wider than the
screen, and is photographed in Indonesian for ``docs/screenshots`` (the desktop and the phone).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize
from playwright.sync_api import Error as PlaywrightError
from serving import create_staff
from web_support import (
    PHONE,
    STAFF_PASSWORD,
    VIRTUAL_WINDOW_S,
    Console,
    Served,
    TablePage,
    axe_serious,
    drive_to_open,
    serve_web,
    wait_still,
)

from baccarat.rulesets import load_ruleset
from baccarat.settle import settle

pytest_plugins = ("web_support",)

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
DESKTOP: ViewportSize = {"width": 1440, "height": 900}
NARROW: ViewportSize = {"width": 360, "height": 740}
TABLE = "standard-idr"
CREDIT = 100_000_000  # the rupiah house's demo credit, Rp 100.000.000
STAKES = {"player": 200_000, "banker": 50_000}

#: Web Audio and speech replaced by recorders (the page's sound module plays into them).
FAKE_AUDIO = """
window.__sound = { tones: 0, spoken: [] };
class FakeParam { setValueAtTime() { return this; } exponentialRampToValueAtTime() { return this; }
  linearRampToValueAtTime() { return this; } }
class FakeNode {
  constructor() { this.frequency = new FakeParam(); this.gain = new FakeParam(); this.type = "sine"; }
  connect(node) { return node; }
  start() { window.__sound.tones += 1; }
  stop() {}
}
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = new FakeNode(); }
  createOscillator() { return new FakeNode(); }
  createGain() { return new FakeNode(); }
  resume() { return Promise.resolve(); }
};
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak(utterance) { window.__sound.spoken.push({ text: utterance.text, lang: utterance.lang }); },
  cancel() {},
} });
window.__loaded = (window.__loaded ?? 0) + 1;
"""

SPOKEN = {
    "en": {"banker": "Banker wins", "player": "Player wins", "tie": "Tie"},
    "id": {"banker": "Banker menang", "player": "Player menang", "tie": "Seri"},
}


@pytest.fixture(scope="module")
def house(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """An Indonesian house: its own tables by default (the rupiah ones), the squeeze table face
    down, and a shift manager."""
    served = serve_web(
        tmp_path_factory.mktemp("web-indonesian-first"),
        tables=f"{TABLE}:face-down,no-commission-idr,ez-idr",
        options=["--locale", "id", "--squeeze-seconds", "20"],
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=250,
        result_ms=600,
        demo_credit=CREDIT,
        virtual_clock=True,
    )
    create_staff(served.db_url, "sari", "admin", STAFF_PASSWORD)
    yield served
    served.stop()


@pytest.fixture
def browser_contexts(browser: Browser) -> Iterator[Browser]:
    """The browser, every context a test opened in it closed after the test."""
    before = set(browser.contexts)
    yield browser
    for context in set(browser.contexts) - before:
        context.close()


def new_page(
    browser: Browser, url: str, viewport: ViewportSize, **options: Any
) -> tuple[Page, Console]:
    context = browser.new_context(viewport=viewport, locale="en-US", bypass_csp=True, **options)
    context.set_default_timeout(30_000)
    context.add_init_script(FAKE_AUDIO)
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    page.goto(url)
    return page, console


def rupiah(language: str, amount: int) -> str:
    whole = f"{amount:,}"
    return f"Rp\u00a0{whole.replace(',', '.') if language == 'id' else whole}"


def card(hand: str, position: int) -> str:
    return f'.hand--{hand} .card[data-position="{position}"]'


def to_squeeze(server: Served, hand: str, position: int) -> dict[str, Any]:
    def squeezing() -> dict[str, Any] | None:
        squeeze: dict[str, Any] | None = server.get(f"/api/tables/{TABLE}")["squeeze"]
        if squeeze and (squeeze["hand"], squeeze["position"]) == (hand, position):
            return squeeze
        return None

    return server.advance_until(squeezing, f"the squeeze of {hand} {position}")


def shown_cards(server: Served) -> int:
    return len(server.get(f"/api/tables/{TABLE}")["cards"])


def peel_by_mouse(page: Page, hand: str, position: int) -> None:
    """Drag the card's bottom-right corner up and in, past the point where it turns."""
    mine = page.wait_for_selector(f"{card(hand, position)}.card--mine")
    assert mine is not None
    wait_still(page)  # measured where it lies, not while it is dealt in
    box = mine.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] * 0.92, box["y"] + box["height"] * 0.93
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - box["height"] * 0.5, y - box["height"] * 0.5, steps=10)
    page.mouse.up()


def peel_by_touch(page: Page, hand: str, position: int) -> None:
    """Slide a finger up from the card's bottom side, as a player lifts a card's edge."""
    mine = page.wait_for_selector(f"{card(hand, position)}.card--mine")
    assert mine is not None
    assert mine.evaluate("el => getComputedStyle(el).touchAction") == "none"
    wait_still(page)
    box = mine.bounding_box()
    assert box is not None
    cdp = page.context.new_cdp_session(page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.95
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 10):
        point = {"x": x, "y": y - box["height"] * 0.08 * step}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.mark.parametrize("language", ["en", "id"])
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_a_full_round_at_a_rupiah_table_with_a_squeeze_a_switch_and_sound(
    browser_contexts: Browser, house: Served, language: str, device: str
) -> None:
    browser = browser_contexts
    phone = device == "phone"
    page, console = new_page(
        browser,
        f"{house.url}/",
        PHONE if phone else DESKTOP,
        has_touch=phone,
        is_mobile=phone,
    )
    # The house's language before the browser's (en-US): the page opens in Indonesian.
    page.wait_for_selector(".lobby-card")
    assert page.evaluate("document.documentElement.lang") == "id"
    if language == "en":
        page.click('[data-lang="en"]')
        page.wait_for_selector('html[lang="en"]', state="attached")
    page.click("#join")
    page.wait_for_selector("#balance:not([hidden])")
    page.wait_for_function(
        "text => document.getElementById('balance-amount').textContent === text",
        arg=rupiah(language, CREDIT),
    )
    table = TablePage(page)
    table.open_table(TABLE)
    assert axe_serious(page) == []
    # Each action's words fit inside its button, inside the rack (a 390 px phone had "Gandak").
    cut = page.evaluate(
        """() => { const rack = document.querySelector('.rack').getBoundingClientRect();
             return [...document.querySelectorAll('.rack__actions .btn')].filter((b) => {
               const r = b.getBoundingClientRect(), words = b.querySelector('.btn__text');
               return words.scrollWidth > words.clientWidth + 1 || r.right > rack.right + 1;
             }).map((b) => b.dataset.action); }"""
    )
    assert cut == []

    # Sound on: muted until chosen, remembered.
    sound = page.locator('[data-toggle="sound"]')
    assert sound.get_attribute("aria-pressed") == "false"
    sound.click()
    page.wait_for_function(
        "() => document.querySelector('[data-toggle=\"sound\"]').getAttribute('aria-pressed') === 'true'"
    )

    # Chips of 100rb and 50rb: Rp 200.000 on Player, Rp 50.000 on Banker.
    round_id = drive_to_open(table, house, TABLE, later=False)
    chip_labels = page.locator(".chip-rack__option .chip__value").all_inner_texts()
    assert chip_labels == (
        ["10rb", "50rb", "100rb", "500rb", "1jt", "5jt"]
        if language == "id"
        else ["10K", "50K", "100K", "500K", "1M", "5M"]
    )
    table.chip(100_000)
    table.bet("player")
    table.wait_stakes({"player": 100_000})
    table.bet("player")
    table.chip(50_000)
    table.bet("banker")
    table.wait_stakes(STAKES)
    page.wait_for_function(
        "text => document.getElementById('balance-amount').textContent === text",
        arg=rupiah(language, CREDIT - sum(STAKES.values())),
    )
    if device == "desktop" and language == "id":
        wait_still(page)
        shot(page, "idr-table-betting-desktop")

    # The squeeze: the only player has the largest stake on both hands.
    peel = peel_by_touch if phone else peel_by_mouse
    for hand in ("player", "banker"):
        squeeze = to_squeeze(house, hand, 0)
        assert "card" not in squeeze and squeeze["squeezer"]
        page.wait_for_selector(f"{card(hand, 0)}.card--mine")
        before = shown_cards(house)
        assert page.query_selector(f"{card(hand, 0)}.card--revealed") is None
        if device == "desktop" and language == "id" and hand == "player":
            shot(page, "idr-table-squeeze-desktop")
        peel(page, hand, 0)
        page.wait_for_selector(f"{card(hand, 0)}.card--revealed")
        assert shown_cards(house) == before + 1  # turned by the player: the clock stood still
    assert axe_serious(page) == []

    # The other cards turn themselves at their deadline; the result, and the money exact.
    def settled() -> dict[str, Any] | None:
        view: dict[str, Any] = house.get(f"/api/tables/{TABLE}")
        state = view["round"]
        return view if state and state["id"] == round_id and view["result"] else None

    house.advance_until(settled, f"the result of round {round_id}")
    coup = table.wait_result()
    record = house.get(f"/api/rounds/{round_id}")
    assert (record["winner"], record["player_total"], record["banker_total"]) == (
        coup.winner.value,
        coup.player_total,
        coup.banker_total,
    )
    returned = settle(STAKES, coup, load_ruleset(TABLE)).returned
    expected = CREDIT - sum(STAKES.values()) + returned
    page.wait_for_function(
        "text => document.getElementById('balance-amount').textContent === text",
        arg=rupiah(language, expected),
    )
    winner = coup.winner.value
    page.wait_for_function("() => window.__sound.spoken.length > 0")
    spoken = page.evaluate("window.__sound.spoken")
    assert spoken[-1]["lang"] == ("id-ID" if language == "id" else "en-US")
    assert SPOKEN[language][winner] in spoken[-1]["text"]
    assert page.evaluate("localStorage.getItem('baccarat.sound')") == "on"
    assert axe_serious(page) == []
    if language == "id":
        wait_still(page)
        shot(page, f"idr-table-result-{device}")

    # Another table from the strip, in place: no reload, the seat and the balance kept.
    page.click('.strip__item[data-table="ez-idr"] .strip__link')
    page.wait_for_selector('.spot[data-bet="dragon_7"]')
    assert page.evaluate("window.__loaded") == 1
    assert page.url.endswith("#/tables/ez-idr")
    assert page.inner_text("#balance-amount") == rupiah(language, expected)
    assert axe_serious(page) == []
    assert console.unexpected() == []


#: Every screen: its address, what shows once it is drawn, and whether staff must log in first.
SCREENS = [
    ("lobby", "/#/", ".lobby-card", False),
    ("table", f"/#/tables/{TABLE}", ".bets .spot", False),
    ("account", "/#/account", ".account-title", False),
    ("rules", f"/#/rules/{TABLE}", ".rules-body:not([aria-busy='true']) table", False),
    ("admin-tables", "/admin#/tables", "#main table", True),
    ("admin-monitor", f"/admin#/monitor/{TABLE}", ".admin-monitor:not([hidden])", True),
    ("admin-shifts", "/admin#/shifts", "[data-act='open-shift'], [data-act='hand-over']", True),
    ("admin-rounds", "/admin#/rounds", "#main table", True),
    ("admin-players", "/admin#/players", "#main input[name=q]", True),
    ("admin-shoes", "/admin#/shoes", "#main table", True),
    ("admin-audit", "/admin#/audit", "#main table", True),
    ("admin-reports", "/admin#/reports", "#main table", True),
    ("admin-integrity", "/admin#/integrity", "#main h1, #main h2", True),
    ("admin-staff", "/admin#/staff", "#main table", True),
]

#: Elements wider than the screen (a box that scrolls sideways inside itself is allowed to
#: hold wider things: the strip, the roads, a wide table in its box).
WIDER = """() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => { for (let p = el.parentElement; p; p = p.parentElement) {
      const x = getComputedStyle(p).overflowX; if (x === 'auto' || x === 'scroll' || x === 'hidden') return true; }
    return false; };
  return [...document.querySelectorAll('body *')].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.width > width + 1 || r.right > width + 1 || r.left < -1) && !scrolls(el);
  }).map((el) => `${el.tagName.toLowerCase()}.${el.className}`).slice(0, 10);
}"""


def log_in_staff(page: Page) -> None:
    page.wait_for_selector(".admin-login")
    page.fill("input[name=username]", "sari")
    page.fill("input[name=password]", STAFF_PASSWORD)
    page.click(".admin-login button[type=submit]")
    page.wait_for_selector("#staff-user:not([hidden])")


@pytest.mark.parametrize("language", ["en", "id"])
def test_every_screen_fits_360_pixels_and_is_photographed(
    browser_contexts: Browser, house: Served, language: str
) -> None:
    """Nothing wider than a 360 px screen on any screen, in either language, and no serious
    axe finding; the Indonesian screens photographed at 360 px and on a desktop."""
    for viewport, size in ((NARROW, "phone"), (DESKTOP, "desktop")):
        if size == "desktop" and language == "en":
            continue
        page, console = new_page(browser_contexts, f"{house.url}/", viewport)
        page.wait_for_selector(".lobby-card")
        if language == "en":
            page.click('[data-lang="en"]')
            page.wait_for_selector('html[lang="en"]', state="attached")
        page.click("#join")
        page.wait_for_selector("#balance:not([hidden])")
        logged_in = False
        for name, path, ready, staff in SCREENS:
            page.goto(f"{house.url}{path}")
            if staff and not logged_in:
                log_in_staff(page)
                logged_in = True
                page.goto(f"{house.url}{path}")
            if staff and page.evaluate("document.documentElement.lang") != language:
                page.click(f'[data-lang="{language}"]')
                page.wait_for_selector(f'html[lang="{language}"]', state="attached")
            try:
                page.wait_for_selector(ready)
            except PlaywrightError as error:
                raise AssertionError(f"{name} ({language}, {size}) never showed {ready}") from error
            wait_still(page)
            if size == "phone":
                assert page.evaluate(WIDER) == [], (language, name)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"], (language, name, width)
            assert axe_serious(page) == [], (language, name)
            if language == "id":
                shot(page, f"idr-{name}-{size}")
        assert console.unexpected() == []


def test_the_rupiah_is_written_without_sen_on_every_screen(
    browser_contexts: Browser, house: Served
) -> None:
    """The lobby, the table's limits and a rules page write whole rupiah: never ",00"/".00"."""
    page, console = new_page(browser_contexts, f"{house.url}/#/rules/{TABLE}", DESKTOP)
    page.wait_for_selector(".rules-body:not([aria-busy='true']) table")
    text = page.inner_text("body")
    assert "Rp\u00a050.000.000" in text
    assert not re.search(r"Rp\u00a0[\d.]+,\d\d\b", text)
    page.goto(f"{house.url}/#/")
    page.wait_for_selector(".lobby-card")
    lobby = page.inner_text("main")
    assert "Rp\u00a010.000" in lobby and not re.search(r"Rp\u00a0[\d.]+,\d\d\b", lobby)
    assert console.unexpected() == []
    # The API counts whole rupiah too: a bet of Rp 10.000 is 10000.
    token = httpx.post(f"{house.url}/api/players").json()["token"]
    round_id = house.open_round("ez-idr")["round"]["id"]
    placed = httpx.post(
        f"{house.url}/api/tables/ez-idr/bets",
        json={"round_id": round_id, "bets": {"player": 9_999}},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
    )
    assert placed.status_code == 422 and placed.json()["error"]["code"] == "below_minimum"
