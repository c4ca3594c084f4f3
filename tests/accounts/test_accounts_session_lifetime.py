"""Sessions: idle timeout (staff tokens' too), absolute lifetime, guest tokens that expire,
logout for guests, a session ended in the database refused at once, and WebSocket tickets
instead of tokens in URLs. The server's clock is moved by the test; the dealers' waits stay real.

The server here: idle timeout 10 minutes, a login lives 1 hour, a guest 2 hours.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from accounts_support import HOUR_MS, Service, db_url_fixture, serve_in_process  # noqa: F401
from sqlalchemy import select, update
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from baccarat.passwords import hash_password
from baccarat.server import Settings, tables_from
from baccarat.store import Database
from baccarat.store.players import token_hash
from baccarat.store.schema import auth_sessions, bets, staff_sessions, ws_tickets
from baccarat.store.staff import create_staff

MINUTE = 60.0
IDLE_S = 10 * MINUTE


@pytest.fixture(name="service")
def short_sessions(db_url: str) -> Iterator[Service]:
    config = Settings(
        db=db_url,
        # An hour's window: the virtual clock moves minutes within one round (a bet before
        # and after a limit passes), and a step still goes straight to its close.
        tables=tables_from(["standard"], betting_ms=HOUR_MS, reveal_ms=5, result_ms=10),
        idle_minutes=IDLE_S / 60,
        session_hours=1,
        guest_hours=2,
    )
    with serve_in_process(config) as service:
        yield service


def me(service: Service, token: str) -> int:
    return service.call("GET", "/api/me", token).status_code


def end_in_database(db_url: str, token: str) -> None:
    """End a session the way another server (or an operator) would: in the database only."""
    database = Database(db_url)
    try:
        with database.write() as c:
            c.execute(
                update(auth_sessions)
                .where(auth_sessions.c.token_hash == token_hash(token))
                .values(ended_at=time.time_ns() // 1_000_000)
            )
    finally:
        database.dispose()


def ticket(service: Service, token: str) -> str:
    response = service.call("POST", "/api/ws-tickets", token)
    assert response.status_code == 201, response.text
    value: str = response.json()["ticket"]
    return value


def close_code(feed: WebSocketTestSession, timeout: float = 10.0) -> int:
    """Read the feed until the server closes it; the close code."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            feed.receive_json()
        except WebSocketDisconnect as closed:
            return closed.code
    raise AssertionError("the feed was not closed")


# -- idle timeout and absolute lifetime -----------------------------------------------------


@pytest.mark.parametrize("kind", ["login", "guest"])
def test_a_token_unused_for_the_idle_timeout_is_over(service: Service, kind: str) -> None:
    token = service.register_and_login("ida") if kind == "login" else service.guest()
    # Each use keeps it alive: 3 x 9 minutes of use is past the idle timeout in total.
    for _ in range(3):
        service.clock.advance(seconds=IDLE_S - MINUTE)
        assert me(service, token) == 200
    service.clock.advance(seconds=IDLE_S + 1)
    refused = service.call("GET", "/api/me", token)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"


def test_a_login_ends_after_its_lifetime_however_much_it_is_used(service: Service) -> None:
    token = service.register_and_login("abe")
    for _ in range(11):  # 55 minutes, never idle
        service.clock.advance(seconds=5 * MINUTE)
        assert me(service, token) == 200
    service.clock.advance(seconds=5 * MINUTE)  # 60 minutes
    assert me(service, token) == 401


def test_a_guest_token_expires_after_the_guest_lifetime(service: Service) -> None:
    token = service.guest()
    for _ in range(23):  # 115 minutes, never idle
        service.clock.advance(seconds=5 * MINUTE)
        assert me(service, token) == 200
    service.clock.advance(seconds=5 * MINUTE)  # 120 minutes
    assert me(service, token) == 401


def test_polling_the_session_clock_does_not_keep_a_session_alive(service: Service) -> None:
    token = service.register_and_login("pol")
    for _ in range(3):  # at 3, 6 and 9 minutes
        service.clock.advance(seconds=IDLE_S * 0.3)
        assert service.call("GET", "/api/me/session", token).status_code == 200
    service.clock.advance(seconds=IDLE_S * 0.1 + 1)
    assert service.call("GET", "/api/me/session", token).status_code == 401


def staff_token(service: Service, username: str) -> str:
    """A member of staff (written straight to the database) logged in: their token."""
    password = "Pit-Boss-Pass-9"
    database = Database(service.db_url)
    try:
        with database.write() as c:
            create_staff(c, username, "auditor", hash_password(password), 0)
    finally:
        database.dispose()
    body = {"username": username, "password": password}
    response = service.call("POST", "/api/admin/login", json=body)
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def test_a_staff_token_idles_out_and_ends_like_a_players(service: Service) -> None:
    token = staff_token(service, "pit")
    for _ in range(3):  # each use keeps it alive
        service.clock.advance(seconds=IDLE_S - MINUTE)
        assert service.call("GET", "/api/admin/me", token).status_code == 200
    service.clock.advance(seconds=IDLE_S + 1)
    assert service.call("GET", "/api/admin/me", token).status_code == 401
    other = staff_token(service, "boss")
    assert service.call("GET", "/api/admin/me", other).status_code == 200
    database = Database(service.db_url)
    try:
        with database.write() as c:
            c.execute(
                update(staff_sessions)
                .where(staff_sessions.c.token_hash == token_hash(other))
                .values(ended_at=service.clock.now_ms())
            )
    finally:
        database.dispose()
    assert service.call("GET", "/api/admin/me", other).status_code == 401


