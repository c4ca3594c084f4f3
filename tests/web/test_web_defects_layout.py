"""Layout defects a user reported, each checked in Chromium against a real server.

- The result banner's words fit its box at 1440×900 for every winner, in both languages
  (Indonesian "PLAYER MENANG" ran out of it).
- The roads' ask buttons ("B ask", "Tanya B") keep their words on one line.
- On a phone, the account's limits name their figures ("Now", "Used") in the page's language:
  the words come from the catalogue, not from the style sheet.
- A refusal shown in the back office is said again in the language switched to (or cleared),
  never left in the other one.
- At a rupiah table (stakes of Rp 10.000 to Rp 1.000.000), stakes on the side spots fit the
  spots: the side row keeps its height and the main spots do not move while bets go down.
- The phone's top bar (390 and 360 px wide) shows every button's words whole, in both
  languages, and nothing is wider than the screen.
- The back office on a phone: no section scrolls the page sideways, every control is on the
  screen, nothing in a player's facts overlaps, and the player's session is labelled fields.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize
from web_support import (
    STAFF_PASSWORD,
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    no_sideways_scroll,
    serve_web,
    staffed_server,
    wait_still,
)

pytest_plugins = ("web_support",)

WIDE: ViewportSize = {"width": 1440, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
NARROW: ViewportSize = {"width": 360, "height": 740}
#: A large phone (or a phone's browser with a wider layout): two columns of a player's facts.
LARGE_PHONE: ViewportSize = {"width": 480, "height": 900}
LANGS = ["en", "id"]
PASSWORD = STAFF_PASSWORD
PLAYER_PASSWORD = "a long enough passphrase 42"

#: A rupiah table at rupiah stakes (whole rupiah): Rp 10.000 the least stake, chips up to Rp 1.000.000 (the
#: bets' own limits follow the table's, scaled as the rule set's loader scales them).
RUPIAH_RULES = """\
name = "rupiah"
extends = "standard"
title = "Punto banco Rp"
description = "Standard rules in rupiah, at rupiah stakes."
currency = "IDR"

[table]
min_stake = 10_000
max_stake = 100_000_000
chips = [10_000, 50_000, 100_000, 250_000, 500_000, 1_000_000]
"""

#: A box, as a script measures one: {left, top, right, bottom, width, height}.
BOX_JS = """
window.__box = (el) => { const r = el.getBoundingClientRect();
  return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
window.__inside = (inner, outer, slack = 0.5) => inner.left >= outer.left - slack
  && inner.right <= outer.right + slack && inner.top >= outer.top - slack
  && inner.bottom <= outer.bottom + slack;
window.__lines = (el) => { const range = document.createRange(); range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top))).size; };
"""


def set_language(page: Page, lang: str) -> None:
    if page.evaluate("document.documentElement.lang") == lang:
        return
    page.click(f'[data-lang="{lang}"]')
    page.wait_for_selector(f'html[lang="{lang}"]', state="attached")


def helpers(page: Page) -> None:
    page.evaluate(f"() => {{ {BOX_JS} }}")


# ---- 4a: the result fits its box ----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_result_fits_its_box_for_every_winner(
    open_page: Opener, virtual_server: Served, lang: str
) -> None:
    page, console = open_page(f"{virtual_server.url}/", viewport=WIDE)
    page.wait_for_selector(".lobby-card")
    set_language(page, lang)
    table = TablePage(page)
    table.open_table("standard")
    drive_to_result(virtual_server, drive_to_open(table, virtual_server, later=False))
    table.wait_result()
    wait_still(page)
    helpers(page)
    # The banner as the page draws it for each winner: the words from the page's own
    # catalogue (the same module the page uses), on the banner of the result shown.
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const { t } = await import('/static/js/i18n.js');
          const result = document.querySelector('.result');
          const title = result.querySelector('.result__title');
          const centre = document.querySelector('.stage__centre');
          const stage = document.querySelector('.stage');
          const seen = [];
          for (const winner of ['player', 'banker', 'tie']) {
            result.className = `result result--${winner}`;
            title.textContent = winner === 'tie' ? t('result.tie')
              : t('result.wins', { side: t(`side.${winner}`) });
            const words = __box(title), box = __box(result);
            seen.push({ winner, text: title.textContent, lines: __lines(title),
              inBanner: __inside(words, box), bannerInCentre: __inside(box, __box(centre)),
              bannerInStage: __inside(box, __box(stage)),
              overflow: title.scrollWidth - title.clientWidth, words, box });
          }
          return seen;
        }"""
    )
    bad = [
        item
        for item in found
        if not (item["inBanner"] and item["bannerInCentre"] and item["bannerInStage"])
        or item["overflow"] > 1
    ]
    assert bad == [], bad
    assert console.unexpected() == []


