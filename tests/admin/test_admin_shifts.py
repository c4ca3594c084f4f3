"""Shifts, the table monitor's figures and the finer reports.

A shift is opened, rounds are played on the virtual clock by a registered player (real money)
and a guest (demo money), one round is voided, and the shift is handed over: its report's
money equals the ledger's settlements of the shift's span, computed here from the ledger's
entries (stake, house and player accounts), not from the report's own queries. Then the
refusals, the hourly report against the daily one, and the per-player report against the
player's own history.
"""

from __future__ import annotations

import csv
import io
import uuid
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from admin_support import Admin, running_admin
from sqlalchemy import select

from baccarat.store import Database
from baccarat.store.schema import (
    bet_outcomes,
    bets,
    ledger_entries,
    ledger_transactions,
    players,
    rounds,
    shifts,
)

REAL = {"banker": 12_345, "player": 6_789, "tie": 1_000}
DEMO = {"player": 5_000, "banker_pair": 700}


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("shifts"))


def registered(admin: Admin, deposit: int = 2_000_000) -> tuple[str, str]:
    """A registered player (real money) with a deposit: their id and token."""
    name = f"p{uuid.uuid4().hex[:10]}"
    password = "Correct-Horse-9"
    created = admin.call("POST", "/api/accounts", json={"username": name, "password": password})
    assert created.status_code == 201, created.text
    login = admin.call("POST", "/api/sessions", json={"username": name, "password": password})
    token = login.json()["token"]
    paid = admin.call("POST", "/api/me/deposits", token, json={"amount": deposit})
    assert paid.status_code == 201, paid.text
    return created.json()["id"], token


