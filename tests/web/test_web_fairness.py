"""Face-down dealing and the fairness panel, on a table whose one-deck shoe ends every few coups.

The page shows the shoe's commitment before any bet, four card backs while the cards are held
face down, each card only once the server reveals it, and, when the shoe ends, the revealed
seed and a record that ``baccarat verify`` accepts (run as a real subprocess).
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from serving import BIN
from web_support import Opener, Served, TablePage

pytest_plugins = ("web_support",)


def test_face_down_deal_and_the_shoe_reveal(
    open_page: Opener, quick_server: Served, tmp_path: Path
) -> None:
    page, console = open_page(f"{quick_server.url}/")
    page.wait_for_selector('.lobby-card[data-table="quick"] .badge--down')
    assert page.inner_text('.lobby-card[data-table="quick"] .badge') == "FACE DOWN"
    table = TablePage(page)
    table.join()
    table.open_table("quick")
    assert page.inner_text('[data-fact="dealing"] dd') == "Face down, squeezed"

    # The commitment shown is the one the API publishes for the shoe in play.
    shown = page.inner_text(".fair__list .fair__hex")
    shoe = quick_server.get("/api/tables/quick")["shoe"]
    assert shown in {shoe["commitment"]}, "the panel shows the current shoe's commitment"
    commitments = {shoe["id"]: shoe["commitment"]}

    table.wait_open(at_least=1)
    table.chip(100)
    table.bet("player")
    table.wait_stakes({"player": 100})

    # Betting closes: four backs lie on the table, none of them knows its card.
    page.wait_for_function(
        "document.querySelectorAll('.hand .card:not(.card--revealed)').length === 4"
    )
    assert (
        page.eval_on_selector_all(
            ".hand .card:not(.card--revealed)[data-card]", "els => els.length"
        )
        == 0
    )
    table.wait_result()
    assert page.eval_on_selector_all(".hand .card:not(.card--revealed)", "els => els.length") == 0

    # The shoe ends within a few coups; its seed appears with the record and the command.
    page.wait_for_selector(".fair__revealed h3", timeout=60_000)
    # Read the panel in one go: a one-deck shoe may end again while the test is reading it.
    heading, seed, link = page.evaluate(
        """() => [
            document.querySelector('.fair__revealed h3').innerText,
            document.querySelector('.fair__revealed .fair__hex').innerText,
            document.querySelector('.fair__link').getAttribute('href'),
        ]"""
    )
    ended_id = heading.split()[1]
    view = quick_server.get(f"/api/shoes/{ended_id}")
    assert view["status"] == "ended"
    assert seed == view["server_seed"]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == view["commitment"]
    if ended_id in commitments:
        assert commitments[ended_id] == view["commitment"]
    assert page.inner_text(".fair__verify code") == "baccarat verify record.json"
    assert link == f"/api/shoes/{ended_id}/record"

    with page.expect_download() as download_info:
        page.click("text=Download record.json")
    record = tmp_path / "record.json"
    download_info.value.save_as(record)
    checked = subprocess.run(
        [str(BIN / "baccarat"), "verify", str(record)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("OK: ")
    assert console.unexpected() == []
