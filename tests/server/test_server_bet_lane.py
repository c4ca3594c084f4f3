"""The bets' fast lane and the FastAPI routes give one answer, byte for byte, to any request.

One app on a real database (a SQLite file, and PostgreSQL); ``BetLane`` is switched per request by a test header (removed
before anything reads the request): ``route`` passes the lane by, to FastAPI's routing and the
bets router. Each path counts the requests it answered, so a test knows which path served.
Every request is sent down both paths against the same state: a refusal changes nothing, and
an accepted request sent again under its key is the first answer replayed, so the two answers
must be the same bytes (status, every header, body) whichever path went first.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from cashier_support import App, running_app
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from starlette.types import Receive, Scope, Send

from baccarat.server import bet_lane, bet_service
from baccarat.server.bet_lane import BetLane
from baccarat.server.bet_request import bet_path
from baccarat.server.routers import bets as bets_router

#: The test header that picks the path: ``lane`` or ``route``.
PATH_HEADER = b"x-test-bet-path"


@contextmanager
def two_paths() -> Iterator[Counter[str]]:
    """``BetLane`` switched by ``PATH_HEADER``, and a count of the requests each path answered."""
    answered: Counter[str] = Counter()
    lane_call = BetLane.__call__

    async def switched(self: BetLane, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = scope["headers"]
            chosen = [value for name, value in headers if name == PATH_HEADER]
            scope = {**scope, "headers": [h for h in headers if h[0] != PATH_HEADER]}
            if chosen == [b"route"]:
                await self.app(scope, receive, send)
                return
        await lane_call(self, scope, receive, send)

    def counted(path: str, answer: Any) -> Any:
        async def answer_counted(*args: Any) -> Any:
            answered[path] += 1
            return await answer(*args)

        return answer_counted

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(BetLane, "__call__", switched)
        patch.setattr(bet_lane, "answer", counted("lane", bet_service.answer))
        patch.setattr(bets_router, "answer", counted("route", bet_service.answer))
        yield answered


@dataclass
class Bench:
    """The app, its counts and the players of the tests."""

    app: App
    answered: Counter[str]
    round_id: int
    guest: str
    #: A logged-in player's token, used once for a bet, then logged out.
    ended: str


@pytest.fixture(scope="module")
def bench(module_db_url: str) -> Iterator[Bench]:
    # One round open for the whole module: no request meets a closing window.
    with running_app(module_db_url, betting_ms=3_600_000) as app, two_paths() as answered:
        round_id = app.open_round(min_left_ms=60_000)
        ended = app.account()
        assert app.deposit(ended, 10_000, uuid.uuid4().hex).status_code == 201
        assert app.bet(ended, round_id, {"banker": 100}).status_code == 200
        assert app.call("DELETE", "/api/sessions/current", ended).status_code == 204
        yield Bench(app, answered, round_id, app.guest(), ended)


Headers = list[tuple[bytes, bytes]]


def send(bench: Bench, path: str, url: str, headers: Headers, body: bytes) -> httpx.Response:
    sent = [*headers, (PATH_HEADER, path.encode())]
    response: httpx.Response = bench.app.client.post(url, content=body, headers=sent)
    return response


def both(
    bench: Bench, url: str, headers: Headers, body: bytes, *, route_first: bool = False
) -> tuple[httpx.Response, httpx.Response]:
    """The request down the lane and down the route (in the order asked): (lane, route)."""
    before = dict(bench.answered)
    order = ("route", "lane") if route_first else ("lane", "route")
    answers = {path: send(bench, path, url, headers, body) for path in order}
    # Each path answered its own request (a path that is no bet path reaches neither).
    served = 1 if bet_path(httpx.URL(url).path) is not None else 0
    assert bench.answered["lane"] - before.get("lane", 0) == served
    assert bench.answered["route"] - before.get("route", 0) == served
    return answers["lane"], answers["route"]


def seen(response: httpx.Response) -> tuple[int, list[tuple[str, str]], bytes]:
    return response.status_code, response.headers.multi_items(), response.content


def json_headers(token: str, key: str) -> Headers:
    return [
        (b"authorization", f"Bearer {token}".encode()),
        (b"idempotency-key", key.encode()),
        (b"content-type", b"application/json"),
    ]


def bets_url(action: str = "place", table: str = "standard") -> str:
    suffix = "" if action == "place" else f"/{action}"
    return f"/api/tables/{quote(table, safe='')}/bets{suffix}"


# -- the answers the two paths used to disagree on ----------------------------------------------


def test_a_body_without_content_type_is_refused_by_both(bench: Bench) -> None:
    body = json.dumps({"round_id": bench.round_id, "bets": {"banker": 100}}).encode()
    no_type = json_headers(bench.guest, uuid.uuid4().hex)[:2]
    balance = bench.app.balance(bench.guest)
    lane, route = both(bench, bets_url(), no_type, body)
    assert lane.status_code == 422 and lane.json()["error"]["code"] == "invalid_request"
    assert "Content-Type" in lane.json()["error"]["message"]
    assert seen(lane) == seen(route)
    # Nothing moved, and the same request as JSON is taken.
    assert bench.app.balance(bench.guest) == balance
    typed = json_headers(bench.guest, uuid.uuid4().hex)
    lane, route = both(bench, bets_url(), typed, body)
    assert lane.status_code == 200 and seen(lane) == seen(route)
    assert bench.app.balance(bench.guest) == balance - 100


def test_an_ended_token_is_unauthorized_once_the_request_is_well_formed(bench: Bench) -> None:
    body = json.dumps({"round_id": bench.round_id, "bets": {"banker": 100}}).encode()
    headers = json_headers(bench.ended, uuid.uuid4().hex)
    lane, route = both(bench, bets_url(), headers[:2], body)
    assert lane.status_code == 422 and seen(lane) == seen(route)
    lane, route = both(bench, bets_url(), headers, body)
    assert lane.status_code == 401 and lane.json()["error"]["code"] == "unauthorized"
    assert seen(lane) == seen(route)


def test_a_bet_and_its_replay_come_back_alike(bench: Bench) -> None:
    token = bench.app.guest()
    balance = bench.app.balance(token)
    body = json.dumps({"round_id": bench.round_id, "bets": {"banker": 300, "tie": 100}}).encode()
    first_key, second_key = uuid.uuid4().hex, uuid.uuid4().hex
    lane, replayed = both(bench, bets_url(), json_headers(token, first_key), body)
    assert lane.status_code == 200, lane.text
    assert lane.json()["accepted"] == {"banker": 300, "tie": 100}
    assert lane.json()["balance"] == balance - 400
    assert seen(lane) == seen(replayed)
    lane, route = both(bench, bets_url(), json_headers(token, second_key), body, route_first=True)
    assert route.json()["bets"] == {"banker": 600, "tie": 200}
    assert seen(lane) == seen(route)
    # The same key with another request is refused alike by both.
    other = json.dumps({"round_id": bench.round_id, "bets": {"player": 100}}).encode()
    lane, route = both(bench, bets_url(), json_headers(token, first_key), other)
    assert lane.status_code == 422 and lane.json()["error"]["code"] == "idempotency_key_reused"
    assert seen(lane) == seen(route)
    assert bench.app.balance(token) == balance - 800


def test_rebet_and_double_take_the_one_path(tmp_path: Path) -> None:
    """A rebet and a double, accepted: the first down one path, its replay down the other."""
    with (
        running_app(f"sqlite:///{tmp_path / 'table.db'}", betting_ms=4_000) as app,
        two_paths() as answered,
    ):
        token = app.guest()
        first = app.open_round(min_left_ms=2_500)
        assert app.bet(token, first, {"banker": 500, "tie": 100}).status_code == 200
        second = app.open_round(min_left_ms=2_500)
        while second == first:
            second = app.open_round(min_left_ms=2_500)
        bench = Bench(app, answered, second, token, token)
        body = json.dumps({"round_id": second}).encode()
        lane, route = both(bench, bets_url("rebet"), json_headers(token, "k-rebet"), body)
        assert lane.status_code == 200, lane.text
        assert lane.json()["accepted"] == {"banker": 500, "tie": 100}
        assert seen(lane) == seen(route)
        lane, route = both(
            bench, bets_url("double"), json_headers(token, "k-double"), body, route_first=True
        )
        assert route.status_code == 200, route.text
        assert route.json()["accepted"] == {"banker": 1000, "tie": 200}
        assert route.json()["bets"] == {"banker": 1500, "tie": 300}
        assert seen(lane) == seen(route)


# -- any request ---------------------------------------------------------------------------------


class Round:
    """Where a body's round id is the module's open round (filled in when it is sent)."""

    def __repr__(self) -> str:
        return "OPEN"


OPEN = Round()
FRESH = "<a fresh key>"
ODD_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=4)
NUMBERS = st.one_of(
    st.sampled_from([0, -1, 1, 99, 100, 500, 200_001, 2**31 - 1, 2**31, 2**53 + 1, 10**30]),
    st.integers(-(10**6), 10**6),
    st.floats(),
)
VALUES = st.one_of(NUMBERS, ODD_TEXT, st.none(), st.booleans(), st.lists(st.integers(), max_size=2))

#: Each part of a request: how it usually is, and how it may be odd. A request has a few odd
#: parts at most (often none), so that each decides an answer and many reach the table.
PARTS: dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]] = {
    "action": (st.just("place"), st.sampled_from(["rebet", "double"])),
    "table": (
        st.just("standard"),
        st.sampled_from(["nowhere", "x" * 64, "x" * 65, "a\x01", "a/b", "caf\xe9", " "]),
    ),
    "round": (st.just(OPEN), VALUES),
    "spots": (
        st.sampled_from(["player", "banker", "tie", "player_pair", "banker_pair"]),
        st.one_of(st.sampled_from(["dragon_7", "Player", "hot_streak"]), ODD_TEXT),
    ),
    "stakes": (st.sampled_from([100, 200, 500, 1000]), VALUES),
    "how many": (st.integers(1, 3), st.sampled_from([0, 33])),
    "extra": (st.just({}), st.fixed_dictionaries({"extra": VALUES})),
    "raw body": (
        st.none(),
        st.one_of(
            st.sampled_from(
                [b"", b"{", b"[]", b"null", b'"x"', b'{"round_id": 1, "bets": {}} x', b"[" * 300]
            ),
            st.binary(max_size=24),
        ),
    ),
    "token": (st.just("guest"), st.sampled_from(["ended", "unknown", ""])),
    "authorization": (
        st.just("Bearer {}"),
        st.one_of(
            st.none(),
            st.sampled_from(["bearer {}", "BEARER   {}  ", "Basic {}", "{}", "Bearer", ""]),
        ),
    ),
    "key": (
        st.just(FRESH),
        st.one_of(
            st.sampled_from(["k-shared-1", "k-shared-2"]),
            st.sampled_from(["", " ", "k 1", "x" * 200, "x" * 201, "caf\xe9"]),
            st.none(),
        ),
    ),
    "content type": (
        st.just("application/json"),
        st.one_of(
            st.none(),
            st.sampled_from(
                [
                    "application/json; charset=utf-8",
                    "APPLICATION/JSON",
                    "application/problem+json",
                    "application/json/x",
                    "text/plain",
                    "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x",
                    "",
                ]
            ),
        ),
    ),
    "header twice": (
        st.none(),
        st.tuples(
            st.sampled_from(["content-type", "authorization", "idempotency-key"]),
            st.sampled_from(["text/plain", "Bearer nobody", "k-other", ""]),
        ),
    ),
}


@dataclass(frozen=True)
class Request:
    action: str
    table: str
    body: Any
    raw: bytes | None
    token: str
    authorization: str | None
    key: str | None
    content_type: str | None
    #: A header sent a second time with another value (the first one counts).
    twice: tuple[str, str] | None
    route_first: bool


@st.composite
def requests(draw: st.DrawFn) -> Request:
    odd = draw(st.sets(st.sampled_from(sorted(PARTS)), max_size=3))

    def part(name: str) -> Any:
        usual, unusual = PARTS[name]
        return draw(unusual if name in odd else usual)

    action = part("action")
    body: dict[str, Any] = {"round_id": part("round")}
    if action == "place" or draw(st.integers(0, 9)) == 0:
        body["bets"] = {part("spots"): part("stakes") for _ in range(part("how many"))}
    body.update(part("extra"))
    return Request(
        action,
        part("table"),
        body,
        part("raw body"),
        part("token"),
        part("authorization"),
        part("key"),
        part("content type"),
        part("header twice"),
        draw(st.booleans()),
    )


def wire(bench: Bench, request: Request) -> tuple[str, Headers, bytes]:
    """The request as sent: its URL, headers and body."""
    token = {"guest": bench.guest, "ended": bench.ended, "unknown": "nobody-holds-this"}.get(
        request.token, request.token
    )
    headers: Headers = []
    if request.authorization is not None:
        headers.append((b"authorization", request.authorization.format(token).encode("latin-1")))
    if request.key is not None:
        key = uuid.uuid4().hex if request.key == FRESH else request.key
        headers.append((b"idempotency-key", key.encode("latin-1")))
    if request.content_type is not None:
        headers.append((b"content-type", request.content_type.encode()))
    if request.twice is not None:
        headers.append((request.twice[0].encode(), request.twice[1].encode()))
    body = request.raw
    if body is None:
        body = json.dumps(request.body, default=lambda _: bench.round_id).encode()
    return bets_url(request.action, request.table), headers, body


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(  # no Content-Type: the lane used to place it
    Request(
        action="place",
        table="standard",
        body={"round_id": OPEN, "bets": {"tie": 100}},
        raw=None,
        token="guest",
        authorization="Bearer {}",
        key=FRESH,
        content_type=None,
        twice=None,
        route_first=False,
    )
)
@example(  # an ended token and no Content-Type: the lane used to say 401
    Request(
        action="place",
        table="standard",
        body={"round_id": OPEN, "bets": {"tie": 100}},
        raw=None,
        token="ended",
        authorization="Bearer {}",
        key=FRESH,
        content_type=None,
        twice=None,
        route_first=True,
    )
)
@given(request=requests())
def test_any_request_gets_the_same_answer_down_both_paths(bench: Bench, request: Request) -> None:
    url, headers, body = wire(bench, request)
    lane, route = both(bench, url, headers, body, route_first=request.route_first)
    assert lane.status_code < 500, lane.text
    assert seen(lane) == seen(route)
    event(f"{lane.status_code} {lane.json()['error']['code'] if lane.is_error else 'placed'}")
