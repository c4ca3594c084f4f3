"""The dealer's console (``/studio``) in Chromium against a real ``baccarat serve`` with a
studio table (``--tables standard,standard:studio``) on a virtual clock.

A dealer made by the command logs in, chooses the studio table among the tables (only studio
ones are listed), takes it, starts a shoe from the page's form and reads its burn by keyboard,
as a keyboard-wedge scanner types (card code, Enter). A round opens, a guest bets on the
players' page, the dealer closes betting and deals the coup by keyboard: the players' page
shows each card as it is read, and the result; the console says what is due in large type at
every step (the tableau's stands included). A code that is not one is refused in the page
without a request; a read that got no answer is sent again with the same ``scan_id``. Then a
misscan typed by the dealer waits for a supervisor (an operator, in another browser context,
under the page's own Content Security Policy) who confirms it, and a card read after the coup
halts the table until the operator sets it aside. Both languages; axe-core finds no serious or
critical violation; no console error but the refusals the test provokes; screenshots of the
console mid-coup and halted at 1280×800, and the layout checked at 1024×768 too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, Request, Route, ViewportSize
from serving import create_staff
from web_support import (
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    no_sideways_scroll,
    serve_web,
)

pytest_plugins = ("web_support",)

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
TABLE = "standard-studio"
PASSWORD = "Studio-Dealer-9"
TABLET: ViewportSize = {"width": 1280, "height": 800}
SMALL_TABLET: ViewportSize = {"width": 1024, "height": 768}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Chromium's own console line for a request the test made fail (the page words it itself).
ABORTED = "Failed to load resource: net::ERR_FAILED"


@pytest.fixture(scope="module")
def studio_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A table the server deals and a studio table, on a virtual clock; a dealer ``dana``, an
    operator ``marta`` (the supervisor) and an auditor ``eve``, made by the command."""
    served = serve_web(
        tmp_path_factory.mktemp("web-console"),
        tables=f"standard,{TABLE.replace('-', ':')}",
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=400,
        demo_credit=150_000,
        virtual_clock=True,
    )
    try:
        for name, role in (("dana", "dealer"), ("marta", "operator"), ("eve", "auditor")):
            create_staff(served.db_url, name, role, PASSWORD)
        yield served
    finally:
        served.stop()


def run_axe(page: Page) -> list[str]:
    """Serious and critical axe violations of the page as it is."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
             .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }))"""
    )
    return [
        f"{v['impact']} {v['id']}: {v['nodes'][:5]}"
        for v in found
        if v["impact"] in {"serious", "critical"}
    ]


class ConsolePage:
    """Drives the console as a dealer does: the keyboard for cards, taps for the commands."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def log_in(self, name: str) -> None:
        self.page.wait_for_selector(".studio-login")
        self.page.fill("input[name=username]", name)
        self.page.fill("input[name=password]", PASSWORD)
        self.page.click(".studio-login button[type=submit]")
        self.page.wait_for_selector("#staff-user:not([hidden])")

    def choose(self, table: str) -> None:
        self.page.click(f'.studio-table-link[data-table="{table}"]')
        self.page.wait_for_selector(f'.console[data-table="{table}"] .due[data-next]')

    def wait_next(self, next_step: str) -> None:
        self.page.wait_for_selector(f'.due[data-next="{next_step}"]')

    def headline(self) -> str:
        return self.page.inner_text(".due__headline")

    def detail(self) -> str:
        return self.page.inner_text(".due__detail")

    def kind(self) -> str:
        return self.page.get_attribute(".due", "data-kind") or ""

    def focused(self) -> str:
        found: str = self.page.evaluate("document.activeElement?.id ?? ''")
        return found

    def scan(self, code: str) -> None:
        """Type a card code and Enter, as a keyboard-wedge scanner does, into whatever has the
        focus (the card input, which the console keeps focused)."""
        assert self.focused() == "card-input", self.focused()
        self.page.keyboard.type(code)
        self.page.keyboard.press("Enter")

    def read(self, code: str, position: str) -> None:
        """Scan a card and wait for the server's answer: it went to ``position``."""
        self.page.evaluate("document.getElementById('card-answer').dataset.position = ''")
        self.scan(code)
        self.page.wait_for_selector(f'#card-answer[data-position="{position}"]')

    def act(self, name: str) -> None:
        self.page.click(f'.console [data-act="{name}"]')

    def dialog(self, name: str, fields: dict[str, str] | None = None) -> None:
        """Fill the open dialog ``name`` and confirm it."""
        box = f'dialog.studio-dialog[data-dialog="{name}"]'
        self.page.wait_for_selector(f"{box}[open]")
        for field, value in (fields or {}).items():
            self.page.fill(f"{box} input[name={field}]", value)
        self.page.click(f"{box} [data-confirm]")
        self.page.wait_for_selector(box, state="detached")

    def hand(self, side: str) -> list[str]:
        found: list[str] = self.page.eval_on_selector_all(
            f'.state__hand[data-hand="{side}"] .card.card--revealed',
            "els => els.map((el) => el.dataset.card)",
        )
        return found


