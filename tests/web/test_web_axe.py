"""axe-core (npm, pinned in package-lock.json) in every state of the page, in both languages, on a
desktop (1440×900) and a phone (390×844): no serious or critical violation.

One server whose one table counts in rupiah (so the money is checked on the way: ``Rp``, written
``Rp 1.500,00`` in Indonesian and ``Rp 1,500.00`` in English) and whose one-deck shoe ends every
few coups (so the fairness panel shows a revealed seed checked in the browser). Two pages, one per
language, walk the states side by side, since they watch the same rounds: the lobby, the table
during betting (a stake placed), the table with the player's result, the fairness panel with its
check, the history, *My account* and the rules page. Each state is held still while axe reads it:
the server runs on a virtual clock the test moves, and the table's feed goes through
``page.route_web_socket`` and is held (kept back, in order) until the next state is wanted. Each state is checked at both screen sizes (the page resized).

Moderate and minor findings are reported as a warning (in the test summary), not failed; so is
contrast against a gradient's worst stop (SOLID, ON_GRADIENT), which axe alone cannot judge.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocketRoute
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from web_support import (
    PHONE,
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    serve_web,
)

pytest_plugins = ("web_support",)

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP: ViewportSize = {"width": 1440, "height": 900}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
LOCALES = {"en": "en-US", "id": "id-ID"}
CREDIT = 150_000
FAILING = {"serious", "critical"}

RUPIAH_RULES = """\
name = "rupiah"
extends = "standard"
title = "Punto banco Rp"
description = "Standard rules in rupiah from one deck with an early cut card."
currency = "IDR"

