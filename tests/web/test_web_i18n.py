"""The page in English and in Bahasa Indonesia (i18n.js, messages/en.js and messages/id.js).

First the catalogues as data: the same keys and placeholders in both languages, every key the
modules name present, and the English words equal to the server's own where the server has
words (rule sets, bets, the rules page, void reasons), so the two cannot drift apart unseen.
Then the page's formatting and refusals in the browser, each language against the test's own
expectation: money with its currency in the language's writing, plural forms, every refusal
code in words with its amount (the server's sentences built by the server's own code, then
read by the page). Last, a guest's whole visit in Chromium in each language, on a desktop
(1440×900) and a phone (390×844): the lobby, a table with a refused stake, the history, the
account and the rules page, each scanned for a word of the other language; the switch in the
top bar re-renders without a reload and is remembered after one; no console error.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from playwright.sync_api import Page, ViewportSize
from web_support import (
    PHONE,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    drive_to_result,
    no_sideways_scroll,
)

from baccarat.bets import BET_TYPES
from baccarat.fair import ALGORITHM
from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible import Break, BreakKind, Breaks
from baccarat.responsible.breaks import check_breaks
from baccarat.responsible.limit_checks import LimitUsage
from baccarat.responsible.limits import LimitKind, Period
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset
from baccarat.rulespage import (
    FAIRNESS_LIMIT_TEXT,
    FAIRNESS_TEXT,
    INTERRUPTION_TEXT,
    drawing_table,
    rounding_text,
)
from baccarat.table import RESTART_VOID_REASON, UNDEALT_VOID_REASON
from baccarat.web import STATIC_DIR

pytest_plugins = ("web_support",)

DESKTOP: ViewportSize = {"width": 1440, "height": 900}
#: The browser's language for each of the page's languages (the page's default follows it).
LOCALES = {"en": "en-US", "id": "id-ID"}
JS = STATIC_DIR / "js"
#: Every way a module names a message key literally (dynamic keys are checked by the page scans).
KEY_USES = [
    re.compile(r"""\b(?:t|tNodes|has)\(\s*"([^"]+)\""""),
    re.compile(r"""\bbind\(\s*[^;]*?,\s*"([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)\""""),
    re.compile(
        r"""\bt\(\s*[^;()]*?\?\s*"([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)"\s*:\s*"([a-z0-9_-]+(?:\.[a-z0-9_-]+)+)\""""
    ),
]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
WORD = re.compile(r"[A-Za-z]{3,}")

Catalogue = dict[str, Any]


@pytest.fixture(scope="module")
def page(module_page: Page) -> Page:
    return module_page


@pytest.fixture(scope="module")
def catalogues(module_page: Page) -> dict[str, Catalogue]:
    found: dict[str, Catalogue] = module_page.evaluate(
        """async () => ({
             en: (await import("/static/js/messages/en.js")).default,
             id: (await import("/static/js/messages/id.js")).default,
           })"""
    )
    return found


def forms(message: Any) -> list[str]:
    """A message's texts: itself, or each of its plural forms."""
    return [message] if isinstance(message, str) else list(message.values())


def fill(template: str, **values: str) -> str:
    """A catalogue text with its placeholders filled, as t() fills them."""
    return PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


def words(catalogue: Catalogue) -> set[str]:
    """Every word (3 letters or more, lower case) of a catalogue's texts, placeholders left out."""
    found: set[str] = set()
    for message in catalogue.values():
        for text in forms(message):
            found.update(w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text)))
    return found


def money_in(language: str, minor: int, symbol: str = "$") -> str:
    """The test's own writing of an amount: "$1,234.56" in English, "$1.234,56" in Indonesian;
    rupiah (``symbol`` "Rp\u00a0") whole: "Rp 10,000" and "Rp 10.000"."""
    sign = "−" if minor < 0 else ""
    if symbol.startswith("Rp"):
        whole = f"{abs(minor):,}"
        return f"{sign}{symbol}{whole.replace(',', '.') if language == 'id' else whole}"
    major, cents = divmod(abs(minor), 100)
    whole = f"{major:,}"
    if language == "id":
        return f"{sign}{symbol}{whole.replace(',', '.')},{cents:02d}"
    return f"{sign}{symbol}{whole}.{cents:02d}"


# ---- the catalogues as data -----------------------------------------------------------------


