"""``ledger check`` fails on stakes held by a round in play that no dealer will ever finish.

A round in play is finished only by its table's dealer, and the dealer keeps one such round per
table: its newest, on its newest shoe (not ended), of a table still dealt. Each test builds a
round with stakes that breaks one of these, and the check must name that round.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from server_support import ledger_check_failing
from sqlalchemy import text
from store_support import migrated, new_round, players, setup_table

from baccarat.rulesets import load_ruleset
from baccarat.store import Database, check_ledger
from baccarat.store.placement import place_batch
from baccarat.table import BetOrder

STANDARD = load_ruleset("standard")
STUCK = "rounds in play that no dealer will finish"


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = migrated(db_url)
    yield db
    db.dispose()


def _round_with_stakes(database: Database) -> int:
    shoe = setup_table(database, STANDARD)
    [alice] = players(database, 1, 100_000)
    first = new_round(database, shoe, 1)
    with database.write() as c:
        place_batch(
            c,
            [BetOrder(alice, "standard", first.id, "place", {"banker": 2500})],
        )
    with database.read() as c:
        report = check_ledger(c)
    # In play and the table's newest round: its dealer resumes or voids it, nothing is stuck.
    assert report.ok, report.problems
    assert report.in_play == 2500
    return first.id


def _stuck(database: Database) -> list[str]:
    with database.read() as c:
        report = check_ledger(c)
    assert not report.ok
    assert set(report.problems) == {STUCK}, report.problems
    return [str(item) for item in report.problems[STUCK]]


def test_a_round_left_behind_by_a_later_round_is_stuck(database: Database, db_url: str) -> None:
    first = _round_with_stakes(database)
    with database.read() as c:
        shoe_id = c.execute(text("SELECT shoe_id FROM rounds WHERE id = :r"), {"r": first}).scalar()
    with database.write() as c:
        c.execute(
            text(
                "INSERT INTO rounds (table_id, shoe_id, number, phase, opened_at, closes_at) "
                "VALUES ('standard', :s, 2, 'open', 0, 1)"
            ),
            {"s": shoe_id},
        )
    [item] = _stuck(database)
    assert item.startswith(f"round {first} ") and "2500" in item and "later round" in item
    # The command line says the same and exits 1.
    said = ledger_check_failing(db_url)
    assert f"round {first} (table standard)" in said


def test_a_round_of_an_ended_shoe_is_stuck(database: Database) -> None:
    first = _round_with_stakes(database)
    with database.write() as c:
        c.execute(text("UPDATE shoes SET status = 'ended', ended_at = 1"))
    [item] = _stuck(database)
    assert item.startswith(f"round {first} ") and "ended" in item


def test_a_round_of_a_table_no_longer_dealt_is_stuck(database: Database) -> None:
    first = _round_with_stakes(database)
    with database.write() as c:
        c.execute(text("UPDATE game_tables SET retired_at = 1 WHERE id = 'standard'"))
    [item] = _stuck(database)
    assert item.startswith(f"round {first} ") and "no longer dealt" in item
