"""An operator's table limits apply from the next round that opens: the round in play keeps
the limits its bets were placed under, the next one is checked (and shown) at the new ones, a
restart keeps a change still waiting, and every change is audited with before and after."""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from admin_support import QUICK_TABLE, Admin, running_admin
from clock_driver import ClientClock
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from baccarat.rulesets import load_ruleset
from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.store import Database
from baccarat.store.schema import rounds
from baccarat.table.limits import LimitsError, TableLimits, bet_limits, check_limits

STANDARD = load_ruleset("standard")


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("limits"))


def _limits(
    admin: Admin, body: dict[str, Any], role: str = "operator", table: str = "standard"
) -> httpx.Response:
    return admin.as_role(
        role, "PUT", f"/api/admin/tables/{table}/limits", json={"reason": "new stakes", **body}
    )


def _round_limits(db_url: str, round_id: int) -> str | None:
    database = Database(db_url)
    try:
        with database.read() as c:
            value: str | None = c.scalar(select(rounds.c.limits).where(rounds.c.id == round_id))
            return value
    finally:
        database.dispose()


def test_a_change_applies_from_the_next_round_only(admin: Admin) -> None:
    _, token = admin.guest()
    first = admin.open_round()
    # The round in play was opened under the rule set's limits: banker up to 10,000.00.
    changed = _limits(admin, {"min_stake": 200, "max_stake": 50_000, "bets": {"tie": 5_000}})
    assert changed.status_code == 200, changed.text
    assert changed.json()["pending_limits"] == {
        "min_stake": 200,
        "max_stake": 50_000,
        "bets": {"tie": {"max_stake": 5_000}},
    }
    # Still this round's limits, for its bets and for what players see.
    assert admin.bet(token, first, {"banker": 100_000}).status_code == 200
    assert admin.bet(token, first, {"player": 100}).status_code == 200
    view = admin.call("GET", "/api/tables/standard").json()
    assert view["limits"] == {"min": 100, "max": 1_000_000}
    assert _round_limits(admin.db_url, first) is None

    admin.wait_final(first)
    second = admin.clock.open_round(after=first)["round"]["id"]
    stored = json.loads(_round_limits(admin.db_url, second) or "{}")
    assert stored["banker"] == [200, 50_000] and stored["tie"] == [200, 5_000]
    assert stored["perfect_pair"] == [200, 2_500]  # 50,000 of 1,000,000 at the old maximum
    over = admin.bet(token, second, {"banker": 50_001})
    assert (over.status_code, over.json()["error"]["code"]) == (422, "above_maximum")
    under = admin.bet(token, second, {"player": 199})
    assert (under.status_code, under.json()["error"]["code"]) == (422, "below_minimum")
    tie = admin.bet(token, second, {"tie": 5_001})
    assert tie.json()["error"]["code"] == "above_maximum"
    assert admin.bet(token, second, {"banker": 50_000, "tie": 5_000}).status_code == 200
    # Players see the round's limits from its opening.
    view = admin.call("GET", "/api/tables/standard").json()
    assert view["limits"] == {"min": 200, "max": 50_000}
    assert (view["bets"]["tie"]["min_stake"], view["bets"]["tie"]["max_stake"]) == (200, 5_000)
    table = admin.as_role("auditor", "GET", "/api/admin/tables/standard").json()
    assert table["pending_limits"] is None and table["limits"]["max_stake"] == 50_000
    # The audit record holds the limits before and after, every bet's.
    record = next(r for r in reversed(admin.audit()) if r["action"] == "table_limits")
    details = json.loads(record["details"])
    assert record["actor"] == "staff:staff-operator" and details["reason"] == "new stakes"
    assert details["before"]["max_stake"] == 1_000_000
    assert details["before"]["bets"]["tie"] == {"min_stake": 100, "max_stake": 200_000}
    assert details["after"]["bets"]["tie"] == {"min_stake": 200, "max_stake": 5_000}
    assert details["from"] == "next_round"
    admin.wait_final(second)
    assert admin.ledger_problems() == []
    # Back to the rule set's own proportions for the rest of the module.
    assert _limits(admin, {"min_stake": 100, "max_stake": 1_000_000}).status_code == 200