# ---- 4b: the ask buttons keep one line ------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [WIDE, PHONE, NARROW], ids=["desktop", "phone", "narrow"])
def test_the_ask_buttons_keep_their_words_on_one_line(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize, lang: str
) -> None:
    page, console = open_page(f"{virtual_server.url}/#/tables/standard", viewport=viewport)
    page.wait_for_selector(".ask .ask__name")
    set_language(page, lang)
    page.wait_for_selector(".ask .ask__name")
    helpers(page)
    asks: list[dict[str, Any]] = page.evaluate(
        """() => [...document.querySelectorAll('.ask')].map((ask) => {
             const name = ask.querySelector('.ask__name');
             return { text: name.textContent, lines: __lines(name),
                      inside: __inside(__box(name), __box(ask)),
                      height: __box(ask).height, right: __box(ask).right };
           })"""
    )
    assert len(asks) == 2, asks
    wrong = [a for a in asks if a["lines"] != 1 or not a["inside"]]
    assert wrong == [], wrong
    assert all(a["right"] <= viewport["width"] for a in asks), asks
    no_sideways_scroll(page)
    assert console.unexpected() == []


# ---- 4c: "Now" and "Used" in the page's language -------------------------------------------


#: What a box's ::before shows: its computed content with attr() read from the box itself.
BEFORE_JS = """(el) => {
  const content = getComputedStyle(el, '::before').content;
  if (!content || content === 'none' || content === 'normal') return '';
  let shown = '';
  for (const part of content.matchAll(/"((?:[^"\\\\]|\\\\.)*)"|attr\\(\\s*([\\w-]+)\\s*\\)/g)) {
    shown += part[1] !== undefined ? part[1].replace(/\\\\(.)/g, '$1') : (el.getAttribute(part[2]) ?? '');
  }
  return shown;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_phone_account_names_limit_figures_in_the_page_language(
    open_page: Opener, virtual_server: Served, lang: str
) -> None:
    # Under the page's own Content Security Policy: the names reach the style sheet through
    # the CSS object model, which the policy allows (a violation would be a console error).
    page, console = open_page(f"{virtual_server.url}/", viewport=PHONE, bypass_csp=False)
    page.wait_for_selector(".lobby-card")
    page.click("#join")
    page.wait_for_selector("#balance:not([hidden])")
    set_language(page, lang)
    page.evaluate("() => { window.location.hash = '#/account'; }")
    page.wait_for_selector('#limits-panel td[data-col="limit"]')
    catalogue: dict[str, str] = page.evaluate(
        "async (lang) => (await import(`/static/js/messages/${lang}.js`)).default", lang
    )
    labels: dict[str, list[str]] = page.evaluate(
        f"""() => {{
          const before = {BEFORE_JS};
          const read = (col) => [...document.querySelectorAll(`#limits-panel td[data-col="${{col}}"]`)]
            .map((td) => before(td).trim());
          return {{ limit: read('limit'), used: read('used') }};
        }}"""
    )
    assert labels["limit"] and set(labels["limit"]) == {catalogue["limits.col.now"]}, labels
    assert labels["used"] and set(labels["used"]) == {catalogue["limits.col.used"]}, labels
    if lang == "id":
        assert not {"Now", "Used"} & set(labels["limit"] + labels["used"]), labels
    no_sideways_scroll(page)
    assert console.unexpected() == []


# ---- the back office: a refusal after a language switch; a phone ---------------------------


@pytest.fixture(scope="module")
def admin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One standard table on a virtual clock; an operator ``marta`` and an auditor ``eve``."""
    yield from staffed_server(
        tmp_path_factory.mktemp("web-defects-admin"), {"marta": "operator", "eve": "auditor"}
    )