def test_both_catalogues_have_the_same_keys_and_placeholders(
    catalogues: dict[str, Catalogue],
) -> None:
    en, id_ = catalogues["en"], catalogues["id"]
    assert sorted(en) == sorted(id_)
    for key, message in en.items():
        mine = {name for text in forms(message) for name in PLACEHOLDER.findall(text)}
        theirs = {name for text in forms(id_[key]) for name in PLACEHOLDER.findall(text)}
        assert mine == theirs, key
        # Plural forms: English has "one" and "other"; Indonesian one form, "other".
        if not isinstance(message, str):
            assert set(message) == {"one", "other"}, key
            assert isinstance(id_[key], dict) and set(id_[key]) == {"other"}, key
        # An untranslated text would be the same in both (names and symbols aside).
        if isinstance(message, str) and message == id_[key]:
            said = PLACEHOLDER.sub(" ", message)
            assert not {w.lower() for w in WORD.findall(said)} - SHARED_NAMES, key


#: Words that are names in both languages (the hands, the side bets, cards, the page's own name).
SHARED_NAMES = {
    "baccarat",
    "player",
    "banker",
    "pair",
    "perfect",
    "dragon",
    "bonus",
    "panda",
    "super",
    "demo",
    "natural",
    "shoe",
    "digest",
    "chip",
    "punto",
    "banco",
    "jack",
    "queen",
    "king",
    "utc",
    "rupiah",
}


def test_every_key_the_modules_name_is_in_the_catalogues(
    catalogues: dict[str, Catalogue],
) -> None:
    used: dict[str, str] = {}
    for module in sorted(JS.glob("*.js")):
        text = module.read_text(encoding="utf-8")
        for pattern in KEY_USES:
            for match in pattern.finditer(text):
                for key in match.groups():
                    if key and "." in key:
                        used[key] = module.name
    index = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    for key in re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', index):
        used[key] = "index.html"
    assert len(used) > 200, "the scan found too few keys: is the pattern still right?"
    missing = {key: where for key, where in used.items() if key not in catalogues["en"]}
    assert missing == {}


def test_the_english_words_are_the_servers_own(catalogues: dict[str, Catalogue]) -> None:
    en = catalogues["en"]
    for name in BUILTIN_RULESETS:
        ruleset = load_ruleset(name)
        assert en[f"ruleset.{name}.title"] == ruleset.title
        assert en[f"ruleset.{name}.description"] == ruleset.description
    for name, bet in BET_TYPES.items():
        assert en[f"betdesc.{name}"] == bet.description, name
        assert en[f"bet.{name}"] == bet.label, name
    drawing = drawing_table()
    assert en["rules.natural"] == drawing["natural"]
    assert en["rules.winner"] == drawing["winner"]
    assert en["rules.banker_natural"] == drawing["banker_natural"]
    rules = {row["rule"] for row in drawing["player"]}
    assert rules == {
        en["rules.player_draws"],
        en["rules.player_stands"],
        en["rules.player_natural"],
    }
    assert en["rules.interruption_text"] == INTERRUPTION_TEXT
    assert fill(en["rules.fairness_text"], algorithm=ALGORITHM) == FAIRNESS_TEXT
    assert en["rules.fairness_limit"] == FAIRNESS_LIMIT_TEXT
    for currency, units in (("USD", en["rules.units_cents"]), ("IDR", en["rules.units_whole"])):
        text = rounding_text(currency)
        found = re.search(r"stake of (\S+) on .* returns (\S+), not (\S+)\.$", text)
        assert found is not None, text
        stake, back, exact = found.groups()
        filled = fill(
            en["rules.rounding_text"], units=units, stake=stake, returned=back, exact=exact
        )
        assert filled == text, currency
    # The void reasons, as sentences: capital first, full stop last.
    for key, reason in (
        ("void.restart", RESTART_VOID_REASON),
        ("void.undealt", UNDEALT_VOID_REASON),
    ):
        assert en[key] == f"{reason[0].upper()}{reason[1:]}.", key


def test_the_indonesian_game_words_are_those_of_the_seeds(catalogues: dict[str, Catalogue]) -> None:
    """The hands keep their names, a tie is "Seri", a bet "taruhan", a round "ronde"."""
    id_ = catalogues["id"]
    assert (id_["side.player"], id_["side.banker"], id_["side.tie"]) == ("Player", "Banker", "Seri")
    assert (id_["bet.player_pair"], id_["bet.banker_pair"]) == (
        "Pasangan Player",
        "Pasangan Banker",
    )
    assert "taruhan" in id_["phase.open"].lower() and "ronde" in id_["stage.round"].lower()
    assert (id_["rules.draws"], id_["rules.stands"]) == ("menarik", "berhenti")
    assert "komisi" in id_["ruleset.standard.title"]
    # "Pemain" is the person at the table, never the Player hand.
    assert not [
        key for key, text in id_.items() if key.startswith(("side.", "bet.")) and "Pemain" in text
    ]