[shoe]
decks = 1
cut_card_from_end = 40
"""


def rupiah(language: str, amount: int) -> str:
    """The test's own writing of rupiah, counted whole: "Rp 150,000" in English, "Rp 150.000"
    in Indonesian, never with sen."""
    whole = f"{abs(amount):,}"
    if language == "id":
        whole = whole.replace(",", ".")
    return f"{'−' if amount < 0 else ''}Rp\u00a0{whole}"


@pytest.fixture(scope="module")
def rupiah_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("web-axe")
    rules = folder / "rupiah.toml"
    rules.write_text(RUPIAH_RULES, encoding="utf-8")
    served = serve_web(
        folder,
        tables=str(rules),
        # Time stands still between the test's moves: each state stays as long as axe reads it.
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=150,
        result_ms=600,
        demo_credit=CREDIT,
        virtual_clock=True,
    )
    yield served
    served.stop()


#: axe cannot tell the colour behind text on a gradient (it leaves such text "incomplete"), and
#: the felt, the panels and the buttons are gradients. For its run each gradient is painted as
#: the one opaque stop that contrasts least with the element's own text colour (the worst place
#: the text could sit); a chip's value sits on its centre disc, its first stop. Undone after.
#: Text with such a worst case behind it is reported, not failed (ON_GRADIENT): axe alone
#: cannot judge it (it leaves it "incomplete"), and a real gradient is lighter or darker than
#: its worst stop over most of its area. Text on solid colours is held to axe's verdict.
SOLID = """() => {
  const colours = (text) => [...text.matchAll(/rgba?\\(([^)]+)\\)/g)]
    .map((m) => m[1].split(/[\\s,/]+/).filter(Boolean).map(Number));
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => v / 255)
      .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
  const undo = [];
  for (const el of [document.documentElement, ...document.querySelectorAll("body, body *")]) {
    const style = getComputedStyle(el);
    if (!style.backgroundImage.includes("gradient")) continue;
    const stops = colours(style.backgroundImage).filter((c) => c.length === 3 || c[3] === 1);
    if (!stops.length) continue;
    const text = colours(style.color)[0];
    const worst = el.matches(".chip")
      ? stops[0]
      : stops.reduce((a, b) => (ratio(a, text) <= ratio(b, text) ? a : b));
    undo.push([el, el.getAttribute("style")]);
    el.dataset.axeSolid = "";
    el.style.setProperty("background-image", "none", "important");
    el.style.setProperty("background-color", `rgb(${worst.slice(0, 3).join(",")})`, "important");
  }
  return () => {
    for (const [el, style] of undo) {
      delete el.dataset.axeSolid;
      if (style === null) el.removeAttribute("style");
      else el.setAttribute("style", style);
    }
  };
}"""


#: Whether a gradient (painted solid) shows behind an element: through transparent and
#: translucent backgrounds, before any opaque one.
ON_GRADIENT = """(el) => {
  for (let at = el; at; at = at.parentElement) {
    if ("axeSolid" in at.dataset) return true;
    const style = getComputedStyle(at);
    // "rgba(r, g, b, a)", or "color(srgb r g b / a)" for a color-mix (a hovered spot).
    const alpha = /(?:rgba\\(.*,|\\/)\\s*([\\d.]+)\\)$/.exec(style.backgroundColor);
    if (style.backgroundImage !== "none" || !alpha || Number(alpha[1]) >= 1) return false;
  }
  return false;
}"""


class HeldFeed:
    """The table feed between the page and the server: forwarded, or held (kept back in order,
    so the page misses nothing once it is released)."""

    def __init__(self, page: Page) -> None:
        self.held = False
        #: Hold right after the first message of this type has reached the page.
        self.hold_after: str | None = None
        self.waiting: list[tuple[WebSocketRoute, str | bytes]] = []
        page.route_web_socket(re.compile(r"/ws/tables/"), self.route)

    def route(self, ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: self.down(ws, message))
        ws.on_message(server.send)

    def down(self, ws: WebSocketRoute, message: str | bytes) -> None:
        if self.held:
            self.waiting.append((ws, message))
            return
        ws.send(message)
        if self.hold_after and json.loads(message).get("type") == self.hold_after:
            self.held, self.hold_after = True, None

    def release(self, hold_after: str | None = None) -> None:
        """Send what was held, up to the next ``hold_after`` if it is among it."""
        self.held, self.hold_after = False, hold_after
        waiting, self.waiting = self.waiting, []
        for ws, message in waiting:
            self.down(ws, message)


class Visit:
    """One language's page, its feed and what axe found in it."""

    def __init__(self, opener: Opener, url: str, language: str) -> None:
        self.language = language
        self.page, self.console = opener(url, viewport=DESKTOP, locale=LOCALES[language])
        self.feed = HeldFeed(self.page)
        self.table = TablePage(self.page)
        self.page.reload()  # the route applies from this load on
        self.page.wait_for_selector(".lobby-card")

    def join(self) -> str:
        """Sit down as a guest; the balance as shown, once it is shown (in rupiah)."""
        self.page.click("#join")
        self.page.wait_for_selector("#balance:not([hidden])")
        try:
            self.page.wait_for_function(
                "document.getElementById('balance-amount').textContent.includes('Rp')"
            )
        except PlaywrightTimeoutError:
            # Seen once in CI only: say what the page showed and logged instead.
            shown = self.page.inner_text("#balance-amount")
            raise AssertionError(
                f"{self.language}: balance {shown!r}, console {self.console.errors}"
            ) from None
        return self.page.inner_text("#balance-amount")

    def start_axe(self, viewport: ViewportSize) -> None:
        """Start axe on the page at this size (it runs while the other page's does), every
        gradient painted as its solid worst case first (SOLID)."""
        if not self.page.evaluate("typeof window.axe === 'object'"):
            self.page.add_script_tag(path=str(AXE))
        self.page.set_viewport_size(viewport)
        self.page.evaluate(
            f"""() => new Promise(requestAnimationFrame).then(() => {{
                 const undo = ({SOLID})();
                 const onGradient = {ON_GRADIENT};
                 window.__axe = axe.run(document, {{ resultTypes: ["violations"] }})
                   .then((result) => {{
                     // Contrast on a gradient's worst case: its own entry, reported only.
                     for (const v of result.violations.filter((v) => v.id === "color-contrast")) {{
                       const worst = v.nodes.filter((n) => onGradient(document.querySelector(n.target[0])));
                       v.nodes = v.nodes.filter((n) => !worst.includes(n));
                       if (worst.length) result.violations.push({{ ...v, id: "color-contrast-gradient",
                         impact: "moderate", help: `${{v.help}} (a gradient's worst stop)`, nodes: worst }});
                     }}
                     result.violations = result.violations.filter((v) => v.nodes.length);
                     return result;
                   }})
                   .finally(undo);
               }})"""
        )

    def axe_found(self) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = self.page.evaluate(
            """async () => (await window.__axe).violations.map((v) => ({
                 id: v.id, impact: v.impact, help: v.help,
                 nodes: v.nodes.map((n) => n.target.join(" ")
                   + (v.id.startsWith("color-contrast") ? ` (${n.any[0]?.data?.contrastRatio})` : "")) }))"""
        )
        return found


def summary(found: dict[str, list[dict[str, Any]]], impacts: set[str]) -> str:
    lines = []
    for where, violations in found.items():
        for v in violations:
            if v["impact"] in impacts:
                nodes = v["nodes"]
                more = f" and {len(nodes) - 8} more" if len(nodes) > 8 else ""
                lines.append(f"{where}: {v['impact']} {v['id']} ({v['help']}): {nodes[:8]}{more}")
    return "\n".join(lines)