def ledger_span(admin: Admin, since: int, until: int) -> dict[tuple[str, bool], list[int]]:
    """Per table and demo-or-not, from the ledger's settle transactions of ``[since, until)``:
    turnover (what left the stake account), paid out (what went to players) and the house's
    result (what went to the house account), and how many such transactions."""
    found: dict[tuple[str, bool], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    database = Database(admin.db_url)
    try:
        with database.read() as c:
            txns = c.execute(
                select(ledger_transactions.c.id).where(
                    ledger_transactions.c.kind == "settle",
                    ledger_transactions.c.created_at >= since,
                    ledger_transactions.c.created_at < until,
                )
            ).all()
            for (txn,) in txns:
                # Whose settlement: the players of the bets it settled (one player a transaction).
                demo = {
                    bool(d)
                    for (d,) in c.execute(
                        select(players.c.demo)
                        .select_from(
                            bet_outcomes.join(bets, bets.c.id == bet_outcomes.c.bet_id).join(
                                players, players.c.id == bets.c.player_id
                            )
                        )
                        .where(bet_outcomes.c.txn_id == txn)
                    )
                }
                assert len(demo) == 1
                entries = c.execute(
                    select(ledger_entries.c.account_id, ledger_entries.c.amount).where(
                        ledger_entries.c.txn_id == txn
                    )
                ).all()
                table = next(a for a, _ in entries if a.startswith("stake:"))[len("stake:") :]
                sums = found[(table, demo.pop())]
                for account, amount in entries:
                    if account.startswith("stake:"):
                        sums[0] -= amount
                    elif account.startswith("player:"):
                        sums[1] += amount
                    elif account.startswith("house:"):
                        sums[2] += amount
                sums[3] += 1
    finally:
        database.dispose()
    return found


def shift_span(admin: Admin, shift_id: int) -> tuple[int, int]:
    database = Database(admin.db_url)
    try:
        with database.read() as c:
            row = c.execute(select(shifts).where(shifts.c.id == shift_id)).one()
    finally:
        database.dispose()
    return int(row.opened_at), int(row.closed_at)


def voided_in(admin: Admin, since: int, until: int) -> dict[str, int]:
    database = Database(admin.db_url)
    try:
        with database.read() as c:
            found = c.execute(
                select(rounds.c.table_id, rounds.c.id).where(
                    rounds.c.phase == "voided",
                    rounds.c.finished_at >= since,
                    rounds.c.finished_at < until,
                )
            ).all()
    finally:
        database.dispose()
    counts: dict[str, int] = defaultdict(int)
    for table, _ in found:
        counts[table] += 1
    return counts


def hand_over_open(admin: Admin) -> None:
    """Hand over whatever shift is open (the module's tests share one server)."""
    current = admin.as_role("auditor", "GET", "/api/admin/shifts").json()["current"]
    if current is not None:
        done = admin.as_role(
            "admin", "POST", f"/api/admin/shifts/{current['id']}/hand-over", json={}
        )
        assert done.status_code == 200, done.text


def test_a_shift_is_opened_played_handed_over_and_its_report_is_the_ledgers(
    admin: Admin,
) -> None:
    hand_over_open(admin)
    real_id, real = registered(admin)
    _, guest = admin.guest()
    opened = admin.as_role("operator", "POST", "/api/admin/shifts", json={"note": "evening"})
    assert opened.status_code == 201, opened.text
    shift = opened.json()
    assert (shift["status"], shift["opened_by"], shift["final"]) == (
        "open",
        "staff-operator",
        False,
    )

    # One shift at a time; an auditor reads but neither opens nor hands over.
    again = admin.as_role("admin", "POST", "/api/admin/shifts", json={})
    assert (again.status_code, again.json()["error"]["code"]) == (409, "shift_open")
    refused = admin.as_role(
        "auditor", "POST", f"/api/admin/shifts/{shift['id']}/hand-over", json={}
    )
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "role_forbidden")

    settled = []
    for _ in range(3):
        round_id = admin.open_round()
        assert admin.bet(real, round_id, REAL).status_code == 200
        assert admin.bet(guest, round_id, DEMO).status_code == 200
        # The monitor: the real stakes per spot, the guests' apart.
        monitor = admin.as_role("auditor", "GET", "/api/admin/monitor/standard").json()
        assert monitor["round"]["id"] == round_id
        assert monitor["round"]["stakes"] == REAL
        assert monitor["round"]["demo_stakes"] == DEMO
        assert monitor["round"]["result"] is None
        assert admin.wait_final(round_id)["phase"] == "settled"
        settled.append(round_id)
    voided = admin.open_round()
    assert admin.bet(real, voided, {"player": 4_000}).status_code == 200
    void = admin.as_role(
        "operator", "POST", f"/api/admin/rounds/{voided}/void", json={"reason": "exposed card"}
    )
    assert void.status_code == 200, void.text
    # The virtual clock stands still: what happens at the hand-over's instant is the next
    # shift's (a span is [opened, closed)), so the void is let a moment pass.
    admin.clock.advance(5)

    # The newest settled round's result, in real money, and the shift so far at this table.
    monitor = admin.as_role("auditor", "GET", "/api/admin/monitor/standard").json()
    last = monitor["last_settled"]
    assert last["id"] == settled[-1] and last["stakes"] == REAL
    result = last["result"]
    assert result["turnover"] == sum(REAL.values())
    assert result["hold"] == result["turnover"] - result["paid_out"]
    assert monitor["shift"]["id"] == shift["id"]
    so_far = monitor["shift"]["table"]["real"]
    assert so_far["turnover"] == 3 * sum(REAL.values())

    handed = admin.as_role(
        "admin",
        "POST",
        f"/api/admin/shifts/{shift['id']}/hand-over",
        json={"note": "quiet night, one void"},
    )
    assert handed.status_code == 200, handed.text
    report = handed.json()
    assert report["status"] == "closed" and report["final"] is True
    assert (report["closed_by"], report["note"]) == ("staff-admin", "quiet night, one void")

    since, until = shift_span(admin, shift["id"])
    ledger = ledger_span(admin, since, until)
    by_table = {row["table_id"]: row for row in report["tables"]}
    assert set(by_table) == {"standard", "quick"}
    for table, row in by_table.items():
        for demo, kind in ((False, "real"), (True, "demo")):
            turnover, paid, house, _count = ledger.get((table, demo), [0, 0, 0, 0])
            figures = row[kind]
            assert figures["turnover"] == turnover, (table, kind)
            assert figures["paid_out"] == paid, (table, kind)
            assert figures["hold"] == house == turnover - paid, (table, kind)
    standard = by_table["standard"]
    assert standard["real"]["bets"] == 3 * len(REAL)
    assert standard["demo"]["bets"] == 3 * len(DEMO)
    assert standard["real"]["turnover"] == 3 * sum(REAL.values())
    assert standard["rounds_voided"] == voided_in(admin, since, until)["standard"] >= 1
    assert standard["rounds_dealt"] >= 3
    total = report["total"]
    for kind in ("real", "demo"):
        for name in ("bets", "turnover", "paid_out", "hold"):
            assert total[kind][name] == sum(row[kind][name] for row in report["tables"])
    if total["real"]["turnover"]:
        expected = round(100 * total["real"]["hold"] / total["real"]["turnover"], 4)
        assert total["real"]["hold_percent"] == expected

    # Stored: the same report later, whatever is played after it; as CSV too.
    round_id = admin.open_round()
    assert admin.bet(real, round_id, REAL).status_code == 200
    admin.wait_final(round_id)
    stored = admin.as_role("auditor", "GET", f"/api/admin/shifts/{shift['id']}").json()
    assert stored == report
    exported = admin.as_role(
        "auditor", "GET", f"/api/admin/shifts/{shift['id']}", params={"format": "csv"}
    )
    assert exported.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(exported.text)))
    assert len(lines) == 2 * (len(report["tables"]) + 1)
    line = next(x for x in lines if x["table_id"] == "standard" and x["money"] == "real")
    assert int(line["hold"]) == standard["real"]["hold"]

    # Refusals: handed over already, no such shift, ids that are no ids.
    twice = admin.as_role("admin", "POST", f"/api/admin/shifts/{shift['id']}/hand-over", json={})
    assert (twice.status_code, twice.json()["error"]["code"]) == (409, "shift_closed")
    missing = admin.as_role("admin", "POST", "/api/admin/shifts/99999/hand-over", json={})
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "shift_not_found")
    assert admin.as_role("auditor", "GET", "/api/admin/shifts/99999").status_code == 404
    assert admin.as_role("auditor", "GET", "/api/admin/shifts/0").status_code == 422
    assert admin.as_role("auditor", "GET", "/api/admin/shifts/abc").status_code == 422
    bad_note = admin.as_role("operator", "POST", "/api/admin/shifts", json={"note": "x" * 501})
    assert bad_note.status_code == 422
    assert admin.as_role("auditor", "GET", "/api/admin/monitor/nope").status_code == 404

    # Audited: who opened and who handed over, with the note.
    records = [r for r in admin.audit() if r["action"].startswith("shift_")]
    opening = next(r for r in records if r["action"] == "shift_open")
    closing = next(r for r in records if r["action"] == "shift_hand_over")
    assert opening["actor"] == "staff:staff-operator" and '"note":"evening"' in opening["details"]
    assert closing["actor"] == "staff:staff-admin"
    assert '"note":"quiet night, one void"' in closing["details"]
    assert admin.ledger_problems() == []
    _ = real_id