def players_cards(page: Page, expected: dict[str, list[str]]) -> None:
    """Wait until the players' page shows exactly these cards (by hand, in their places)."""
    page.wait_for_function(
        """expected => {
             const hand = (name) => [...document.querySelectorAll(
                 `.hand[data-hand="${name}"] .card.card--revealed`)]
               .sort((a, b) => Number(a.dataset.position) - Number(b.dataset.position))
               .map((el) => el.dataset.card);
             return JSON.stringify({player: hand('player'), banker: hand('banker')})
               === JSON.stringify(expected);
           }""",
        arg=expected,
    )


def on_first_screen(page: Page) -> None:
    """What a dealer needs is on the tablet's one screen, which does not scroll: what is due,
    the card input and its answer, the hands and every command."""
    no_sideways_scroll(page)
    viewport = page.viewport_size
    assert viewport is not None
    for selector in (".due__headline", "#card-input", ".state__hands", ".commands__row"):
        box = page.locator(selector).bounding_box()
        assert box is not None, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (selector, box)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= viewport["height"], f"the console is {height}px tall on a {viewport}"
    # The headline is large: readable at arm's length.
    size = page.eval_on_selector(
        ".due__headline", "el => parseFloat(getComputedStyle(el).fontSize)"
    )
    assert size >= 38, size