# ---- formatting and refusals in the browser ------------------------------------------------


def in_language(page: Page, language: str, script: str, arg: Any = None) -> Any:
    """Run `script` (a function of (i18n, arg), async allowed) with the page's modules in `language`."""
    return page.evaluate(
        f"""async ([language, arg]) => {{
              const i18n = await import("/static/js/i18n.js");
              await i18n.setLanguage(language, {{ remember: false }});
              try {{
                return await ({script})(i18n, arg);
              }} finally {{
                await i18n.setLanguage("en", {{ remember: false }});
              }}
            }}""",
        [language, arg],
    )


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-(10**15), 10**15), min_size=1, max_size=40))
def test_money_in_both_languages(page: Page, amounts: list[int]) -> None:
    for language in LOCALES:
        shown = in_language(
            page, language, "(i18n, amounts) => amounts.map((m) => i18n.formatMoney(m))", amounts
        )
        assert shown == [money_in(language, minor) for minor in amounts]


def test_currencies_numbers_dates_and_plurals(page: Page) -> None:
    script = """(i18n) => ({
        usd: i18n.formatMoney(123456, "USD"),
        idr: i18n.formatMoney(123456, "IDR"),
        cents: i18n.formatMoney(-5),
        edge: i18n.formatNumber("1.0579"),
        big: i18n.formatNumber(1234567),
        one: i18n.t("lobby.rounds", { count: 1 }),
        two: i18n.t("lobby.rounds", { count: 2 }),
        seconds: i18n.t("stage.seconds", { count: 1 }),
        utc: i18n.utcStamp("2024-06-01T12:00:05Z"),
        date: i18n.formatDate(Date.UTC(2024, 11, 3, 9, 30), { dateStyle: "medium", timeZone: "UTC" }),
        lang: document.documentElement.lang,
      })"""
    english = in_language(page, "en", script)
    indonesian = in_language(page, "id", script)
    nbsp = "\u00a0"
    assert english == {
        "usd": "$1,234.56",
        "idr": f"Rp{nbsp}123,456",  # the rupiah counts whole rupiah: no sen
        "cents": "−$0.05",
        "edge": "1.0579",
        "big": "1,234,567",
        "one": "1 round this shoe",
        "two": "2 rounds this shoe",
        "seconds": "1 second left to bet",
        "utc": "2024-06-01 12:00:05 UTC",
        "date": "Dec 3, 2024",
        "lang": "en",
    }
    assert indonesian == {
        "usd": "$1.234,56",
        "idr": f"Rp{nbsp}123.456",
        "cents": "−$0,05",
        "edge": "1,0579",
        "big": "1.234.567",
        "one": "1 ronde di shoe ini",
        "two": "2 ronde di shoe ini",
        "seconds": "1 detik lagi untuk bertaruh",
        "utc": "1 Jun 2024, 12.00.05 UTC",
        "date": "3 Des 2024",
        "lang": "id",
    }


def server_refusals() -> list[dict[str, Any]]:
    """A refusal of every code the server has, its message written by the server's own code."""
    now = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    usage = LimitUsage(LimitKind.LOSS, Period.DAY, limit=1_500, used=1_000)
    time_out = check_breaks(
        Breaks(time_out=Break(BreakKind.TIME_OUT, now, now + timedelta(days=3))), now
    )
    excluded = check_breaks(
        Breaks(self_exclusion=Break(BreakKind.SELF_EXCLUSION, now, now + timedelta(days=400))), now
    )
    assert time_out is not None and excluded is not None
    refusals = [
        Refusal(RefusalCode.LIMIT_EXCEEDED, usage.message),
        time_out,
        excluded,
        Refusal(RefusalCode.DEPOSIT_TOO_LARGE, "a deposit is at most 1000000, not 2000000"),
        Refusal(
            RefusalCode.BALANCE_LIMIT,
            "a balance is at most 5000000: you may deposit up to 12345 more",
        ),
    ]
    bodies = [refusal.to_json() for refusal in refusals]
    # The API's error body carries code and message only (baccarat.server.errors).
    return [{"status": 403, "code": body["code"], "message": body["message"]} for body in bodies]


