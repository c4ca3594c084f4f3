"""An operator's lock follows the device a locked player played on: a guest (or a login)
answers a *seat device token* naming its player; the page keeps it. While that player is
locked (or for good, closed) ``POST /api/players`` with the token is refused with 403
``device_locked`` and creates nothing, and ``POST /api/players/seat-status`` tells the page
why its token stopped working. An unlock lifts both. Without the token (a private window,
cleared storage) a new guest is made: the residual risk ``docs/security.md`` names.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from admin_support import Admin, running_admin
from sqlalchemy import func, select

from baccarat.store import Database
from baccarat.store.schema import players


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("locked-guest"))


def player_count(admin: Admin) -> int:
    database = Database(admin.db_url)
    try:
        with database.read() as connection:
            return int(connection.scalar(select(func.count()).select_from(players)) or 0)
    finally:
        database.dispose()


def lock(admin: Admin, player: str, action: str = "lock") -> None:
    answer = admin.as_role(
        "operator" if action != "close" else "admin",
        "POST",
        f"/api/admin/players/{player}/{action}",
        json={"reason": "underage suspicion"},
    )
    assert answer.status_code == 200, answer.text


def status(admin: Admin, device: str) -> str:
    answer = admin.call("POST", "/api/players/seat-status", json={"seat_device": device})
    assert answer.status_code == 200, answer.text
    state: str = answer.json()["status"]
    return state


def test_a_locked_guests_device_gets_no_new_guest_until_it_is_unlocked(admin: Admin) -> None:
    created = admin.call("POST", "/api/players", json={})
    assert created.status_code == 201, created.text
    guest, token, device = (created.json()[key] for key in ("id", "token", "seat_device"))
    assert status(admin, device) == "active"

    lock(admin, guest)
    assert admin.call("GET", "/api/me", token).status_code == 401  # its session ended
    # The page asks why its token stopped working: the account was locked.
    assert status(admin, device) == "locked"
    # "Play as guest" from that device: refused, and nothing is made.
    before = player_count(admin)
    refused = admin.call("POST", "/api/players", json={"seat_device": device})
    assert refused.status_code == 403, refused.text
    assert refused.json()["error"]["code"] == "device_locked"
    assert "locked" in refused.json()["error"]["message"]
    assert player_count(admin) == before
    # Without the token (another browser, a private window) a guest is made: a residual risk.
    elsewhere = admin.call("POST", "/api/players", json={})
    assert elsewhere.status_code == 201
    # A token this server did not make is no token (a page kept it from another server).
    forged = device[:-1] + ("0" if device[-1] != "0" else "1")
    assert admin.call("POST", "/api/players", json={"seat_device": forged}).status_code == 201
    assert (
        admin.call("POST", "/api/players/seat-status", json={"seat_device": forged}).status_code
        == 422
    )

    # The operator unlocks the guest: its device may have a guest again (with a token of its own).
    lock(admin, guest, "unlock")
    assert status(admin, device) == "active"
    again = admin.call("POST", "/api/players", json={"seat_device": device})
    assert again.status_code == 201, again.text
    assert again.json()["seat_device"] != device


def test_a_locked_or_closed_logins_device_gets_no_guest(admin: Admin) -> None:
    password = "Correct-Horse-9"
    created = admin.call(
        "POST", "/api/accounts", json={"username": "lockdev", "password": password}
    )
    player = created.json()["id"]
    login = admin.call("POST", "/api/sessions", json={"username": "lockdev", "password": password})
    assert login.status_code == 201, login.text
    device = login.json()["seat_device"]
    lock(admin, player, "close")
    assert status(admin, device) == "closed"
    refused = admin.call("POST", "/api/players", json={"seat_device": device})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "device_locked")


def test_seat_device_tokens_are_checked_as_input(admin: Admin) -> None:
    for bad in ("", "x" * 65, "not.a.token", "\x00" * 65, 7, None):
        for path in ("/api/players", "/api/players/seat-status"):
            answer = admin.call("POST", path, json={"seat_device": bad})
            if bad is None and path == "/api/players":
                assert answer.status_code == 201  # no token: a plain new guest
            else:
                assert answer.status_code == 422, (path, bad, answer.text)
    # A bare request, as before, still makes a guest.
    assert admin.call("POST", "/api/players").status_code == 201