def test_a_dealer_deals_a_studio_round_from_the_console(
    open_page: Opener, studio_server: Served
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")
    url = studio_server.url
    page, console = open_page(f"{url}/studio", viewport=TABLET)
    dealer = ConsolePage(page)
    assert run_axe(page) == [], "the login form"
    dealer.log_in("dana")
    assert page.inner_text("#staff-user") == "dana · Dealer"
    # Only the studio table is offered.
    page.wait_for_selector(".studio-table-link")
    listed = page.eval_on_selector_all(".studio-table-link", "els => els.map(e => e.dataset.table)")
    assert listed == [TABLE]
    assert run_axe(page) == [], "the tables"
    dealer.choose(TABLE)
    dealer.wait_next("shoe_change")
    assert dealer.headline() == "New shoe needed"
    assert dealer.kind() == "shoe"
    assert dealer.focused() == "card-input"
    assert page.inner_text("#studio-table") == TABLE

    # Take the table: the console says who is seated.
    dealer.act("take")
    page.wait_for_selector('.state__seat strong[data-dealer="dana"]')
    assert page.inner_text(".commands__line") == f"You are seated at {TABLE}."
    assert dealer.focused() == "card-input"

    # A new shoe from the form, then its burn by keyboard: the first card's value, then more.
    dealer.act("shoe")
    page.wait_for_selector('dialog[data-dialog="shoe"] input[name=shuffled_by]')
    assert page.input_value('dialog[data-dialog="shoe"] input[name=shuffled_by]') == "dana"
    dealer.dialog("shoe", {"decks": "8", "cut_card": "14", "deck_serials": "D1 D2"})
    dealer.wait_next("burn")
    assert dealer.headline() == "Burn — turn the first card"
    assert dealer.kind() == "burn"
    assert dealer.focused() == "card-input"
    dealer.read("Ac", "burn_1")
    page.wait_for_selector('.due__headline:text-is("Burn: 1 more card")')
    # The card as the table writes it, with its name for screen readers, and where it went.
    assert page.text_content("#card-answer .reader__placed") == "A♣Ace of clubs → burn card 1"

    # A code that is not one is refused in the page, without a request.
    sent: list[dict[str, Any]] = []

    def posted(request: Request) -> None:
        if request.method == "POST" and request.url.endswith("/cards"):
            sent.append(json.loads(request.post_data or "{}"))

    page.on("request", posted)
    dealer.scan("Xz")
    page.wait_for_selector('#card-refusal[data-state="invalid"]')
    assert "“Xz” is not a card code" in page.inner_text("#card-refusal")
    assert sent == []

    # The second burn card gets no answer the first time: sent again, with the same scan_id.
    failed: list[str] = []

    def once_unanswered(route: Route) -> None:
        if not failed:
            failed.append(json.loads(route.request.post_data or "{}")["scan_id"])
            route.abort()
        else:
            route.continue_()

    page.route("**/api/studio/tables/*/cards", once_unanswered)
    dealer.read("kD", "burn_2")  # any case, as a scanner may type it
    page.unroute("**/api/studio/tables/*/cards")
    assert [read["card"] for read in sent] == ["Kd", "Kd"]
    assert sent[0]["scan_id"] == sent[1]["scan_id"] == failed[0]
    assert re.fullmatch(r"console-[0-9a-f]{12}-\d+", failed[0])
    assert page.is_hidden("#card-refusal")

    # A guest at the table on the players' page; a round opens (the virtual clock steps).
    guest_page, guest_console = open_page(f"{url}/")
    guest = TablePage(guest_page)
    before = guest.join()
    guest.open_table(TABLE)
    round_id = drive_to_open(guest, studio_server, TABLE, later=False)
    dealer.wait_next("wait_bets")
    page.wait_for_selector('.due[data-kind="bets"]')
    assert dealer.headline() == "Betting open — do not deal"
    assert page.is_visible(".due__timer")
    assert re.fullmatch(r"\d+:\d\d", page.inner_text(".due__time"))
    assert page.inner_text(".state__phase") == "Betting open"
    guest.chip(500)
    guest.bet("player")
    guest.wait_stakes({"player": 500})
    assert run_axe(page) == [], "betting open"

    # The dealer closes betting (a confirmation first), then deals the coup by keyboard.
    dealer.act("close")
    dealer.dialog("close")
    dealer.wait_next("player_1")
    assert dealer.headline() == "Deal — Player's first card"
    assert dealer.kind() == "deal"
    dealt: dict[str, list[str]] = {"player": [], "banker": []}
    steps = [
        ("4h", "player_1", "banker_1", "Deal — Banker's first card"),
        ("3c", "banker_1", "player_2", "Deal — Player's second card"),
        ("2d", "player_2", "banker_2", "Deal — Banker's second card"),
        ("2s", "banker_2", "banker_3", "Banker — third card"),
    ]
    for code, position, next_step, headline in steps:
        dealer.read(code, position)
        dealt[position.split("_")[0]].append(code)
        dealer.wait_next(next_step)
        assert dealer.headline() == headline
        players_cards(guest_page, dealt)
    # Player 6 stands, Banker 5 draws: the tableau's stand is said with the next slot.
    assert dealer.kind() == "draw"
    assert dealer.detail() == "Player stands on 6; the Banker draws on 5."
    assert dealer.hand("player") == ["4h", "2d"] and dealer.hand("banker") == ["3c", "2s"]
    page.wait_for_selector('.state__hand[data-hand="banker"] .state__slot--sideways')
    assert run_axe(page) == [], "mid-coup"
    for viewport in (SMALL_TABLET, TABLET):
        page.set_viewport_size(viewport)
        on_first_screen(page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "console-mid-coup.png"))
    dealer.read("7h", "banker_3")
    dealt["banker"].append("7h")
    page.wait_for_selector('.due[data-kind="result"]')
    assert dealer.headline() == "Coup complete"
    assert dealer.kind() == "result"
    page.wait_for_selector('.state__result[data-winner="player"]')
    assert page.inner_text(".state__result") == "Player wins 6 – 2"
    coup = guest.wait_result()
    assert [c.code for c in coup.player.cards] == ["4h", "2d"]
    assert [c.code for c in coup.banker.cards] == ["3c", "2s", "7h"]
    assert coup.winner.value == "player"
    guest.wait_balance(before + 500)
    assert studio_server.get(f"/api/rounds/{round_id}")["phase"] == "settled"

    # The next round: a misscan, typed by the dealer, waits for the supervisor.
    round_id = drive_to_open(guest, studio_server, TABLE)
    dealer.wait_next("wait_bets")
    dealer.act("close")
    dealer.dialog("close")
    dealer.wait_next("player_1")
    dealer.read("5h", "player_1")
    dealer.wait_next("banker_1")
    dealer.act("misscan")
    dealer.dialog("misscan", {"card": "9c", "reason": "the shoe did not read it"})
    dealer.wait_next("misscan_pending")
    assert dealer.headline() == "Misscan waiting for the supervisor"
    assert dealer.kind() == "misscan"
    assert dealer.detail() == (
        "Typed by hand: 9 of clubs (the shoe did not read it). "
        "No card counts until a supervisor confirms or rejects it."
    )
    assert dealer.focused() == "card-input"
    # No card counts meanwhile: a read is refused, and said so.
    dealer.scan("Kh")
    page.wait_for_selector('#card-refusal[data-state="refused"]')
    refused = page.inner_text("#card-refusal")
    assert "A misscan waits for its supervisor" in refused
    assert "Server: a misscan waits for its supervisor" in refused
    # The dealer sees no supervisor's controls.
    assert page.locator('[data-act="confirm"]').count() == 0
    assert run_axe(page) == [], "a misscan waiting"

    # The operator, in another browser context under the page's own policy, confirms it.
    boss_page, boss_console = open_page(f"{url}/studio#/tables/{TABLE}", bypass_csp=False)
    boss = ConsolePage(boss_page)
    boss.log_in("marta")
    boss_page.wait_for_selector('.due[data-next="misscan_pending"]')
    assert boss_page.inner_text("#staff-user") == "marta · Operator (supervisor)"
    assert boss_page.is_disabled('[data-act="discard"]')
    boss.act("confirm")
    boss.dialog("confirm", {"reason": "seen on camera"})
    boss_page.wait_for_selector(".commands__line:has-text('The misscanned card counts.')")
    dealer.wait_next("player_2")
    assert dealer.hand("banker") == ["9c"]
    players_cards(guest_page, {"player": ["5h"], "banker": ["9c"]})
    dealer.read("Kh", "player_2")
    dealer.read("Qd", "banker_2")
    page.wait_for_selector('.due[data-kind="result"]')
    assert dealer.headline() == "Natural — both stand"
    guest.wait_result()

    # A card read after the coup is complete cannot be next: the table halts.
    dealer.scan("3s")
    dealer.wait_next("halted")
    assert dealer.headline() == "HALTED — call the supervisor"
    assert dealer.kind() == "halt"
    assert dealer.detail() == (
        "3 of spades cannot be next: no card is due: the coup is complete. "
        "Nothing counts until a supervisor decides."
    )
    assert "The table is halted for a supervisor" in page.inner_text("#card-refusal")
    assert run_axe(page) == [], "halted"
    page.screenshot(path=str(SCREENSHOTS / "console-halted.png"))
    boss_page.wait_for_selector('.due[data-next="halted"]')
    on_first_screen(boss_page)
    assert boss_page.is_disabled('[data-act="confirm"]')
    boss.act("discard")
    boss.dialog("discard", {"reason": "a card from the discard tray"})
    page.wait_for_selector('.due[data-kind="result"]')
    assert studio_server.get(f"/api/rounds/{round_id}")["phase"] in ("dealt", "settled")

    # Two refusals (the read during the misscan, the read that halted) and the read aborted.
    assert console.unexpected(s409=2) == [ABORTED]
    assert boss_console.unexpected() == []
    assert guest_console.unexpected() == []


