"""Fixtures and helpers of the browser tests: a real ``baccarat serve``, Debian's Chromium, and a
small driver for the table page.

A plain module loaded with ``pytest_plugins`` rather than a ``conftest.py``: several
``conftest.py`` files without packages make ``mypy`` see duplicate modules named ``conftest``.

Without ``/usr/bin/chromium`` the browser tests skip, unless ``BACCARAT_REQUIRE_SERVICES=1``
(then they fail).

PYTEST_DONT_REWRITE (test modules import this before pytest loads it as a plugin).
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, ViewportSize
from serving import ServerProcess, create_staff, services_required

from baccarat.cards import parse_cards
from baccarat.coup import Coup, deal

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "docs" / "screenshots"
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
#: Generous: two cores are shared by everyone's tests.
WAIT_MS = 30_000
#: The betting window of the virtual-clock servers, in virtual seconds: it closes only when a
#: test moves the clock there; meanwhile the page counts it down in real time (a display),
#: so it is long enough for the page to read as open with seconds to spare.
VIRTUAL_WINDOW_S = 120
#: A network error Chromium logs itself for an HTTP error status (the page shows its own message).
_STATUS_LOG = re.compile(r"Failed to load resource: the server responded with a status of (\d+)")

QUICK_RULES = """\
name = "quick"
extends = "standard"
title = "Quick shoe"
description = "Standard rules from one deck with an early cut card: a shoe ends every few coups."

[shoe]
decks = 1
cut_card_from_end = 40
"""


#: The table tests' server (``serving.ServerProcess``, shared by every test directory).
Served = ServerProcess


def serve_web(workdir: Path, **options: Any) -> ServerProcess:
    """``baccarat serve`` on a fresh SQLite database in ``workdir``, started."""
    return ServerProcess(f"sqlite:///{workdir / 'web.db'}", workdir, **options).start()


#: The password of the staff ``staffed_server`` makes.
STAFF_PASSWORD = "Pit-Boss-Pass-9"


def staffed_server(
    workdir: Path, staff: dict[str, str], tables: str = "standard"
) -> Iterator[ServerProcess]:
    """A served page on a virtual clock (the web tests' window and pauses) with ``staff`` (name
    to role) made by the command as an operator makes them, password ``STAFF_PASSWORD``;
    stopped after."""
    server = serve_web(
        workdir,
        tables=tables,
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=400,
        demo_credit=150_000,
        virtual_clock=True,
    )
    try:
        for name, role in staff.items():
            create_staff(server.db_url, name, role, STAFF_PASSWORD)
        yield server
    finally:
        server.stop()


def _quick_rules(folder: Path) -> str:
    """The quick table's rule set written in ``folder``: its path, for ``--tables``."""
    rules = folder / "quick.toml"
    rules.write_text(QUICK_RULES, encoding="utf-8")
    return str(rules)


@pytest.fixture(scope="session")
def virtual_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The three default tables on a virtual clock: a test moves time itself (``drive_to_open``,
    ``drive_to_result``, ``Served.advance_until``), so a loaded machine never closes a window
    or ends a result before the test has done what it came for."""
    served = serve_web(
        tmp_path_factory.mktemp("web-virtual"),
        tables="standard,no-commission,ez",
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=250,
        result_ms=1500,
        demo_credit=150_000,
        virtual_clock=True,
    )
    yield served
    served.stop()


@pytest.fixture(scope="session")
def virtual_quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One face-down table whose one-deck shoe ends every few coups (for the seed reveal), on
    a virtual clock."""
    folder = tmp_path_factory.mktemp("web-virtual-quick")
    served = serve_web(
        folder,
        tables=_quick_rules(folder),
        options=["--dealing", "face-down"],
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=250,
        result_ms=600,
        virtual_clock=True,
    )
    yield served
    served.stop()


def drive_to_open(
    table: TablePage, server: Served, table_id: str = "standard", *, later: bool = True
) -> int:
    """Move ``server``'s virtual clock until ``table_id`` opens a round later than the one the
    page shows (``later=False``: or takes bets already), and wait for the page to show it
    open; its id."""
    after = table.round_id() if later else 0
    round_id: int = server.open_round(table_id, after=after)["round"]["id"]
    table.page.wait_for_function(
        "id => Number(document.querySelector('.stage__round').dataset.round) === id"
        " && document.querySelector('.stage__phase').dataset.phase === 'open'",
        arg=round_id,
    )
    return round_id