def test_every_refusal_code_has_a_message_in_both_languages(
    catalogues: dict[str, Catalogue],
) -> None:
    for language, catalogue in catalogues.items():
        missing = [code.value for code in RefusalCode if f"error.{code.value}" not in catalogue]
        assert missing == [], (language, missing)
        empty = [code.value for code in RefusalCode if not catalogue[f"error.{code.value}"]]
        assert empty == [], (language, empty)


def test_every_refusal_is_worded_in_both_languages(
    page: Page, catalogues: dict[str, Catalogue]
) -> None:
    offered = {"tie": {"label": "Tie", "min_stake": 100, "max_stake": 200_000}}
    # Every code the API answers (the catalogue itself), and the page's own for no answer.
    codes = [code.value for code in RefusalCode] + ["network"]
    errors = [
        {"status": 422, "code": code, "message": f"the server's words for {code}"} for code in codes
    ]
    errors[codes.index("below_minimum")]["message"] = (
        "tie: 50 on this spot is below the minimum of 100"
    )
    errors[codes.index("above_maximum")]["message"] = (
        "tie: 250000 in all on this spot is above the maximum of 200000"
    )
    errors[codes.index("rate_limited")]["message"] = "too many logins; try again in 42 s"
    specific = server_refusals()
    script = """async (i18n, [errors, offered]) => {
        const { explain, errorText } = await import("/static/js/refusals.js");
        return errors.map((e) => [explain(e, offered, 999), errorText(e)]);
      }"""
    for language in LOCALES:
        catalogue = catalogues[language]
        said = in_language(page, language, script, [errors + specific, offered])
        generic = {
            fill(text, code=code)
            for code in codes
            for text in (catalogue["error.other"], catalogue["error.other_bet"])
        }
        for error, (as_bet, as_request) in zip(errors + specific, said, strict=True):
            for text in (as_bet, as_request):
                assert "server's words" not in text and error["message"] not in text, (
                    language,
                    error,
                    text,
                )
                assert text not in generic, (language, error["code"])
        by_code = dict(zip(codes, said, strict=False))
        amount = money_in(language, 1_000_000)
        assert by_code["below_minimum"][0] == fill(
            catalogue["error.below_minimum"],
            bet=catalogue["bet.tie"],
            amount=money_in(language, 100),
        )
        assert by_code["above_maximum"][0] == fill(
            catalogue["error.above_maximum"],
            bet=catalogue["bet.tie"],
            amount=money_in(language, 200_000),
        )
        assert by_code["insufficient_funds"][0] == fill(
            catalogue["error.insufficient_funds"], balance=money_in(language, 999)
        )
        assert by_code["rate_limited"][1] == fill(catalogue["error.rate_limited"], seconds="42")
        limit, time_out, excluded, deposit, balance = (pair[1] for pair in said[len(errors) :])
        assert money_in(language, 500) in limit and money_in(language, 1_500) in limit, limit
        assert (
            catalogue["limit.period.24h"] in limit and catalogue["limit.kind.loss"].lower() in limit
        ), limit
        stamp = "2030-01-05 03:04:05 UTC" if language == "en" else "5 Jan 2030, 03.04.05 UTC"
        assert stamp in time_out, time_out
        assert "2031" in excluded, excluded
        assert deposit == fill(catalogue["error.deposit_too_large"], amount=amount)
        assert balance == fill(
            catalogue["error.balance_limit"],
            amount=money_in(language, 5_000_000),
            room=money_in(language, 12_345),
        )


# ---- a guest's visit in each language, desktop and phone -----------------------------------

VISITS = [(language, name) for language in LOCALES for name in ("desktop", "phone")]

SCAN = """() => {
  const lang = document.documentElement.lang;
  const own = (el) => (el.closest("[lang]")?.getAttribute("lang") ?? lang) === lang;
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // Code is not a language: hex seeds and digests, the verify command.
    if (!el || el.closest("script, style, noscript, code") || !el.checkVisibility() || !own(el)) continue;
    const text = node.textContent.trim();
    if (text) texts.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    if (!el.checkVisibility() || !own(el)) continue;
    for (const name of ["aria-label", "title", "placeholder"]) {
      const value = el.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}"""