def test_bad_limits_are_refused_and_change_nothing(admin: Admin) -> None:
    before = admin.as_role("auditor", "GET", "/api/admin/tables/standard").json()
    records = len(admin.audit())
    bad: list[dict[str, Any]] = [
        {"min_stake": 0, "max_stake": 100},
        {"min_stake": 500, "max_stake": 100},
        {"min_stake": 100, "max_stake": 10**15},  # above the server's largest balance
        {"min_stake": 100, "max_stake": 1_000, "bets": {"dragon_7": 100}},  # not offered
        {"min_stake": 100, "max_stake": 1_000, "bets": {"tie": 2_000}},  # above the table's
        {"min_stake": 100, "max_stake": 1_000, "bets": {"tie": 50}},  # below its own minimum
        {"min_stake": 100, "max_stake": 1_000.5},
        {"min_stake": "100", "max_stake": 1_000},
        {"max_stake": 1_000},
    ]
    for body in bad:
        response = _limits(admin, body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"]["code"] in ("invalid_limits", "invalid_request"), body
    no_reason = admin.as_role(
        "operator",
        "PUT",
        "/api/admin/tables/standard/limits",
        json={"min_stake": 1, "max_stake": 9},
    )
    assert no_reason.status_code == 422
    auditor = _limits(admin, {"min_stake": 100, "max_stake": 1_000}, role="auditor")
    assert (auditor.status_code, auditor.json()["error"]["code"]) == (403, "role_forbidden")
    unknown = _limits(admin, {"min_stake": 100, "max_stake": 1_000}, table="nope")
    assert (unknown.status_code, unknown.json()["error"]["code"]) == (404, "table_not_found")
    assert admin.as_role("auditor", "GET", "/api/admin/tables/standard").json() == before
    assert len(admin.audit()) == records


def _app(db_url: str) -> Any:
    config = Settings(
        db=db_url,
        tables=tables_from(
            ["standard", str(QUICK_TABLE)], betting_ms=2000, reveal_ms=5, result_ms=10
        ),
    )
    return create_app(config, clock=VirtualClock())


def test_a_restart_keeps_a_change_still_waiting(tmp_path: Path) -> None:
    folder = tmp_path / "restart"
    folder.mkdir()
    runs = cast(Generator[Admin, None, None], running_admin(folder))
    admin = next(runs)
    db_url = admin.db_url
    first = admin.open_round()
    assert _limits(admin, {"min_stake": 500, "max_stake": 20_000}).status_code == 200
    runs.close()  # the server stops with the change still waiting, its round open

    with TestClient(_app(db_url), client=("127.0.0.1", 50_000)) as client:
        again = Admin(client, db_url, ClientClock(client, sleepers=2))
        again.clock.settle()
        _, token = again.guest()
        round_id = again.clock.open_round(after=first)["round"]["id"]
        assert json.loads(_round_limits(db_url, round_id) or "{}")["banker"] == [500, 20_000]
        refused = again.bet(token, round_id, {"banker": 20_001})
        assert refused.json()["error"]["code"] == "above_maximum"
        assert again.bet(token, round_id, {"banker": 20_000}).status_code == 200
        assert again.call("GET", "/api/tables/standard").json()["limits"]["max"] == 20_000
        # Another restart in the middle of that round: its own limits still hold and show.
        round_in_play = round_id
    with TestClient(_app(db_url), client=("127.0.0.1", 50_000)) as client:
        third = Admin(client, db_url, ClientClock(client, sleepers=2))
        third.clock.settle()
        assert third.call("GET", "/api/tables/standard").json()["limits"] == {
            "min": 500,
            "max": 20_000,
        }
        _, token = third.guest()
        later = third.clock.open_round(after=round_in_play)["round"]["id"]
        assert third.bet(token, later, {"banker": 20_001}).json()["error"]["code"] == (
            "above_maximum"
        )


# -- the core: each bet's limits move with the table's ------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(1, 10**6),
    high=st.integers(1, 10**9),
)
def test_each_bet_keeps_within_the_table_range(low: int, high: int) -> None:
    limits = TableLimits(low, high)
    if low > high:
        with pytest.raises(LimitsError, match="above the maximum"):
            check_limits(STANDARD, limits, 10**12)
        return
    try:
        bet_limits(STANDARD, limits)
    except LimitsError:
        # A bet whose minimum moved past its own maximum: refused whole, never clipped.
        with pytest.raises(LimitsError, match="would be above its maximum"):
            check_limits(STANDARD, limits, 10**12)
        return
    check_limits(STANDARD, limits, 10**12)
    per_bet = bet_limits(STANDARD, limits)
    assert min(a for a, _ in per_bet.values()) == low
    assert max(b for _, b in per_bet.values()) == high
    for name, (a, b) in per_bet.items():
        assert low <= a <= b <= high, name


def test_the_same_limits_as_the_rule_set_change_nothing() -> None:
    same = bet_limits(STANDARD, TableLimits(100, 1_000_000))
    assert same == {n: (r.min_stake, r.max_stake) for n, r in STANDARD.bets.items()}