def visible_words(page: Page) -> set[str]:
    """The words (3 letters or more, lower case) the page shows or says to screen readers,
    but for what is marked as the server's English (``lang="en"``)."""
    text: str = page.evaluate(
        """() => {
             const copy = document.body.cloneNode(true);
             copy.querySelectorAll('[lang="en"], script, noscript').forEach((el) => el.remove());
             return copy.textContent;
           }"""
    )
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)}


def catalogue_words(catalogue: dict[str, Any]) -> set[str]:
    found: set[str] = set()
    for message in catalogue.values():
        for text in [message] if isinstance(message, str) else message.values():
            found.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", PLACEHOLDER.sub(" ", text)))
    return found


def catalogues(page: Page) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = page.evaluate(
        """async () => ({
             en: (await import("/static/js/studio/messages/en.js")).default,
             id: (await import("/static/js/studio/messages/id.js")).default,
             page_id: (await import("/static/js/messages/id.js")).default,
           })"""
    )
    return found


def test_the_console_in_bahasa_indonesia(open_page: Opener, studio_server: Served) -> None:
    """An Indonesian dealer's tablet (1024×768): every word Indonesian, a pause and a resume, a
    round closed, a card read, a new shoe asked for mid-round and the round voided as a
    misdeal, then the new shoe; then English again, without a reload."""
    url = studio_server.url
    page, console = open_page(f"{url}/studio", viewport=SMALL_TABLET, locale="id-ID")
    dealer = ConsolePage(page)
    page.wait_for_selector(".studio-login")
    assert page.inner_text(".studio-login h1") == "Masuk dealer"
    assert run_axe(page) == [], "the login form, in Indonesian"
    dealer.log_in("dana")
    page.wait_for_selector(".studio-table-link")
    assert page.inner_text("h1") == "Pilih meja studio"
    dealer.choose(TABLE)
    last = studio_server.get(f"/api/tables/{TABLE}")["round"]
    round_id = studio_server.open_round(TABLE, after=last["id"] if last else 0)["round"]["id"]
    page.wait_for_selector(f'.state__round[data-round="{round_id}"]')
    page.wait_for_selector('.due[data-kind="bets"]')
    assert dealer.headline() == "Taruhan dibuka — jangan bagikan"
    assert (
        dealer.detail()
        == "Pemain sedang bertaruh. Kartu yang ditarik sekarang membuat ronde batal."
    )
    assert page.inner_text(".state__phase") == "Taruhan dibuka"

    # A pause (the round in play goes on) and a resume, each with its reason.
    dealer.act("pause")
    dealer.dialog("pause", {"reason": "pergantian dealer"})
    page.wait_for_selector(".due__flag:has-text('Dijeda dari konsol ini')")
    assert page.is_disabled('[data-act="pause"]')
    dealer.act("resume")
    dealer.dialog("resume", {"reason": "dealer baru siap"})
    page.wait_for_selector(".due__flag", state="detached")

    dealer.act("close")
    page.wait_for_selector('dialog[data-dialog="close"][open]')
    assert page.inner_text('dialog[data-dialog="close"] h2').startswith(
        "Tutup taruhan Shoe 1 · Ronde"
    )
    dealer.dialog("close")
    dealer.wait_next("player_1")
    assert dealer.headline() == "Bagikan — kartu pertama Player"
    dealer.read("8s", "player_1")
    assert page.text_content("#card-answer .reader__placed") == "8♠8 sekop → kartu pertama Player"
    dealer.wait_next("banker_1")
    assert dealer.headline() == "Bagikan — kartu pertama Banker"
    assert run_axe(page) == [], "dealing, in Indonesian"
    for viewport in (SMALL_TABLET, TABLET):
        page.set_viewport_size(viewport)
        on_first_screen(page)
    # Not a word only the English catalogue has, and no key left unwritten.
    found = catalogues(page)
    english_only = (
        catalogue_words(found["en"])
        - catalogue_words(found["id"])
        - catalogue_words(found["page_id"])
    )
    assert visible_words(page) & english_only == set()
    assert not re.search(r"studio\.[a-z]", page.inner_text("body"))

    # A new shoe asked for mid-round comes after the round in play.
    dealer.act("shoe")
    page.wait_for_selector('dialog[data-dialog="shoe"][open]')
    assert page.inner_text('dialog[data-dialog="shoe"] .studio-dialog__warning') == (
        "Ronde yang sedang berjalan diselesaikan dulu: shoe baru menyusul sesudahnya."
    )
    dealer.dialog("shoe", {"shuffled_by": "Dewi", "cut_card": "16"})
    page.wait_for_selector(".commands__line:has-text('Shoe baru menyusul')")
    page.wait_for_selector(".due__flag:has-text('Shoe baru setelah ronde ini')")
    assert page.is_disabled('[data-act="shoe"]')

    # Cards exposed: a misdeal voids the round, every stake back; then the new shoe.
    dealer.act("misdeal")
    page.wait_for_selector('dialog[data-dialog="misdeal"][open]')
    assert "tidak dapat diurungkan" in page.inner_text('dialog[data-dialog="misdeal"]')
    assert run_axe(page) == [], "the misdeal dialog, in Indonesian"
    dealer.dialog("misdeal", {"reason": "kartu terbuka"})
    page.wait_for_selector(".commands__line:has-text('Ronde batal')")
    assert studio_server.get(f"/api/rounds/{round_id}")["phase"] == "voided"
    studio_server.advance_until(
        lambda: studio_server.get(f"/api/tables/{TABLE}")["studio"]["next"] == "burn",
        "the new shoe after the misdeal",
    )
    page.wait_for_selector('.due[data-kind="burn"]')
    assert dealer.headline() == "Buang — buka kartu pertama"
    assert page.is_hidden(".due__flag")
    assert page.inner_text('.state__facts [data-fact="shuffled"] dd') == "Dewi"
    assert visible_words(page) & english_only == set()

    # English again, without a reload: the console drawn again, the focus on the card input.
    page.click('[data-lang="en"]')
    page.wait_for_selector(".due__headline:has-text('Burn — turn the first card')")
    assert dealer.focused() == "card-input"
    assert console.unexpected() == []