def test_no_serious_or_critical_violation_anywhere(
    open_page: Opener, rupiah_server: Served
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")
    url = f"{rupiah_server.url}/"
    visits = [Visit(open_page, url, language) for language in LOCALES]
    found: dict[str, list[dict[str, Any]]] = {}

    def each(state: str) -> None:
        """axe on both pages at once, at each size; back to the desktop size afterwards."""
        for size, viewport in SIZES.items():
            for visit in visits:
                visit.start_axe(viewport)
            for visit in visits:
                found[f"{state} / {visit.language} / {size}"] = visit.axe_found()
        for visit in visits:
            visit.page.set_viewport_size(DESKTOP)

    # The lobby: the table's limits in rupiah, the language's way.
    for visit in visits:
        limits = visit.page.inner_text(".lobby-card__facts dd")
        assert limits.startswith(rupiah(visit.language, 100)), limits
    each("lobby")

    # A seat and a stake: the balance and the stake in rupiah; held while betting is open.
    for visit in visits:
        assert visit.join() == rupiah(visit.language, CREDIT)
        visit.page.click('.lobby-card[data-table="rupiah"] a')
        visit.page.wait_for_selector(".bets .spot")
    round_id = drive_to_open(visits[0].table, rupiah_server, "rupiah", later=False)
    for visit in visits:
        visit.page.wait_for_function(
            "id => Number(document.querySelector('.stage__round').dataset.round) === id",
            arg=round_id,
        )
        visit.table.chip(100)
        visit.table.bet("player")
    for visit in visits:
        visit.table.wait_stakes({"player": 100})
        visit.feed.held = True
        assert rupiah(visit.language, 100) in visit.page.inner_text(".stage")
        assert visit.table.phase() == "open"
        # The bet's toast lies over the spots' tops for six seconds: axe would read the words
        # hidden under it against it. (Its own are ink on a solid dark blue or red.)
        visit.table.clear_message()
    each("table, betting")

    # The player's own result line, held.
    for visit in visits:
        visit.feed.release(hold_after="settled")
    drive_to_result(rupiah_server, round_id, "rupiah")
    for visit in visits:
        visit.page.wait_for_selector(".result__line")
        line = visit.page.inner_text(".result__line")
        # A tie returns a Player bet: "You break even" has no amount to write.
        assert "$" not in line and ("Rp" in line or not re.search(r"\d", line)), line
    each("table, result")

    # The shoe ends within a few coups: its seed, checked in this browser.
    shoe = rupiah_server.get("/api/tables/rupiah")["shoe"]["number"]
    for visit in visits:
        visit.feed.release()
    rupiah_server.advance_until(
        lambda: rupiah_server.get("/api/tables/rupiah")["shoe"]["number"] > shoe, "the next shoe"
    )
    for visit in visits:
        visit.page.wait_for_selector(".fair__revealed h3")
        visit.feed.held = True
        visit.page.click(".fair__verify-here")
    for visit in visits:
        visit.page.wait_for_selector(".fair__check[data-verdict]")
        # A rupiah shoe's record (its rules name the currency) checks out in the browser.
        assert visit.page.get_attribute(".fair__check", "data-verdict") == "ok"
    each("fairness")

    for visit in visits:
        visit.page.click("#history-open")
        visit.page.wait_for_selector("#history-dialog tbody tr")
        bets = visit.page.inner_text("#history-dialog tbody tr [data-col='bets']")
        assert rupiah(visit.language, 100) in bets, bets
    each("history")

    for visit in visits:
        visit.page.keyboard.press("Escape")
        visit.page.goto(f"{url}#/account")
        visit.page.wait_for_selector("[data-row='wager-30d']")
        visit.page.wait_for_selector("#break-state:not(:empty)")
    each("account")

    for visit in visits:
        visit.page.goto(f"{url}#/rules/rupiah")
        visit.page.wait_for_selector(".rules-bet")
        stakes = visit.page.inner_text(".rules-bet[data-bet='tie'] .rules-facts dd")
        assert rupiah(visit.language, 100) in stakes and rupiah(visit.language, 200_000) in stakes
    each("rules")

    for visit in visits:
        assert visit.console.unexpected() == [], visit.language
    others = summary(found, {"moderate", "minor"})
    if others:
        warnings.warn(f"axe, moderate and minor:\n{others}", stacklevel=1)
    assert len(found) == 7 * 2 * 2
    failing = summary(found, FAILING)
    if failing:
        pytest.fail(f"axe, serious and critical:\n{failing}", pytrace=False)


def test_the_rules_link_opens_this_servers_own_rules(
    open_page: Opener, rupiah_server: Served
) -> None:
    # A server of rupiah tables only: the top bar's Rules link is theirs, not `standard`'s.
    page, console = open_page(f"{rupiah_server.url}/")
    page.wait_for_selector('a[data-nav="rules"][href="#/rules/rupiah"]')
    page.click('a[data-nav="rules"]')
    page.wait_for_function(
        "document.querySelector('.rules-title')?.textContent.includes('Punto banco Rp')"
    )
    assert page.evaluate("location.hash") == "#/rules/rupiah"
    assert console.unexpected() == []
