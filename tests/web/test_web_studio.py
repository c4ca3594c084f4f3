"""The table as a studio shows it, in Chromium against real ``baccarat serve`` processes.

- Rounds are counted per table, "Shoe 12 · Round 34", alike on the table, in its details, in the
  lobby and for screen readers (the server-wide round id stays in the history).
- Between shoes the page shows the shuffle with the new shoe's commitment for a moment.
- The statistics give each result's share of the shoe's coups.
- Offline, the betting controls are disabled, and enabled again on reconnect.
- Chips on a spot never cover its name or payout, on a desktop and on a phone.

Each test watches the console: no error.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, ViewportSize, WebSocketRoute
from web_support import (
    Opener,
    Served,
    TablePage,
    drive_to_open,
    no_sideways_scroll,
    wait_still,
)

pytest_plugins = ("web_support",)

WIDE: ViewportSize = {"width": 1440, "height": 900}
NARROW: ViewportSize = {"width": 390, "height": 844}

#: Every text the page's live region says, recorded in the page (window.said).
RECORD_ANNOUNCEMENTS = """() => {
  window.said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => window.said.push(region.textContent)).observe(
    region, {childList: true, characterData: true, subtree: true});
}"""


def said(page: Page) -> list[str]:
    found: list[str] = page.evaluate("window.said")
    return found


def round_label(shoe: int, number: int) -> str:
    return f"Shoe {shoe} · Round {number}"


def test_rounds_are_counted_per_table_everywhere(open_page: Opener, virtual_server: Served) -> None:
    table_server = virtual_server
    page, console = open_page(f"{table_server.url}/#/tables/standard", viewport=WIDE)
    table = TablePage(page)
    page.wait_for_selector(".bets .spot")
    page.evaluate(RECORD_ANNOUNCEMENTS)
    drive_to_open(table, table_server)
    view = table_server.get("/api/tables/standard")
    shoe, number, round_id = view["shoe"]["number"], view["round"]["number"], view["round"]["id"]
    assert table.round_id() == round_id
    label = round_label(shoe, number)
    assert page.inner_text(".stage__round") == label
    assert page.inner_text('.info [data-fact="round"] dd') == label
    # The screen reader heard the same numbers when the round opened.
    opened = [text for text in said(page) if "place your bets" in text]
    assert opened and opened[-1] == f"{label}: place your bets."
    assert f"#{round_id}" not in page.inner_text("main")
    # The lobby's tile counts the same way.
    page.click('[data-nav="lobby"]')
    page.wait_for_selector('.lobby-card[data-table="standard"] [data-fact="round"] dd')
    tile = page.inner_text('.lobby-card[data-table="standard"] [data-fact="round"] dd')
    now = table_server.get("/api/tables/standard")
    assert tile in {
        round_label(shoe, number),
        round_label(now["shoe"]["number"], now["round"]["number"]),
    }
    assert re.fullmatch(r"Shoe \d+ · Round \d+", tile)
    assert "#" not in page.inner_text('.lobby-card[data-table="standard"]')
    assert console.unexpected() == []


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_shuffle_shows_between_shoes(
    open_page: Opener, virtual_quick_server: Served, motion: str
) -> None:
    server = virtual_quick_server
    viewport = WIDE if motion == "no-preference" else NARROW
    page, console = open_page(
        f"{server.url}/#/tables/quick", viewport=viewport, reduced_motion=motion
    )
    page.wait_for_selector(".bets .spot")
    page.evaluate(RECORD_ANNOUNCEMENTS)
    before = server.get("/api/tables/quick")["shoe"]
    assert page.is_hidden(".shuffle")
    # The one-deck shoe ends every few coups; the next one starts with the shuffle shown. The
    # clock stops at the new shoe's first window: no card comes to end the shuffle early.
    server.advance_until(
        lambda: server.get("/api/tables/quick")["shoe"]["number"] > before["number"],
        "the next shoe",
    )
    page.wait_for_selector(".shuffle:not([hidden])")
    commitment = page.inner_text(".shuffle__commitment")
    view = server.get("/api/tables/quick")
    shoe = view["shoe"]
    assert shoe["number"] == before["number"] + 1
    assert commitment == shoe["commitment"] != before["commitment"]
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert page.inner_text(".shuffle__title") == "Shuffling — new shoe"
    assert page.inner_text(".shuffle__shoe") == f"Shoe {shoe['number']}"
    # The new commitment is the fairness panel's too, and the screen reader heard the shuffle.
    assert commitment in page.inner_text(".fair")
    page.wait_for_function(
        "n => window.said.includes(`Shuffling — new shoe ${n}. Its commitment is in the fairness panel.`)",
        arg=shoe["number"],
    )
    # Over the card area, whole and readable: inside the stage, nothing cut.
    box, stage = page.locator(".shuffle").bounding_box(), page.locator(".stage").bounding_box()
    assert box is not None and stage is not None
    assert box["width"] == pytest.approx(stage["width"], abs=1)
    fits = page.eval_on_selector(".shuffle", "el => el.scrollHeight <= el.clientHeight + 1")
    assert fits, "the shuffle notice overflows the card area"
    deck = page.eval_on_selector(".shuffle__deck span", "el => getComputedStyle(el).animationName")
    assert deck == ("none" if motion == "reduce" else "shuffle-riffle")
    # For a moment: the page ends it on its own, before the new shoe's first card.
    page.wait_for_selector(".shuffle", state="hidden")
    assert server.get("/api/tables/quick")["cards"] == []
    assert console.unexpected() == []


SHARED = ("banker", "player", "tie", "banker_pairs", "player_pairs")


def percent(count: int, rounds: int) -> str:
    """A whole percent rounded half up, as Intl writes it in English."""
    return f"{(200 * count + rounds) // (2 * rounds)}%"


@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["desktop", "phone"])
def test_statistics_give_each_results_share_of_the_shoe(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize
) -> None:
    table_server = virtual_server
    page, console = open_page(f"{table_server.url}/#/tables/standard", viewport=viewport)
    table = TablePage(page)
    page.wait_for_selector(".bets .spot")
    stats: dict[str, int] = {}
    for _ in range(5):  # a shoe that has just begun has no coup yet
        drive_to_open(table, table_server)
        stats = table_server.get("/api/tables/standard")["roads"]["stats"]
        if stats["rounds"]:
            break
    rounds = stats["rounds"]
    assert rounds > 0
    page.wait_for_function(
        "n => Number(document.querySelector('[data-stat=rounds] dd').textContent) === n", arg=rounds
    )
    for key in SHARED:
        item = page.locator(f'[data-stat="{key}"]')
        assert int(item.locator("dd").first.inner_text()) == stats[key]
        share = item.locator(".stat__share")
        assert share.inner_text() == percent(stats[key], rounds), key
        assert (
            share.get_attribute("aria-label")
            == f"{percent(stats[key], rounds)} of this shoe's rounds"
        )
    # Player, Banker and Tie share out every coup.
    main = sum(stats[key] for key in ("banker", "player", "tie"))
    assert main == rounds
    assert page.locator('[data-stat="rounds"] .stat__share').count() == 0
    no_sideways_scroll(page)
    assert console.unexpected() == []


FEED = re.compile(r"/ws/tables/")
#: Counts the page's bet requests (window.betCalls), synchronously as fetch is called.
COUNT_BET_CALLS = """() => {
  window.betCalls = 0;
  const real = window.fetch;
  window.fetch = (input, init) => {
    if (String(input instanceof Request ? input.url : input).includes('/bets')) window.betCalls += 1;
    return real(input, init);
  };
}"""
CONTROLS_DISABLED = """() => [...document.querySelectorAll('.spot, .rack__actions button')]
  .every((el) => el.disabled)
  && document.querySelector('.chip-rack').disabled
  && [...document.querySelectorAll('.chip-rack input')].every((el) => el.matches(':disabled'))"""
CONTROLS_ENABLED = """() => [...document.querySelectorAll('.spot, .rack__actions button')]
  .every((el) => !el.disabled)
  && !document.querySelector('.chip-rack').disabled
  && [...document.querySelectorAll('.chip-rack input')].every((el) => el.matches(':enabled'))"""


@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["desktop", "phone"])
def test_offline_the_betting_controls_are_disabled(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize
) -> None:
    page, console = open_page(f"{virtual_server.url}/", viewport=viewport)
    state = {"down": False}
    sockets: list[WebSocketRoute] = []

    def feed(socket: WebSocketRoute) -> None:
        if state["down"]:
            socket.close(code=1012, reason="test: the server is away")
            return
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(FEED, feed)
    table = TablePage(page)
    table.join()
    table.open_table("standard")
    page.wait_for_selector('#connection[data-status="live"]')
    # The clock stands still from here: the same window is open before and after the outage.
    drive_to_open(table, virtual_server, later=False)
    assert page.evaluate(CONTROLS_ENABLED)
    page.evaluate(COUNT_BET_CALLS)
    chips = [
        int(c)
        for c in page.eval_on_selector_all(
            ".chip-rack__option", "els => els.map(e => e.dataset.chip)"
        )
    ]
    chosen = page.eval_on_selector(".chip-rack input:checked", "el => el.value")

    state["down"] = True
    sockets[-1].close(code=1012, reason="test: dropped")
    page.wait_for_selector("#connection-banner:not([hidden])")
    page.wait_for_function(CONTROLS_DISABLED)
    assert page.is_visible(".table-view.is-offline")
    # Presses do nothing: no other chip is chosen, no bet is sent, nothing is staked.
    page.click(f'.chip-rack__option[data-chip="{chips[-1]}"]', force=True)
    assert page.eval_on_selector(".chip-rack input:checked", "el => el.value") == chosen
    page.click('.spot[data-bet="player"]', force=True)
    page.click('[data-action="rebet"]', force=True)
    assert page.evaluate("window.betCalls") == 0
    assert table.stakes() == {}
    # Still disabled while it keeps retrying, enabled again once the feed is back.
    page.wait_for_function("() => document.getElementById('connection').dataset.status !== 'live'")
    assert page.evaluate(CONTROLS_DISABLED)

    state["down"] = False
    page.wait_for_selector("#connection-banner", state="hidden", timeout=20_000)
    page.wait_for_function(CONTROLS_ENABLED)
    assert not page.is_visible(".table-view.is-offline")
    table.wait_open(at_least=2)
    table.chip(chips[0])
    table.bet("player")
    table.wait_stakes({"player": chips[0]})
    assert console.unexpected() == []


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share any area (touching edges do not count)."""
    return (
        min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"]) > 0.5
        and min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"]) > 0.5
    )