def test_what_is_due_is_said_from_the_tableau(open_page: Opener, studio_server: Served) -> None:
    """The console's words for what is due, for each step the server may name, with the stand
    the tableau implies; where a card went; the card codes a scanner may type."""
    page, _console = open_page(f"{studio_server.url}/healthz")

    def cards(player: str, banker: str) -> list[dict[str, Any]]:
        found = []
        for hand, codes in (("player", player), ("banker", banker)):
            for position, code in enumerate(codes.split()):
                found.append({"hand": hand, "position": position, "card": code})
        return found

    views: list[dict[str, Any]] = [
        {"next": "player_1", "round": {"phase": "closed"}, "cards": []},
        {"next": "banker_2", "round": {"phase": "closed"}, "cards": cards("2c 3d", "4h")},
        {"next": "player_3", "round": {"phase": "closed"}, "cards": cards("2c 3d", "4h 2s")},
        {"next": "banker_3", "round": {"phase": "closed"}, "cards": cards("2c 3d", "3s 2h")},
        {"next": "banker_3", "round": {"phase": "closed"}, "cards": cards("2c 3d 4h", "3s 2h")},
        {"next": "result", "round": {"phase": "dealt"}, "cards": cards("9c Kd", "2c 3d")},
        {"next": "result", "round": {"phase": "dealt"}, "cards": cards("3c 4d", "3h 4s")},
        {"next": "result", "round": {"phase": "dealt"}, "cards": cards("2c 3d 9h", "3s 4h")},
        {"next": "result", "round": {"phase": "dealt"}, "cards": cards("2c 3d 9h", "3s 2h 4c")},
        {
            "next": "wait_bets",
            "round": {"phase": "settled"},
            "result": {"winner": "banker"},
            "cards": cards("3c 4d", "3h 3s"),
        },
        {"next": "burn", "studio": {"burn_due": 1, "reads": 0}},
        {"next": "burn", "studio": {"burn_due": 10, "reads": 1}},
        {"next": "burn", "studio": {"burn_due": 1, "reads": 1}},
        {"next": "wait_bets", "round": {"phase": "open"}, "settings": {"before_time": "burn"}},
        {"next": "wait_bets", "round": {"phase": "settled"}},
        {"next": "shoe_change", "shoe": None},
        {"next": "shoe_change", "shoe": {"number": 3}},
        {
            "next": "halted",
            "pending": [
                {"kind": "impossible", "card": "9s", "reason": "the shoe holds no more 9s"}
            ],
        },
        {
            "next": "misscan_pending",
            "pending": [{"kind": "misscan", "card": "Td", "reason": "not read"}],
        },
        {"next": "player_2", "studio": {"dummy": True}, "cards": cards("2c", "3d")},
        {"next": "dummy_due"},
    ]
    said = page.evaluate(
        """async (views) => {
             const i18n = await import("/static/js/i18n.js");
             await i18n.addCatalogues({ en: () => import("/static/js/studio/messages/en.js") });
             const { dueOf, positionWords } = await import("/static/js/studio/due.js");
             const { cardCode } = await import("/static/js/studio/reads.js");
             const words = (w) => (w ? i18n.t(w.key, w.values) : null);
             return {
               due: views.map((view) => {
                 const due = dueOf(view);
                 return [due.kind, words(due.headline), words(due.detail)];
               }),
               positions: ["burn_3", "player_3", "banker_1", "burned", "dummy_2"].map(
                 (p) => words(positionWords(p))),
               codes: ["Ah", "10d", "TD", " qs ", "kD", "AH", "1d", "Ax", "10", "110d", "", "A h"]
                 .map(cardCode),
             };
           }""",
        views,
    )
    assert said["due"] == [
        ["deal", "Deal — Player's first card", None],
        ["deal", "Deal — Banker's second card", None],
        ["draw", "Player — third card", "Player has 5: the Player draws."],
        ["draw", "Banker — third card", "Player stands on 5; the Banker draws on 5."],
        [
            "draw",
            "Banker — third card",
            "Banker has 5 and draws on the Player's third card, 4 of hearts.",
        ],
        [
            "result",
            "Natural — both stand",
            "Player 9 – Banker 5. The next round opens by itself.",
        ],
        [
            "result",
            "Both stand — coup complete",
            "Player 7 – Banker 7. The next round opens by itself.",
        ],
        [
            "result",
            "Banker stands — coup complete",
            "Player 4 – Banker 7. The next round opens by itself.",
        ],
        ["result", "Coup complete", "Player 4 – Banker 9. The next round opens by itself."],
        [
            "result",
            "Both stand — coup complete",
            "Player 7 – Banker 6. The next round opens by itself.",
        ],
        [
            "burn",
            "Burn — turn the first card",
            "Its value says how many more cards to burn (10 for tens and faces).",
        ],
        [
            "burn",
            "Burn: 10 more cards",
            "Burn them face down; the first round opens after the burn.",
        ],
        ["burn", "Burn: 1 more card", "Burn them face down; the first round opens after the burn."],
        [
            "bets",
            "Betting open — do not deal",
            "Players are betting. A card drawn now is burned.",
        ],
        ["wait", "Wait — do not deal", "The next round opens by itself when the table is ready."],
        ["shoe", "New shoe needed", "No shoe is in play: start one with New shoe."],
        ["shoe", "New shoe needed", "This shoe is finished: start the next one with New shoe."],
        [
            "halt",
            "HALTED — call the supervisor",
            "9 of spades cannot be next: the shoe holds no more 9s. "
            "Nothing counts until a supervisor decides.",
        ],
        [
            "misscan",
            "Misscan waiting for the supervisor",
            "Typed by hand: 10 of diamonds (not read). "
            "No card counts until a supervisor confirms or rejects it.",
        ],
        [
            "deal",
            "Deal — Player's second card",
            "Dummy hand: the exposed coup is dealt on with no bets, so the shoe's order is kept.",
        ],
        ["wait", "Waiting (dummy_due)", None],
    ]
    assert said["positions"] == [
        "burn card 3",
        "Player's third card",
        "Banker's first card",
        "burned (drawn while betting was open)",
        "dummy hand, card 2",
    ]
    assert said["codes"] == ["Ah", "Td", "Td", "Qs", "Kd", "Ah", None, None, None, None, None, None]


