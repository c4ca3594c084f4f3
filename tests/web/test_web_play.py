"""A guest at the standard table, in a real browser against a real ``baccarat serve``.

The seated guest's server runs on a virtual clock: each test moves time itself (to the next
round, to its result), so no window closes and no result goes by while a loaded machine is
slow. The tests of this module share one seated guest and run in order, one round or two each:
bets and the settled balance (recomputed with ``baccarat.settle`` from the cards the page shows),
undo / clear / rebet / double, a reload in the middle of a round, then the refusals (limit,
balance, betting closed), which spend most of the guest's money and so come last.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Request
from web_support import (
    DESKTOP,
    WAIT_MS,
    Console,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    money,
)

from baccarat.rulesets import load_ruleset
from baccarat.settle import settle

pytest_plugins = ("web_support",)

STANDARD = load_ruleset("standard")


@pytest.fixture(scope="module")
def seated(browser: Browser, virtual_server: Served) -> Iterator[tuple[TablePage, Console]]:
    """A guest who joined from the lobby and sits at the standard table (its window closes
    only when a test moves the clock)."""
    # Playwright's wait_for_function needs eval, which the page's CSP forbids (see open_page).
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    page.goto(f"{virtual_server.url}/")
    table = TablePage(page)
    table.join()
    table.open_table("standard")
    yield table, console
    context.close()


def api_balance(table: TablePage, server: Served) -> int:
    """The balance by the API, with the token the page keeps."""
    token = table.page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).token")
    response = httpx.get(
        f"{server.url}/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    balance: int = response.json()["balance"]
    return balance


def test_guest_plays_a_round(seated: tuple[TablePage, Console], virtual_server: Served) -> None:
    table_server = virtual_server
    table, console = seated
    page = table.page
    round_id = drive_to_open(table, table_server)
    start = table.balance()
    assert start == api_balance(table, table_server) == 150_000
    rounds_before = table.rounds_on_board()

    table.chip(1000)
    table.bet("player")
    table.bet("tie")
    table.wait_stakes({"player": 1000, "tie": 1000})
    table.wait_balance(start - 2000)
    assert page.inner_text(".stage__staked") == f"Your bets {money(2000)}"

    drive_to_result(table_server, round_id)
    coup = table.wait_result()
    # Read the result while it is up (until the clock moves again), then the money.
    winner = page.get_attribute(".result", "data-winner")
    result_text = page.inner_text(".result")
    totals = [page.inner_text(f".hand--{hand} .hand__total") for hand in ("player", "banker")]
    settlement = settle({"player": 1000, "tie": 1000}, coup, STANDARD)
    page.wait_for_selector(".result__line[data-tone]")
    line = page.get_attribute(".result__line", "data-tone")
    table.wait_balance(start - 2000 + settlement.returned)
    assert api_balance(table, table_server) == start + settlement.net

    assert winner == coup.winner.value
    assert f"Player {coup.player_total} – Banker {coup.banker_total}" in result_text
    assert totals == [str(coup.player_total), str(coup.banker_total)]
    assert line == ("win" if settlement.net > 0 else "lose" if settlement.net < 0 else "push")

    # The roads gained exactly this round, drawn as the winner's bead.
    page.wait_for_function(
        "n => Number(document.querySelector('[data-stat=rounds] dd').textContent) === n",
        arg=rounds_before + 1,
    )
    last_bead = page.eval_on_selector_all(
        ".roads__bead .road__bead text", "els => els.at(-1).textContent"
    )
    assert last_bead == coup.winner.letter
    assert console.unexpected() == []


def test_rebet_undo_clear_and_double(
    seated: tuple[TablePage, Console], virtual_server: Served
) -> None:
    table, console = seated
    round_id = drive_to_open(table, virtual_server)
    start = table.balance()

    table.action("rebet")  # the previous round's bets: Player 10 and Tie 10
    table.wait_stakes({"player": 1000, "tie": 1000})
    table.wait_balance(start - 2000)
    table.action("undo")  # takes back the rebet
    table.wait_stakes({})
    table.wait_balance(start)

    table.chip(1000)
    table.bet("player")
    table.bet("player")
    table.wait_stakes({"player": 2000})
    sent: list[tuple[str, str]] = []
    table.page.on("request", lambda r: sent.append((r.method, r.url)) if "/bets" in r.url else None)
    table.action("undo")  # only the last chip, in one atomic request
    table.wait_stakes({"player": 1000})
    assert [(method, url.split("&")[-1]) for method, url in sent] == [("DELETE", "last=true")]
    table.wait_balance(start - 1000)
    table.action("clear")
    table.wait_stakes({})
    table.wait_balance(start)

    table.action("double")
    table.wait_stakes({"player": 2000, "tie": 2000})
    table.wait_balance(start - 4000)
    drive_to_result(virtual_server, round_id)
    coup = table.wait_result()
    settlement = settle({"player": 2000, "tie": 2000}, coup, STANDARD)
    table.wait_balance(start - 4000 + settlement.returned)
    assert console.unexpected() == []


def test_reload_in_the_middle_of_a_round_resyncs(
    seated: tuple[TablePage, Console], virtual_server: Served
) -> None:
    table, console = seated
    page = table.page
    round_id = drive_to_open(table, virtual_server)
    start = table.balance()
    table.chip(500)
    table.bet("banker")
    table.wait_stakes({"banker": 500})

    page.reload()  # still betting: the stake, the round and the countdown come back
    page.wait_for_selector(".bets .spot")
    table.wait_stakes({"banker": 500})
    assert table.round_id() == round_id
    table.wait_balance(start - 500)

    # Dealing, two cards turned and the clock still: the reload lands in the same moment.
    virtual_server.close_bets()
    shown = virtual_server.advance_until(
        lambda: len(virtual_server.get("/api/tables/standard")["cards"]) >= 2 or None,
        "two cards turned",
    )
    assert shown
    page.wait_for_function("document.querySelectorAll('.hand .card--revealed').length === 2")
    before = table.cards()
    page.reload()  # dealing: the cards revealed so far come back from the snapshot
    page.wait_for_selector(".bets .spot")
    page.wait_for_function("document.querySelectorAll('.hand .card--revealed').length === 2")
    after = table.cards()
    assert after == before
    assert table.round_id() == round_id

    drive_to_result(virtual_server, round_id)
    coup = table.wait_result()
    settlement = settle({"banker": 500}, coup, STANDARD)
    table.wait_balance(start - 500 + settlement.returned)
    assert table.round_id() == round_id
    assert console.unexpected() == []


def test_refusals_are_shown_plainly(
    seated: tuple[TablePage, Console], virtual_server: Served
) -> None:
    table, console = seated
    page = table.page
    drive_to_open(table, virtual_server)
    assert table.balance() >= 50_000, "the guest needs $500 for this test"

    table.chip(50_000)
    table.bet("perfect_pair")  # the maximum of Perfect Pair: $500
    table.wait_stakes({"perfect_pair": 50_000})
    table.bet("perfect_pair")
    assert table.message() == "Limit exceeded: Perfect Pair takes at most $500.00 per round."
    table.wait_stakes({"perfect_pair": 50_000})

    refused = False
    for _ in range(4):  # $500 at a time until the balance runs out
        balance = table.balance()
        table.clear_message()
        table.bet("player")
        if balance < 50_000:
            assert table.message() == f"Not enough balance for that bet: you have {money(balance)}."
            refused = True
            break
        table.wait_balance(balance - 50_000)
    assert refused

    virtual_server.close_bets()
    page.wait_for_selector('.stage__phase:not([data-phase="open"])')
    table.clear_message()
    table.chip(100)
    table.bet("banker", unavailable=True)
    assert table.message() == "Betting is closed for this round. Wait for the next one."
    assert console.unexpected(s409=1, s422=2) == []


def test_a_spectator_watches_without_betting(open_page: Opener, virtual_server: Served) -> None:
    page, console = open_page(f"{virtual_server.url}/#/tables/standard")
    bet_requests: list[str] = []

    def record(request: Request) -> None:
        if "/bets" in request.url:
            bet_requests.append(request.url)

    page.on("request", record)
    page.wait_for_selector(".spectator:not([hidden])")
    assert page.inner_text("#join") == "Play as guest"
    assert page.is_hidden("#balance")
    round_id = drive_to_open(TablePage(page), virtual_server, later=False)
    drive_to_result(virtual_server, round_id)
    page.wait_for_selector(".hand .card--revealed")  # the cards are dealt for everyone
    TablePage(page).bet("player", unavailable=True)
    assert TablePage(page).message() == "You are watching. Take a seat to place bets."
    assert bet_requests == []
    assert page.get_attribute('.spot[data-bet="player"]', "aria-disabled") == "true"
    assert console.unexpected() == []
