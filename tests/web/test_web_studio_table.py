"""The players' page at a studio table (docs/studio.md, "On the players' page"), in Chromium
against a real ``baccarat serve`` whose two studio tables are dealt as a studio deals them: a
dealer (staff made with the command) at the console API (``web_support.StudioDealer``), cards
read one by one from a shoe the test shuffled, and a supervisor who resolves what waits for
one, as ``tests/studiotable`` drives them.

- Before the first shoe the page says the table waits for one; the fairness panel is the studio
  shoe's ("cards as read"), with no seed to send even for a seated player, and the roads' note
  says where the cards come from. A new shoe names who shuffled it, its certificate (who,
  when, the decks and their serials, the cut card) is in the panel; each dealer who takes the
  table is named, in a notice and in the table's details.
- An impossible card halts the table: the notice stays for as long as the halt (past an
  event's few seconds, past the server's clock moving on), a newcomer sees it from the
  snapshot (in Bahasa Indonesia), axe-core finds no serious or critical violation with it shown
  (both languages, both sizes); the screenshot ``docs/screenshots/studio-halted-desktop.png``.
  The supervisor sets the card aside: the notice says the game goes on.
- A misscan waits for the supervisor, then is confirmed; a card drawn before betting closed
  voids the round (every stake back, said by the void notice); a shoe change asked mid-round
  comes after it; a misdeal voids the round.
- The ended shoe's record is checked in the browser (``studioverify.js``): a tick on the
  certificate, the reads, the payouts and every coup, as ``baccarat verify`` finds it, in
  English and in Indonesian.
- The second table (one deck, an early cut card) deals by the house's other procedures, chosen
  in the back office for its shoe: a card drawn before betting closed is burned and betting
  goes on; a misdeal is dealt on as a dummy hand; its shoe runs out by the cut card and the
  last-coup rule and verifies in the browser too.

No message of the feed carries a card before its own ``card`` event (the notices never do:
they are checked for card codes). No console error on any page.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize
from serving import ServerProcess, create_staff
from test_web_axe import AXE
from test_web_video import serious, start_axe
from web_support import (
    PHONE,
    QUICK_RULES,
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    WAIT_MS,
    Console,
    Served,
    StudioDealer,
    TablePage,
    drive_to_result,
    no_sideways_scroll,
    wait_still,
)

from baccarat.verify import verify_record

pytest_plugins = ("web_support",)

DESKTOP: ViewportSize = {"width": 1440, "height": 900}
STUDIO = "standard-studio"
QUICK = "quick-studio"
DEALER, OTHER_DEALER, SUPERVISOR = "Dana", "Rui", "sam"
PASSWORD = "Studio-Web-Pass-2026"
SERIALS = tuple(f"B-{n:03d}" for n in range(1, 9))
#: An event's notice stays this long (studionotice.js EVENT_MS), a state's as long as it lasts.
EVENT_S = 8
#: A card code anywhere in a text (a notice must never show one).
CARD_CODE = re.compile(r"\b(?:[A2-9TJQK]|10)[cdhs]\b")

#: Every studio notice the page shows and everything its live region says, recorded in the page.
RECORD = """() => {
  window.__notices = []; window.__said = [];
  const region = document.getElementById('announcer');
  new MutationObserver(() => {
    if (region.textContent) window.__said.push(region.textContent);
  }).observe(region, {childList: true, characterData: true, subtree: true});
  const look = () => {
    for (const el of document.querySelectorAll('.studio-notice:not([hidden])')) {
      const seen = `${el.dataset.notice}|${el.textContent}`;
      if (window.__notices.at(-1) !== seen) window.__notices.push(seen);
    }
  };
  new MutationObserver(look).observe(document.body,
    {subtree: true, childList: true, attributes: true, characterData: true});
  look();
}"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Two studio tables, on a virtual clock: the standard rules from eight decks, and the
    quick rules' one deck; two dealers and a supervisor (an operator)."""
    folder = tmp_path_factory.mktemp("web-studio-table")
    rules = folder / "quick.toml"
    rules.write_text(QUICK_RULES, encoding="utf-8")
    db_url = f"sqlite:///{folder / 'web.db'}"
    for name, role in ((DEALER, "dealer"), (OTHER_DEALER, "dealer"), (SUPERVISOR, "operator")):
        create_staff(db_url, name, role, PASSWORD)
    server = ServerProcess(
        db_url,
        folder,
        tables=f"standard:studio,{rules}:studio",
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=250,
        result_ms=1500,
        demo_credit=150_000,
        virtual_clock=True,
    ).start()
    yield server
    server.stop()


