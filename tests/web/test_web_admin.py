"""The back office (``/admin``) in Chromium against a real ``baccarat serve``.

Staff are made by the command (``baccarat admin create-user --password-stdin``) against the
server's own database. An operator voids the round a guest has bets on, from the page: the
guest's table page gets the stakes back and the guest's history says the round is void, and
the audit log on ``/admin`` shows who voided it and why. An auditor reads every section, finds
every acting control disabled, and a request forced past a disabled button is refused by the
server (403) and worded on the page. No console error; axe finds nothing serious; both
catalogues of the back office have the same keys; the player's page loads none of it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page
from web_support import (
    SCREENSHOTS,
    VIRTUAL_WINDOW_S,
    Opener,
    Served,
    TablePage,
    call_module,
    drive_to_open,
    money,
    serve_web,
)

pytest_plugins = ("web_support",)

BIN = Path(sys.executable).parent

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PASSWORD = "Pit-Boss-Pass-9"
REASON = "dealer exposed a card"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def admin_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One standard table on a virtual clock (a window stays open while a round is voided
    from the page); an operator ``marta`` and an auditor ``eve``, made by the command."""
    served = serve_web(
        tmp_path_factory.mktemp("web-admin"),
        tables="standard",
        betting_seconds=VIRTUAL_WINDOW_S,
        reveal_ms=100,
        result_ms=400,
        demo_credit=150_000,
        virtual_clock=True,
    )
    try:
        command = [str(BIN / "baccarat"), "admin", "create-user", "--db", served.db_url]
        makers = [
            subprocess.Popen(
                [*command, name, "--role", role, "--password-stdin"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for name, role in (("marta", "operator"), ("eve", "auditor"))
        ]
        for maker in makers:
            out, err = maker.communicate(PASSWORD + "\n", timeout=60)
            assert maker.returncode == 0, err
            assert out.startswith("created "), out
        yield served
    finally:
        served.stop()


def log_in(page: Page, name: str) -> None:
    page.wait_for_selector(".admin-login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click(".admin-login button[type=submit]")
    page.wait_for_selector("#staff-user:not([hidden])")
    page.wait_for_selector('tr[data-table="standard"]')


def give_reason(page: Page, reason: str) -> None:
    page.wait_for_selector("dialog.admin-dialog[open]")
    page.fill("#admin-reason", reason)
    page.click("dialog.admin-dialog [data-confirm]")
    page.wait_for_selector("dialog.admin-dialog", state="detached")


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


def test_an_operator_voids_a_guests_round_and_everyone_sees_it(
    open_page: Opener, admin_server: Served
) -> None:
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make install)")
    url = admin_server.url
    guest_page, guest_console = open_page(f"{url}/")
    guest = TablePage(guest_page)
    before = guest.join()
    guest.open_table("standard")
    round_id = drive_to_open(guest, admin_server, later=False)
    guest.chip(500)
    guest.bet("player")
    guest.chip(100)
    guest.bet("tie")
    guest.wait_stakes({"player": 500, "tie": 100})
    guest.wait_balance(before - 600)

    page, console = open_page(f"{url}/admin")
    assert run_axe(page) == [], "the login form"
    log_in(page, "marta")
    assert page.inner_text("#staff-user") == "marta · Operator"
    page.click('[data-nav="rounds"]')
    page.click(f'tr[data-round="{round_id}"] button[data-round="{round_id}"]')
    page.wait_for_selector("#round-detail-title")
    stakes = page.eval_on_selector_all(
        ".admin-detail tbody tr",
        "rows => rows.map(r => r.querySelector('[data-col=stake]')?.textContent)",
    )
    assert sorted(stakes) == sorted([money(500), money(100)])
    player = guest_page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).id")
    owners = page.eval_on_selector_all(".admin-detail tbody code", "els => els.map(el => el.title)")
    assert owners == [player, player]
    # By keyboard: the void button, then the reason typed where the dialog put the focus.
    page.focus('[data-act="void"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.admin-dialog[open]")
    page.keyboard.type(REASON)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "text => document.getElementById('admin-status').textContent === text",
        arg=f"Round {round_id} is void: {money(600)} returned to 1 player.",
    )
    page.wait_for_selector('.admin-detail [data-state="voided"]')
    assert page.is_disabled('[data-act="void"]')
    assert REASON in page.inner_text(".admin-detail")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "admin-desktop.png"))
    assert run_axe(page) == [], "the rounds section with a voided round"

    # The guest: the stakes back on the table page, the void said once (its notice, not also a
    # message under the felt), the round void in the history.
    guest.wait_balance(before)
    guest_page.wait_for_selector(f'.void-notice[data-round="{round_id}"]')
    assert "void" not in guest_page.inner_text(".table-message").lower()
    guest_page.click("#history-open")
    row = f'#history-dialog tr[data-round="{round_id}"]'
    guest_page.wait_for_selector(row)
    assert guest_page.inner_text(f"{row} [data-col=result]").startswith("Void")
    assert guest_page.inner_text(f"{row} [data-col=after]") == money(before)
    # The player's page fetched nothing of the back office.
    fetched = guest_page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert [name for name in fetched if "/admin" in name] == []

    # The guest's page in the back office, from the link on the round's bet.
    page.click('[data-nav="rounds"]')
    page.click(f'tr[data-round="{round_id}"] button[data-round="{round_id}"]')
    page.click(f'.admin-detail a[href="#/players/{player}"] >> nth=0')
    page.wait_for_selector(f'#player-title ~ * tr[data-round="{round_id}"] [data-state="voided"]')
    assert page.inner_text("[data-balance]") == money(before)
    assert run_axe(page) == [], "a player's page"

    # A change for the next shoe, from the form: shown as what differs from now.
    page.click('[data-nav="tables"]')
    page.wait_for_selector('select[name=bet] option[value="tie"]', state="attached")
    page.select_option("select[name=bet]", "tie")  # the only table, standard, is chosen
    assert page.input_value("input[name=max_stake]") == "2000.00"
    page.fill("input[name=max_stake]", "500")
    page.fill("input[name=betting_s]", "9")
    page.click('[data-act="next-shoe"]')
    give_reason(page, "a quieter night")
    pending = 'tr[data-table="standard"] [data-col="next-shoe"]'
    page.wait_for_selector(f"{pending}:has-text('9 s')")
    assert page.inner_text(pending) == "tie ($1.00 to $500.00) · bets 9 s"
    assert run_axe(page) == [], "the tables section"

    # The audit log: who voided it and why.
    page.click('[data-nav="audit"]')
    record = page.wait_for_selector('tr[data-action="round_void"]')
    assert record is not None
    assert record.inner_text().count("staff:marta") == 1
    details = page.inner_text('tr[data-action="round_void"] [data-col=details]')
    assert REASON in details and str(round_id) in details
    page.click('[data-read="verify"]')
    page.wait_for_selector('.admin-verdict[data-ok="true"]')
    assert run_axe(page) == [], "the audit log"
    assert console.unexpected() == []
    assert guest_console.unexpected() == []