# -- logout and sessions ended elsewhere ----------------------------------------------------


def test_a_guest_logs_out_and_its_token_is_refused(service: Service) -> None:
    token = service.guest()
    assert me(service, token) == 200
    assert service.call("DELETE", "/api/sessions/current", token).status_code == 204
    assert me(service, token) == 401
    assert service.call("DELETE", "/api/sessions/current", token).status_code == 401


@pytest.mark.parametrize("kind", ["login", "guest"])
def test_a_session_ended_in_the_database_is_refused_at_once(service: Service, kind: str) -> None:
    token = service.register_and_login("eve") if kind == "login" else service.guest()
    assert me(service, token) == 200  # known to this server
    end_in_database(service.db_url, token)
    assert me(service, token) == 401
    assert service.call("POST", "/api/ws-tickets", token).status_code == 401


def test_a_bet_on_a_session_ended_in_the_database_places_nothing(service: Service) -> None:
    """The bet path remembers who holds a token; the bet queue checks the session in the bet's
    own transaction, so a session ended elsewhere places nothing, even once known."""
    token = service.guest()
    round_id = service.betting_round()
    first = service.bet(token, round_id, {"player": 100})
    assert first.status_code == 200, first.text
    balance = first.json()["balance"]
    end_in_database(service.db_url, token)
    refused = service.bet(token, round_id, {"banker": 100})
    assert refused.status_code == 401, refused.text
    assert refused.json()["error"]["code"] == "unauthorized"
    database = Database(service.db_url)
    try:
        with database.read() as c:
            stakes = sorted(c.execute(select(bets.c.spot, bets.c.stake)).all())
    finally:
        database.dispose()
    assert stakes == [("player", 100)]
    assert balance == 1_000_000 - 100


def test_betting_keeps_a_session_from_idling_out(service: Service) -> None:
    token = service.guest()
    for _ in range(3):
        round_id = service.betting_round()
        service.clock.advance(seconds=IDLE_S * 0.6)
        placed = service.bet(token, round_id, {"player": 100})
        assert placed.status_code == 200, placed.text
    assert me(service, token) == 200  # 1.8 idle timeouts since it began, never idle


def test_only_hashes_of_tokens_and_tickets_are_stored(service: Service) -> None:
    token = service.guest()
    issued = ticket(service, token)
    database = Database(service.db_url)
    try:
        with database.read() as c:
            stored: list[Any] = [*c.execute(select(auth_sessions)), *c.execute(select(ws_tickets))]
    finally:
        database.dispose()
    text = repr(stored)
    assert token not in text and issued not in text
    assert token_hash(token) in text and token_hash(issued) in text


# -- the WebSocket: tickets, never tokens in the URL ----------------------------------------


def test_a_ticket_opens_the_feed_once_and_only_while_fresh(service: Service) -> None:
    token = service.guest()
    assert service.call("POST", "/api/ws-tickets").status_code == 401
    first = ticket(service, token)
    with service.client.websocket_connect(f"/ws/tables/standard?ticket={first}") as feed:
        assert feed.receive_json()["type"] == "snapshot"
    with service.client.websocket_connect(f"/ws/tables/standard?ticket={first}") as feed:
        assert close_code(feed) == 4401  # used already
    stale = ticket(service, token)
    service.clock.advance(seconds=31)
    with service.client.websocket_connect(f"/ws/tables/standard?ticket={stale}") as feed:
        assert close_code(feed) == 4401


def test_logout_closes_the_feed_and_a_token_in_the_url_opens_nothing(service: Service) -> None:
    token = service.register_and_login("wes")
    url = "/ws/tables/standard"
    with (
        service.client.websocket_connect(f"{url}?ticket={ticket(service, token)}") as player,
        service.client.websocket_connect(f"{url}?token={token}") as spectator,
    ):
        assert player.receive_json()["type"] == "snapshot"
        assert spectator.receive_json()["type"] == "snapshot"
        assert service.call("DELETE", "/api/sessions/current", token).status_code == 204
        assert close_code(player) == 4401
        # ?token= is not read: that feed was a spectator's all along, and stays open.
        assert spectator.receive_json()["type"] in {
            "round_open",
            "bets_closed",
            "card",
            "round_result",
            "settled",
            "watching",
            "shoe_start",
            "shoe_end",
        }


def test_a_feed_is_closed_when_its_session_ends_elsewhere(service: Service) -> None:
    token = service.guest()
    with service.client.websocket_connect(
        "/ws/tables/standard", headers={"Authorization": f"Bearer {token}"}
    ) as feed:
        assert feed.receive_json()["type"] == "snapshot"
        end_in_database(service.db_url, token)
        assert close_code(feed) == 4401
