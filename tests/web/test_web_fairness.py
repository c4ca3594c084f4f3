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
from web_support import Opener, Served, TablePage, drive_to_open, drive_to_result

pytest_plugins = ("web_support",)


def test_face_down_deal_and_the_shoe_reveal(
    open_page: Opener, virtual_quick_server: Served, tmp_path: Path
) -> None:
    quick_server = virtual_quick_server  # on a virtual clock: the test moves time itself
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

    round_id = drive_to_open(table, quick_server, "quick", later=False)
    table.chip(100)
    table.bet("player")
    table.wait_stakes({"player": 100})

    # Betting closes: four backs lie on the table, none of them knows its card.
    quick_server.close_bets("quick")
    page.wait_for_function(
        "document.querySelectorAll('.hand .card:not(.card--revealed)').length === 4"
    )
    assert (
        page.eval_on_selector_all(
            ".hand .card:not(.card--revealed)[data-card]", "els => els.length"
        )
        == 0
    )
    drive_to_result(quick_server, round_id, "quick")
    table.wait_result()
    assert page.eval_on_selector_all(".hand .card:not(.card--revealed)", "els => els.length") == 0

    # The shoe ends within a few coups; its seed appears with the record and the command.
    in_play = quick_server.get("/api/tables/quick")["shoe"]["id"]
    quick_server.advance_until(
        lambda: (quick_server.get("/api/tables/quick")["previous_shoe"] or {}).get("id") == in_play,
        "the shoe in play to end",
    )
    page.wait_for_function(
        "id => document.querySelector('.fair__revealed h3')?.innerText.includes(id)",
        arg=in_play,
    )
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
