"""The table's comforts, in a real browser against a real server on a virtual clock.

- Every spot shows its own limits (the rule set's min_stake and max_stake), compactly, on its
  edge: in both languages, on a desktop and a phone, without covering the spot's name.
- The confirm step (off by default, remembered): chips are laid as pending and nothing is sent
  until Confirm; Clear drops them; a refusal is said as any refusal is and leaves them laid; the
  end of the betting window drops them with a notice.
- Sound is off by default and its module is not fetched; turned on it is remembered, and the
  page plays its synthesised sounds and speaks the result in the language shown
  (``AudioContext`` and ``speechSynthesis`` replaced by recorders).
- A win for the seated player is celebrated briefly (and nothing of it stays over the cards).
- The strip of tables switches tables in place (no reload, the old feed closed, the seat and
  balance kept) and scrolls in its own box on a 360-pixel phone.
- The last results and streaks: the pure function against known results and, with
  Hypothesis, against the big road of ``baccarat.roads`` (its columns are the streaks); the
  panel and the strip against the table's roads after rounds played.
- axe finds nothing serious or critical with chips pending and sound on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page, ViewportSize, WebSocket
from test_web_axe import AXE, ON_GRADIENT, SOLID
from web_support import (
    PHONE,
    VIRTUAL_WINDOW_S,
    WAIT_MS,
    Console,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    money,
    no_sideways_scroll,
    serve_web,
    wait_still,
)

from baccarat.roads.scoreboard import Scoreboard

pytest_plugins = ("web_support",)

DESKTOP: ViewportSize = {"width": 1440, "height": 900}
NARROW: ViewportSize = {"width": 360, "height": 740}
LOCALES = {"en": "en-US", "id": "id-ID"}
CREDIT = 150_000

#: Web Audio and speech replaced by recorders: every tone started is counted and every
#: utterance kept with its language.
FAKE_AUDIO = """
window.__sound = { tones: 0, contexts: 0, spoken: [] };
class FakeParam { setValueAtTime() { return this; } exponentialRampToValueAtTime() { return this; } }
class FakeNode {
  constructor() { this.frequency = new FakeParam(); this.gain = new FakeParam(); this.type = "sine"; }
  connect(node) { return node; }
  start() { window.__sound.tones += 1; }
  stop() {}
}
window.AudioContext = class {
  constructor() { window.__sound.contexts += 1; this.state = "running"; this.currentTime = 0;
    this.destination = new FakeNode(); }
  createOscillator() { return new FakeNode(); }
  createGain() { return new FakeNode(); }
  resume() { return Promise.resolve(); }
};
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  speak(utterance) { window.__sound.spoken.push({ text: utterance.text, lang: utterance.lang }); },
  cancel() {},
} });
"""

#: The result as spoken, by language and winner.
SPOKEN = {
    "en": {"banker": "Banker wins", "player": "Player wins", "tie": "Tie"},
    "id": {"banker": "Banker menang", "player": "Player menang", "tie": "Seri"},
}


@pytest.fixture(scope="module")
def comfort_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Three tables on a virtual clock, of this module's own (its rounds are its own)."""
    served = serve_web(
        tmp_path_factory.mktemp("web-comforts"),
        tables="standard,no-commission,ez",
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=600,
        demo_credit=CREDIT,
        virtual_clock=True,
    )
    yield served
    served.stop()