def _report(admin: Admin, granularity: str) -> list[dict[str, Any]]:
    answer = admin.as_role(
        "auditor",
        "GET",
        "/api/admin/reports",
        params={"money": "all", "granularity": granularity, "since": "1970-01-01"},
    )
    assert answer.status_code == 422  # a span of more than a year
    today = admin.as_role("auditor", "GET", "/api/admin/reports").json()["until"]
    answer = admin.as_role(
        "auditor",
        "GET",
        "/api/admin/reports",
        params={"money": "all", "granularity": granularity, "until": today},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["granularity"] == granularity
    rows: list[dict[str, Any]] = answer.json()["rows"]
    return rows


def test_hour_buckets_sum_to_the_days_figures(admin: Admin) -> None:
    for _ in range(3):
        _, real = registered(admin)  # a session idles out in an hour: a new player each time
        round_id = admin.open_round()
        assert admin.bet(real, round_id, REAL).status_code == 200
        admin.wait_final(round_id)
        admin.clock.advance(3_600_000)  # the next round an hour later
    # Staff sessions idle out too: log in again.
    admin.tokens = {role: admin.login(f"staff-{role}")["token"] for role in admin.tokens}
    days = _report(admin, "day")
    hours = _report(admin, "hour")
    assert all(row["hour"] is None for row in days)
    assert all(0 <= row["hour"] <= 23 for row in hours)
    assert len({(r["day"], r["hour"]) for r in hours}) >= 3
    summed: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in hours:
        sums = summed[(row["table_id"], row["day"], row["bet"])]
        sums[0] += row["turnover"]
        sums[1] += row["ggr"]
        sums[2] += row["rounds"]
    assert {(r["table_id"], r["day"], r["bet"]) for r in days} == set(summed)
    for row in days:
        key = (row["table_id"], row["day"], row["bet"])
        assert summed[key] == [row["turnover"], row["ggr"], row["rounds"]], key
    csv_text = admin.as_role(
        "auditor",
        "GET",
        "/api/admin/reports",
        params={"money": "all", "granularity": "hour", "format": "csv"},
    ).text
    assert [int(x["hour"]) for x in csv.DictReader(io.StringIO(csv_text))] == [
        r["hour"] for r in hours
    ]


def test_the_player_report_is_the_players_history_and_the_top_lists_follow_it(
    admin: Admin,
) -> None:
    player, token = registered(admin)
    _, other = registered(admin)
    for _ in range(4):
        round_id = admin.open_round()
        assert admin.bet(token, round_id, {"banker": 2_500, "player_pair": 300}).status_code == 200
        assert admin.bet(other, round_id, {"player": 4_000}).status_code == 200
        admin.wait_final(round_id)
    undone = admin.open_round()
    assert admin.bet(token, undone, {"tie": 700}).status_code == 200
    admin.as_role("operator", "POST", f"/api/admin/rounds/{undone}/void", json={"reason": "test"})

    history: list[dict[str, Any]] = []
    page = 1
    while True:
        answer = admin.as_role(
            "auditor",
            "GET",
            f"/api/admin/players/{player}/history",
            params={"page": page, "per_page": 50},
        ).json()
        history += answer["rounds"]
        if page >= answer["pages"]:
            break
        page += 1
    played = [r for r in history if r["phase"] == "settled"]
    assert any(r["phase"] == "voided" for r in history)

    mine = admin.as_role(
        "auditor", "GET", "/api/admin/reports/players", params={"player_id": player}
    ).json()
    (row,) = mine["rows"]
    assert row["player_id"] == player and row["demo"] is False
    assert row["rounds"] == len(played) == 4
    assert row["stakes"] == sum(r["staked"] for r in played)
    assert row["returns"] == sum(r["returned"] for r in played)
    assert row["result"] == sum(r["net"] for r in played)
    assert row["bets"] == sum(len(r["bets"]) for r in played)

    everyone = admin.as_role("auditor", "GET", "/api/admin/reports/players").json()["rows"]
    assert next(r for r in everyone if r["player_id"] == player) == row
    assert [r["result"] for r in everyone] == sorted((r["result"] for r in everyone), reverse=True)
    top = admin.as_role("auditor", "GET", "/api/admin/reports/top", params={"limit": 100}).json()
    assert top["winners"] == [r for r in everyone if r["result"] > 0]
    assert top["losers"] == sorted(
        (r for r in everyone if r["result"] < 0), key=lambda r: (r["result"], r["player_id"])
    )
    exported = admin.as_role(
        "auditor",
        "GET",
        "/api/admin/reports/players",
        params={"player_id": player, "format": "csv"},
    ).text
    (line,) = csv.DictReader(io.StringIO(exported))
    assert int(line["result"]) == row["result"]
    guests = admin.as_role(
        "auditor", "GET", "/api/admin/reports/players", params={"money": "demo"}
    ).json()["rows"]
    assert all(r["demo"] for r in guests)