def drive_to_result(server: Served, round_id: int, table_id: str = "standard") -> dict[str, Any]:
    """Move ``server``'s virtual clock until round ``round_id`` of ``table_id`` shows its
    result (which then stays up until the clock moves again); the table's view."""

    def shown() -> dict[str, Any] | None:
        view: dict[str, Any] = server.get(f"/api/tables/{table_id}")
        state = view["round"]
        return view if state and state["id"] == round_id and view["result"] else None

    return server.advance_until(shown, f"the result of round {round_id}")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless."""
    if not CHROMIUM.exists():
        if services_required():
            pytest.fail(f"{CHROMIUM} is required (BACCARAT_REQUIRE_SERVICES=1) but absent")
        pytest.skip(f"no browser at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@dataclass
class Console:
    """Every console error and uncaught exception of one page."""

    errors: list[str] = field(default_factory=list)

    def on_message(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def on_error(self, error: Exception) -> None:
        self.errors.append(f"uncaught: {error}")

    def unexpected(self, **allowed: int) -> list[str]:
        """Errors other than at most ``allowed["s409"]`` logs of a 409, and so on.

        Chromium itself logs every HTTP error status of a fetch; a test that provokes refusals
        says how many of each it provoked.
        """
        budget = {int(key[1:]): count for key, count in allowed.items()}
        left = []
        for text in self.errors:
            match = _STATUS_LOG.search(text)
            status = int(match.group(1)) if match else None
            if status is not None and budget.get(status, 0) > 0:
                budget[status] -= 1
            else:
                left.append(text)
        return left


Opener = Callable[..., tuple[Page, Console]]


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Opener]:
    """``open_page(url, viewport=..., **context_options)``: a page in a fresh context (so a fresh
    guest), recording console errors. Closed after the test."""
    contexts: list[BrowserContext] = []

    def opener(
        url: str, viewport: ViewportSize | None = None, **options: Any
    ) -> tuple[Page, Console]:
        # Playwright's wait_for_function evaluates its predicate as a string, which the page's
        # Content Security Policy (no 'unsafe-eval') forbids; test_web_csp plays under it.
        options.setdefault("bypass_csp", True)
        context = browser.new_context(viewport=viewport or DESKTOP, **options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        console = Console()
        page.on("console", console.on_message)
        page.on("pageerror", console.on_error)
        page.goto(url)
        return page, console

    yield opener
    for context in contexts:
        context.close()


#: axe-core, from the project's node_modules (``make install``).
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def axe_serious(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as shown, one line each (rule:
    the elements); loaded into the page once."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
             .filter((v) => v.impact === "serious" || v.impact === "critical")
             .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)"""
    )
    return found


def no_sideways_scroll(page: Page) -> None:
    """Nothing on the page is wider than its screen."""
    viewport = page.viewport_size
    assert viewport is not None
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], (
        f"the page is {width}px wide on a {viewport['width']}px screen"
    )


def wait_still(page: Page) -> None:
    """Wait until every finite animation has ended: a box measured mid-animation (a chip
    dropping, a card dealt in) is where it is passing, not where it lies. The countdown's
    ring is left out: it moves every tick while a window is open, and is never measured."""
    page.wait_for_function(
        """() => document.getAnimations().every((a) => a.playState !== 'running'
             || a.effect?.getComputedTiming().endTime === Infinity
             || a.effect?.target?.closest?.('.countdown'))"""
    )


def money(minor: int) -> str:
    """How the page writes an amount (the test's own formatting, not the page's)."""
    sign = "−" if minor < 0 else ""
    return f"{sign}${abs(minor) // 100:,}.{abs(minor) % 100:02d}"


def read_money(text: str) -> int:
    """``"$1,234.56"`` -> 123456."""
    match = re.fullmatch(r"(−?)\$([\d,]+)\.(\d\d)", text.strip())
    assert match, f"not an amount: {text!r}"
    value = int(match.group(2).replace(",", "")) * 100 + int(match.group(3))
    return -value if match.group(1) else value