class Staff:
    """A member of staff's token, for the back office and the studio's routes."""

    def __init__(self, served: Served, username: str) -> None:
        with served.client() as anyone:
            login = anyone.post(
                "/api/admin/login", json={"username": username, "password": PASSWORD}
            )
        assert login.status_code == 201, login.text
        self.http = served.client(login.json()["token"])

    def post(self, path: str, reason: str = "checked") -> httpx.Response:
        answer: httpx.Response = self.http.post(path, json={"reason": reason})
        return answer


@pytest.fixture(scope="module")
def supervisor(served: Served) -> Iterator[Staff]:
    staff = Staff(served, SUPERVISOR)
    yield staff
    staff.http.close()


@pytest.fixture(scope="module")
def dealer(served: Served) -> Iterator[StudioDealer]:
    """Dana at the standard studio table's console; no shoe yet (the first test starts it)."""
    seated = StudioDealer(
        served, STUDIO, DEALER, PASSWORD, shuffled_by=DEALER, serials=SERIALS, start=False
    )
    yield seated
    seated.http.close()


class Player:
    """A guest's page at a table, its console errors and what it recorded."""

    def __init__(self, browser: Browser, url: str, locale: str = "en-US") -> None:
        self.context: BrowserContext = browser.new_context(
            viewport=DESKTOP, locale=locale, bypass_csp=True
        )
        self.context.set_default_timeout(WAIT_MS)
        self.page = self.context.new_page()
        self.console = Console()
        self.page.on("console", self.console.on_message)
        self.page.on("pageerror", self.console.on_error)
        self.page.goto(url)
        self.page.wait_for_selector(".bets .spot")
        self.page.evaluate(RECORD)
        self.table = TablePage(self.page)

    def notice(self) -> tuple[str, str] | None:
        """The studio notice shown now: (its name, its text), or None."""
        found = self.page.evaluate(
            """() => { const el = document.querySelector('.studio-notice');
                 return el && !el.hidden ? [el.dataset.notice, el.textContent] : null; }"""
        )
        return None if found is None else (str(found[0]), str(found[1]))

    def mark(self) -> int:
        """How many notices the page has shown so far (for ``wait_notice``'s ``since``)."""
        return len(self.notices())

    def wait_notice(self, name: str, text: str, since: int = 0) -> None:
        """Wait until the page has shown the notice ``name`` with ``text`` (after the first
        ``since`` it showed; it may be gone again: an event's notice lasts a few seconds)."""
        self.page.wait_for_function(
            "([seen, since]) => window.__notices.slice(since).includes(seen)",
            arg=[f"{name}|{text}", since],
        )

    def wait_state(self, name: str, text: str) -> None:
        """Wait until the notice ``name`` with ``text`` is shown now."""
        self.page.wait_for_function(
            """([name, text]) => { const el = document.querySelector('.studio-notice');
                 return !el.hidden && el.dataset.notice === name && el.textContent === text; }""",
            arg=[name, text],
        )

    def fact(self, key: str) -> str | None:
        found = self.page.query_selector(f'.info__facts [data-fact="{key}"] dd')
        return None if found is None else found.inner_text()

    def notices(self) -> list[str]:
        found: list[str] = self.page.evaluate("window.__notices")
        return found

    def wait_said(self, text: str) -> None:
        """Wait until the page's live region has said ``text`` (a moment after it is shown)."""
        self.page.wait_for_function("text => window.__said.includes(text)", arg=text)

    def close(self) -> None:
        self.context.close()


@pytest.fixture(scope="module")
def player(browser: Browser, served: Served) -> Iterator[Player]:
    """A seated guest at the standard studio table, in English, for the whole module."""
    opened = Player(browser, f"{served.url}/#/tables/{STUDIO}")
    opened.table.join()
    yield opened
    assert opened.console.unexpected() == []
    assert not [text for text in opened.notices() if CARD_CODE.search(text)]
    opened.close()