def test_both_catalogues_of_the_console_match(open_page: Opener, studio_server: Served) -> None:
    """Same keys and placeholders in English and Indonesian, and every key the console's
    modules name exists."""
    page, _console = open_page(f"{studio_server.url}/healthz")
    found = catalogues(page)
    english, indonesian = found["en"], found["id"]
    assert sorted(english) == sorted(indonesian)

    def placeholders(message: Any) -> set[str]:
        texts = [message] if isinstance(message, str) else list(message.values())
        return {name for text in texts for name in PLACEHOLDER.findall(text)}

    for key, message in english.items():
        assert placeholders(message) == placeholders(indonesian[key]), key
        assert all(text for text in ([message] if isinstance(message, str) else message.values()))
    folder = Path(__file__).resolve().parents[2] / "src" / "baccarat" / "web" / "static" / "js"
    named = set()
    for module in (folder / "studio").glob("*.js"):
        named.update(re.findall(r"""["'](studio\.[a-z_.0-9]+)["']""", module.read_text("utf-8")))
    # The keys the modules build from a name.
    named.update(
        f"studio.{verb}.{part}"
        for verb in ("pause", "resume")
        for part in ("title", "intro", "confirm")
    )
    named.update(
        f"studio.{verb}.{part}"
        for verb in ("confirm", "reject", "discard", "void")
        for part in ("title", "intro", "confirm")
    )
    named.update(
        f"studio.done.{verb}"
        for verb in ("pause", "resume", "confirm", "reject", "discard", "void")
    )
    named.update(f"studio.role.{role}" for role in ("dealer", "operator", "admin", "auditor"))
    named.update(
        f"studio.phase.{phase}" for phase in ("open", "closed", "dealt", "settled", "voided")
    )
    named.update(
        f"studio.{part}.{hand}_{n}"
        for part in ("due", "position")
        for hand in ("player", "banker")
        for n in (1, 2, 3)
    )
    named.update(f"studio.hand.{side}" for side in ("player", "banker"))
    missing = sorted(key for key in named if key not in english)
    assert missing == []


def test_an_auditor_may_not_run_the_console(open_page: Opener, studio_server: Served) -> None:
    page, console = open_page(f"{studio_server.url}/studio#/tables/{TABLE}")
    page.wait_for_selector(".studio-login")
    page.fill("input[name=username]", "eve")
    page.fill("input[name=password]", PASSWORD)
    page.click(".studio-login button[type=submit]")
    page.wait_for_selector("#studio-alert:not(:empty)")
    assert page.inner_text("#studio-alert") == (
        "Your role (Auditor) may not run the console: it is for dealers, operators and admins."
    )
    assert page.is_visible(".studio-login") and page.is_hidden("#staff-user")
    assert page.evaluate("sessionStorage.getItem('baccarat.staff')") is None
    assert console.unexpected() == []