class TablePage:
    """Drives the table page the way a person would: clicks, and reads what is shown."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def join(self) -> int:
        """Sit down as a guest from the top bar; the balance shown afterwards."""
        self.page.click("#join")
        self.page.wait_for_selector("#balance:not([hidden])")
        self.page.wait_for_function(
            "document.getElementById('balance-amount').textContent.includes('$')"
        )
        return self.balance()

    def open_table(self, table_id: str) -> None:
        self.page.click(f'.lobby-card[data-table="{table_id}"] a')
        self.page.wait_for_selector(".bets .spot")

    def balance(self) -> int:
        return read_money(self.page.inner_text("#balance-amount"))

    def wait_balance(self, minor: int) -> None:
        self.page.wait_for_function(
            "text => document.getElementById('balance-amount').textContent === text",
            arg=money(minor),
        )

    def phase(self) -> str:
        return self.page.get_attribute(".stage__phase", "data-phase") or ""

    def round_id(self) -> int:
        text = self.page.get_attribute(".stage__round", "data-round") or "0"
        return int(text)

    def seconds_left(self) -> int:
        text = self.page.inner_text(".countdown__seconds").strip()
        return int(text) if text else 0

    def wait_open(self, at_least: int = 2) -> int:
        """Wait for a round open for bets with ``at_least`` whole seconds left; its id."""
        deadline = time.monotonic() + WAIT_MS / 1000
        while time.monotonic() < deadline:
            self.page.wait_for_selector('.stage__phase[data-phase="open"]')
            if self.seconds_left() >= at_least:
                return self.round_id()
            self.page.wait_for_selector('.stage__phase:not([data-phase="open"])')
        raise AssertionError("no round opened with enough time left")

    def wait_next_open(self, at_least: int = 2) -> int:
        """Wait for a round later than the one shown now."""
        current = self.round_id()
        self.page.wait_for_function(
            "id => Number(document.querySelector('.stage__round').dataset.round) > id"
            " && document.querySelector('.stage__phase').dataset.phase === 'open'",
            arg=current,
        )
        return self.wait_open(at_least)

    def chip(self, minor: int) -> None:
        self.page.click(f'.chip-rack__option[data-chip="{minor}"]')

    def bet(self, spot: str, *, unavailable: bool = False) -> None:
        """Click a spot; ``unavailable`` clicks one marked aria-disabled (betting closed, or a
        spectator), which people can still press and Playwright would otherwise wait on."""
        self.page.click(f'.spot[data-bet="{spot}"]', force=unavailable)

    def action(self, name: str) -> None:
        self.page.click(f'[data-action="{name}"]')

    def stakes(self) -> dict[str, int]:
        found = self.page.eval_on_selector_all(
            ".spot [data-stake]",
            "els => els.map(el => [el.closest('.spot').dataset.bet, Number(el.dataset.stake)])",
        )
        return {str(spot): int(stake) for spot, stake in found}

    def wait_stakes(self, stakes: dict[str, int]) -> None:
        expected = sorted(stakes.items())
        self.page.wait_for_function(
            """expected => JSON.stringify([...document.querySelectorAll('.spot [data-stake]')]
                 .map(el => [el.closest('.spot').dataset.bet, Number(el.dataset.stake)])
                 .sort()) === JSON.stringify(expected)""",
            arg=[list(item) for item in expected],
        )

    def bet_in_one_window(self, plan: list[tuple[str, int]], at_least: int) -> dict[str, int]:
        """Place ``(spot, chip)`` clicks one by one, each acknowledged, all in one round; the
        stakes placed. A window that closes first (a starved machine) is a precondition missed,
        not a finding: the plan starts again in the next round, twice at most."""
        for attempt in range(3):
            if attempt:
                self.wait_next_open(at_least)
            else:
                self.wait_open(at_least)
            expected: dict[str, int] = {}
            for spot, chip in plan:
                if self.phase() != "open":  # a closed spot is not clicked: Playwright would wait
                    break
                self.chip(chip)
                self.bet(spot)
                expected[spot] = expected.get(spot, 0) + chip
                if not self._stakes_or_closed(expected):
                    break
            else:
                return expected
        raise AssertionError(f"three betting windows closed before {plan} was placed")

    def _stakes_or_closed(self, stakes: dict[str, int]) -> bool:
        """Wait until the felt shows ``stakes`` (True) or betting closes first (False)."""
        shown = self.page.wait_for_function(
            """expected => {
                 const now = JSON.stringify([...document.querySelectorAll('.spot [data-stake]')]
                   .map(el => [el.closest('.spot').dataset.bet, Number(el.dataset.stake)]).sort());
                 if (now === JSON.stringify(expected)) return 'placed';
                 const phase = document.querySelector('.stage__phase').dataset.phase;
                 return phase !== 'open' ? 'closed' : false;
               }""",
            arg=[list(item) for item in sorted(stakes.items())],
        ).json_value()
        return bool(shown == "placed")

    def cards(self) -> dict[str, list[str]]:
        """The revealed cards of each hand, by position."""
        # One script reads and maps: a re-render between a query and its map (a reload's
        # snapshot) would leave detached cards with no hand.
        found = self.page.evaluate(
            """() => [...document.querySelectorAll('.hand .card.card--revealed')].map((el) =>
                 [el.closest('.hand').dataset.hand, Number(el.dataset.position), el.dataset.card])"""
        )
        hands: dict[str, list[str]] = {"player": [], "banker": []}
        for hand, _position, code in sorted(found, key=lambda item: (item[0], item[1])):
            hands[str(hand)].append(str(code))
        return hands

    def wait_result(self) -> Coup:
        """Wait for the result banner; the coup of the cards shown, in deal order."""
        # One look at the page for both, and the cards read in that same look: a slow page
        # may show a result fading out while the next round clears the hands.
        found = self.page.wait_for_function(
            """() => {
                 if (!document.querySelector('.result:not([hidden])')) return false;
                 const hand = (name) => [...document.querySelectorAll(
                     `.hand[data-hand="${name}"] .card.card--revealed`)]
                   .sort((a, b) => Number(a.dataset.position) - Number(b.dataset.position))
                   .map((el) => el.dataset.card);
                 const player = hand('player'), banker = hand('banker');
                 return player.length >= 2 && banker.length >= 2 ? [player, banker] : false;
               }"""
        ).json_value()
        player, banker = found
        order = [player[0], banker[0], player[1], banker[1], *player[2:], *banker[2:]]
        return deal(parse_cards(" ".join(order)))

    def clear_message(self) -> None:
        self.page.evaluate("document.querySelector('.table-message').textContent = ''")

    def message(self) -> str:
        """The next message shown (the box is emptied when a request succeeds)."""
        handle = self.page.wait_for_function(
            "document.querySelector('.table-message').textContent || false"
        )
        return str(handle.json_value())

    def rounds_on_board(self) -> int:
        return int(self.page.inner_text('[data-stat="rounds"] dd'))


@pytest.fixture(scope="module")
def module_page(browser: Browser, virtual_server: Served) -> Iterator[Page]:
    """A page on the served origin, for importing the page's own ES modules."""
    context = browser.new_context()
    opened = context.new_page()
    opened.goto(f"{virtual_server.url}/healthz")
    yield opened
    context.close()


