"""Registration, login with expiring tokens, the previous login time, logout, the cashier."""

from __future__ import annotations

from accounts_support import Service, db_url_fixture, service_fixture  # noqa: F401

from baccarat.server.clock import iso_utc
from baccarat.store import Database, check_ledger


def test_register_refuses_weak_passwords_bad_names_and_duplicates(service: Service) -> None:
    weak = service.call("POST", "/api/accounts", json={"username": "alice", "password": "short"})
    assert weak.status_code == 422
    assert "at least 10 characters" in weak.json()["error"]["message"]
    bad = service.call(
        "POST", "/api/accounts", json={"username": "a b", "password": "Correct-Horse-9"}
    )
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_account"
    first = service.call(
        "POST", "/api/accounts", json={"username": "Alice", "password": "Correct-Horse-9"}
    )
    assert first.status_code == 201 and first.json()["username"] == "alice"
    assert first.json()["balance"] == 0
    again = service.call(
        "POST", "/api/accounts", json={"username": "ALICE", "password": "Other-Horse-77"}
    )
    assert again.status_code == 409 and again.json()["error"]["code"] == "username_taken"


def test_login_gives_the_previous_login_time_and_logout_ends_the_token(service: Service) -> None:
    service.call("POST", "/api/accounts", json={"username": "bob", "password": "Correct-Horse-9"})
    wrong = service.call("POST", "/api/sessions", json={"username": "bob", "password": "nope-nope"})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_credentials"
    unknown = service.call(
        "POST", "/api/sessions", json={"username": "nobody", "password": "Correct-Horse-9"}
    )
    assert unknown.status_code == 401 and unknown.json() == wrong.json()

    first_at = service.clock.now_ms()
    first = service.login("bob")
    first_done = service.clock.now_ms()
    assert first["previous_login_at"] is None
    service.clock.advance(hours=3)
    second = service.login("bob")
    # The previous login is the first one: stamped while its request ran (however long a
    # loaded machine made that), not the second one, three hours later.
    assert first_at <= _ms(second["previous_login_at"]) <= first_done
    assert second["token"] != first["token"]

    me = service.call("GET", "/api/me", second["token"])
    assert me.status_code == 200 and me.json()["id"] == second["player_id"]
    assert service.call("DELETE", "/api/sessions/current", second["token"]).status_code == 204
    assert service.call("GET", "/api/me", second["token"]).status_code == 401
    # The other session (3 h old, 1 h lifetime) has expired meanwhile.
    assert service.call("GET", "/api/me", first["token"]).status_code == 401


def test_a_session_token_expires_by_the_injected_clock(service: Service) -> None:
    token = service.register_and_login("carol")
    assert service.call("GET", "/api/me", token).status_code == 200
    service.clock.advance(seconds=3599)
    assert service.call("GET", "/api/me", token).status_code == 200
    service.clock.advance(seconds=1)
    expired = service.call("GET", "/api/me", token)
    assert expired.status_code == 401 and expired.json()["error"]["code"] == "unauthorized"


def test_a_guest_logs_out_like_a_registered_player(service: Service) -> None:
    token = service.guest()
    assert service.call("GET", "/api/me", token).status_code == 200
    assert service.call("DELETE", "/api/sessions/current", token).status_code == 204
    assert service.call("GET", "/api/me", token).status_code == 401


def test_cashier_moves_money_through_the_world_account(service: Service) -> None:
    token = service.register_and_login("dave")
    deposit = service.call("POST", "/api/me/deposits", token, json={"amount": 12_345})
    assert deposit.status_code == 201 and deposit.json()["balance"] == 12_345
    too_much = service.call("POST", "/api/me/withdrawals", token, json={"amount": 12_346})
    assert too_much.status_code == 422
    out = service.call("POST", "/api/me/withdrawals", token, json={"amount": 345})
    assert out.status_code == 201 and out.json()["balance"] == 12_000
    assert service.call("GET", "/api/me", token).json()["balance"] == 12_000
    assert service.call("POST", "/api/me/deposits", token, json={"amount": 0}).status_code == 422
    assert service.call("POST", "/api/me/deposits", token, json={"amount": 1.5}).status_code == 422
    database = Database(service.db_url)
    try:
        with database.read() as connection:
            report = check_ledger(connection)
    finally:
        database.dispose()
    assert report.ok, report.problems
    assert report.player_money == 12_000


def _ms(text: str) -> int:
    from datetime import datetime

    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    ms = int(moment.timestamp() * 1000)
    assert iso_utc(ms) == text
    return ms


def test_logging_in_again_does_not_restart_the_session_clock(service: Service) -> None:
    token = service.register_and_login("erik")
    service.call(
        "PUT",
        "/api/me/session-settings",
        token,
        json={"time_limit_s": 600, "reality_check_every_s": None},
    )
    started = service.call("GET", "/api/me/session", token).json()["session"]["started_at"]
    service.clock.advance(seconds=400)
    again = service.login("erik")
    assert again["session"]["started_at"] == started
    view = service.call("GET", "/api/me/session", again["token"]).json()
    assert 400 <= view["time_played_s"] <= 402 and not view["limit_reached"]
    service.clock.advance(seconds=200)
    assert service.call("GET", "/api/me/session", again["token"]).json()["limit_reached"]
    # Past the limit, a new login starts a new session.
    fresh = service.login("erik")
    assert fresh["session"]["started_at"] != started