@pytest.fixture(scope="module")
def modules(browser: Browser, comfort_server: Served) -> Iterator[Page]:
    """A page on the served origin, for importing the page's own ES modules."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{comfort_server.url}/healthz")
    yield page
    context.close()


def seated(
    open_page: Opener,
    server: Served,
    *,
    lang: str = "en",
    viewport: ViewportSize = DESKTOP,
    table: str = "standard",
    before: Any = None,
) -> tuple[Page, Console, TablePage]:
    """A guest seated at ``table`` in ``lang``; ``before(page)`` runs before the page loads
    again for good (init scripts, listeners)."""
    page, console = open_page(f"{server.url}/", viewport=viewport, locale=LOCALES[lang])
    if before is not None:
        before(page)
        page.reload()
    page.wait_for_selector(".lobby-card")
    page.click("#join")
    page.wait_for_selector("#balance:not([hidden])")
    page.wait_for_function("document.getElementById('balance-amount').textContent.includes('$')")
    driver = TablePage(page)
    driver.open_table(table)
    return page, console, driver


def chip_label(minor: int, lang: str) -> str:
    """A chip's face as the test writes it (dollars: two decimals)."""
    major, cents = divmod(minor, 100)
    if cents:
        return f"{major}{'.' if lang == 'en' else ','}{cents:02d}"
    if major >= 1_000_000 and major % 1_000_000 == 0:
        return f"{major // 1_000_000}{'M' if lang == 'en' else 'jt'}"
    if major >= 1000 and major % 1000 == 0:
        return f"{major // 1000}{'K' if lang == 'en' else 'rb'}"
    return str(major)


