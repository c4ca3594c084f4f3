"""A refusal's values reach the client as the error body's ``details`` (only those it has: money
in minor units, times in ISO 8601 UTC), so a client words them itself; errors without values
have no ``details``. And every player's stakes per spot on the open round are public: the
``stakes`` event, ``bets_closed`` and the table's snapshot give their sums."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from cashier_support import PASSWORD, App, running_app

from baccarat.rulesets import load_ruleset

STANDARD = load_ruleset("standard")
MAX_DEPOSIT = 1_000_000
MAX_BALANCE = 2_500_000


@pytest.fixture(scope="module")
def app(module_db_url: str) -> Iterator[App]:
    with running_app(
        module_db_url, betting_ms=2500, max_deposit=MAX_DEPOSIT, max_balance=MAX_BALANCE
    ) as running:
        yield running


def _error(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    error: dict[str, Any] = response.json()["error"]
    return error


def test_the_table_bounds_name_the_spot_and_the_bound(app: App) -> None:
    token = app.guest()
    round_id = app.open_round(min_left_ms=500)
    tie = STANDARD.bets["tie"]
    low = _error(app.bet(token, round_id, {"tie": tie.min_stake - 1}), 422)
    assert low["code"] == "below_minimum"
    assert low["details"] == {"spot": "tie", "limit": tie.min_stake}
    high = _error(app.bet(token, round_id, {"tie": tie.max_stake + 1}), 422)
    assert high["code"] == "above_maximum"
    assert high["details"] == {"spot": "tie", "limit": tie.max_stake}


def test_the_cashier_bounds_give_the_maximum(app: App) -> None:
    token = app.account()
    too_large = _error(app.deposit(token, MAX_DEPOSIT + 1), 422)
    assert too_large == {
        "code": "deposit_too_large",
        "message": f"a deposit is at most {MAX_DEPOSIT}, not {MAX_DEPOSIT + 1}",
        "details": {"limit": MAX_DEPOSIT},
    }
    assert app.deposit(token, MAX_DEPOSIT).status_code == 201
    assert app.deposit(token, MAX_DEPOSIT).status_code == 201
    over = _error(app.deposit(token, 500_001), 422)
    assert over["code"] == "balance_limit"
    assert over["details"] == {"limit": MAX_BALANCE, "left": 500_000}


def test_a_time_out_gives_its_end_in_utc(app: App) -> None:
    name = f"u{uuid.uuid4().hex[:12]}"
    body = {"username": name, "password": PASSWORD}
    assert app.call("POST", "/api/accounts", json=body).status_code == 201
    token = app.call("POST", "/api/sessions", json=body).json()["token"]
    until = datetime.now(UTC).replace(microsecond=0) + timedelta(days=2)
    taken = app.call(
        "POST", "/api/me/breaks", token, json={"kind": "time_out", "until": until.isoformat()}
    )
    assert taken.status_code == 201, taken.text
    refused = _error(app.call("POST", "/api/sessions", json=body), 403)
    assert refused["code"] == "time_out"
    assert refused["details"] == {"until": until.strftime("%Y-%m-%dT%H:%M:%S.000Z")}


def test_an_error_without_values_has_no_details(app: App) -> None:
    missing = _error(app.call("GET", "/api/rounds/999999"), 404)
    assert set(missing) == {"code", "message"}
    closed = _error(app.bet(app.guest(), 999_999, {"player": 100}), 409)
    assert closed["code"] == "betting_closed" and "details" not in closed


def test_every_players_stakes_per_spot_are_sent_while_the_round_is_open(app: App) -> None:
    first, second = app.guest(), app.guest()
    with app.client.websocket_connect("/ws/tables/standard") as feed:
        round_id = app.open_round(min_left_ms=1500)
        assert app.bet(first, round_id, {"player": 1_000, "banker": 500}).status_code == 200
        assert app.bet(second, round_id, {"player": 2_000, "tie": 100}).status_code == 200
        expected = {"player": 3_000, "banker": 500, "tie": 100}
        seen: list[dict[str, Any]] = []

        def until(done: Any) -> None:
            deadline = time.monotonic() + 30
            while not any(done(m) for m in seen):
                assert time.monotonic() < deadline, [m["type"] for m in seen]
                seen.append(feed.receive_json())

        until(lambda m: m["type"] == "stakes" and m["stakes"] == expected)
        # The snapshot a newcomer gets has the same sums (the round is still the table's).
        table = app.call("GET", "/api/tables/standard").json()
        assert table["round"]["id"] == round_id and table["stakes"] == expected
        until(lambda m: m["type"] == "bets_closed" and m["round_id"] == round_id)
    live = [m for m in seen if m["type"] == "stakes" and m["round_id"] == round_id]
    # Each event is the sums at some moment, so never more than the final sums.
    for event in live:
        assert all(event["stakes"][spot] <= expected[spot] for spot in event["stakes"])
    [closed] = [m for m in seen if m["type"] == "bets_closed" and m["round_id"] == round_id]
    assert closed["stakes"] == expected