def test_an_auditor_reads_everything_and_can_act_on_nothing(
    open_page: Opener, admin_server: Served
) -> None:
    guest = httpx.post(f"{admin_server.url}/api/players", timeout=10).json()
    # Under the page's own Content Security Policy: a violation would be a console error.
    page, console = open_page(f"{admin_server.url}/admin", bypass_csp=False, accept_downloads=True)
    log_in(page, "eve")
    assert page.inner_text("#staff-user") == "eve · Auditor (read only)"

    def nothing_acts() -> None:
        enabled = page.eval_on_selector_all(
            "[data-act]",
            "els => els.filter(el => !el.matches(':disabled')).map(el => el.outerHTML)",
        )
        assert enabled == []

    assert page.locator("[data-act]").count() >= 4  # open, pause, close, the change
    nothing_acts()
    page.click('[data-nav="rounds"]')
    page.wait_for_selector("tbody tr[data-round]")
    # Opened on a UTC day: none before today, some today.
    today = datetime.now(UTC).date()
    page.fill("input[name=until]", (today - timedelta(days=1)).isoformat())
    page.click(".admin-toolbar button[type=submit]")
    page.wait_for_selector(".admin-empty")
    page.fill("input[name=until]", today.isoformat())
    page.fill("input[name=since]", today.isoformat())
    page.click(".admin-toolbar button[type=submit]")
    page.wait_for_selector("tbody tr[data-round]")
    page.click("tbody tr[data-round] button")
    page.wait_for_selector("#round-detail-title")
    nothing_acts()
    page.click('[data-nav="players"]')
    page.fill("input[name=q]", guest["id"][:8])
    page.press("input[name=q]", "Enter")
    page.click(f'tr[data-player="{guest["id"]}"] button')
    page.wait_for_selector("#player-title")
    assert page.inner_text("[data-balance]") == money(150_000)
    assert page.locator("[data-act]").count() >= 4  # lock, unlock, close, the limit
    nothing_acts()
    page.click('[data-nav="shoes"]')
    page.wait_for_selector('td[data-col="verification"]')
    page.click('[data-nav="audit"]')
    page.wait_for_selector('tr[data-action="staff_login"]')
    page.click('[data-nav="reports"]')
    page.select_option("select[name=money]", "all")
    page.click(".admin-toolbar button[type=submit]")
    page.wait_for_selector('caption:has-text("Both")')
    with page.expect_download() as download:
        page.click('[data-read="csv"]')
    csv = Path(download.value.path()).read_text(encoding="utf-8")
    assert csv.startswith("table_id,day,bet,"), csv[:200]
    page.click('[data-nav="integrity"]')
    page.wait_for_selector("[data-open-alerts]")
    nothing_acts()
    page.click('[data-nav="staff"]')
    page.wait_for_selector('tr[data-staff="marta"]')
    assert page.locator("[data-act]").count() == 3  # two members to disable, one to create
    nothing_acts()

    # Forced past the disabled button: the server refuses, the page says so in words.
    page.click('[data-nav="tables"]')
    pause = 'tr[data-table="standard"] [data-act="pause"]'
    page.wait_for_selector(pause)
    page.eval_on_selector(pause, "el => { el.removeAttribute('disabled'); el.click(); }")
    give_reason(page, "just looking")
    page.wait_for_selector("#admin-alert:not(:empty)")
    assert page.inner_text("#admin-alert") == (
        "Refused by the server: your role may not do that. Nothing was changed."
    )
    assert httpx.get(f"{admin_server.url}/api/tables/standard", timeout=10).status_code == 200
    page.click(".admin .btn:has-text('Refresh')")
    page.wait_for_selector('tr[data-table="standard"] [data-col="status"] [data-state="open"]')

    # In Indonesian, without a reload: the section drawn again, no key left unwritten.
    page.click('[data-lang="id"]')
    page.wait_for_selector("h1:has-text('Meja')")
    assert page.inner_text("#staff-user") == "eve · Auditor (hanya baca)"
    assert page.inner_text('[data-nav="audit"]') == "Log audit"
    assert not re.search(r"admin\.[a-z]", page.inner_text("body"))
    nothing_acts()
    assert console.unexpected(s403=1) == []


