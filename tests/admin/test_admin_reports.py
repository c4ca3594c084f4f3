"""The report against theory: per table, day and bet, the turnover and GGR are the settled
stakes and returns, and the theoretical hold is the bet's exact house edge (from the exact
odds engine, for a full shoe of the rule set) times its turnover, to the minor unit."""

from __future__ import annotations

import csv
import io
import math
from collections import defaultdict
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from admin_support import Admin, running_admin
from sqlalchemy import select

from baccarat.analysis.exact import bet_evs
from baccarat.integrity.theory import bet_theory
from baccarat.rulesets import load_ruleset
from baccarat.server.actions.admin_reports import report_rows
from baccarat.store import Database
from baccarat.store.reports import SpotRound
from baccarat.store.schema import bet_outcomes, bets

STAKES = {"banker": 123_457, "player": 98_765, "tie": 4_321, "player_pair": 2_500}


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("reports"))


def _settled(admin: Admin) -> dict[str, tuple[int, int]]:
    """Per bet, the settled stakes and returns, read from the database."""
    database = Database(admin.db_url)
    found: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    try:
        with database.read() as connection:
            query = (
                select(bets.c.spot, bets.c.stake, bet_outcomes.c.returned)
                .join(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id)
                .where(bet_outcomes.c.kind == "settled", bets.c.table_id == "standard")
            )
            for spot, stake, returned in connection.execute(query):
                found[spot][0] += stake
                found[spot][1] += returned
    finally:
        database.dispose()
    return {spot: (stake, returned) for spot, (stake, returned) in found.items()}


def test_the_theoretical_hold_is_the_exact_edge_times_the_turnover(admin: Admin) -> None:
    _, token = admin.guest()
    for _ in range(2):
        round_id = admin.open_round()
        assert admin.bet(token, round_id, STAKES).status_code == 200
        assert admin.wait_final(round_id)["phase"] == "settled"

    report = admin.as_role(
        "auditor", "GET", "/api/admin/reports", params={"money": "all", "table_id": "standard"}
    ).json()
    rows = {row["bet"]: row for row in report["rows"]}
    edges = {bet: -ev for bet, ev in bet_evs(load_ruleset("standard")).items()}
    settled = _settled(admin)
    assert set(rows) == {*settled, "all"}
    for bet, (turnover, returned) in settled.items():
        row = rows[bet]
        assert row["turnover"] == turnover == 2 * STAKES[bet]
        assert row["ggr"] == turnover - returned
        assert row["theoretical_hold"] == round(edges[bet] * turnover)
        assert row["rounds"] == 2
        assert row["z"] is not None
    total = rows["all"]
    assert total["turnover"] == sum(t for t, _ in settled.values())
    expected = sum((edges[bet] * t for bet, (t, _) in settled.items()), Fraction(0))
    assert total["theoretical_hold"] == round(expected)
    assert total["z"] is None

    # Guests stake demo money: the real-money report has nothing of theirs.
    real = admin.as_role("auditor", "GET", "/api/admin/reports").json()
    assert real["rows"] == [] and real["money"] == "real"

    exported = admin.as_role(
        "auditor",
        "GET",
        "/api/admin/reports",
        params={"money": "all", "table_id": "standard", "format": "csv"},
    )
    assert exported.headers["content-type"].startswith("text/csv")
    lines = list(csv.DictReader(io.StringIO(exported.text)))
    assert [(line["bet"], int(line["theoretical_hold"])) for line in lines] == [
        (row["bet"], row["theoretical_hold"]) for row in report["rows"]
    ]


def test_the_integrity_view_counts_the_rounds_the_table_settled(admin: Admin) -> None:
    round_id = admin.open_round()
    assert admin.wait_final(round_id)["phase"] == "settled"

    def seen() -> dict[str, Any] | None:
        view: dict[str, Any] = admin.as_role(
            "auditor", "GET", "/api/admin/tables/standard/integrity"
        ).json()
        return view if view["rounds"] >= 1 else None

    view = admin.clock.advance_until(seen, "the monitor to observe a settled round")
    assert view["table"] == "standard"
    assert view["frequencies"]["cumulative"], "no frequency statistics"
    assert isinstance(view["alerts"], list)


def test_the_z_score_takes_a_rounds_stakes_on_a_spot_as_one_chance() -> None:
    standard = load_ruleset("standard")
    toml = standard.to_toml()
    theory = bet_theory(standard)["banker"]
    # Two players' stakes on one round share its outcome: one row per round and spot.
    spots = [
        SpotRound("standard", 20_000, 1, "banker", toml, stake=300, returned=585),
        SpotRound("standard", 20_000, 2, "banker", toml, stake=100, returned=0),
        SpotRound("standard", 20_000, 2, "tie", toml, stake=50, returned=0),
    ]
    rows = {row.bet: row for row in report_rows(spots)}
    banker = rows["banker"]
    assert (banker.day, banker.rounds, banker.turnover, banker.ggr) == ("2024-10-04", 2, 400, -185)
    theoretical = theory.edge * 400
    assert banker.theoretical_hold == round(theoretical)
    expected = float(-185 - theoretical) / math.sqrt(float(theory.variance * (300**2 + 100**2)))
    assert banker.z == round(expected, 4)
    total = rows["all"]
    assert (total.rounds, total.turnover, total.ggr, total.z) == (2, 450, -135, None)