def foreign_words(
    page: Page, others: set[str], keys: re.Pattern[str]
) -> list[tuple[str, list[str]]]:
    """Every text shown (and every accessible name, title and placeholder of what is shown) that
    holds a word only the other language's catalogue has, or a message key left unwritten."""
    found = []
    for text in page.evaluate(SCAN):
        bad = [w for w in WORD.findall(text) if w.lower() in others] + keys.findall(text)
        if bad:
            found.append((text, bad))
    return found


@pytest.mark.parametrize(("language", "viewport_name"), VISITS)
def test_a_visit_in_each_language(
    open_page: Opener,
    virtual_server: Served,
    catalogues: dict[str, Catalogue],
    language: str,
    viewport_name: str,
) -> None:
    viewport = DESKTOP if viewport_name == "desktop" else PHONE
    other = "id" if language == "en" else "en"
    mine, theirs = catalogues[language], catalogues[other]
    foreign = words(theirs) - words(mine)
    # A key shown as it is ("side.player"): a message the catalogues lack.
    namespaces = sorted({key.split(".")[0] for key in mine})
    keys = re.compile(rf"\b(?:{'|'.join(map(re.escape, namespaces))})\.[a-z0-9_.-]+")
    # Reduced motion: a card dealt in slides from off the table, wider than a phone for a moment.
    page, console = open_page(
        f"{virtual_server.url}/",
        viewport=viewport,
        locale=LOCALES[language],
        reduced_motion="reduce",
    )
    table = TablePage(page)

    def clean(where: str) -> None:
        assert foreign_words(page, foreign, keys) == [], where
        # The rules page's Banker grid is wider than a phone in either language (as before the
        # page had two): only the other pages are held to the screen's width.
        if viewport_name == "phone" and where != "rules":
            no_sideways_scroll(page)

    page.wait_for_selector(".lobby-card")
    assert page.evaluate("document.documentElement.lang") == language
    assert page.inner_text("#lobby-title") == mine["lobby.heading"]
    clean("lobby")

    # A seat: demo credit shown with the currency, written the language's way.
    page.click("#join")
    page.wait_for_selector("#balance:not([hidden])")
    page.wait_for_function(
        "text => document.getElementById('balance-amount').textContent === text",
        arg=money_in(language, 150_000),
    )

    # The table: every spot's name distinct, Dragon Bonus on each side named as such.
    table.open_table("standard")
    names = page.eval_on_selector_all(".spot .spot__name", "els => els.map(el => el.textContent)")
    assert len(names) == len(set(names)), names
    assert {mine["bet.dragon_bonus_player"], mine["bet.dragon_bonus_banker"]} <= set(names)
    # A refused stake: Perfect Pair takes at most $500, so a second $500 chip is refused, in words.
    # The clock stands still from here to the result: the window stays open for the clicks.
    round_id = drive_to_open(table, virtual_server, later=False)
    table.chip(50_000)
    table.bet("perfect_pair")
    table.wait_stakes({"perfect_pair": 50_000})
    table.bet("perfect_pair")
    expected = fill(
        mine["error.above_maximum"], bet=mine["bet.perfect_pair"], amount=money_in(language, 50_000)
    )
    assert table.message() == expected
    clean("table")

    # The round settles: the player's own line, then the history with the stake in its money.
    drive_to_result(virtual_server, round_id)
    page.wait_for_selector(".result__line")
    clean("table, settled")
    page.click("#history-open")
    page.wait_for_selector("#history-dialog tbody tr")
    bets = page.inner_text("#history-dialog tbody tr [data-col='bets']")
    assert bets == f"{mine['bet.perfect_pair']} {money_in(language, 50_000)}"
    clean("history")
    page.keyboard.press("Escape")

    page.goto(f"{virtual_server.url}/#/account")
    page.wait_for_selector("[data-row='wager-30d']")
    page.wait_for_selector("#break-state:not(:empty)")
    clean("account")

    page.goto(f"{virtual_server.url}/#/rules/standard")
    page.wait_for_selector(".rules-bet")
    clean("rules")
    title = fill(mine["rules.heading_of"], title=mine["ruleset.standard.title"])
    assert page.inner_text(".rules-title") == title

    # The switch: the other language at once, with no reload, and still after one.
    page.evaluate("window.__sameDocument = true")
    page.click(f"[data-lang='{other}']")
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=other)
    page.wait_for_selector(".rules-bet")
    assert page.evaluate("window.__sameDocument === true")
    assert page.get_attribute(f"[data-lang='{other}']", "aria-pressed") == "true"
    assert page.inner_text(".rules-title") == fill(
        theirs["rules.heading_of"], title=theirs["ruleset.standard.title"]
    )
    assert page.inner_text("[data-nav='rules']") == theirs["nav.rules"]
    assert page.inner_text("#balance-amount").startswith("$")
    page.reload()
    page.wait_for_selector(".rules-bet")
    assert page.evaluate("document.documentElement.lang") == other
    assert page.evaluate("localStorage.getItem('baccarat.language')") == other
    assert page.inner_text("[data-nav='lobby']") == theirs["nav.lobby"]
    assert page.evaluate("window.__sameDocument") is None
    assert console.unexpected(s422=1) == []


