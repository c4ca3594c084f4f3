"""Limits, breaks, the session time limit and reality checks, enforced by the live service.

The server's clock is moved by the test (a day in one call); the dealers' waits stay real.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from accounts_support import Service, db_url_fixture, service_fixture  # noqa: F401
from sqlalchemy import func, select

from baccarat.store import Database
from baccarat.store.schema import bets, ledger_entries, ledger_transactions


def _put(service: Service, token: str, kind: str, period: str, amount: int | None) -> dict:  # type: ignore[type-arg]
    response = service.call(
        "PUT", "/api/me/limits", token, json={"kind": kind, "period": period, "amount": amount}
    )
    assert response.status_code == 200, response.text
    body: dict = response.json()  # type: ignore[type-arg]
    return body


def _limit(body: dict, kind: str, period: str) -> int | None:  # type: ignore[type-arg]
    for item in body["limits"]:
        if item["kind"] == kind and item["period"] == period:
            return int(item["amount"])
    return None


def test_decrease_applies_now_increase_after_24_hours_and_confirmation(service: Service) -> None:
    token = service.guest()  # a guest's token does not expire while the clock runs a day
    first = _put(service, token, "loss", "24h", 5_000)
    assert _limit(first, "loss", "24h") == 5_000
    lower = _put(service, token, "loss", "24h", 4_000)
    assert lower["change"]["status"] == "applied" and _limit(lower, "loss", "24h") == 4_000
    higher = _put(service, token, "loss", "24h", 9_000)
    assert _limit(higher, "loss", "24h") == 4_000
    assert [(p["kind"], p["period"], p["amount"]) for p in higher["pending"]] == [
        ("loss", "24h", 9_000)
    ]
    confirm = "/api/me/limits/loss/24h/confirm"
    service.clock.advance(hours=24, seconds=-1)
    early = service.call("POST", confirm, token)
    assert early.status_code == 422 and early.json()["error"]["code"] == "invalid_limit"
    still = service.call("GET", "/api/me/limits", token).json()
    assert _limit(still, "loss", "24h") == 4_000
    service.clock.advance(seconds=1)
    assert _limit(service.call("GET", "/api/me/limits", token).json(), "loss", "24h") == 4_000
    done = service.call("POST", confirm, token)
    assert done.status_code == 200, done.text
    assert _limit(done.json(), "loss", "24h") == 9_000 and done.json()["pending"] == []


def test_the_lowest_limit_wins_on_deposits(service: Service) -> None:
    token = service.register_and_login("frank")
    _put(service, token, "deposit", "30d", 50_000)
    _put(service, token, "deposit", "7d", 20_000)
    _put(service, token, "deposit", "24h", 30_000)
    ok = service.call("POST", "/api/me/deposits", token, json={"amount": 15_000})
    assert ok.status_code == 201
    refused = service.call("POST", "/api/me/deposits", token, json={"amount": 5_001})
    assert refused.status_code == 403
    assert refused.json()["error"] == {
        "code": "limit_exceeded",
        "message": "deposit limit (7 days) reached: 50.00 left of 200.00",
        "details": {"kind": "deposit", "period": "7d", "limit": 20_000, "left": 5_000},
    }
    assert service.call("GET", "/api/me", token).json()["balance"] == 15_000
    exact = service.call("POST", "/api/me/deposits", token, json={"amount": 5_000})
    assert exact.status_code == 201 and exact.json()["balance"] == 20_000


def _ledger_counts(db_url: str) -> tuple[int, int, int]:
    database = Database(db_url)
    try:
        with database.read() as c:
            return (
                int(c.scalar(select(func.count()).select_from(ledger_transactions)) or 0),
                int(c.scalar(select(func.count()).select_from(ledger_entries)) or 0),
                int(c.scalar(select(func.count()).select_from(bets)) or 0),
            )
    finally:
        database.dispose()


def test_a_loss_limit_reached_mid_session_refuses_and_changes_nothing(service: Service) -> None:
    token = service.register_and_login("gina")
    assert (
        service.call("POST", "/api/me/deposits", token, json={"amount": 100_000}).status_code == 201
    )
    _put(service, token, "loss", "24h", 1_000)
    round_id = service.betting_round()
    accepted = service.bet(token, round_id, {"player": 1_000})
    assert accepted.status_code == 200, accepted.text
    before = _ledger_counts(service.db_url)
    balance = service.call("GET", "/api/me", token).json()["balance"]
    refused = service.bet(token, round_id, {"banker": 100})
    assert refused.status_code == 403, refused.text
    assert refused.json()["error"] == {
        "code": "limit_exceeded",
        "message": "loss limit (24 hours) reached: 0.00 left of 10.00",
        "details": {"kind": "loss", "period": "24h", "limit": 1_000, "left": 0},
    }
    assert _ledger_counts(service.db_url) == before
    assert service.call("GET", "/api/me", token).json()["balance"] == balance


def test_time_out_and_self_exclusion_cannot_be_shortened(service: Service) -> None:
    token = service.register_and_login("hank")
    now = datetime.fromtimestamp(service.clock.now_ms() / 1000, tz=UTC)
    two_days = (now + timedelta(days=2)).isoformat()
    taken = service.call(
        "POST", "/api/me/breaks", token, json={"kind": "time_out", "until": two_days}
    )
    assert taken.status_code == 201, taken.text
    assert taken.json()["sessions_ended"] == 1
    # The break ended the session at once.
    assert service.call("GET", "/api/me", token).status_code == 401
    login = service.call(
        "POST", "/api/sessions", json={"username": "hank", "password": "Correct-Horse-9"}
    )
    assert login.status_code == 403 and login.json()["error"]["code"] == "time_out"

    guest = service.guest()
    until = (now + timedelta(days=3)).isoformat()
    assert (
        service.call("POST", "/api/me/breaks", guest, json={"kind": "time_out", "until": until})
    ).status_code == 201
    shorter = (now + timedelta(days=2)).isoformat()
    refused = service.call(
        "POST", "/api/me/breaks", guest, json={"kind": "time_out", "until": shorter}
    )
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_break"
    # A guest's demo money takes no deposit anyway; the bet is what the break refuses.
    deposit = service.call("POST", "/api/me/deposits", guest, json={"amount": 100})
    assert deposit.status_code == 403 and deposit.json()["error"]["code"] == "demo_account"
    round_id = service.betting_round()
    bet = service.bet(guest, round_id, {"player": 100})
    assert bet.status_code == 403 and bet.json()["error"]["code"] == "time_out"

    seven_months = (now + timedelta(days=213)).isoformat()
    excluded = service.call(
        "POST", "/api/me/breaks", guest, json={"kind": "self_exclusion", "until": seven_months}
    )
    assert excluded.status_code == 201
    six_months = (now + timedelta(days=184)).isoformat()
    shorter_exclusion = service.call(
        "POST", "/api/me/breaks", guest, json={"kind": "self_exclusion", "until": six_months}
    )
    assert shorter_exclusion.status_code == 422
    # Three days on, the time-out is over but the self-exclusion holds.
    service.clock.advance(hours=72)
    bet = service.bet(guest, service.betting_round(), {"player": 100})
    assert bet.status_code == 403 and bet.json()["error"]["code"] == "self_excluded"
    # And hank's time-out is over: he can log in again.
    assert service.login("hank")["token"]


def test_session_limit_lets_the_running_round_finish(service: Service) -> None:
    token = service.guest()
    settings = service.call(
        "PUT",
        "/api/me/session-settings",
        token,
        json={"time_limit_s": 300, "reality_check_every_s": None},
    )
    assert settings.status_code == 200, settings.text
    round_id = service.betting_round()
    accepted = service.bet(token, round_id, {"player": 500})
    assert accepted.status_code == 200, accepted.text
    service.clock.advance(seconds=300)
    refused = service.bet(token, round_id, {"player": 500})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "session_limit"
    view = service.wait_final(round_id)
    assert view["phase"] == "settled"
    history = service.call("GET", "/api/me/history", token).json()
    [recalled] = history["rounds"]
    assert recalled["round_id"] == round_id and recalled["staked"] == 500
    assert [b["outcome"] for b in recalled["bets"]] == ["settled"]
    later = service.betting_round()
    assert service.bet(token, later, {"player": 500}).status_code == 403
    session = service.call("GET", "/api/me/session", token).json()
    assert session["limit_reached"] and session["may_end"]


def test_a_due_reality_check_blocks_bets_until_acknowledged(service: Service) -> None:
    token = service.guest()
    service.call(
        "PUT",
        "/api/me/session-settings",
        token,
        json={"time_limit_s": None, "reality_check_every_s": 600},
    )
    early = service.call("POST", "/api/me/reality-check/ack", token)
    assert early.status_code == 409 and early.json()["error"]["code"] == "no_reality_check"
    service.clock.advance(seconds=600)
    session = service.call("GET", "/api/me/session", token).json()
    assert session["reality_check_due"] and session["reality_check"]["type"] == "reality_check"
    assert session["reality_check"]["time_played_s"] == session["time_played_s"]
    round_id = service.betting_round()
    blocked = service.bet(token, round_id, {"player": 100})
    assert blocked.status_code == 409 and blocked.json()["error"]["code"] == "reality_check_due"
    ack = service.call("POST", "/api/me/reality-check/ack", token)
    assert ack.status_code == 200 and not ack.json()["reality_check_due"]
    assert service.bet(token, round_id, {"player": 100}).status_code == 200


def test_a_due_reality_check_is_pushed_once_to_the_players_own_socket(service: Service) -> None:
    token, other = service.guest(), service.guest()
    service.call(
        "PUT",
        "/api/me/session-settings",
        token,
        json={"time_limit_s": None, "reality_check_every_s": 300},
    )
    with (
        service.client.websocket_connect(
            "/ws/tables/standard", headers={"Authorization": f"Bearer {token}"}
        ) as mine,
        service.client.websocket_connect(
            "/ws/tables/standard", headers={"Authorization": f"Bearer {other}"}
        ) as theirs,
    ):
        service.clock.advance(seconds=300)
        deadline = time.monotonic() + 15
        pushed: list[dict] = []  # type: ignore[type-arg]
        seen_by_other: list[str] = []
        while time.monotonic() < deadline and not pushed:
            message = mine.receive_json()
            if message["type"] == "reality_check":
                pushed.append(message)
        assert pushed, "no reality_check event within 15 s"
        [event] = pushed
        assert event["time_played_s"] >= 300 and event["net_result"] == 0
        assert event["message"].startswith("You have played for 5 min")
        # The other player's socket sees the table's events but never this one: read it up to
        # a table event published after the push (a socket's messages keep their order).
        pushed_at_ms = service.clock.now_ms()
        service.step()  # the table's next event, stamped after the push
        while True:
            message = theirs.receive_json()
            seen_by_other.append(message["type"])
            if message.get("now", 0) > pushed_at_ms:
                break
        assert "reality_check" not in seen_by_other and "snapshot" in seen_by_other
