"""The audit log as a shift manager reads it: newest first with older pages (and the oldest
first paging tools use), filtered by who, what and when, exported as CSV (the same records as
the JSON), bad filters refused; and every change that sets a value keeps what it was before."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Generator, Iterator
from typing import Any, cast

import pytest
from admin_support import Admin, add_staff, running_admin


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    found = cast(Generator[Admin, None, None], running_admin(tmp_path_factory.mktemp("audit")))
    admin = next(found)
    _changes(admin)
    yield admin
    found.close()


def _ok(response: Any) -> Any:
    assert 200 <= response.status_code < 300, response.text
    return response.json()


def _changes(admin: Admin) -> None:
    """A few changes of every kind, by two members of staff."""
    player, _ = admin.guest()
    why = {"reason": "shift test"}
    _ok(admin.as_role("operator", "POST", f"/api/admin/players/{player}/lock", json=why))
    _ok(admin.as_role("operator", "POST", f"/api/admin/players/{player}/unlock", json=why))
    cap = {"kind": "loss", "period": "24h", "amount": 50_000, **why}
    _ok(admin.as_role("admin", "PUT", f"/api/admin/players/{player}/operator-limits", json=cap))
    cap["amount"] = 20_000
    _ok(admin.as_role("admin", "PUT", f"/api/admin/players/{player}/operator-limits", json=cap))
    change = {"betting_ms": 3_000, "limits": {"tie": {"min_stake": 100, "max_stake": 9_000}}}
    _ok(
        admin.as_role(
            "operator", "PUT", "/api/admin/tables/standard/next-shoe", json={**change, **why}
        )
    )
    _ok(admin.as_role("operator", "POST", "/api/admin/tables/quick/pause", json=why))
    _ok(admin.as_role("operator", "POST", "/api/admin/tables/quick/open", json=why))
    add_staff(admin.db_url, "temp-audit", "auditor")
    _ok(admin.as_role("admin", "POST", "/api/admin/staff/temp-audit/disable", json=why))


def _audit(admin: Admin, **params: Any) -> Any:
    return admin.as_role("auditor", "GET", "/api/admin/audit", params=params)


def _all(admin: Admin, **params: Any) -> list[dict[str, Any]]:
    """Every record the filters name, page by page, in the order asked."""
    records: list[dict[str, Any]] = []
    edge: dict[str, Any] = {}
    while True:
        page = _ok(_audit(admin, limit=3, **params, **edge))
        records += page["records"]
        if params.get("order") == "desc":
            if page["next_before"] is None:
                return records
            edge = {"before_seq": page["next_before"]}
        else:
            if page["next_after"] is None:
                return records
            edge = {"after_seq": page["next_after"]}


def test_newest_first_with_older_pages_and_oldest_first_for_tools(admin: Admin) -> None:
    stored = admin.audit()
    head = max(row["seq"] for row in stored)
    first = _ok(_audit(admin, order="desc", limit=5))
    assert [r["seq"] for r in first["records"]] == list(range(head, head - 5, -1))
    assert first["next_before"] == head - 4 and first["next_after"] is None
    newest = _all(admin, order="desc")
    oldest = _all(admin)
    assert [r["seq"] for r in newest] == [r["seq"] for r in reversed(oldest)]
    assert [r["seq"] for r in oldest] == [row["seq"] for row in stored]
    assert len({r["seq"] for r in newest}) == len(stored)
    # A page after a given seq, as before.
    after = _ok(_audit(admin, after_seq=head - 2))
    assert [r["seq"] for r in after["records"]] == [head - 1, head]


def test_filters_by_actor_action_and_time(admin: Admin) -> None:
    operator = _all(admin, order="desc", actor="staff:staff-operator")
    assert operator and {r["actor"] for r in operator} == {"staff:staff-operator"}
    locks = _all(admin, action="player_lock")
    assert [r["action"] for r in locks] == ["player_lock"]
    both = _all(admin, actor="staff:staff-admin", action="operator_limit")
    assert len(both) == 2
    stored = _all(admin)
    middle = stored[len(stored) // 2]
    since = _all(admin, since=middle["time"])
    assert since == [r for r in stored if r["time"] >= middle["time"]]
    until = _all(admin, until=middle["time"])
    assert until == [r for r in stored if r["time"] < middle["time"]]
    day = middle["time"][:10]
    # A day is the UTC day, taken whole, at either end.
    assert _all(admin, since=day, until=day) == [r for r in stored if r["time"][:10] == day]
    assert _all(admin, until="2000-01-01") == []
    offset = middle["time"].replace("Z", "+00:00")
    assert _all(admin, since=offset) == since


def test_the_csv_holds_the_same_records_as_the_json(admin: Admin) -> None:
    for params in ({"order": "desc"}, {"actor": "staff:", "action": "table_change"}, {}):
        rows = _all(admin, **params)
        response = _audit(admin, format="csv", **params)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/csv")
        table = list(csv.DictReader(io.StringIO(response.text)))
        assert [
            {**row, "seq": int(row["seq"]), "details": json.loads(row["details"])} for row in table
        ] == rows


@pytest.mark.parametrize(
    "params",
    [
        {"since": "yesterday"},
        {"since": "2026-02-30"},
        {"until": "2026-01-01T00:00"},  # an instant without its offset
        {"since": "2026-02-01", "until": "2026-01-01"},
        {"order": "up"},
        {"before_seq": 0},
        {"format": "xml"},
        {"action": "a\x01"},
    ],
)
def test_bad_filters_are_refused(admin: Admin, params: dict[str, Any]) -> None:
    response = _audit(admin, **params)
    assert response.status_code == 422, response.text
    assert "error" in response.json()


def _details(admin: Admin, action: str) -> list[dict[str, Any]]:
    return [r["details"] for r in _all(admin, action=action)]


def test_a_change_keeps_what_it_was_before(admin: Admin) -> None:
    lock, unlock = _details(admin, "player_lock")[0], _details(admin, "player_unlock")[0]
    assert (lock["before"], lock["after"]) == ("active", "locked")
    assert (unlock["before"], unlock["after"]) == ("locked", "active")
    first, second = _details(admin, "operator_limit")
    assert (first["before"], first["after"]) == (None, 50_000)
    assert (second["before"], second["after"]) == (50_000, 20_000)
    change = _details(admin, "table_change")[0]
    assert change["before"] == {
        "limits": {"tie": {"min_stake": 100, "max_stake": 200_000}},
        "settings": {"betting_ms": 2_000},
    }
    assert change["after"] == {
        "limits": {"tie": {"min_stake": 100, "max_stake": 9_000}},
        "settings": {"betting_ms": 3_000},
    }
    pause = _details(admin, "table_pause")[0]
    assert (pause["before"], pause["after"]) == ("open", "paused")
    disable = _details(admin, "staff_disable")[0]
    assert (disable["before"], disable["after"]) == ("active", "disabled")
