"""An operator launches its player into the page (provider mode), end to end: the operator made
with ``baccarat operator add``, the reference wallet (``baccarat wallet reference``) as the
operator's platform, its ``/admin/launch`` signing the launch request, and the link opened in
Chromium. The page trades the link's token, takes it out of the address bar, opens the
launch's table in the launch's language and shows the operator's name and the wallet's
balance; the same link opened again is refused, in words, and so is the operator's signed
request sent twice.

Then the launched player plays at a studio table whose dealer (``web_support.StudioDealer``)
reads the cards the test chose, so the player's bet WINS: the stake is the wallet's debit (the
page shows the wallet's balance after it), the win is the wallet's credit (the page shows the
wallet's answer to it), and the wallet's own record is exactly start - stake + payout. Every
figure the page's balance showed is recorded: never one the wallet did not answer (the
internal account's 0, or the game's guess while the casino's balance moved meanwhile).
Screenshots: ``docs/screenshots/provider-table-bet-desktop.png`` and
``provider-table-won-desktop.png``.

The game server runs on a virtual clock (the tests move it); it starts at the wall clock's
time, so the operator's requests, signed by the wall clock, are within the replay window as
long as a test launches before it moves the clock far: each test here launches first.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from serving import BIN, create_staff, free_port, wait_until
from web_support import (
    DESKTOP,
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    WAIT_MS,
    Console,
    Opener,
    Served,
    StudioDealer,
    TablePage,
    drive_to_result,
    serve_web,
    wait_still,
)

from baccarat.store import Database
from baccarat.store.keyfile import KeySource
from baccarat.store.operators import operator_secrets
from baccarat.store.seal import SeedVault
from baccarat.wallet.client import wall_ms
from baccarat.wallet.contract import canonical, signed_headers

pytest_plugins = ("web_support",)

OPERATOR = "op-ref"
NAME = "Kasino Nusantara"
#: The studio table the winning player is launched to, and its dealer (staff).
STUDIO = "standard-studio"
DEALER, PASSWORD = "Dana", "Studio-Launch-Pass-7"
#: The casino's player who wins, and what the casino's wallet holds for them at the start.
WINNER, START = "sari-2", 250_000
#: A coup the dealer reads (player 1, banker 1, player 2, banker 2): Player 9 against Banker 5,
#: both naturals' rules leave it there; the player side wins, paid 1:1.
PLAYER_WINS = ("4h", "2c", "5s", "3d")
#: Every figure the top bar's balance shows, in order (a repeat of the last one is not kept).
RECORD_BALANCE = """() => {
  const el = document.getElementById('balance-amount');
  window.__balances = [];
  const look = () => {
    const text = el.textContent;
    if (window.__balances.at(-1) !== text) window.__balances.push(text);
  };
  new MutationObserver(look).observe(el, {childList: true, characterData: true, subtree: true});
  look();
}"""


class Platform:
    """The operator's platform: the reference wallet in a process of its own."""

    def __init__(self, workdir: Path, game: Served, secret: str, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        secret_file = workdir / "secret"
        secret_file.write_text(secret)
        secret_file.chmod(0o600)
        argv = [
            str(BIN / "baccarat"),
            *("wallet", "reference", "--db", str(workdir / "wallet.db")),
            *("--operator-id", OPERATOR, "--secret-file", str(secret_file)),
            *("--game-url", game.url, "--port", str(port)),
        ]
        self.errors = workdir / "wallet.err"
        with self.errors.open("wb") as err:
            self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        wait_until(self._up, 30, "the reference wallet to answer")

    def _up(self) -> bool:
        if self.process.poll() is not None:
            raise AssertionError(f"the wallet exited: {self.errors.read_text(errors='replace')}")
        try:
            return httpx.get(f"{self.url}/admin/health", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def admin(self, path: str, body: object) -> httpx.Response:
        return httpx.post(f"{self.url}{path}", json=body, timeout=15)

    def balance(self, player_id: str) -> int:
        """The wallet's own record of the player's balance (``GET /admin/players/{id}``)."""
        found = httpx.get(f"{self.url}/admin/players/{player_id}", timeout=15)
        assert found.status_code == 200, found.text
        balance: int = found.json()["balance"]
        return balance

    def transactions(self, player_id: str) -> list[dict[str, Any]]:
        """The wallet's record of the player's transactions, oldest first."""
        found = httpx.get(f"{self.url}/admin/transactions", timeout=15)
        assert found.status_code == 200, found.text
        return [row for row in found.json() if row["player_id"] == player_id]

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(10)


@pytest.fixture(scope="module")
def platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Platform]]:
    """A game server (the standard table and its studio twin, in dollars, on a virtual clock
    that starts at the wall clock's time: the reference wallet signs by the wall clock; a
    studio dealer) and the operator's platform, each knowing the other."""
    game = serve_web(
        tmp_path_factory.mktemp("game"),
        tables="standard,standard:studio",
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=400,
        virtual_clock=True,
    )
    create_staff(game.db_url, DEALER, "dealer", PASSWORD)
    port = free_port()
    added = subprocess.run(
        [
            str(BIN / "baccarat"),
            *("operator", "add", OPERATOR, "--name", NAME, "--currency", "USD"),
            *("--wallet-url", f"http://127.0.0.1:{port}", "--db", game.db_url),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert added.returncode == 0, added.stderr
    secret = added.stdout.strip().splitlines()[-1]
    wallet = Platform(tmp_path_factory.mktemp("wallet"), game, secret, port)
    try:
        yield game, wallet
    finally:
        wallet.stop()
        game.stop()


def test_a_launch_opens_the_table_in_its_language_with_the_wallets_balance(
    platform: tuple[Served, Platform], open_page: Opener
) -> None:
    _, wallet = platform
    made = wallet.admin(
        "/admin/players", {"player_id": "budi-7", "balance": 250_000, "currency": "USD"}
    )
    assert made.status_code == 200, made.text
    launched = wallet.admin(
        "/admin/launch",
        {"player_id": "budi-7", "display_name": "Budi", "language": "id", "table_id": "standard"},
    )
    assert launched.status_code == 201, launched.text
    link = launched.json()["launch_url"]
    assert "/launch?token=" in link

    page, console = open_page(link)
    expect(page).to_have_url(re.compile(r"/#/tables/standard$"))
    assert "token" not in page.url
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("#user")).to_have_text(f"Budi · {NAME}")
    balance = page.locator("#balance-amount")
    expect(balance).to_have_text(re.compile(r"\d"))
    assert re.sub(r"\D", "", balance.inner_text()) == "250000"
    expect(page.locator("#login")).to_be_hidden()
    # The page is in Indonesian: its Lobby link reads "Lobi".
    expect(page.locator('a[data-nav="lobby"]')).to_have_text("Lobi")
    assert console.unexpected() == []

    # The same link again, in another browser: it was used, and the page says so.
    again, refused = open_page(link)
    notice = again.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("used already")
    assert "token" not in again.url
    expect(again.locator("#user")).to_be_hidden()
    assert refused.unexpected(s409=1) == []


def test_a_replayed_launch_request_is_refused(platform: tuple[Served, Platform]) -> None:
    """The operator's signed request itself sent twice: the second is 409, nothing made."""
    game, _ = platform
    # The reference signs each launch anew; a thief replays the bytes it captured, signed
    # here with the operator's secret as the platform signs them.
    database = Database(game.db_url)
    try:
        with database.read() as c:
            secret = operator_secrets(c, SeedVault(KeySource(None).load), OPERATOR, wall_ms())[0]
    finally:
        database.dispose()
    body = canonical(
        {"player_id": "ani-3", "display_name": "Ani", "currency": "USD", "language": "en"}
    )
    # Signed at the game server's time (its clock is a test's, whatever another test did).
    headers = signed_headers(OPERATOR, secret, game.clock_state()["now_ms"], body)
    url = f"{game.url}/api/operators/{OPERATOR}/launch"
    first = httpx.post(url, content=body, headers=headers, timeout=15)
    assert first.status_code == 201, first.text
    second = httpx.post(url, content=body, headers=headers, timeout=15)
    assert second.status_code == 409, second.text
    assert second.json()["error"]["code"] == "replayed_request"


# ---- the launched player wins ----------------------------------------------------------------


def digits(text: str) -> int:
    """An amount as the page writes it, in minor units (``$2.525,00`` -> 252500): the page
    is in Indonesian, and every amount here has its two decimals."""
    return int(re.sub(r"\D", "", text))


@dataclass
class Seat:
    """The launched player's page at the studio table, for the module."""

    page: Page
    console: Console
    table: TablePage

    def balance(self) -> int:
        return digits(self.page.inner_text("#balance-amount"))

    def wait_balance(self, minor: int) -> None:
        self.page.wait_for_function(
            "minor => Number(document.getElementById('balance-amount').textContent"
            ".replace(/\\D/g, '')) === minor",
            arg=minor,
        )

    def shown(self) -> list[int]:
        """Every figure the balance showed since ``RECORD_BALANCE`` (or ``forget``)."""
        texts: list[str] = self.page.evaluate("window.__balances")
        return [digits(text) for text in texts]

    def forget(self) -> None:
        """Record from the figure shown now."""
        self.page.evaluate("window.__balances = [window.__balances.at(-1)]")


@pytest.fixture(scope="module")
def dealer(platform: tuple[Served, Platform]) -> Iterator[StudioDealer]:
    """Dana at the studio table's console, its first shoe started and burned."""
    game, _ = platform
    seated = StudioDealer(game, STUDIO, DEALER, PASSWORD, shuffled_by=DEALER)
    yield seated
    seated.http.close()


@pytest.fixture(scope="module")
def seat(platform: tuple[Served, Platform], browser: Browser) -> Iterator[Seat]:
    """The casino's player ``WINNER`` (``START`` at the wallet) launched in Indonesian to the
    studio table, before the clock moves: the page, recording its balance's figures."""
    _, wallet = platform
    made = wallet.admin(
        "/admin/players", {"player_id": WINNER, "balance": START, "currency": "USD"}
    )
    assert made.status_code == 200, made.text
    launched = wallet.admin(
        "/admin/launch",
        {"player_id": WINNER, "display_name": "Sari", "language": "id", "table_id": STUDIO},
    )
    assert launched.status_code == 201, launched.text
    context: BrowserContext = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    console = Console()
    page.on("console", console.on_message)
    page.on("pageerror", console.on_error)
    page.goto(launched.json()["launch_url"])
    expect(page).to_have_url(re.compile(rf"/#/tables/{STUDIO}$"))
    page.wait_for_selector(".bets .spot")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("#user")).to_have_text(f"Sari · {NAME}")
    found = Seat(page, console, TablePage(page))
    found.wait_balance(START)
    page.evaluate(RECORD_BALANCE)
    yield found
    assert console.unexpected() == []
    context.close()


