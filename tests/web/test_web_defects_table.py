"""Three defects of the table page a player reported, in Chromium against real servers.

- A hand's total counts only the cards fully shown: turned and landed, never a card still
  face down, still turning or still sliding in (face up and face down).
- The shuffle between two shoes never hides the countdown: while a round takes bets, the
  time left, the phase and the betting controls stay visible and within reach.
- Odds are written one way, the house's ("0.95:1", "0.54:1", "1:2" for a half pay): the
  spots, the rules page and the server's rules data say the same odds for the same bet.

Each test watches the console: no error.
"""

from __future__ import annotations

import re
from itertools import product
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize
from web_support import (
    Opener,
    Served,
    TablePage,
    call_module,
    drive_to_open,
    drive_to_result,
    wait_still,
)

from baccarat.cards import Card
from baccarat.coup import hand_total

pytest_plugins = ("web_support",)

WIDE: ViewportSize = {"width": 1440, "height": 900}
NARROW: ViewportSize = {"width": 390, "height": 844}

# ---- 1. a hand's total counts the cards fully shown ----------------------------------------

#: Watches both hands from now on: at every change of the card area and every frame, the total
#: shown beside PLAYER / BANKER must be the total of the cards fully shown (turned, and no
#: finite animation left on them: not sliding in, not turning), and once the result banner
#: shows, its score must be those totals. Every mismatch is kept in window.totalFaults;
#: window.totalSeen counts the looks and how many cards were seen moving.
WATCH_TOTALS = """() => {
  const w = window;
  w.totalFaults = [];
  w.totalSeen = {looks: 0, moving: 0};
  const point = (code) => code[0] === 'A' ? 1 : 'TJQK'.includes(code[0]) ? 0 : Number(code[0]);
  const moving = (card) => card.getAnimations({subtree: true}).some((a) =>
    a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity);
  const look = (why) => {
    for (const hand of document.querySelectorAll('.stage .hand')) {
      const cards = [...hand.querySelectorAll('.card')];
      const shown = cards.filter((c) => c.classList.contains('card--revealed') && c.dataset.card
        && !moving(c));
      const expected = shown.length
        ? String(shown.reduce((sum, c) => sum + point(c.dataset.card), 0) % 10) : '';
      const total = hand.querySelector('.hand__total').textContent;
      w.totalSeen.looks += 1;
      w.totalSeen.moving += cards.filter(moving).length;
      if (total !== expected && w.totalFaults.length < 20) {
        w.totalFaults.push({why, hand: hand.dataset.hand, total, expected,
          cards: cards.map((c) => ({card: c.dataset.card ?? 'back',
            turned: c.classList.contains('card--revealed'), moving: moving(c)}))});
      }
    }
  };
  // The result banner never runs ahead of the totals: once it shows, they are its score.
  const banner = (why) => {
    const score = document.querySelector('.result:not([hidden]) .result__score');
    if (!score) return;
    const totals = [...document.querySelectorAll('.stage .hand__total')].map((el) => el.textContent);
    const said = score.textContent.match(/\\d+/g);
    if (JSON.stringify(said) !== JSON.stringify(totals) && w.totalFaults.length < 20)
      w.totalFaults.push({why: `${why}: the result shows`, said, totals});
  };
  new MutationObserver(() => { look('change'); banner('change'); }).observe(
    document.querySelector('.stage'),
    {subtree: true, childList: true, attributes: true, characterData: true});
  const frame = () => {
    look('frame');
    banner('frame');
    w.totalFrame = requestAnimationFrame(frame);
  };
  frame();
}"""