def axe_serious(pages: list[Page]) -> dict[str, list[dict[str, Any]]]:
    """axe-core on each page at both sizes: the serious and critical violations."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")
    found: dict[str, list[dict[str, Any]]] = {}
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        for page in pages:
            start_axe(page, viewport)
        for page in pages:
            language = page.evaluate("document.documentElement.lang")
            found[f"{language} / {size}"] = serious(page)
    for page in pages:
        page.set_viewport_size(DESKTOP)
    return {where: violations for where, violations in found.items() if violations}


def place_bet(player: Player, spot: str = "banker") -> int:
    """The smallest chip on ``spot`` of the open round, accepted: its amount."""
    page = player.page
    page.wait_for_selector('.stage__phase[data-phase="open"]')
    chip = int(page.eval_on_selector(".chip-rack__option", "el => el.dataset.chip"))
    player.table.chip(chip)
    player.table.bet(spot)
    player.table.wait_stakes({spot: chip})
    return chip


def open_round(player: Player, dealer: StudioDealer) -> int:
    """A round of the dealer's table open for bets, shown on the page: its id."""
    round_id = dealer.open_round()
    player.page.wait_for_selector(f'.stage__round[data-round="{round_id}"]')
    player.page.wait_for_selector('.stage__phase[data-phase="open"]')
    return round_id


def close(dealer: StudioDealer) -> None:
    """The dealer closes betting at the console (this table allows an early close)."""
    answer = dealer.post("close")
    assert answer.status_code == 200, answer.text
    dealer.served.settle()


# ---- before and at the first shoe -----------------------------------------------------------