def call_module(page: Page, module: str, function: str, calls: list[list[Any]]) -> list[Any]:
    """``module.function(*args)`` for each ``args`` in ``calls``, in one round trip."""
    results: list[Any] = page.evaluate(
        """async ([path, name, calls]) => {
             const module = await import(path);
             return calls.map((args) => module[name](...args));
           }""",
        [f"/static/js/{module}", function, calls],
    )
    return results


# ---- a studio table's dealer ------------------------------------------------------------------


class StudioServer(Protocol):
    """A server with a studio table, on a virtual clock (``ServerProcess``, or a test's own)."""

    def client(self, token: str | None = None) -> httpx.Client: ...

    def get(self, path: str) -> Any: ...

    def settle(self, timeout: float = ...) -> dict[str, Any]: ...

    def step(self) -> int: ...

    def close_bets(self, table_id: str = ...) -> int: ...


class StudioDealer:
    """A studio table's dealer at its console (staff with the dealer role, docs/studio.md):
    a new shoe, then each card read as it leaves the shoe, from a shoe the test shuffled (so no
    card is read more often than a shoe holds). ``start``: the first shoe is started and burned
    at once."""

    def __init__(
        self,
        served: StudioServer,
        table: str,
        username: str,
        password: str,
        *,
        decks: int = 8,
        cut_card: int = 14,
        shuffled_by: str | None = None,
        serials: tuple[str, ...] = (),
        seed: int = 7,
        start: bool = True,
    ) -> None:
        self.served = served
        self.table = table
        self.console = f"/api/studio/tables/{table}"
        with served.client() as anyone:
            login = anyone.post(
                "/api/admin/login", json={"username": username, "password": password}
            )
        assert login.status_code == 201, login.text
        self.http = served.client(login.json()["token"])
        self.decks = decks
        self.cut_card = cut_card
        self.shuffled_by = shuffled_by or username
        self.serials = serials
        self.rng = random.Random(seed)
        self.shoe: Iterator[str] = iter(())
        self.reads = 0
        if start:
            self.new_shoe()

    def new_shoe(self) -> None:
        """A freshly shuffled shoe, started at the console (with its certificate) and burned."""
        started = self.start_shoe()
        assert started.status_code == 201, started.text
        self.burn()

    def start_shoe(self) -> httpx.Response:
        """Shuffle a shoe and ask for it at the console with its certificate (it starts now, or
        after the round in play): the answer."""
        cards = [r + s for _ in range(self.decks) for r in "A23456789TJQK" for s in "shdc"]
        self.rng.shuffle(cards)
        self.shoe = iter(cards)
        certificate = {
            "shuffled_by": self.shuffled_by,
            "cut_card": self.cut_card,
            "decks": self.decks,
            "deck_serials": list(self.serials),
        }
        answer: httpx.Response = self.http.post(f"{self.console}/shoe", json=certificate)
        return answer

    def burn(self) -> None:
        """Read the new shoe's burn: the first card, and as many more as its value."""
        self.served.settle()
        while self.due() == "burn":
            self.read()
        self.served.settle()

    def state(self) -> dict[str, Any]:
        """The console's view of the table (``next``, ``studio``, the round, the shoe, …)."""
        console = self.http.get(self.console)
        assert console.status_code == 200, console.text
        view: dict[str, Any] = console.json()
        return view

    def due(self) -> str:
        """What the console says is due next (player_1, …, wait_bets, result, burn, …)."""
        due: str = self.state()["next"]
        assert due not in ("halted", "shoe_change", "misscan_pending"), due
        return due

    def next_card(self) -> str:
        """The next card of the test's shoe, not read yet."""
        return next(self.shoe)

    def read_card(self, card: str, scan_id: str | None = None) -> httpx.Response:
        """``card`` typed at the console (a new scan id unless one is given): the answer."""
        if scan_id is None:
            self.reads += 1
            scan_id = f"web:{self.reads:06d}"
        answer: httpx.Response = self.http.post(
            f"{self.console}/cards", json={"card": card, "scan_id": scan_id}
        )
        return answer

    def read(self) -> None:
        """The shoe's next card read."""
        answer = self.read_card(self.next_card())
        assert answer.status_code == 200, answer.text

    def post(self, action: str, **body: Any) -> httpx.Response:
        """A console action (``close``, ``misscan``, ``misdeal``, ``dealer``, …)."""
        answer: httpx.Response = self.http.post(f"{self.console}/{action}", json=body)
        return answer

    def deal(self) -> None:
        """Read each card the coup in play is due (none while betting is open)."""
        while re.fullmatch(r"(?:player|banker)_[123]", self.due()):
            self.read()
            self.served.settle()

    def open_round(self) -> int:
        """Move the clock until the studio table takes bets with time to spare (dealing any
        round in the way to its end); its id."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            self.served.settle()
            self.deal()
            view = self.served.get(f"/api/tables/{self.table}")
            state = view["round"]
            if state and state["phase"] == "open":
                if state["closes_at_ms"] - view["now"] >= 10_000:
                    return int(state["id"])
                self.served.close_bets(self.table)
            else:
                self.served.step()
        raise AssertionError(f"the studio table {self.table} opened no round")
