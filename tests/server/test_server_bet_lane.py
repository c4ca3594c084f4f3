"""The bets' fast lane answers exactly what the FastAPI route answers, request for request.

Each request is sent twice: once as it is (the lane takes it if it is well formed) and once
with each of its headers sent twice, identical, which the lane leaves to the route and the
route reads as the same request. A spy on the route's ``submit`` tells which of them served
each. Refusals, replays and bad input must come back the same, byte for byte in the body and
in every header but the date; an accepted bet differs only by the money it moved.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from cashier_support import App, running_app

from baccarat.server import bet_lane
from baccarat.server.routers import bets as bets_router

TABLE = "/api/tables/standard/bets"


@pytest.fixture(scope="module")
def app(module_db_url: str) -> Iterator[App]:
    with running_app(module_db_url, betting_ms=60_000) as running:
        yield running


@pytest.fixture
def route_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The actions the FastAPI route submitted (the lane submits through its own module)."""
    calls: list[str] = []
    submit = bet_lane.submit

    async def spy(service: Any, order: Any) -> Any:
        calls.append(order.action)
        return await submit(service, order)

    monkeypatch.setattr(bets_router, "submit", spy)
    return calls


def send(
    app: App, headers: list[tuple[str, str]], body: bytes, *, twice: bool, path: str = TABLE
) -> httpx.Response:
    sent = [pair for pair in headers for _ in range(2 if twice else 1)]
    response: httpx.Response = app.client.post(path, content=body, headers=sent)
    return response


def seen(response: httpx.Response) -> tuple[int, Any, dict[str, str]]:
    """What a client sees: the status, the body, every header but the date and length."""
    headers = {
        name: value
        for name, value in response.headers.items()
        if name not in ("date", "content-length")
    }
    try:
        body = response.json()
    except json.JSONDecodeError:
        body = response.text
    return response.status_code, body, headers


def bet_request(token: str, key: str, body: Any) -> tuple[list[tuple[str, str]], bytes]:
    headers = [
        ("authorization", f"Bearer {token}"),
        ("idempotency-key", key),
        ("content-type", "application/json"),
    ]
    return headers, json.dumps(body).encode()


def test_refusals_and_bad_input_are_answered_alike(app: App, route_calls: list[str]) -> None:
    token = app.guest()
    round_id = app.open_round(min_left_ms=20_000)
    bad_json = bet_request(token, "k-bad-json", {})[0], b'{"round_id": 1, "bets":'
    cases: dict[str, tuple[list[tuple[str, str]], bytes]] = {
        "below the minimum": bet_request(token, "k1", {"round_id": round_id, "bets": {"tie": 1}}),
        "an unknown bet": bet_request(token, "k2", {"round_id": round_id, "bets": {"x": 100}}),
        "more than the balance": bet_request(
            token, "k3", {"round_id": round_id, "bets": {"player": 10**12}}
        ),
        "another round": bet_request(token, "k4", {"round_id": 2**31 - 1, "bets": {"tie": 100}}),
        "a float stake": bet_request(token, "k5", {"round_id": round_id, "bets": {"tie": 1.5}}),
        "a round id in text": bet_request(token, "k6", {"round_id": "1", "bets": {"tie": 100}}),
        "an extra field": bet_request(
            token, "k7", {"round_id": round_id, "bets": {"tie": 100}, "x": 1}
        ),
        "no bets": bet_request(token, "k8", {"round_id": round_id, "bets": {}}),
        "not JSON": bad_json,
        "a key with a space": bet_request(token, "k 9", {"round_id": round_id, "bets": {}}),
        "an unknown token": bet_request("nobody", "k10", {"round_id": round_id, "bets": {}}),
    }
    for name, (headers, body) in cases.items():
        by_lane = send(app, headers, body, twice=False)
        by_route = send(app, headers, body, twice=True)
        assert 400 <= by_lane.status_code < 500, (name, by_lane.text)
        assert seen(by_lane) == seen(by_route), name
    no_token = [h for h in cases["no bets"][0] if h[0] != "authorization"]
    plain = [(n, "text/plain" if n == "content-type" else v) for n, v in cases["no bets"][0]]
    for name, headers in {"no token": no_token, "a text body": plain}.items():
        body = cases["below the minimum"][1]
        assert seen(send(app, headers, body, twice=False)) == seen(
            send(app, headers, body, twice=True)
        ), name
    # An unknown table, and a table id no route takes (a control character in the path).
    headers, body = cases["below the minimum"]
    for path in ("/api/tables/nowhere/bets", "/api/tables/%01/bets"):
        by_lane = send(app, headers, body, twice=False, path=path)
        assert by_lane.status_code in (404, 422), by_lane.text
        assert seen(by_lane) == seen(send(app, headers, body, twice=True, path=path)), path
    # Only the doubled requests reached the route (the bad ones before any submit at all).
    assert route_calls == ["place"] * 6


def test_a_bet_and_its_replay_come_back_alike(app: App, route_calls: list[str]) -> None:
    token = app.guest()
    round_id = app.open_round(min_left_ms=20_000)
    balance = app.balance(token)
    body = {"round_id": round_id, "bets": {"banker": 300, "tie": 100}}
    lane_key, route_key = uuid.uuid4().hex, uuid.uuid4().hex
    first = send(app, *bet_request(token, lane_key, body), twice=False)
    second = send(app, *bet_request(token, route_key, body), twice=True)
    assert first.status_code == second.status_code == 200, (first.text, second.text)
    one, two = first.json(), second.json()
    assert one["accepted"] == two["accepted"] == {"banker": 300, "tie": 100}
    assert one["balance"] == balance - 400 and two["balance"] == balance - 800
    assert two["bets"] == {"banker": 600, "tie": 200}
    assert seen(first)[2] == seen(second)[2]
    # Each replayed by the other path: the first answer again, no money moved.
    assert seen(send(app, *bet_request(token, lane_key, body), twice=True)) == seen(first)
    assert seen(send(app, *bet_request(token, route_key, body), twice=False)) == seen(second)
    # The same key with another request is refused alike by both.
    other = {"round_id": round_id, "bets": {"player": 100}}
    reused = [send(app, *bet_request(token, lane_key, other), twice=t) for t in (False, True)]
    assert reused[0].status_code == 422 and seen(reused[0]) == seen(reused[1])
    assert app.balance(token) == balance - 800
    assert route_calls == ["place", "place", "place"]