def test_the_first_shoe_names_who_shuffled_it_and_each_dealer_is_named(
    player: Player, dealer: StudioDealer, served: Served
) -> None:
    page = player.page
    # No shoe yet: the table says what it waits for; the panel is a studio shoe's.
    player.wait_state("no_shoe", "Waiting for the dealer's new shoe.")
    assert page.inner_text(".fair summary") == "Studio shoe — cards as read"
    assert page.inner_text(".fair > .fair__intro") == (
        "A dealer deals from a real shoe. Every card is read as it leaves the shoe, before it is"
        " shown; the record of the whole shoe is published when it ends."
    )
    # A seated player, and still no seed to send: the server refuses seeds for studio shoes.
    assert page.is_hidden("#fair-seed") and page.is_hidden(".fair__seed")
    assert page.inner_text(".roads__note") == (
        "Roads record the past; they predict nothing. Every card comes from the shoe the dealer"
        " shuffled, read as it leaves."
    )
    assert axe_serious([page]) == {}
    # Both tables are studio tables over rule sets that share a title: the strip says each is live.
    page.wait_for_selector(".strip__item .strip__name:not(:empty)")
    names = page.locator(".strip__item .strip__name").all_inner_texts()
    assert names and all(name.startswith("Live studio · ") for name in names), names

    since = player.mark()
    dealer.new_shoe()
    player.wait_notice("shoe_change", "New shoe, shuffled by Dana.", since)
    shoe = served.get(f"/api/tables/{STUDIO}")["shoe"]
    certificate = shoe["certificate"]
    assert shoe["kind"] == "studio" and certificate["deck_serials"] == list(SERIALS)
    page.wait_for_selector(f'.fair__list [data-shoe="{shoe["id"]}"]')
    rows = page.eval_on_selector_all(
        ".fair__list [data-cert]",
        """els => els.map((el) => [el.dataset.cert, el.querySelector('dt').textContent,
                                   el.querySelector('dd').textContent])""",
    )
    shuffled_at = time.strftime(
        "%Y-%m-%d %H:%M:%S", time.gmtime(certificate["shuffled_at"] // 1000)
    )
    assert [tuple(row) for row in rows] == [
        ("shuffled-by", "Shuffled by", "Dana"),
        ("shuffled-at", "Shuffled", f"{shuffled_at} UTC"),
        ("decks", "Decks", "8"),
        ("serials", "Deck serials", ", ".join(SERIALS)),
        ("cut-card", "Cut card", "14 cards from the end"),
    ]
    assert page.query_selector(".fair__hex") is None  # no commitment, no seed

    # Dealers take the table: each is named, in a notice and in the details.
    assert player.fact("dealer") is None
    since = player.mark()
    assert dealer.post("dealer").status_code == 200
    player.wait_notice("dealer_change", "Your dealer is now Dana.", since)
    page.wait_for_function(
        "() => document.querySelector('[data-fact=\"dealer\"] dd')?.textContent === 'Dana'"
    )
    assert page.inner_text('.info__facts [data-fact="dealer"] dt') == "Dealer"
    other = StudioDealer(served, STUDIO, OTHER_DEALER, PASSWORD, start=False)
    try:
        assert other.post("dealer").status_code == 200
    finally:
        other.http.close()
    player.wait_notice("dealer_change", "Your dealer is now Rui.", since)
    page.wait_for_function(
        "() => document.querySelector('[data-fact=\"dealer\"] dd')?.textContent === 'Rui'"
    )
    since = player.mark()
    assert dealer.post("dealer").status_code == 200
    player.wait_notice("dealer_change", "Your dealer is now Dana.", since)
    # Each notice was said through the live region as it came.
    for text in ("New shoe, shuffled by Dana.", "Your dealer is now Rui."):
        player.wait_said(text)


# ---- a halt, a misscan ----------------------------------------------------------------------


def test_a_halt_shows_for_as_long_as_it_lasts_and_to_a_newcomer(
    browser: Browser,
    player: Player,
    dealer: StudioDealer,
    served: Served,
    supervisor: Staff,
) -> None:
    page = player.page
    round_id = open_round(player, dealer)
    place_bet(player)
    close(dealer)
    dealer.read()  # player_1
    dealer.read()  # banker_1
    served.settle()
    # The shoe sends a scan id it sent before, with another card: the table halts.
    conflict = dealer.read_card("Qs", "web:000001")
    assert conflict.status_code == 409 and conflict.json()["error"]["code"] == "table_halted"
    halted_at = time.monotonic()
    halted = "The table is paused while the supervisor checks a card."
    player.wait_state("halted", halted)
    assert page.get_attribute(".studio-notice", "data-tone") == "alert"
    player.wait_said(halted)

    # A newcomer, in Bahasa Indonesia, learns of it from the snapshot.
    newcomer = Player(browser, f"{served.url}/#/tables/{STUDIO}", locale="id-ID")
    try:
        newcomer.wait_state("halted", "Meja dijeda sementara supervisor memeriksa sebuah kartu.")
        assert newcomer.fact("dealer") == "Dana"
        assert newcomer.page.inner_text('.info__facts [data-fact="dealer"] dt') == "Dealer meja"
        # The halt's notice over a table whose dealing is stopped, at a desktop's size.
        wait_still(page)
        no_sideways_scroll(page)
        page.screenshot(path=str(SCREENSHOTS / "studio-halted-desktop.png"))
        assert axe_serious([page, newcomer.page]) == {}
        # Past an event's few seconds, and the server's clock moving on: still halted.
        time.sleep(max(0.0, EVENT_S + 1 - (time.monotonic() - halted_at)))
        served.advance(60_000)
        for shown in (player, newcomer):
            assert (shown.notice() or ("", ""))[0] == "halted"
        assert served.get(f"/api/tables/{STUDIO}")["round"]["phase"] != "settled"

        # The supervisor sets the card aside: the game goes on.
        assert supervisor.post(f"/api/studio/tables/{STUDIO}/halt/discard").status_code == 200
        player.wait_state("resumed", "The supervisor has checked the card: the game goes on.")
        newcomer.wait_state("resumed", "Supervisor sudah memeriksa kartu itu: permainan berlanjut.")
        assert newcomer.console.unexpected() == []
    finally:
        newcomer.close()

    # A card left unread, typed by hand: it waits for the supervisor, then counts.
    card = dealer.next_card()
    assert dealer.post("misscan", card=card, reason="left unread").status_code == 200
    player.wait_state("misscan", "A card is being confirmed by the supervisor.")
    assert page.get_attribute(".studio-notice", "data-tone") == "alert"
    assert supervisor.post(f"/api/studio/tables/{STUDIO}/misscan/confirm").status_code == 200
    player.wait_state("misscan_confirmed", "The supervisor confirmed the card.")
    page.wait_for_function("document.querySelectorAll('.card.card--revealed').length === 3")
    dealer.deal()
    view = drive_to_result(served, round_id, STUDIO)
    coup = player.table.wait_result()
    assert [card.code for card in coup.cards] == [
        card["card"] for card in sorted(view["cards"], key=lambda card: card["index"])
    ]


def test_a_card_drawn_before_betting_closed_voids_the_round(
    player: Player, dealer: StudioDealer, served: Served
) -> None:
    page = player.page
    round_id = open_round(player, dealer)
    balance = player.table.balance()
    stake = place_bet(player, "player")
    player.table.wait_balance(balance - stake)
    dealer.read()  # while betting is open: game before time
    page.wait_for_selector(f'.void-notice[data-round="{round_id}"]')
    # Named as the table names it: its shoe's number there and its number in that shoe.
    shoe = served.get(f"/api/tables/{STUDIO}")["shoe"]["number"]
    number = served.get(f"/api/rounds/{round_id}")["number"]
    named = f"Shoe {shoe} · Round {number}"
    assert page.inner_text(".void-notice__text") == f"{named} void — stakes returned"
    assert page.inner_text(".void-notice__reason") == (
        "A card was drawn before betting closed: the round is void and every stake is returned."
    )
    player.table.wait_balance(balance)
    # Told once, by the void notice: no studio notice says it again.
    assert not [text for text in player.notices() if text.startswith("before_time")]


def test_a_shoe_change_asked_mid_round_comes_after_a_misdeal(
    player: Player, dealer: StudioDealer, served: Served
) -> None:
    page = player.page
    first_shoe = served.get(f"/api/tables/{STUDIO}")["shoe"]["id"]
    round_id = open_round(player, dealer)
    close(dealer)
    dealer.read()
    dealer.read()
    since = player.mark()
    assert dealer.start_shoe().status_code == 201
    player.wait_notice("shoe_change_next", "A new shoe comes after this round.", since)
    assert dealer.post("misdeal", reason="card exposed").status_code == 200
    page.wait_for_selector(f'.void-notice[data-round="{round_id}"]')
    assert page.inner_text(".void-notice__reason") == (
        "The dealer called a misdeal; every stake is returned."
    )
    # After the round, the new shoe: who shuffled it; then its burn.
    served.advance_until(
        lambda: served.get(f"/api/tables/{STUDIO}")["shoe"]["id"] != first_shoe, "the new shoe"
    )
    player.wait_notice("shoe_change", "New shoe, shuffled by Dana.", since)
    dealer.burn()
    ended = served.get(f"/api/tables/{STUDIO}")["previous_shoe"]
    assert ended["id"] == first_shoe and ended["kind"] == "studio"


# ---- the ended shoe, checked in the browser --------------------------------------------------


def verify_here(page: Page, shoe_id: str) -> dict[str, Any]:
    """Press **Verify in this browser** for the ended shoe ``shoe_id``; what the panel shows."""
    page.wait_for_selector(f'.fair__revealed[data-shoe="{shoe_id}"]')
    page.click(f'.fair__revealed[data-shoe="{shoe_id}"] .fair__verify-here')
    page.wait_for_selector(f'.fair__check[data-shoe="{shoe_id}"][data-verdict]')
    found: dict[str, Any] = page.evaluate(
        """() => ({
             heading: document.querySelector('.fair__revealed .fair__heading').textContent,
             verdict: document.querySelector('.fair__check').dataset.verdict,
             summary: document.querySelector('.fair__summary').textContent,
             checks: Object.fromEntries([...document.querySelectorAll('.fair__marks [data-check]')]
               .map((el) => [el.dataset.check, el.dataset.ok])),
             coups: [...document.querySelectorAll('.fair__coups [data-coup]')]
               .map((el) => el.dataset.ok),
             problems: [...document.querySelectorAll('.fair__problem')].map((el) => el.textContent),
             note: [...document.querySelectorAll('.fair__check .fair__algo')].at(-1)?.textContent,
           })"""
    )
    return found


def test_the_ended_shoe_verifies_in_the_browser_in_both_languages(
    browser: Browser, player: Player, served: Served
) -> None:
    shoe = served.get(f"/api/tables/{STUDIO}")["previous_shoe"]
    record = served.get(f"/api/shoes/{shoe['id']}/record")
    assert record["format"] == "baccarat-studio-record/1"
    report = verify_record(record)
    assert report.ok, [str(f) for f in report.failures]
    # The record holds what the tests above did: the impossible read set aside, the misscan,
    # a void before time and a misdeal.
    assert [entry["kind"] for entry in record["set_aside"]] == ["impossible", "misscan"]
    assert sum(1 for coup in record["coups"] if coup.get("voided")) >= 1
    reads = len(record["reads"])
    coups = len(record["coups"])
    found = verify_here(player.page, shoe["id"])
    assert found["heading"] == f"Shoe {shoe['id']} ended: its record is published"
    assert found["verdict"] == "ok", found
    assert found["summary"] == (
        f"✓ Verified: all {reads} cards read follow the shoe's rules, and all {coups} coups are"
        " the cards read for them, every payout too."
    )
    assert found["checks"] == {"certificate": "true", "reads": "true", "payouts": "true"}
    assert found["coups"] == ["true"] * coups and found["problems"] == []
    assert found["note"].startswith("Checked here: every card read against the burn")

    indonesian = Player(browser, f"{served.url}/#/tables/{STUDIO}", locale="id-ID")
    try:
        found = verify_here(indonesian.page, shoe["id"])
        assert found["heading"] == f"Shoe {shoe['id']} selesai: catatannya diterbitkan"
        assert found["summary"] == (
            f"✓ Terverifikasi: semua {reads} kartu yang dibaca mengikuti aturan shoe, dan semua"
            f" {coups} ronde sama dengan kartu yang dibaca untuknya, termasuk pembayarannya."
        )
        assert indonesian.page.inner_text(".fair summary") == (
            "Shoe studio — kartu sesuai hasil baca"
        )
        assert axe_serious([indonesian.page]) == {}
        assert indonesian.console.unexpected() == []
    finally:
        indonesian.close()


# ---- the house's other procedures, and a shoe run out ----------------------------------------


def test_burned_cards_a_dummy_hand_and_a_shoe_run_out_by_its_cut_card(
    browser: Browser, served: Served, supervisor: Staff
) -> None:
    change = supervisor.http.put(
        f"/api/admin/tables/{QUICK}/next-shoe",
        json={"reason": "house rule", "before_time": "burn", "exposed": "dummy"},
    )
    assert change.status_code == 200, change.text
    watcher = Player(browser, f"{served.url}/#/tables/{QUICK}")
    quick = StudioDealer(served, QUICK, DEALER, PASSWORD, decks=1, cut_card=30, seed=11)
    try:
        watcher.wait_notice("shoe_change", "New shoe, shuffled by Dana.")
        page = watcher.page
        shoe_id = served.get(f"/api/tables/{QUICK}")["shoe"]["id"]
        # A card drawn while betting is open is burned, and betting goes on.
        round_id = open_round(watcher, quick)
        assert quick.read_card(quick.next_card()).json()["position"] == "burned"
        watcher.wait_notice(
            "card_burned", "A card drawn before betting closed was burned; betting goes on."
        )
        assert page.get_attribute(".stage__phase", "data-phase") == "open"
        # A misdeal: the round is void, and its coup is dealt on with no bets.
        close(quick)
        quick.read()
        quick.read()
        assert quick.post("misdeal", reason="card exposed").status_code == 200
        page.wait_for_selector(f'.void-notice[data-round="{round_id}"]')
        dummy = "The misdealt coup is dealt on with no bets, to keep the shoe's order."
        watcher.wait_state("dummy", dummy)
        quick.deal()
        watcher.wait_notice("dummy_done", "The dummy hand is complete: the next round opens.")
        # Rounds until the cut card and the last-coup rule end the shoe.
        deadline = time.monotonic() + 180
        while (due := quick.state()["next"]) != "shoe_change":
            assert time.monotonic() < deadline, due
            if re.fullmatch(r"(?:player|banker)_[123]", due):
                quick.read()
                served.settle()
            elif (served.get(f"/api/tables/{QUICK}")["round"] or {}).get("phase") == "open":
                served.close_bets(QUICK)
            else:
                served.step()
        # The last coup's result, then the shoe ends: the table waits for the next one.
        served.advance_until(
            lambda: (
                (served.get(f"/api/tables/{QUICK}")["previous_shoe"] or {}).get("id") == shoe_id
            ),
            "the quick shoe's end",
        )
        watcher.wait_state("no_shoe", "Waiting for the dealer's new shoe.")
        record = served.get(f"/api/shoes/{shoe_id}/record")
        assert verify_record(record).ok
        uses = {read["use"] for read in record["reads"]}
        assert {"burn", "burned", "dummy", "coup"} <= uses
        found = verify_here(page, shoe_id)
        assert found["verdict"] == "ok", found
        assert found["coups"] == ["true"] * len(record["coups"])
        assert watcher.console.unexpected() == []
        assert not [text for text in watcher.notices() if CARD_CODE.search(text)]
    finally:
        quick.http.close()
        watcher.close()