# ---- 1: limits on each spot -------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "id"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_each_spot_shows_its_own_limits(
    open_page: Opener, comfort_server: Served, viewport: ViewportSize, lang: str
) -> None:
    page, console = open_page(
        f"{comfort_server.url}/#/tables/ez", viewport=viewport, locale=LOCALES[lang]
    )
    page.wait_for_selector(".bets .spot .spot__limits")
    offered = comfort_server.get("/api/tables/ez")["bets"]
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.bets .spot')].map((spot) => {
             const plaque = spot.querySelector('.spot__limits');
             const p = plaque.getBoundingClientRect(), s = spot.getBoundingClientRect();
             const name = spot.querySelector('.spot__name').getBoundingClientRect();
             return { bet: spot.dataset.bet, text: getComputedStyle(plaque, '::before').content,
               inside: p.left >= s.left && p.right <= s.right && p.top >= s.top - p.height,
               clear: p.bottom <= name.top + 1, size: parseFloat(getComputedStyle(plaque).fontSize),
               label: spot.getAttribute('aria-label') };
           })"""
    )
    assert sorted(spot["bet"] for spot in shown) == sorted(offered)
    for spot in shown:
        rule = offered[spot["bet"]]
        low, high = chip_label(rule["min_stake"], lang), chip_label(rule["max_stake"], lang)
        assert spot["text"] == f'"{low} – {high}"', spot
        # On its edge, within the spot, over nothing of its name; readable on a phone.
        assert spot["inside"] and spot["clear"] and spot["size"] >= 9.5, spot
        if lang == "en":
            assert (
                f"Limits {money(rule['min_stake'])} to {money(rule['max_stake'])}" in spot["label"]
            )
    no_sideways_scroll(page)
    assert console.unexpected() == []


# ---- 2: the confirm step ----------------------------------------------------------------------


def pending(page: Page) -> dict[str, int]:
    found = page.eval_on_selector_all(
        ".spot [data-pending]",
        "els => els.map(el => [el.closest('.spot').dataset.bet, Number(el.dataset.pending)])",
    )
    return {str(spot): int(amount) for spot, amount in found}


def test_the_confirm_step_sends_nothing_before_confirm(
    open_page: Opener, comfort_server: Served
) -> None:
    sent: list[str] = []

    def listen(page: Page) -> None:
        # What changes bets (the page also reads its own with GET).
        page.on(
            "request",
            lambda r: sent.append(r.method) if "/bets" in r.url and r.method != "GET" else None,
        )

    page, console, table = seated(open_page, comfort_server, before=listen)
    toggle = '[data-toggle="confirm"]'
    # Off unless chosen; the choice is kept on this device.
    assert page.get_attribute(toggle, "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('baccarat.confirm_bets')") is None
    page.click(toggle)
    page.reload()
    page.wait_for_selector(".bets .spot")
    assert page.get_attribute(toggle, "aria-pressed") == "true"

    start = table.balance()
    drive_to_open(table, comfort_server, later=False)
    table.chip(100)
    table.bet("banker")
    table.bet("banker")
    table.chip(500)
    table.bet("player")
    page.wait_for_function(
        "() => document.querySelectorAll('.spot [data-pending]').length === 2"
        " && document.querySelector('.spot[data-bet=banker] [data-pending]').dataset.pending === '200'"
    )
    assert pending(page) == {"banker": 200, "player": 500}
    # Drawn as pending (dashed), with its total on Confirm in the actions' place; nothing sent.
    assert (
        page.evaluate(
            "getComputedStyle(document.querySelector('.spot[data-bet=banker]')).borderTopStyle"
        )
        == "dashed"
    )
    assert page.inner_text('[data-pending="confirm"]') == f"Confirm {money(700)}"
    assert page.is_hidden(".rack__actions")
    assert sent == [] and table.stakes() == {} and table.balance() == start

    page.click('[data-pending="confirm"]')
    table.wait_stakes({"banker": 200, "player": 500})
    table.wait_balance(start - 700)
    page.wait_for_selector(".spot [data-pending]", state="detached")
    assert sent == ["POST"]
    assert page.is_hidden(".rack__pending") and page.is_visible(".rack__actions")

    # A chip laid on a stake lies across it; Clear takes it off, and nothing is sent.
    table.chip(100)
    table.bet("banker")
    page.wait_for_selector('.spot[data-bet="banker"] .spot__laid[data-pending="100"]')
    page.click('[data-pending="clear"]')
    page.wait_for_selector(".spot [data-pending]", state="detached")
    assert sent == ["POST"] and table.stakes() == {"banker": 200, "player": 500}

    # Over a spot's limit: refused on Confirm and said as every refusal is; the chips stay laid.
    offered = comfort_server.get("/api/tables/standard")["bets"]
    spot = min(offered, key=lambda name: offered[name]["max_stake"])
    ceiling = offered[spot]["max_stake"]
    chip = 10_000
    clicks = ceiling // chip + 1
    assert clicks * chip <= start - 700, "the refusal must be the limit, not the balance"
    table.chip(chip)
    for _ in range(clicks):
        table.bet(spot)
    page.wait_for_function(
        "([spot, amount]) => document.querySelector(`.spot[data-bet=${spot}] [data-pending]`)"
        "?.dataset.pending === String(amount)",
        arg=[spot, clicks * chip],
    )
    table.clear_message()
    page.click('[data-pending="confirm"]')
    said = table.message()
    assert "Limit exceeded" in said and money(ceiling) in said, said
    assert pending(page) == {spot: clicks * chip}
    assert sent == ["POST", "POST"] and table.stakes() == {"banker": 200, "player": 500}

    # The window closes: the laid chips are dropped, said, and never sent.
    table.clear_message()
    comfort_server.close_bets("standard")
    page.wait_for_selector(".spot [data-pending]", state="detached")
    assert table.message() == "Betting closed: your chips not yet confirmed were not sent."
    assert sent == ["POST", "POST"]
    assert console.unexpected(s422=1) == []


# ---- 3: sound ---------------------------------------------------------------------------------


def sound_fetched(page: Page) -> bool:
    fetched: bool = page.evaluate(
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/js/sound.js'))"
    )
    return fetched


@pytest.mark.parametrize("lang", ["en", "id"])
def test_sound_is_off_until_chosen_and_speaks_the_result(
    open_page: Opener, comfort_server: Served, lang: str
) -> None:
    page, console, table = seated(
        open_page, comfort_server, lang=lang, before=lambda p: p.add_init_script(FAKE_AUDIO)
    )
    button = '[data-toggle="sound"]'
    assert page.get_attribute(button, "aria-pressed") == "false"
    assert page.get_attribute(button, "aria-label") == {"en": "Sound", "id": "Suara"}[lang]
    assert page.evaluate("localStorage.getItem('baccarat.sound')") is None
    # Muted by default: its module is not even fetched.
    assert not sound_fetched(page)

    page.click(button)
    page.wait_for_function(
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/js/sound.js'))"
    )
    page.reload()
    page.wait_for_selector(".bets .spot")
    assert page.get_attribute(button, "aria-pressed") == "true"
    page.wait_for_function(
        "performance.getEntriesByType('resource').some((e) => e.name.endsWith('/js/sound.js'))"
    )

    round_id = drive_to_open(table, comfort_server, later=False)
    table.chip(100)
    table.bet("banker")
    table.wait_stakes({"banker": 100})
    page.wait_for_function("window.__sound.tones >= 2")  # the chip's two clicks
    # Results of rounds before this one may have been spoken already (the clock passed them).
    before = page.evaluate("window.__sound.spoken.length")
    view = drive_to_result(comfort_server, round_id)
    page.wait_for_function("n => window.__sound.spoken.length > n", arg=before)
    spoken = page.evaluate("window.__sound.spoken")
    winner = view["result"]["winner"]
    assert spoken[before:] == [{"text": SPOKEN[lang][winner], "lang": LOCALES[lang]}]
    assert all(said["lang"] == LOCALES[lang] for said in spoken)
    assert page.evaluate("window.__sound.contexts") == 1

    # Off again, and remembered so.
    page.click(button)
    page.reload()
    page.wait_for_selector(".bets .spot")
    assert page.get_attribute(button, "aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('baccarat.sound')") == "off"
    assert console.unexpected() == []


# ---- 4: a win's celebration -------------------------------------------------------------------


def test_a_win_is_celebrated_briefly(open_page: Opener, comfort_server: Served) -> None:
    page, console, table = seated(open_page, comfort_server)
    for attempt in range(20):
        round_id = drive_to_open(table, comfort_server, later=attempt > 0)
        table.chip(2500)
        table.bet("banker")
        table.wait_stakes({"banker": 2500})
        drive_to_result(comfort_server, round_id)
        page.wait_for_selector(".result__line[data-tone]")
        tone = page.get_attribute(".result__line", "data-tone")
        bits = page.locator(".result .celebration .celebration__bit").count()
        if tone != "win":
            assert bits == 0, tone
            continue
        assert bits == 12
        # Still when motion is reduced: no bit flies.
        page.emulate_media(reduced_motion="reduce")
        assert page.evaluate(
            "[...document.querySelectorAll('.celebration__bit')]"
            ".every((bit) => getComputedStyle(bit).display === 'none')"
        )
        page.emulate_media(reduced_motion="no-preference")
        # Over in a moment: once the bits have flown, none is left to see.
        wait_still(page)
        assert page.evaluate(
            "[...document.querySelectorAll('.celebration__bit')]"
            ".every((bit) => getComputedStyle(bit).opacity === '0')"
        )
        break
    else:
        raise AssertionError("no Banker win in 20 rounds")
    assert console.unexpected() == []


# ---- 5: the strip of tables -------------------------------------------------------------------


def test_the_strip_switches_tables_in_place(open_page: Opener, comfort_server: Served) -> None:
    sockets: list[WebSocket] = []
    page, console, table = seated(
        open_page, comfort_server, before=lambda p: p.on("websocket", lambda ws: sockets.append(ws))
    )
    page.wait_for_selector('.strip__item[data-table="ez"] .strip__name:not(:empty)')
    listed = comfort_server.get("/api/tables")
    items = page.eval_on_selector_all(
        ".strip__item",
        """els => els.map((el) => ({ id: el.dataset.table,
             current: el.querySelector('a').getAttribute('aria-current'),
             phase: el.querySelector('.strip__phase').dataset.phase }))""",
    )
    assert [item["id"] for item in items] == [view["id"] for view in listed]
    assert [item["current"] for item in items] == ["page", None, None]
    assert all(item["phase"] in ("open", "closed", "dealt", "settled", "voided") for item in items)

    balance = table.balance()
    page.evaluate("window.__stayed = 'here'")
    page.click('.strip__item[data-table="no-commission"] a')
    page.wait_for_function("location.hash === '#/tables/no-commission'")
    page.wait_for_selector('.strip__item[data-table="no-commission"] a[aria-current="page"]')
    round_id = comfort_server.get("/api/tables/no-commission")["round"]["id"]
    page.wait_for_function(
        "id => Number(document.querySelector('.stage__round').dataset.round) === id", arg=round_id
    )
    # No reload; the old table's feed closed, the new one's open; the seat and balance kept.
    assert page.evaluate("window.__stayed") == "here"
    deadline = time.monotonic() + WAIT_MS / 1000
    old = [ws for ws in sockets if "/ws/tables/standard" in ws.url]
    while old and not all(ws.is_closed() for ws in old) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    assert old and all(ws.is_closed() for ws in old)
    assert any("/ws/tables/no-commission" in ws.url and not ws.is_closed() for ws in sockets)
    assert page.is_visible("#balance") and page.is_hidden("#join")
    assert table.balance() == balance
    assert console.unexpected() == []


@pytest.mark.parametrize("lang", ["en", "id"])
def test_the_strip_scrolls_in_its_own_box_on_a_narrow_phone(
    open_page: Opener, comfort_server: Served, lang: str
) -> None:
    page, console = open_page(
        f"{comfort_server.url}/#/tables/standard", viewport=NARROW, locale=LOCALES[lang]
    )
    page.wait_for_selector('.strip__item[data-table="ez"] .strip__name:not(:empty)')
    box = page.evaluate(
        """(() => { const list = document.querySelector('.strip__list');
             return { client: list.clientWidth, scroll: list.scrollWidth,
               overflow: getComputedStyle(list).overflowX,
               right: list.getBoundingClientRect().right }; })()"""
    )
    assert box["scroll"] > box["client"] and box["overflow"] == "auto", box
    assert box["right"] <= NARROW["width"], box
    no_sideways_scroll(page)
    page.evaluate("document.querySelector('.strip__list').scrollLeft = 100000")
    no_sideways_scroll(page)
    assert console.unexpected() == []


# ---- 6: the last results and streaks ----------------------------------------------------------

EMPTY = {"B": 0, "P": 0}


@pytest.mark.parametrize(
    ("results", "n", "expected"),
    [
        (
            "",
            20,
            {"last": [], "current": None, "longest": EMPTY, "counts": {"B": 0, "P": 0, "T": 0}},
        ),
        (
            "TT",
            20,
            {
                "last": ["T", "T"],
                "current": None,
                "longest": EMPTY,
                "counts": {"B": 0, "P": 0, "T": 2},
            },
        ),
        (
            "BBTBPP",
            4,
            {
                "last": ["T", "B", "P", "P"],
                "current": {"side": "P", "length": 2},
                "longest": {"B": 3, "P": 2},
                "counts": {"B": 1, "P": 2, "T": 1},
            },
        ),
        (
            "PPPPBBBBBTT",
            20,
            {
                "last": list("PPPPBBBBBTT"),
                "current": {"side": "B", "length": 5},
                "longest": {"B": 5, "P": 4},
                "counts": {"B": 5, "P": 4, "T": 2},
            },
        ),
        (
            "B" * 25,
            20,
            {
                "last": ["B"] * 20,
                "current": {"side": "B", "length": 25},
                "longest": {"B": 25, "P": 0},
                "counts": {"B": 20, "P": 0, "T": 0},
            },
        ),
    ],
    ids=["empty", "ties only", "a tie inside a streak", "the latest streak", "past 20"],
)
def test_streaks_of_known_results(
    modules: Page, results: str, n: int, expected: dict[str, Any]
) -> None:
    found = modules.evaluate(
        """async ([results, n]) => (await import('/static/js/scoreboard.js')).streaks(results, n)""",
        [list(results), n],
    )
    assert found == expected


def reference(results: list[str], n: int) -> dict[str, Any]:
    """The same numbers from the core: the big road's columns are the streaks (ties marked on
    the cell before)."""
    columns = Scoreboard.from_tokens(" ".join(results)).big_road_columns() if results else []
    longest = {side: max((len(c) for c in columns if c[0] == side), default=0) for side in "BP"}
    last = results[-n:] if n else []
    return {
        "last": last,
        "current": {"side": columns[-1][0], "length": len(columns[-1])} if columns else None,
        "longest": longest,
        "counts": {side: last.count(side) for side in "BPT"},
    }


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from("BPT"), max_size=90), st.integers(1, 30))
def test_streaks_agree_with_the_big_road(modules: Page, results: list[str], n: int) -> None:
    found = modules.evaluate(
        """async ([results, n]) => (await import('/static/js/scoreboard.js')).streaks(results, n)""",
        [results, n],
    )
    assert found == reference(results, n)


def test_the_panel_and_the_strip_show_the_shoes_history(
    open_page: Opener, comfort_server: Served
) -> None:
    comfort_server.play_rounds(6, "ez")
    page, console = open_page(f"{comfort_server.url}/#/tables/ez", viewport=PHONE)
    page.wait_for_selector(".recent__dots[data-results]")
    roads = comfort_server.get("/api/tables/ez")["roads"]
    results = [cell["outcome"] for cell in roads["bead_plate"]["cells"]]
    assert len(results) >= 3
    expected = reference(results, 20)
    page.wait_for_function(
        "want => document.querySelector('.recent__dots').dataset.results === want",
        arg="".join(expected["last"]),
    )
    facts = page.eval_on_selector_all(
        ".recent__fact",
        "els => Object.fromEntries(els.map((el) => [el.dataset.fact, el.querySelector('dd').textContent]))",
    )
    names = {"B": "Banker", "P": "Player"}
    current = expected["current"]
    assert facts["current"] == (
        f"{names[current['side']]} ×{current['length']}" if current else "–"
    )
    longest = expected["longest"]
    assert facts["longest"] == f"Banker {longest['B']} · Player {longest['P']}"
    counts = expected["counts"]
    assert facts["counts"] == f"Banker {counts['B']} · Player {counts['P']} · Tie {counts['T']}"
    # Worded as history: the panel says it covers the last rounds, and the roads' note stays.
    assert "In the last 20 rounds" in page.inner_text(".recent__facts")
    assert "predict nothing" in page.inner_text(".roads__note")
    # The strip's dot is the same last result.
    page.wait_for_function(
        "want => document.querySelector('.strip__item[data-table=ez] .strip__dot')"
        ".classList.contains(`strip__dot--${want}`)",
        arg=results[-1],
    )
    assert console.unexpected() == []


# ---- 7: accessibility -------------------------------------------------------------------------


def axe_serious(page: Page) -> list[str]:
    """axe's serious and critical findings on the page as it is (gradients painted as their
    worst stop first, as test_web_axe does; contrast on them is not judged here)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        f"""async () => {{
             await new Promise(requestAnimationFrame);
             const undo = ({SOLID})();
             const onGradient = {ON_GRADIENT};
             try {{
               const result = await axe.run(document, {{ resultTypes: ["violations"] }});
               return result.violations.flatMap((v) => v.nodes
                 .filter((n) => !(v.id === "color-contrast" && onGradient(document.querySelector(n.target[0]))))
                 .filter(() => v.impact === "serious" || v.impact === "critical")
                 .map((n) => `${{v.id}}: ${{n.target.join(" ")}}`));
             }} finally {{ undo(); }}
           }}"""
    )
    return found


@pytest.mark.parametrize("lang", ["en", "id"])
def test_no_serious_axe_finding_with_chips_pending_and_sound_on(
    open_page: Opener, comfort_server: Served, lang: str
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")

    def prepare(page: Page) -> None:
        page.add_init_script(FAKE_AUDIO)
        page.evaluate(
            "localStorage.setItem('baccarat.confirm_bets', 'on');"
            " localStorage.setItem('baccarat.sound', 'on')"
        )

    page, console, table = seated(open_page, comfort_server, lang=lang, before=prepare)
    drive_to_open(table, comfort_server, later=False)
    table.chip(500)
    table.bet("tie")
    table.bet("player")
    page.wait_for_selector('.spot[data-bet="player"] [data-pending]')
    page.wait_for_selector(".recent__box")
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        wait_still(page)
        assert axe_serious(page) == [], viewport
    assert console.unexpected() == []