#: Each staked spot's box, and the boxes of its chip stack, name, payout and note.
SPOT_BOXES = """() => [...document.querySelectorAll('.spot.has-stake')].map((spot) => {
  const box = (el) => { const r = el.getBoundingClientRect();
                        return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const part = (selector) => {
    const el = spot.querySelector(selector);
    return el && getComputedStyle(el).display !== 'none' ? box(el) : null;
  };
  return {bet: spot.dataset.bet, spot: box(spot), stake: part('.spot__stake'),
          name: part('.spot__name'), odds: part('.spot__odds'), note: part('.spot__note')};
})"""


@pytest.mark.parametrize("viewport", [WIDE, NARROW], ids=["desktop", "phone"])
def test_chips_never_cover_a_spots_name_or_payout(
    open_page: Opener, virtual_server: Served, viewport: ViewportSize
) -> None:
    table_server = virtual_server
    page, console = open_page(f"{table_server.url}/", viewport=viewport)
    table = TablePage(page)
    table.join()
    table.open_table("ez")  # the table with side bets: the narrowest spots
    # On the virtual clock the window stays open for as many acknowledged clicks as it takes.
    drive_to_open(table, table_server, "ez", later=False)
    spots = page.eval_on_selector_all(".spot", "els => els.map(e => e.dataset.bet)")
    chips = sorted(
        int(c)
        for c in page.eval_on_selector_all(
            ".chip-rack__option", "els => els.map(e => e.dataset.chip)"
        )
    )
    limits = table_server.get("/api/tables/ez")["bets"]
    plan: list[tuple[str, int]] = []
    for spot in spots:
        # The widest amount a spot takes here: its largest chip within its limit and the credit.
        fitting = [c for c in chips if limits[spot]["min_stake"] <= c <= limits[spot]["max_stake"]]
        plan.append((spot, fitting[min(2, len(fitting) - 1)]))
    table.bet_in_one_window(plan, at_least=1)
    wait_still(page)
    boxes = page.evaluate(SPOT_BOXES)
    assert {entry["bet"] for entry in boxes} == set(spots)
    for entry in boxes:
        stake, where = entry["stake"], entry["spot"]
        assert stake is not None, entry["bet"]
        for part in ("name", "odds", "note"):
            if entry[part] is not None:
                assert not overlaps(stake, entry[part]), (
                    f"the chips cover {entry['bet']}'s {part}: {entry}"
                )
        # And the stack lies on its own spot.
        assert (
            where["x"] - 0.5 <= stake["x"]
            and stake["x"] + stake["width"] <= where["x"] + where["width"] + 0.5
        ), entry
        assert (
            where["y"] - 0.5 <= stake["y"]
            and stake["y"] + stake["height"] <= where["y"] + where["height"] + 0.5
        )
    no_sideways_scroll(page)
    assert console.unexpected() == []
