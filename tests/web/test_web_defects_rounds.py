"""Every screen a player sees names a round the same way: its table, its shoe's number at the
table and its number in that shoe (``standard · Shoe 2 · Round 1``), never the server-wide
round id; the back office keeps that id (staff search by it) with the shoe and round beside it.

An operator voids the round a guest has a bet on (the admin API); the guest's table shows
*Shoe 2 · Round 1 void — stakes returned* from the ``round_void`` event and again, after a
reload, from the snapshot's ``last_round``; the feed's event, the snapshot and the history
carry the shoe's number; the history names the table, the shoe and the round; the back
office shows ``#240`` with *Shoe 2 · Round 1* beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page
from web_support import (
    STAFF_PASSWORD,
    Opener,
    Served,
    TablePage,
    drive_to_open,
    staffed_server,
)

pytest_plugins = ("web_support",)

PASSWORD = STAFF_PASSWORD
REASON = "dealer exposed a card"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """Two tables on a virtual clock (their rounds share the server-wide ids, so a round's id
    is not its number in its shoe) and an operator, ``marta``, made by the command."""
    yield from staffed_server(
        tmp_path_factory.mktemp("web-round-names"), {"marta": "operator"}, tables="standard,ez"
    )


def staff_token(server: Served) -> str:
    with server.client() as anyone:
        login = anyone.post("/api/admin/login", json={"username": "marta", "password": PASSWORD})
    assert login.status_code == 201, login.text
    token: str = login.json()["token"]
    return token


def round_void_frames(page: Page) -> list[dict[str, Any]]:
    """Every ``round_void`` message the page's feeds receive from now on."""
    seen: list[dict[str, Any]] = []

    def on_socket(socket: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            message = json.loads(text)
            if message.get("type") == "round_void":
                seen.append(message)

        socket.on("framereceived", on_frame)

    page.on("websocket", on_socket)
    return seen


def test_a_voided_round_is_named_by_table_shoe_and_number_on_every_screen(
    open_page: Opener, served: Served
) -> None:
    guest_page, console = open_page(f"{served.url}/")
    frames = round_void_frames(guest_page)
    guest = TablePage(guest_page)
    before = guest.join()
    guest.open_table("standard")
    round_id = drive_to_open(guest, served, later=False)
    # Both tables count the server-wide ids: a later round's id is not its number in its shoe.
    while round_id == served.get(f"/api/rounds/{round_id}")["number"]:
        round_id = drive_to_open(guest, served)
    number = served.get(f"/api/rounds/{round_id}")["number"]
    shoe = served.get("/api/tables/standard")["shoe"]["number"]
    assert round_id != number
    guest.chip(500)
    guest.bet("player")
    guest.wait_stakes({"player": 500})

    with served.client(staff_token(served)) as staff:
        voided = staff.post(f"/api/admin/rounds/{round_id}/void", json={"reason": REASON})
        listed = staff.get("/api/admin/rounds", params={"table_id": "standard"}).json()
    assert voided.status_code == 200, voided.text

    # At the table: the event's banner names the shoe and the round in it, not the id.
    named = f"Shoe {shoe} · Round {number}"
    banner = f'.void-notice[data-round="{round_id}"]'
    guest_page.wait_for_selector(banner)
    assert (
        guest_page.inner_text(f"{banner} .void-notice__text") == f"{named} void — stakes returned"
    )
    guest.wait_balance(before)
    assert [(f["round_id"], f["shoe_number"]) for f in frames] == [(round_id, shoe)]

    # The snapshot's last round carries the shoe too, and a reload's banner says the same.
    last = served.get("/api/tables/standard")["last_round"]
    assert (last["id"], last["shoe_number"], last["number"]) == (round_id, shoe, number)
    guest_page.reload()
    guest_page.wait_for_selector(banner)
    assert (
        guest_page.inner_text(f"{banner} .void-notice__text") == f"{named} void — stakes returned"
    )

    # The history: the table, the shoe and the round, in the API and on the page.
    token = guest_page.evaluate("JSON.parse(localStorage.getItem('baccarat.session')).token")
    with httpx.Client(base_url=served.url, headers={"Authorization": f"Bearer {token}"}) as me:
        recalled = me.get("/api/me/history").json()["rounds"][0]
    assert (recalled["round_id"], recalled["table_id"]) == (round_id, "standard")
    assert (recalled["shoe_number"], recalled["number"]) == (shoe, number)
    guest_page.click("#history-open")
    row = f'#history-dialog tr[data-round="{round_id}"]'
    guest_page.wait_for_selector(row)
    assert guest_page.inner_text(f"{row} th") == f"standard · {named}"
    assert f"#{round_id}" not in guest_page.inner_text("#history-dialog tbody")
    assert console.unexpected() == []

    # The back office keeps the server-wide id, with the shoe and the round beside it.
    assert voided.json()["round"]["shoe_number"] == shoe
    mine = [(r["shoe_number"], r["number"]) for r in listed["rounds"] if r["id"] == round_id]
    assert mine == [(shoe, number)]
    page, staff_console = open_page(f"{served.url}/admin")
    page.wait_for_selector(".admin-login")
    page.fill("input[name=username]", "marta")
    page.fill("input[name=password]", PASSWORD)
    page.click(".admin-login button[type=submit]")
    page.wait_for_selector("#staff-user:not([hidden])")
    page.click('[data-nav="rounds"]')
    cell = f'tr[data-round="{round_id}"] [data-col="id"]'
    page.wait_for_selector(cell)
    assert page.inner_text(cell).split() == [f"#{round_id}", *named.split()]
    page.click(f'tr[data-round="{round_id}"] button[data-round="{round_id}"]')
    page.wait_for_selector("#round-detail-title")
    assert named in page.inner_text(".admin-detail .admin-facts")
    assert staff_console.unexpected() == []