def totals_shown(page: Page) -> dict[str, str]:
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.stage .hand')]
             .map((hand) => [hand.dataset.hand, hand.querySelector('.hand__total').textContent]))"""
    )
    return found


@pytest.mark.parametrize(
    ("table_id", "motion"),
    [("standard", "no-preference"), ("standard", "reduce"), ("quick", "no-preference")],
    ids=["face-up", "face-up-reduced-motion", "face-down"],
)
def test_a_hands_total_counts_only_the_cards_fully_shown(
    open_page: Opener,
    virtual_server: Served,
    virtual_quick_server: Served,
    table_id: str,
    motion: str,
) -> None:
    server = virtual_quick_server if table_id == "quick" else virtual_server
    page, console = open_page(
        f"{server.url}/#/tables/{table_id}", viewport=WIDE, reduced_motion=motion
    )
    table = TablePage(page)
    page.wait_for_selector(".bets .spot")
    round_id = drive_to_open(table, server, table_id)
    page.evaluate(WATCH_TOTALS)
    drive_to_result(server, round_id, table_id)
    coup = table.wait_result()
    wait_still(page)
    seen: dict[str, int] = page.evaluate("window.totalSeen")
    faults: list[dict[str, Any]] = page.evaluate("window.totalFaults")
    page.evaluate("cancelAnimationFrame(window.totalFrame)")
    assert faults == [], f"a total counted a card not fully shown, first: {faults[:2]}"
    # The watch saw the deal (and, with motion, cards moving); once everything lies still,
    # each total is its hand's.
    assert seen["looks"] > 10
    assert (seen["moving"] > 0) == (motion == "no-preference")
    cards = table.cards()
    assert totals_shown(page) == {
        hand: str(hand_total(Card.parse(code) for code in codes)) for hand, codes in cards.items()
    }
    assert (coup.player_total, coup.banker_total) == (
        hand_total(Card.parse(code) for code in cards["player"]),
        hand_total(Card.parse(code) for code in cards["banker"]),
    )
    assert console.unexpected() == []


# ---- 6. the shuffle never hides the time left -------------------------------------------------

#: From now on, the first moment the shuffle shows while the round takes bets (and the seconds
#: are written): what a pointer at the centre of each part of the countdown and of each betting
#: control reaches (window.shuffleLook). "itself" is the control (or a part of it); anything
#: else names what covers it.
WATCH_SHUFFLE = """() => {
  const w = window;
  w.shuffleLook = null;
  const reach = (el) => {
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (box.width === 0 || y < 0 || y > innerHeight || x < 0 || x > innerWidth) return 'out of view';
    const top = document.elementFromPoint(x, y);
    if (!top) return 'nothing';
    return el.contains(top) ? 'itself' : `covered by ${top.className || top.tagName}`;
  };
  const look = () => {
    if (w.shuffleLook) return;
    const note = document.querySelector('.shuffle');
    const phase = document.querySelector('.stage__phase');
    const seconds = document.querySelector('.countdown__seconds');
    if (!note || note.hidden || phase.dataset.phase !== 'open' || !seconds.textContent) return;
    const named = (selector, key) => [...document.querySelectorAll(selector)].map(
      (el) => [`${selector}:${el.dataset[key] ?? ''}`, reach(el)]);
    w.shuffleLook = {
      seconds: seconds.textContent,
      round: document.querySelector('.stage__round').textContent,
      reached: Object.fromEntries([
        ['countdown', reach(document.querySelector('.countdown'))],
        ['seconds', reach(seconds)],
        ['phase', reach(phase)],
        ['round', reach(document.querySelector('.stage__round'))],
        ...named('.spot', 'bet'),
        ...named('.chip-rack__option', 'chip'),
        ...named('.rack__actions [data-action]', 'action'),
      ]),
      unavailable: [...document.querySelectorAll('.spot')].filter(
        (el) => el.disabled || el.getAttribute('aria-disabled') === 'true').length,
    };
  };
  new MutationObserver(look).observe(document.body,
    {subtree: true, childList: true, attributes: true, characterData: true});
}"""


@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["desktop", "phone"])
def test_the_shuffle_never_hides_the_countdown_while_bets_are_open(
    open_page: Opener, virtual_quick_server: Served, viewport: ViewportSize
) -> None:
    server = virtual_quick_server
    page, console = open_page(f"{server.url}/", viewport=viewport)
    table = TablePage(page)
    table.join()
    page.goto(f"{server.url}/#/tables/quick")
    page.wait_for_selector(".bets .spot")
    before = server.get("/api/tables/quick")["shoe"]["number"]
    page.evaluate(WATCH_SHUFFLE)
    # The one-deck shoe ends every few coups; the clock stops in the next shoe's first window.
    server.advance_until(
        lambda: server.get("/api/tables/quick")["shoe"]["number"] > before, "the next shoe"
    )
    look: dict[str, Any] = page.wait_for_function("window.shuffleLook").json_value()
    view = server.get("/api/tables/quick")
    assert view["round"]["phase"] == "open"
    assert look["round"] == f"Shoe {view['shoe']['number']} · Round 1"
    assert int(look["seconds"]) > 0
    # Everything a player needs while the shuffle shows: the time left and every control.
    reached = {name: where for name, where in look["reached"].items() if where != "out of view"}
    for part in ("countdown", "seconds", "phase", "round"):
        assert part in reached, f"the {part} is out of view"
    assert any(name.startswith(".spot:") for name in reached)
    assert {name: where for name, where in reached.items() if where != "itself"} == {}
    assert look["unavailable"] == 0
    # And the shuffle still says what it is for, with the new shoe's commitment.
    assert page.inner_text(".shuffle__commitment") == view["shoe"]["commitment"]
    assert console.unexpected() == []


# ---- 8. one way to write odds -------------------------------------------------------------

#: "0.95:1", "0,95:1", "8:1", "1:2": odds as the page writes them, in either language.
ODDS = re.compile(r"\d+(?:[.,]\d+)?:\d+")


def spot_odds(page: Page) -> dict[str, list[str]]:
    """Every odds each spot shows (its headline and its note), by bet."""
    found: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.bets .spot')].map((el) =>
             [el.dataset.bet, [el.querySelector('.spot__odds')?.textContent ?? '',
                               el.querySelector('.spot__note')?.textContent ?? ''].join(' ')]))"""
    )
    return {bet: ODDS.findall(text) for bet, text in found.items()}


