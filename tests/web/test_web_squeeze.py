"""The player-driven squeeze in a real browser, on a virtual clock the test moves.

Ann has the largest Player stake and squeezes the Player's cards: by mouse (a short drag springs
back, a long one turns the card at once) and by keyboard (arrow keys peel, Enter turns). Bob, on
a touch screen, has the largest Banker stake and squeezes the Banker's first card by touch. A
spectator sees each peel as it happens and the time bar; with "squeeze every card myself" on,
a card stays covered on their screen until they peel it, or until the result. No card shows
before its reveal, and axe finds nothing serious on the squeezer's page.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page
from web_support import (
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    axe_serious,
    call_module,
    drive_to_open,
    serve_web,
)

pytest_plugins = ("web_support",)

TABLE_URL = "/#/tables/standard"


@pytest.fixture(scope="module")
def squeeze_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    served = serve_web(
        tmp_path_factory.mktemp("web-squeeze"),
        tables="standard",
        options=["--dealing", "face-down"],
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=250,
        result_ms=600,
        virtual_clock=True,
    )
    yield served
    served.stop()


def seat(page: Page) -> str:
    """Sit down as a guest on the table page; the player's token."""
    page.wait_for_selector(".bets .spot")
    TablePage(page).join()
    token: str = page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).token")
    return token


def bet(server: Served, token: str, round_id: int, bets: dict[str, int]) -> None:
    answer = httpx.post(
        f"{server.url}/api/tables/standard/bets",
        json={"round_id": round_id, "bets": bets},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
    )
    assert answer.status_code == 200, answer.text


def to_squeeze(server: Served, hand: str, position: int) -> dict[str, Any]:
    """Step the clock until the card at ``hand``/``position`` is being squeezed; the squeeze."""

    def squeezing() -> dict[str, Any] | None:
        squeeze: dict[str, Any] | None = server.get("/api/tables/standard")["squeeze"]
        if squeeze and (squeeze["hand"], squeeze["position"]) == (hand, position):
            return squeeze
        return None

    return server.advance_until(squeezing, f"the squeeze of {hand} {position}")


def card(hand: str, position: int) -> str:
    return f'.hand--{hand} .card[data-position="{position}"]'


def shown_cards(server: Served) -> int:
    return len(server.get("/api/tables/standard")["cards"])


def wait_peel(page: Page, hand: str, position: int, edge: str) -> None:
    page.wait_for_function(
        "([sel, edge]) => (document.querySelector(sel)?.dataset.peel ?? '').startsWith(edge + ' ')",
        arg=[card(hand, position), edge],
    )