def admin_log_in(page: Page, name: str) -> None:
    page.wait_for_selector(".admin-login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click(".admin-login button[type=submit]")
    page.wait_for_selector("#staff-user:not([hidden])")
    page.wait_for_selector('tr[data-table="standard"]')


def admin_catalogue(page: Page, lang: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        "async (lang) => (await import(`/static/js/admin/messages/${lang}.js`)).default", lang
    )
    return found


def test_a_refusal_is_said_again_in_the_language_switched_to(
    open_page: Opener, admin_server: Served
) -> None:
    page, console = open_page(f"{admin_server.url}/admin")
    set_language(page, "en")
    admin_log_in(page, "eve")
    pause = 'tr[data-table="standard"] [data-act="pause"]'
    page.wait_for_selector(pause)
    page.eval_on_selector(pause, "el => { el.removeAttribute('disabled'); el.click(); }")
    page.wait_for_selector("dialog.admin-dialog[open]")
    page.fill("#admin-reason", "just looking")
    page.click("dialog.admin-dialog [data-confirm]")
    page.wait_for_selector("#admin-alert:not(:empty)")
    english = admin_catalogue(page, "en")["admin.error.role_forbidden"]
    indonesian = admin_catalogue(page, "id")["admin.error.role_forbidden"]
    assert page.inner_text("#admin-alert") == english
    page.click('[data-lang="id"]')
    page.wait_for_selector("h1:has-text('Meja')")
    shown = page.inner_text("#admin-alert")
    assert shown in {indonesian, ""}, shown
    # And back: the same refusal in English again (or nothing).
    page.click('[data-lang="en"]')
    page.wait_for_selector("h1:has-text('Tables')")
    assert page.inner_text("#admin-alert") in {english, ""}
    assert console.unexpected(s403=1) == []


def a_player_in_session(served: Served) -> str:
    """A guest with a running session (a time limit and reality checks set): their id."""
    with httpx.Client(base_url=served.url, timeout=10) as client:
        guest = client.post("/api/players").json()
        saved = client.put(
            "/api/me/session-settings",
            json={"time_limit_s": 3600, "reality_check_every_s": 1800},
            headers={"Authorization": f"Bearer {guest['token']}"},
        )
    assert saved.status_code == 200, saved.text
    player_id: str = guest["id"]
    return player_id


#: Every control in the section is on the screen (not beyond its right edge, nor inside a box
#: that must be scrolled to reach it); every cell's words fit.
CONTROLS_JS = """() => {
  const vw = document.documentElement.clientWidth;
  const shown = (el) => el.getClientRects().length > 0;
  const controls = [...document.querySelectorAll(
      'main button, main input, main select, main a, .topbar a, .topbar button')].filter(shown);
  const off = controls.filter((el) => { const r = el.getBoundingClientRect();
    return r.left < -0.5 || r.right > vw + 0.5; }).map((el) => el.outerHTML.slice(0, 120));
  return { count: controls.length, off };
}"""

#: Boxes of the facts (a player's, a round's) that overlap another's, or whose words overflow.
FACTS_JS = """() => {
  const items = [...document.querySelectorAll('.admin-facts > div')];
  const boxes = items.map((el) => el.getBoundingClientRect());
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i], b = boxes[j];
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      overlaps.push([items[i].textContent, items[j].textContent]);
  }
  const overflowing = [...document.querySelectorAll('.admin-facts dd, .admin-facts dd *')]
    .filter((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX === 'visible'
      && el.clientWidth > 0)
    .map((el) => el.textContent);
  const outside = items.filter((el) => [...el.querySelectorAll('*')].some((kid) => {
      const k = kid.getBoundingClientRect(), o = el.getBoundingClientRect();
      return k.width > 0 && (k.left < o.left - 0.5 || k.right > o.right + 0.5);
    })).map((el) => el.textContent);
  return { overlaps, overflowing, outside };
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [PHONE, LARGE_PHONE], ids=["phone", "large"])
def test_the_back_office_is_usable_on_a_phone(
    open_page: Opener, admin_server: Served, viewport: ViewportSize, lang: str
) -> None:
    player = a_player_in_session(admin_server)
    page, console = open_page(f"{admin_server.url}/admin", viewport=viewport)
    set_language(page, lang)
    admin_log_in(page, "marta")
    catalogue = admin_catalogue(page, lang)
    sections = ["tables", "rounds", "players", "shoes", "audit", "reports", "integrity", "staff"]
    problems: dict[str, Any] = {}
    for section in sections:
        page.evaluate("s => { window.location.hash = `#/${s}`; }", section)
        page.wait_for_selector("main h1")
        page.wait_for_function("() => !document.getElementById('main').hasAttribute('aria-busy')")
        if section == "tables":
            page.wait_for_selector('tr[data-table="standard"] [data-act="pause"]')
        width = page.evaluate("document.documentElement.scrollWidth")
        controls = page.evaluate(CONTROLS_JS)
        if width > viewport["width"] or controls["off"]:
            problems[section] = {"page_width": width, "off_screen": controls["off"][:6]}
    # The tables' actions: on the screen, each of them.
    page.evaluate("() => { window.location.hash = '#/tables'; }")
    page.wait_for_selector('tr[data-table="standard"] [data-act="pause"]')
    actions = page.evaluate(
        """() => [...document.querySelectorAll('tr[data-table] [data-act]')].map((b) => {
             const r = b.getBoundingClientRect();
             return { act: b.dataset.act, left: r.left, right: r.right };
           })"""
    )
    assert len(actions) == 4, actions
    off = [a for a in actions if a["left"] < 0 or a["right"] > viewport["width"]]
    if off:
        problems["table actions"] = off
    # A player's page: the facts apart and whole, the session in labelled fields.
    page.evaluate("id => { window.location.hash = `#/players/${id}`; }", player)
    page.wait_for_selector("#player-title")
    page.wait_for_selector("[data-balance]")
    facts = page.evaluate(FACTS_JS)
    if facts["overlaps"] or facts["overflowing"] or facts["outside"]:
        problems["player facts"] = facts
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > viewport["width"]:
        problems["player page width"] = width
    session = page.evaluate(
        """(label) => { const dt = [...document.querySelectorAll('.admin-facts dt')]
             .find((el) => el.textContent === label); return dt ? dt.nextElementSibling.innerText : null; }""",
        catalogue["admin.players.session"],
    )
    assert session is not None
    raw = re.findall(r"\b[a-z]+(?:_[a-z]+)+\b", session)
    if raw:
        problems["session"] = {"raw keys": raw, "shown": session}
    labels = [catalogue[key] for key in sorted(catalogue) if key.startswith("admin.session.")]
    missing = [label for label in labels if label not in session]
    if not labels or missing:
        problems["session labels"] = {
            "missing": missing or "no admin.session.* labels",
            "shown": session,
        }
    assert problems == {}, json.dumps(problems, indent=1)
    assert console.unexpected() == []


# ---- 5: rupiah stakes on the side spots ----------------------------------------------------


@pytest.fixture(scope="module")
def rupiah_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = Path(tmp_path_factory.mktemp("web-defects-rupiah"))
    rules = folder / "rupiah.toml"
    rules.write_text(RUPIAH_RULES, encoding="utf-8")
    served = serve_web(
        folder,
        tables=str(rules),
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=400,
        demo_credit=50_000_000,
        virtual_clock=True,
    )
    yield served
    served.stop()


#: The felt's rows and spots: the side row's height, each main and middle spot's top, and per
#: side spot its name's lines and whether every part of it lies inside it.
FELT_JS = """() => {
  const side = document.querySelector('.bets__row--side');
  const spots = [...side.querySelectorAll('.spot')].map((spot) => {
    const box = __box(spot);
    const parts = [...spot.querySelectorAll('.spot__name, .spot__odds, .spot__share, .spot__stake, .spot__amount, .chip')]
      .filter((el) => el.getClientRects().length);
    return { bet: spot.dataset.bet, height: box.height,
      nameLines: __lines(spot.querySelector('.spot__name')),
      outside: parts.filter((el) => !__inside(__box(el), box, 1)).map((el) => el.className),
      overflowing: parts.filter((el) => el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
        .map((el) => el.className),
      stake: spot.querySelector('.spot__stake')?.innerText ?? null,
      face: spot.querySelector('.spot__stake .chip__value')?.dataset.face ?? null,
      chipShown: [...spot.querySelectorAll('.spot__stake .chip')].some((c) => c.getClientRects().length > 0) };
  });
  // Where the spots lie on the page (a click scrolls the window: its offset is added back).
  const tops = Object.fromEntries([...document.querySelectorAll(
      '.bets__row--main .spot, .bets__row--middle .spot')]
    .map((s) => [s.dataset.bet, Math.round(__box(s).top + window.scrollY)]));
  return { side: Math.round(__box(side).height), tops, spots };
}"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["desktop", "phone"])
def test_rupiah_stakes_on_side_spots_keep_the_felt_still(
    open_page: Opener, rupiah_server: Served, viewport: ViewportSize, lang: str
) -> None:
    page, console = open_page(f"{rupiah_server.url}/", viewport=viewport)
    page.wait_for_selector(".lobby-card")
    set_language(page, lang)
    page.click("#join")
    page.wait_for_function("document.getElementById('balance-amount').textContent.includes('Rp')")
    table = TablePage(page)
    table.open_table("rupiah")
    drive_to_open(table, rupiah_server, "rupiah", later=False)
    wait_still(page)
    helpers(page)
    before: dict[str, Any] = page.evaluate(FELT_JS)
    # Rp 1.100.000 on Perfect Pair (no round chip: "1100K"), Rp 2.000.000 on Small, Rp 10.000
    # on Big, each acknowledged before the next.
    plan = [
        ("perfect_pair", 1_000_000),
        ("perfect_pair", 100_000),
        ("small", 1_000_000),
        ("small", 1_000_000),
        ("big", 10_000),
    ]
    placed = table.bet_in_one_window(plan, at_least=0)
    assert placed == {"perfect_pair": 1_100_000, "small": 2_000_000, "big": 10_000}
    # Everyone's stakes come as the dealer reads them (on its clock): each spot's share too.
    rupiah_server.advance(1000)
    page.wait_for_function("document.querySelectorAll('.spot--side .spot__share').length === 3")
    wait_still(page)
    after: dict[str, Any] = page.evaluate(FELT_JS)
    staked = {s["bet"]: s for s in after["spots"] if s["stake"] is not None}
    assert set(staked) == {"perfect_pair", "small", "big"}, after
    problems: dict[str, Any] = {}
    if abs(after["side"] - before["side"]) > 1:
        problems["side row height"] = (before["side"], after["side"])
    moved = {
        bet: (top, after["tops"][bet])
        for bet, top in before["tops"].items()
        if abs(after["tops"][bet] - top) > 1
    }
    if moved:
        problems["moved spots"] = moved
    lines_before = {s["bet"]: s["nameLines"] for s in before["spots"]}
    for spot in after["spots"]:
        if spot["bet"] in staked and not (spot["face"] and spot["chipShown"]):
            problems[f"{spot['bet']} stake not shown"] = spot
        if spot["outside"] or spot["overflowing"]:
            problems[f"{spot['bet']} parts"] = spot
        if spot["nameLines"] > lines_before[spot["bet"]]:
            problems[f"{spot['bet']} name"] = (lines_before[spot["bet"]], spot["nameLines"])
    assert problems == {}, json.dumps(
        {"problems": problems, "before": before, "after": after}, indent=1
    )
    assert console.unexpected() == []


# ---- 11: the phone's top bar shows every button whole --------------------------------------


#: Every visible button and link of the top bar: on the screen, inside every box that could
#: clip it, its words within it, and not under another part of the bar.
BAR_JS = """() => {
  const vw = document.documentElement.clientWidth;
  const bar = document.querySelector('.topbar');
  const found = [];
  for (const el of bar.querySelectorAll('button, a')) {
    if (!el.getClientRects().length || el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    const problems = [];
    if (r.left < -0.5 || r.right > vw + 0.5) problems.push(`off the screen (${r.left}..${r.right})`);
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible';
      const masked = (style.maskImage && style.maskImage !== 'none')
        || (style.webkitMaskImage && style.webkitMaskImage !== 'none');
      if (!clips && !masked) continue;
      const o = up.getBoundingClientRect();
      if (r.left < o.left - 0.5 || r.right > o.right + 0.5 || r.top < o.top - 0.5 || r.bottom > o.bottom + 0.5)
        problems.push(`clipped by ${up.className || up.tagName}`);
      // A mask fades a scrolling row's far edge: what reaches into it is not shown whole.
      if (masked && r.right > o.right - 24)
        problems.push(`faded by the mask of ${up.className || up.tagName}`);
    }
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`words overflow (${el.scrollWidth} > ${el.clientWidth})`);
    if (getComputedStyle(el).textOverflow === 'ellipsis') problems.push('ellipsis');
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    if (!hit || !(el === hit || el.contains(hit))) problems.push('covered');
    found.push({ text: el.textContent.trim(), problems });
  }
  return { found, page: document.documentElement.scrollWidth, bar: bar.scrollWidth };
}"""


def bar_problems(page: Page, state: str) -> dict[str, Any]:
    viewport = page.viewport_size
    assert viewport is not None
    shown: dict[str, Any] = page.evaluate(BAR_JS)
    problems: dict[str, Any] = {
        f"{state}: {item['text']}": item["problems"] for item in shown["found"] if item["problems"]
    }
    if shown["page"] > viewport["width"]:
        problems[f"{state}: page width"] = shown["page"]
    if shown["bar"] > viewport["width"]:
        problems[f"{state}: bar width"] = shown["bar"]
    return problems


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [PHONE, NARROW], ids=["phone", "narrow"])
def test_the_phone_top_bar_shows_every_button_whole(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize, lang: str
) -> None:
    page, console = open_page(f"{virtual_server.url}/", viewport=viewport)
    page.wait_for_selector(".lobby-card")
    set_language(page, lang)
    page.wait_for_selector("#join:not([hidden])")
    problems = bar_problems(page, "a visitor")
    # Seated as a guest, at a table: History, Log in, Watch only and the balance.
    page.click("#join")
    page.wait_for_selector("#balance:not([hidden])")
    TablePage(page).open_table("standard")
    page.wait_for_selector("#leave:not([hidden])")
    problems |= bar_problems(page, "a seated guest")
    # Logged in: History, Watch only?, Log out.
    page.click("#login")
    page.fill("#login-username", f"p{uuid.uuid4().hex[:10]}")
    page.fill("#login-password", PLAYER_PASSWORD)
    page.click("#register-submit")
    page.wait_for_selector("#logout:not([hidden])")
    problems |= bar_problems(page, "a player")
    assert problems == {}, json.dumps(problems, indent=1)
    assert console.unexpected() == []