def rules_cells(page: Page) -> dict[str, dict[str, str]]:
    """Each bet's pay table on the rules page: {bet: {event: what it pays, as shown}}."""
    found: dict[str, dict[str, str]] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.rules-bet')].map((bet) =>
             [bet.dataset.bet, Object.fromEntries([...bet.querySelectorAll('tbody tr')].map(
               (row) => [row.dataset.event, row.querySelector('td').textContent]))]))"""
    )
    return found


@pytest.mark.parametrize("locale", ["en-US", "id-ID"])
@pytest.mark.parametrize("table_id", ["standard", "no-commission", "ez"])
def test_a_bet_shows_the_same_odds_on_its_spot_and_on_the_rules_page(
    open_page: Opener, virtual_server: Served, table_id: str, locale: str
) -> None:
    page, console = open_page(f"{virtual_server.url}/#/tables/{table_id}", locale=locale)
    page.wait_for_selector(".bets .spot .spot__odds")
    on_spots = spot_odds(page)
    ruleset = virtual_server.get(f"/api/tables/{table_id}")["ruleset"]["name"]
    page.goto(f"{virtual_server.url}/#/rules/{ruleset}")
    page.wait_for_selector(".rules-bet tbody tr")
    on_rules = rules_cells(page)
    assert set(on_spots) == set(on_rules)
    for bet, odds in on_spots.items():
        assert odds, f"the {bet} spot shows no odds"
        shown = set(on_rules[bet].values())
        assert set(odds) <= shown, (bet, odds, on_rules[bet])
    # Every payout of the rules page is written as the spots write theirs.
    data = httpx.get(f"{virtual_server.url}/api/rules/{ruleset}", timeout=30).json()
    ratios = {
        (bet["name"], row["event"]): row["pays"]
        for bet in data["bets"]
        for row in bet["pays"]
        if row["pays"] not in ("push", "lose")
    }
    printed = call_module(page, "format.js", "odds", [[pays] for pays in ratios.values()])
    for (bet, event), text in zip(ratios, printed, strict=True):
        assert on_rules[bet][event] == text, (bet, event)
    assert console.unexpected() == []


def test_the_server_and_the_page_write_odds_alike(
    open_page: Opener, virtual_server: Served
) -> None:
    """The server's rules data carries each payout printed in the house style ("odds"), the
    same text as the page's formatter and the rules page, for every small fraction too."""
    # Imported here: before the shared formatter existed this module still ran its other tests.
    from baccarat.payout import Payout
    from baccarat.rulespage import odds_text

    page, console = open_page(f"{virtual_server.url}/#/rules/standard", locale="en-US")
    page.wait_for_selector(".rules-bet tbody tr")
    data = httpx.get(f"{virtual_server.url}/api/rules/standard", timeout=30).json()
    on_rules = rules_cells(page)
    for bet in data["bets"]:
        for row in bet["pays"]:
            assert on_rules[bet["name"]][row["event"]] == row["odds"], (bet["name"], row)
    texts = [f"{a}:{b}" for a, b in product(range(1, 41), repeat=2)] + ["half"]
    printed = call_module(page, "format.js", "odds", [[text] for text in texts])
    assert printed == [odds_text(Payout.parse(text)) for text in texts]
    assert console.unexpected() == []