def test_the_back_offices_own_arithmetic(open_page: Opener, admin_server: Served) -> None:
    """Amounts typed in major units, and the UTC days a date field names."""
    page, _console = open_page(f"{admin_server.url}/healthz")
    typed = ["12.5", "12,50", "0.05", "7", " 3.10 ", "1.234", "", "abc", "-1", "1e3"]
    assert call_module(page, "admin/tables.js", "minorOf", [[text] for text in typed]) == [
        1250,
        1250,
        5,
        700,
        310,
        None,
        None,
        None,
        None,
        None,
    ]
    days: list[list[Any]] = [["2026-12-01"], ["2026-12-31", 1], ["2028-02-28", 1], [""]]
    assert call_module(page, "admin/rounds.js", "dayStart", days) == [
        "2026-12-01T00:00:00.000Z",
        "2027-01-01T00:00:00.000Z",
        "2028-02-29T00:00:00.000Z",
        None,
    ]


def test_both_catalogues_of_the_back_office_match(open_page: Opener, admin_server: Served) -> None:
    page, _console = open_page(f"{admin_server.url}/healthz")
    catalogues: dict[str, dict[str, Any]] = page.evaluate(
        """async () => ({
             en: (await import("/static/js/admin/messages/en.js")).default,
             id: (await import("/static/js/admin/messages/id.js")).default })"""
    )
    en, id_ = catalogues["en"], catalogues["id"]
    assert sorted(en) == sorted(id_)
    assert all(key.startswith("admin.") for key in en)

    def names(message: Any) -> set[str]:
        texts = [message] if isinstance(message, str) else list(message.values())
        return {name for text in texts for name in PLACEHOLDER.findall(text)}

    assert {key: names(m) for key, m in en.items()} == {key: names(m) for key, m in id_.items()}
    # Every key the back office's modules name is in the catalogue (or the page's own).
    static = Path(__file__).resolve().parents[2] / "src" / "baccarat" / "web" / "static"
    used = set()
    for module in [*(static / "js" / "admin").glob("*.js"), static / "admin.html"]:
        used |= set(re.findall(r'"(admin\.[a-z_.-]+[a-z])"', module.read_text(encoding="utf-8")))
    assert used and used <= set(en)