def open_round(seat: Seat, dealer: StudioDealer) -> int:
    """A round of the studio table open for bets, shown on the page: its id."""
    round_id = dealer.open_round()
    seat.page.wait_for_selector(f'.stage__round[data-round="{round_id}"]')
    seat.page.wait_for_selector('.stage__phase[data-phase="open"]')
    return round_id


def deal_a_player_win(game: Served, dealer: StudioDealer, round_id: int) -> None:
    """Betting closed at the console, the cards of ``PLAYER_WINS`` read, the result shown and
    the round settled (the clock then rests: the result stays up)."""
    closed = dealer.post("close")
    assert closed.status_code == 200, closed.text
    game.settle()
    for slot, card in zip(
        ("player_1", "banker_1", "player_2", "banker_2"), PLAYER_WINS, strict=True
    ):
        assert dealer.due() == slot
        read = dealer.read_card(card)
        assert read.status_code == 200, read.text
        game.settle()
    view = drive_to_result(game, round_id, STUDIO)
    assert view["result"]["winner"] == "player", view["result"]
    game.advance_until(
        lambda: game.get(f"/api/rounds/{round_id}")["phase"] == "settled",
        f"round {round_id} settled",
    )


def test_a_launched_player_wins_and_the_page_shows_the_wallets_balance(
    platform: tuple[Served, Platform], dealer: StudioDealer, seat: Seat
) -> None:
    game, wallet = platform
    page = seat.page
    assert seat.balance() == START == wallet.balance(WINNER)
    round_id = open_round(seat, dealer)

    # The stake: the wallet's debit; the page shows the wallet's answer to it.
    stake = 2_500
    seat.table.chip(stake)
    seat.table.bet("player")
    seat.table.wait_stakes({"player": stake})
    seat.wait_balance(START - stake)
    assert wallet.balance(WINNER) == START - stake
    wait_still(page)
    page.screenshot(path=str(SCREENSHOTS / "provider-table-bet-desktop.png"))

    # The win: the round settles, the credit reaches the wallet, the page shows its answer.
    deal_a_player_win(game, dealer, round_id)
    payout = 2 * stake  # the player side pays 1:1: the stake back and as much again
    seat.wait_balance(START - stake + payout)
    assert wallet.balance(WINNER) == START - stake + payout
    expect(page.locator(".result__line--win")).to_have_text("Anda menang $25,00")
    debit, credit = wallet.transactions(WINNER)
    assert (debit["kind"], debit["status"], debit["amount"]) == ("debit", "ok", stake)
    assert (credit["kind"], credit["status"], credit["amount"]) == ("credit", "ok", payout)
    assert credit["reference_id"] == debit["transaction_id"]
    assert credit["request"]["round_id"] == str(round_id) and credit["request"]["round_closed"]
    # Every figure shown was the wallet's: the launch's, after the debit, after the credit.
    assert seat.shown() == [START, START - stake, START - stake + payout]
    wait_still(page)
    page.screenshot(path=str(SCREENSHOTS / "provider-table-won-desktop.png"))


