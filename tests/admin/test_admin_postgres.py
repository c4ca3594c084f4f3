"""The admin API on PostgreSQL: a void gives the stakes back with the ledger whole, the report
counts the settled stakes against theory, and the reads and the audit chain hold there too
(its queries are the ones whose SQL differs: floor division by days, booleans, row locks)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from admin_support import Admin, postgres_url, running_admin

from baccarat.analysis.exact import bet_evs
from baccarat.rulesets import load_ruleset

pytestmark = pytest.mark.services


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    with postgres_url() as url:
        yield from running_admin(Path(tmp_path_factory.mktemp("pg")), url)


def test_voids_reports_and_reads_on_postgresql(admin: Admin) -> None:
    player, token = admin.guest()
    voided_round = admin.open_round()
    assert admin.bet(token, voided_round, {"banker": 1_000}).status_code == 200
    voided = admin.as_role(
        "operator", "POST", f"/api/admin/rounds/{voided_round}/void", json={"reason": "pg"}
    )
    assert voided.json()["returned"] == {player: 1_000}

    played = admin.open_round()
    assert admin.bet(token, played, {"banker": 2_000, "tie": 300}).status_code == 200
    assert admin.wait_final(played)["phase"] == "settled"
    rows = admin.as_role("auditor", "GET", "/api/admin/reports", params={"money": "all"}).json()[
        "rows"
    ]
    edges = bet_evs(load_ruleset("standard"))
    by_bet = {row["bet"]: row for row in rows}
    assert by_bet["banker"]["turnover"] == 2_000  # the voided stake is no turnover
    assert by_bet["banker"]["theoretical_hold"] == round(-edges["banker"] * 2_000)
    assert by_bet["tie"]["theoretical_hold"] == round(-edges["tie"] * 300)

    found = admin.as_role("auditor", "GET", "/api/admin/players", params={"q": player[:8]})
    assert [p["id"] for p in found.json()["players"]] == [player]
    locked = admin.as_role(
        "operator", "POST", f"/api/admin/players/{player}/lock", json={"reason": "pg"}
    )
    assert locked.json()["status"] == "locked"
    assert admin.as_role("auditor", "GET", "/api/admin/audit/verify").json()["ok"] is True
    assert admin.ledger_problems() == []
