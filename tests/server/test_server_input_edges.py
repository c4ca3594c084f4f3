"""Ids past the database's 32-bit columns and strings with NUL or control characters are
refused at the edge with a 4xx (never a 5xx), and one bad order inside a group-commit batch
never fails the other players' bets in it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from urllib.parse import quote

import pytest
from cashier_support import App, running_app
from sqlalchemy import update
from store_support import migrated, new_round, players, setup_table

from baccarat.refusals import Refusal
from baccarat.rulesets import load_ruleset
from baccarat.server.bet_queue import BetQueue
from baccarat.server.store_threads import StoreRunner
from baccarat.store import Database
from baccarat.store.players import player_balance
from baccarat.store.schema import shoes
from baccarat.table import BetOrder, BetReceipt

STANDARD = load_ruleset("standard")
TOO_BIG = [2**31, 2**31 + 1, 2**53, 2**63 - 1, 2**63]


@pytest.fixture(scope="module")
def app(module_db_url: str) -> Iterator[App]:
    with running_app(module_db_url) as running:
        yield running


def _refused(response: object, status: int = 422) -> None:
    assert getattr(response, "status_code") == status, getattr(response, "text")  # noqa: B009
    body = response.json()  # type: ignore[attr-defined]
    assert set(body["error"]) == {"code", "message"}


def test_round_ids_past_32_bits_are_refused(app: App) -> None:
    token = app.guest()
    for big in TOO_BIG:
        _refused(app.call("GET", f"/api/rounds/{big}"))
        _refused(app.call("GET", f"/api/rounds/{big}", token))
        _refused(app.bet(token, big, {"player": 1000}))
        for action in ("rebet", "double"):
            _refused(
                app.call(
                    "POST",
                    f"/api/tables/standard/bets/{action}",
                    token,
                    key=f"k-{action}-{big}",
                    json={"round_id": big},
                )
            )
        for last in ("true", "false"):
            _refused(
                app.call("DELETE", f"/api/tables/standard/bets?round_id={big}&last={last}", token)
            )
    # The largest id there can be is a plain "no such round".
    _refused(app.call("GET", f"/api/rounds/{2**31 - 1}"), 404)
    # And the service is whole: a good bet goes through (on a round open now: the refusals
    # above may outlast a 1.5 s window on a busy machine).
    assert app.bet(token, app.open_round(), {"player": 1000}).status_code == 200


@pytest.mark.parametrize(
    "bad", ["\x00", "a\x00b", "\x01", "x\x1fy", "\x7f", "line\nbreak", "tab\there"]
)
def test_control_characters_are_refused_in_ids_and_names(app: App, bad: str) -> None:
    token = app.guest()
    path = quote(bad, safe="")
    _refused(app.call("GET", f"/api/shoes/{path}"))
    _refused(app.call("GET", f"/api/shoes/{path}/record"))
    _refused(app.call("POST", f"/api/shoes/{path}/seed", token, json={"seed": "abc"}))
    _refused(app.call("GET", f"/api/tables/{path}"))
    _refused(app.call("GET", f"/api/rules/{path}"))
    body = {"username": f"alice{bad}", "password": "Correct-Horse-9"}
    _refused(app.call("POST", "/api/sessions", json=body))
    _refused(app.call("POST", "/api/accounts", json=body))


def test_an_idempotency_key_with_odd_characters_is_refused(app: App) -> None:
    token = app.guest()
    round_id = app.open_round()
    odd = app.call(
        "POST",
        "/api/tables/standard/bets",
        token,
        headers={"Idempotency-Key": "caf\u00e9 \x01".encode()},
        json={"round_id": round_id, "bets": {"player": 1000}},
    )
    _refused(odd)


# -- the bet queue: one bad order in a batch ----------------------------------------------------


async def through_the_bet_queue(
    database: Database, orders: list[BetOrder]
) -> list[BetReceipt | Refusal | BaseException]:
    """Submit every order at once to a bet queue (so they share a batch) that knows only the
    standard table's rules; each order's result or exception."""
    runner = StoreRunner(database)
    queue = BetQueue(runner, lambda: {"standard": STANDARD})
    queue.start()
    try:
        return await asyncio.gather(*(queue.submit(o) for o in orders), return_exceptions=True)
    finally:
        await queue.stop()
        runner.close()


def test_a_bad_order_never_fails_the_other_bets_of_its_batch(db_url: str) -> None:
    database = migrated(db_url)
    shoe = setup_table(database, STANDARD)
    bettors = players(database, 6, 100_000)
    r = new_round(database, shoe, 1)

    orders = [
        BetOrder(p, "standard", r.id, "place", {"player": 1000}, f"k{i}", f"h{i}")
        for i, p in enumerate(bettors)
    ]
    # Past the 32-bit id column: a database error if it ever reached a query.
    orders.insert(3, BetOrder(bettors[0], "standard", 2**31, "place", {"tie": 100}))
    orders.insert(5, BetOrder(bettors[1], "standard", 2**63, "undo"))
    results = asyncio.run(through_the_bet_queue(database, orders))
    bad = [results[3], results[5]]
    good = [res for i, res in enumerate(results) if i not in (3, 5)]
    assert all(isinstance(res, Refusal) for res in bad), bad
    assert all(isinstance(res, BetReceipt) for res in good), good
    database = migrated(db_url)
    with database.read() as c:
        assert [player_balance(c, p) for p in bettors] == [99_000] * 6
    database.dispose()


def test_the_bet_queue_isolates_a_request_that_fails_in_the_batch(db_url: str) -> None:
    """Second line of defence: an order that passes the edge but makes its batch fail (here, a
    round of a shoe whose stored rule set cannot be read) fails alone; the others are committed."""
    database = migrated(db_url)
    shoe = setup_table(database, STANDARD)
    other = new_round(database, setup_table(database, load_ruleset("ez"), "shoe-ez"), 1)
    with database.write() as c:
        c.execute(update(shoes).where(shoes.c.id == "shoe-ez").values(ruleset_toml="[broken"))
    bettors = players(database, 4, 100_000)
    r = new_round(database, shoe, 1)

    orders = [
        BetOrder(p, "standard", r.id, "place", {"banker": 500}, f"k{i}", f"h{i}")
        for i, p in enumerate(bettors)
    ]
    orders[2] = BetOrder(bettors[2], "ez", other.id, "place", {"banker": 500}, "k", "h")
    results = asyncio.run(through_the_bet_queue(database, orders))
    assert [isinstance(res, BetReceipt) for res in results] == [True, True, False, True], results
    database = migrated(db_url)
    with database.read() as c:
        assert [player_balance(c, p) for p in bettors] == [99_500, 99_500, 100_000, 99_500]
    database.dispose()