def test_the_page_never_shows_a_guess_while_the_casinos_balance_moves(
    platform: tuple[Served, Platform], dealer: StudioDealer, seat: Seat
) -> None:
    """The casino moves the player's balance between the debit and the credit (a deposit
    there): the page goes from the wallet's balance after the debit straight to its answer
    to the credit, never through what the game alone would have made of it (after-debit +
    payout)."""
    game, wallet = platform
    round_id = open_round(seat, dealer)
    stake = 1_000
    seat.table.chip(stake)
    seat.table.bet("player")
    seat.table.wait_stakes({"player": stake})
    after_debit = wallet.balance(WINNER)
    seat.wait_balance(after_debit)
    seat.forget()
    deposit = 100_000
    topped = wallet.admin(
        "/admin/players",
        {"player_id": WINNER, "balance": after_debit + deposit, "currency": "USD"},
    )
    assert topped.status_code == 200, topped.text

    deal_a_player_win(game, dealer, round_id)
    final = after_debit + deposit + 2 * stake
    seat.wait_balance(final)
    assert wallet.balance(WINNER) == final
    expect(seat.page.locator(".result__line--win")).to_have_text("Anda menang $10,00")
    assert seat.shown() == [after_debit, final]  # never after_debit + 2 * stake


def test_a_wallets_answer_is_never_replaced_by_a_figure_asked_before_it(
    platform: tuple[Served, Platform], open_page: Opener
) -> None:
    """``account.js``: a balance asked for (``/api/me``, an undo's receipt) while the wallet's
    own answer to a credit came (the feed's ``balance``) is older than it, and is dropped."""
    game, _ = platform
    page, console = open_page(f"{game.url}/#/")
    page.wait_for_selector("#join")
    shown = page.evaluate(
        """async () => {
             const { account } = await import('/static/js/account.js');
             const seen = [];
             const asked = account.mark;           // an undo sent, or /api/me asked
             account.walletSaid(253_500);          // meanwhile: the wallet's answer
             seen.push(account.balance);
             account.setBalanceSince(252_500, asked);   // the older figure arrives: dropped
             seen.push(account.balance);
             account.setBalanceSince(251_000, account.mark);  // nothing told since: taken
             seen.push(account.balance);
             account.walletSaid('not a number');
             seen.push(account.balance, account.mark - asked);
             return seen;
           }"""
    )
    assert shown == [253_500, 253_500, 251_000, 251_000, 1]
    assert console.unexpected() == []