def test_the_english_rules_pages_say_what_the_server_says(
    open_page: Opener, virtual_server: Served
) -> None:
    """Every built-in rule set's pay tables, in the page's English words, equal the server's."""
    page, console = open_page(f"{virtual_server.url}/", locale="en-US")
    for name in BUILTIN_RULESETS:
        page.goto(f"{virtual_server.url}/#/rules/{name}")
        page.wait_for_function(
            "name => document.querySelector('.rules-title')?.textContent.startsWith('Rules: ') &&"
            " document.querySelector('.rules-bet')",
            arg=name,
        )
        data = httpx.get(f"{virtual_server.url}/api/rules/{name}", timeout=30).json()
        for bet in data["bets"]:
            rows = page.eval_on_selector_all(
                f".rules-bet[data-bet='{bet['name']}'] tbody tr",
                "rows => rows.map(r => [r.querySelector('th').textContent, r.querySelector('td').textContent,"
                " r.querySelector('td').title])",
            )
            assert rows == [[row["when"], row["odds"], row["text"]] for row in bet["pays"]], (
                name,
                bet["name"],
            )
        player = page.eval_on_selector_all(
            "[data-table='player-drawing'] tbody td", "cells => cells.map(c => c.textContent)"
        )
        assert player == [row["rule"] for row in data["drawing"]["player"]]
        page.goto(f"{virtual_server.url}/#/")
        page.wait_for_selector(".lobby-card")
    assert console.unexpected() == []


def test_the_indonesian_rules_pages_are_in_indonesian(
    open_page: Opener, virtual_server: Served, catalogues: dict[str, Catalogue]
) -> None:
    """Every built-in rule set's rules page in Indonesian: no word only English has, the game's
    Indonesian words in its prose, and the stakes in money written the Indonesian way."""
    english_only = words(catalogues["en"]) - words(catalogues["id"])
    keys = re.compile(r"\b(?:rules|bet|betdesc|ruleset|error)\.[a-z0-9_.-]+")
    page, console = open_page(f"{virtual_server.url}/", locale="id-ID")
    page.wait_for_selector(".lobby-card")
    for name in BUILTIN_RULESETS:
        page.goto(f"{virtual_server.url}/#/rules/{name}")
        page.wait_for_function(
            "title => document.querySelector('.rules-title')?.textContent === title &&"
            " document.querySelector('.rules-bet')",
            arg=fill(
                catalogues["id"]["rules.heading_of"],
                title=catalogues["id"][f"ruleset.{name}.title"],
            ),
        )
        assert foreign_words(page, english_only, keys) == [], name
        prose = page.inner_text(".rules-body").lower()
        for word in ("kartu", "seri", "menarik", "berhenti", "taruhan", "dibayar"):
            assert word in prose, (name, word)
        tie = page.inner_text(".rules-bet[data-bet='tie'] .rules-facts dd")
        rules = load_ruleset(name)
        symbol = "Rp\u00a0" if rules.currency == "IDR" else "$"
        assert tie == fill(
            catalogues["id"]["facts.range"],
            min=money_in("id", rules.bet("tie").min_stake, symbol),
            max=money_in("id", rules.bet("tie").max_stake, symbol),
        ), name
        page.goto(f"{virtual_server.url}/#/")
        page.wait_for_selector(".lobby-card")
    assert "komisi" in catalogues["id"]["ruleset.standard.title"]
    assert console.unexpected() == []


def test_the_page_files_stay_small() -> None:
    """The catalogues are loaded one at a time (English, and Indonesian when chosen): each is small."""
    for name in ("en.js", "id.js"):
        assert (JS / "messages" / name).stat().st_size < 48_000
    assert Path(JS / "i18n.js").stat().st_size < 16_000
