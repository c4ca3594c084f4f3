"""Deposits, withdrawals and undos take an ``Idempotency-Key`` with the bets' replay rules:
the same key and request get the first answer and move no money again; the same key with
another request is refused (``idempotency_key_reused``); a refused request is not remembered."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from cashier_support import App, running_app
from server_support import ledger_check


@pytest.fixture(scope="module")
def app(module_db_url: str) -> Iterator[App]:
    with running_app(module_db_url, betting_ms=2500) as running:
        yield running


def _key() -> str:
    return uuid.uuid4().hex


def test_a_repeated_deposit_moves_money_once(app: App) -> None:
    token, key = app.account(), _key()
    first = app.deposit(token, 12_345, key)
    assert first.status_code == 201, first.text
    again = app.deposit(token, 12_345, key)
    assert again.status_code == 201 and again.json() == first.json()
    assert app.balance(token) == 12_345
    other = app.deposit(token, 12_345, _key())
    assert other.status_code == 201 and other.json()["balance"] == 24_690
    # The retry still answers what the first request did, not the balance now.
    assert app.deposit(token, 12_345, key).json() == first.json()
    assert app.balance(token) == 24_690


def test_a_repeated_withdrawal_moves_money_once(app: App) -> None:
    token = app.account()
    assert app.deposit(token, 10_000, _key()).status_code == 201
    key = _key()
    first = app.withdraw(token, 4_000, key)
    assert first.status_code == 201 and first.json()["balance"] == 6_000
    for _ in range(3):
        again = app.withdraw(token, 4_000, key)
        assert again.status_code == 201 and again.json() == first.json()
    assert app.balance(token) == 6_000


def test_a_key_reused_for_another_request_is_refused(app: App) -> None:
    token, key = app.account(), _key()
    assert app.deposit(token, 5_000, key).status_code == 201
    for refused in (
        app.deposit(token, 5_001, key),
        app.withdraw(token, 5_000, key),
        app.call("DELETE", "/api/tables/standard/bets?last=true", token, key=key),
    ):
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["code"] == "idempotency_key_reused"
    assert app.balance(token) == 5_000
    # Keys belong to one player: another player may use the same key.
    other = app.account()
    assert app.deposit(other, 7, key).status_code == 201


def test_a_refused_request_is_not_remembered(app: App) -> None:
    token, key = app.account(), _key()
    refused = app.withdraw(token, 1_000, key)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "insufficient_balance"
    assert app.deposit(token, 1_000, _key()).status_code == 201
    retried = app.withdraw(token, 1_000, key)
    assert retried.status_code == 201 and retried.json()["balance"] == 0


def test_a_repeated_undo_of_the_last_bet_takes_back_one_placement(app: App) -> None:
    token = app.guest()
    round_id = app.open_round(min_left_ms=1200)
    for stake in (1_000, 500, 200):
        assert app.bet(token, round_id, {"player": stake}).status_code == 200
    path = f"/api/tables/standard/bets?round_id={round_id}&last=true"
    key = _key()
    first = app.call("DELETE", path, token, key=key)
    assert first.status_code == 200, first.text
    assert first.json()["returned"] == 200 and first.json()["bets"] == {"player": 1_500}
    again = app.call("DELETE", path, token, key=key)
    assert again.status_code == 200 and again.json() == first.json()
    # Only one placement went back: the 500 chip is still on the table.
    mine = app.call("GET", f"/api/rounds/{round_id}", token).json()["bets"]
    assert sorted(b["stake"] for b in mine if b["outcome"] is None) == [500, 1_000]
    # A retry without the round id (the default) is the same request only if sent the same way.
    reused = app.call("DELETE", "/api/tables/standard/bets?last=true", token, key=key)
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"


def test_a_repeated_undo_of_all_bets_returns_the_first_answer(app: App) -> None:
    token = app.guest()
    round_id = app.open_round(min_left_ms=1200)
    assert app.bet(token, round_id, {"banker": 1_000}).status_code == 200
    path = f"/api/tables/standard/bets?round_id={round_id}"
    key = _key()
    first = app.call("DELETE", path, token, key=key)
    assert first.status_code == 200 and first.json()["returned"] == 1_000
    assert app.bet(token, round_id, {"banker": 700}).status_code == 200
    again = app.call("DELETE", path, token, key=key)
    assert again.status_code == 200 and again.json() == first.json()
    mine = app.call("GET", f"/api/rounds/{round_id}", token).json()["bets"]
    assert [b["stake"] for b in mine if b["outcome"] is None] == [700]


def test_the_ledger_is_sound_after_the_replays(app: App) -> None:
    assert ledger_check(app.db_url)["ok"] is True