def test_players_squeeze_by_mouse_keyboard_and_touch_while_a_spectator_watches(
    open_page: Opener, squeeze_server: Served
) -> None:
    server = squeeze_server
    url = f"{server.url}{TABLE_URL}"
    ann_page, ann_console = open_page(url)
    ann = seat(ann_page)
    bob_page, bob_console = open_page(url, has_touch=True, is_mobile=True)
    bob = seat(bob_page)
    watcher, watcher_console = open_page(url)
    watcher.wait_for_selector(".bets .spot")
    watcher.wait_for_selector(".squeeze-own__box")  # the squeeze's module, at this table only
    round_id = drive_to_open(TablePage(ann_page), server, later=False)
    bet(server, ann, round_id, {"player": 500})
    bet(server, bob, round_id, {"player": 100, "banker": 1_000})

    # Ann's first card, by mouse.
    squeeze = to_squeeze(server, "player", 0)
    assert squeeze["squeezer"].startswith("p-") and "card" not in squeeze
    mine = ann_page.wait_for_selector(f"{card('player', 0)}.card--mine")
    assert mine is not None
    assert ann_page.inner_text(".squeeze-bar__who") == "Your squeeze: the Player card"
    # Counted down on the page's own clock (the server's stands still here).
    assert ann_page.inner_text(".squeeze-bar__seconds").endswith(("seconds", "second"))
    watcher.wait_for_function(
        "n => document.querySelector('.squeeze-bar__who')?.textContent.startsWith(n)",
        arg=squeeze["squeezer"],
    )
    assert bob_page.query_selector(f"{card('player', 0)}.card--mine") is None
    assert axe_serious(ann_page) == []

    box = mine.bounding_box()
    assert box is not None
    corner = (box["x"] + box["width"] * 0.92, box["y"] + box["height"] * 0.93)
    # A short drag springs back: nothing is turned.
    ann_page.mouse.move(*corner)
    ann_page.mouse.down()
    ann_page.mouse.move(corner[0] - 8, corner[1] - 8, steps=4)
    ann_page.mouse.up()
    ann_page.wait_for_function(
        "sel => !document.querySelector(sel).dataset.peel", arg=card("player", 0)
    )
    assert shown_cards(server) == 0
    # A long one peels (the spectator sees it as it goes), and the release turns the card.
    ann_page.mouse.move(*corner)
    ann_page.mouse.down()
    ann_page.mouse.move(corner[0] - box["height"] * 0.2, corner[1] - box["height"] * 0.2, steps=6)
    wait_peel(watcher, "player", 0, "bottom-right")
    assert "card--revealed" not in (watcher.get_attribute(card("player", 0), "class") or "")
    ann_page.mouse.move(corner[0] - box["height"] * 0.45, corner[1] - box["height"] * 0.45, steps=6)
    ann_page.mouse.up()
    for page in (ann_page, watcher, bob_page):
        page.wait_for_selector(f"{card('player', 0)}.card--revealed")
    assert shown_cards(server) == 1  # turned at once: the clock did not move

    # The second by keyboard: the card is focused, arrows peel, Enter turns.
    to_squeeze(server, "player", 1)
    ann_page.wait_for_selector(f"{card('player', 1)}.card--mine")
    ann_page.wait_for_function(
        "sel => document.activeElement === document.querySelector(sel)", arg=card("player", 1)
    )
    for _ in range(4):
        ann_page.keyboard.press("ArrowUp")
    wait_peel(watcher, "player", 1, "bottom")
    assert shown_cards(server) == 1
    ann_page.keyboard.press("Enter")
    watcher.wait_for_selector(f"{card('player', 1)}.card--revealed")

    # The spectator keeps every card covered on their own screen from now on.
    watcher.check(".squeeze-own__box")
    assert watcher.evaluate("localStorage.getItem('baccarat.squeezeAll')") == "1"

    # Bob's first Banker card, by touch on his touch screen.
    to_squeeze(server, "banker", 0)
    touched = bob_page.wait_for_selector(f"{card('banker', 0)}.card--mine")
    assert touched is not None
    assert touched.evaluate("el => getComputedStyle(el).touchAction") == "none"
    box = touched.bounding_box()
    assert box is not None
    cdp = bob_page.context.new_cdp_session(bob_page)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.95
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for step in range(1, 9):
        point = {"x": x, "y": y - box["height"] * 0.07 * step}
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    wait_peel(watcher, "banker", 0, "bottom")
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    bob_page.wait_for_selector(f"{card('banker', 0)}.card--revealed")
    assert shown_cards(server) == 3

    # Turned for everyone, but covered on the spectator's screen until they peel it.
    held = watcher.wait_for_selector(f"{card('banker', 0)}.card--held")
    assert held is not None and "card--revealed" not in (held.get_attribute("class") or "")
    held.focus()
    watcher.keyboard.press("Enter")
    watcher.wait_for_selector(f"{card('banker', 0)}.card--revealed")

    # Nobody turns the next one: it turns itself at its deadline; the result shows every card.
    squeeze = to_squeeze(server, "banker", 1)
    server.advance(squeeze["deadline_ms"] - server.clock_state()["now_ms"])
    assert shown_cards(server) == 4
    server.advance_until(
        lambda: server.get("/api/tables/standard")["result"] is not None or None, "the result"
    )
    watcher.wait_for_selector(".result:not([hidden])")
    assert watcher.query_selector(".card--held") is None
    for console in (ann_console, bob_console, watcher_console):
        assert console.unexpected() == []


def test_the_peel_geometry_folds_from_the_edge_taken(
    browser: Browser, squeeze_server: Served
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{squeeze_server.url}/healthz")
        grips = [[0.9, 0.95], [0.5, 0.95], [0.05, 0.5], [0.1, 0.1], [0.97, 0.4], [0.5, 0.02]]
        assert call_module(page, "squeeze.js", "edgeAt", grips) == [
            "bottom-right",
            "bottom",
            "left",
            "top-left",
            "right",
            "top",
        ]
        shapes = call_module(
            page,
            "squeeze.js",
            "peelShapes",
            [["bottom-right", 1], ["top-left", 1], ["left", 0.5], ["bottom", 0]],
        )
        assert shapes[0]["flap"] == "polygon(30% 100%, 100% 30%, 30% 30%)"
        assert shapes[1]["flap"] == "polygon(70% 0%, 0% 70%, 70% 70%)"
        assert shapes[2]["flap"] == "polygon(45% 0%, 45% 100%, 22.5% 100%, 22.5% 0%)"
        assert shapes[2]["back"] == "polygon(100% 0%, 100% 100%, 22.5% 100%, 22.5% 0%)"
        assert shapes[3]["back"] == "polygon(0% 0%, 100% 0%, 100% 100%, 0% 100%)"
        size = {"width": 100, "height": 140}
        drags = [
            ["bottom-right", {"x": -60, "y": -60}, size],
            ["bottom", {"x": 0, "y": -31.5}, size],
            ["bottom", {"x": 0, "y": 40}, size],  # away from the card: nothing
            ["left", {"x": 200, "y": 0}, size],
        ]
        assert call_module(page, "squeeze.js", "dragProgress", drags) == [1, 0.5, 0, 1]
    finally:
        context.close()
